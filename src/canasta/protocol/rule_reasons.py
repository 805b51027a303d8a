"""Why the rules refuse a move, in the player's words and language.

The engine decides and says why: it refuses with an `IllegalActionError` carrying a `Refusal`
(`canasta.rules.refusal`): the rule's `code`, the `case` of it and the facts that decide it (the
rank of the pile's top card, the points of an opening, the limit a meld breaks...).
`reason_text` only renders it, into a sentence of `canasta.protocol.refusal_texts`.
"""

from __future__ import annotations

from typing import Any

from canasta.protocol import translations
from canasta.protocol.refusal_texts import FALLBACK, METHODS, RANK, RANKS, RANKS_ACCUSATIVE_RU, TEXTS
from canasta.rules.cards import Card
from canasta.rules.errors import IllegalActionError
from canasta.rules.refusal import Refusal

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER = {"en": "a joker", "ru": "джокера", **translations.JOKER}


def card_text(card: Card) -> str:
    """A card as running text shows it: "Q♥" (a joker is named in the reader's language)."""
    return "JK" if card.suit is None else card.rank.value + SUIT_SYMBOLS[card.suit.value]


def refusal_json(exc: IllegalActionError) -> dict[str, Any]:
    """The refusal as the wire carries it: `{code, case, facts}` (a code from outside the rules
    has no case and no facts)."""
    if exc.refusal is None:
        return {"code": exc.code, "case": None, "facts": {}}
    return exc.refusal.to_json()


def reason_text(lang: str, refusal: Refusal | None) -> str:
    """The sentence for a refusal in `lang` (English for a language the table does not speak)."""
    texts = TEXTS.get(lang, TEXTS["en"])
    template = None if refusal is None else texts.get(refusal.key) or texts.get(refusal.code.value)
    if refusal is None or template is None:
        return FALLBACK.get(lang, FALLBACK["en"])
    facts: dict[str, Any] = dict(refusal.facts)
    card = facts.get("card")
    if isinstance(card, str):
        facts["card"] = JOKER.get(lang, JOKER["en"]) if card == "JK" else card_text(Card.parse(card))
    rank = facts.get("rank")
    if rank is not None:
        facts["ranks"] = RANKS[lang if lang in RANKS else "en"][rank]
        facts["rank"] = RANK[lang if lang in RANK else "en"][rank]
        facts["ranks_acc"] = RANKS_ACCUSATIVE_RU[rank]
    if "methods" in facts:
        words = METHODS[lang if lang in METHODS else "en"]
        facts["how"] = words["or"].join(words[m].format(**facts) for m in facts["methods"])
    if "need" in facts:
        facts["canastas"] = "canasta" if facts["need"] == 1 else "canastas"
    try:
        return template.format(**facts)
    except KeyError:  # a refusal raised without its facts (by a code and a message alone)
        return FALLBACK.get(lang, FALLBACK["en"])
