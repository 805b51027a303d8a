"""Why the rules refuse a move, in the player's words and language.

The engine decides: it refuses with an `IllegalActionError` whose stable `code` says which rule
(its English message is for developers and stays in the error's `detail`). `refusal` adds the
facts a player needs, read from the position the move was tried in (the rank of the pile's top
card, the points of an opening, which rule of a meld's make-up applies...), and `reason_text`
puts them into a sentence of `canasta.protocol.refusal_texts`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from canasta.protocol import translations
from canasta.protocol.refusal_texts import FALLBACK, METHODS, RANK, RANKS, RANKS_ACCUSATIVE_RU, TEXTS
from canasta.rules.actions import Action, Discard, Group, Meld, Pickup
from canasta.rules.cards import Card, Rank
from canasta.rules.melds import canasta_count, dead_ranks, incomplete_special, is_canasta
from canasta.rules.state import State

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class Refusal:
    """A refused move: the engine's `code`, the `case` of it, and the facts the text names."""

    code: str
    case: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.code}.{self.case}" if self.case else self.code

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "case": self.case, "facts": self.facts}


JOKER = {"en": "a joker", "ru": "джокера", **translations.JOKER}


def card_text(card: Card) -> str:
    """A card as running text shows it: "Q♥" (a joker is named in the reader's language)."""
    return "JK" if card.suit is None else card.rank.value + SUIT_SYMBOLS[card.suit.value]


def reason_text(lang: str, refusal: Refusal) -> str:
    """The sentence for a refusal in `lang` (English for a language the table does not speak)."""
    texts = TEXTS.get(lang, TEXTS["en"])
    template = texts.get(refusal.key) or texts.get(refusal.code)
    if template is None:
        return FALLBACK.get(lang, FALLBACK["en"])
    facts = dict(refusal.facts)
    if facts.get("card") == "JK":
        facts["card"] = JOKER.get(lang, JOKER["en"])
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
    except KeyError:  # the position was not known: no facts to name
        return FALLBACK.get(lang, FALLBACK["en"])


def refusal(state: State | None, action: Action | None, code: str) -> Refusal:
    """The facts of a refused `action` in `state` (the position it was tried in, unchanged)."""
    if state is None or action is None or state.is_over:
        return Refusal(code)
    finder = _CASES.get(code)
    return finder(state, action) if finder is not None else Refusal(code)


def _top(state: State) -> Card | None:
    return state.pile[-1] if state.pile else None


def _frozen(state: State, action: Action) -> Refusal:
    top = _top(state)
    case = "frozen" if state.pile_frozen else "always" if state.rules.freeze_scope == "always" else "unopened"
    return Refusal("frozen_pile", case, {"rank": top.rank.value} if top else {})


def _bad_pickup(state: State, action: Action) -> Refusal:
    top = _top(state)
    assert isinstance(action, Pickup) and top is not None
    rules = state.rules
    if action.top_only and not rules.top_card_only_go_out:
        return Refusal("bad_pickup", "top_only_off")
    if action.top_only and len(state.pile) == 1:
        return Refusal("bad_pickup", "one_card")
    facts = {"rank": top.rank.value, "card": card_text(top)}
    if any(not c.is_wild and c.rank is not top.rank for c in action.with_):
        return Refusal("bad_pickup", "wrong_cards", facts)
    methods = [m for m in ("pair", "natural_wild", "layoff") if m in rules.pile_take_methods]
    return Refusal("bad_pickup", "method", {**facts, "methods": methods})


def _pile_blocked(state: State, action: Action) -> Refusal:
    top = _top(state)
    if top is None:
        return Refusal("pile_blocked")
    blocks = state.rules.block_rules
    rank = {"rank": top.rank.value}
    if top.is_wild and "wild_top" in blocks:
        return Refusal("pile_blocked", "wild_top")
    if top.is_black_three:
        exempt = state.rules.black3_pickup_to_go_out
        return Refusal(
            "pile_blocked", "black3_top" if "black3_top" in blocks and not exempt else "black3_go_out"
        )
    if top.is_red_three and "red3_top" in blocks:
        return Refusal("pile_blocked", "red3_top")
    if "one_card" in blocks and len(state.pile) == 1 and len(state.hands[state.turn]) == 1:
        return Refusal("pile_blocked", "one_card")
    if is_canasta(state.melds[state.team_of(state.turn)].get(top.rank, ())):
        return Refusal("pile_blocked", "canasta_rank", rank)
    if "dead_rank" in blocks:
        return Refusal("pile_blocked", "dead_rank", rank)
    return Refusal("pile_blocked")


def _groups(action: Action) -> tuple[Group, ...]:
    if isinstance(action, Meld | Pickup):
        return action.melds
    return ()


def _used(state: State, action: Action) -> list[Card]:
    """The cards of the hand a meld or pickup action uses (and the pile's top card)."""
    cards = [c for g in _groups(action) for c in g.cards]
    if isinstance(action, Pickup):
        cards += action.with_
    return cards


def _opening(state: State, action: Action) -> Refusal:
    rules = state.rules
    count = sum(c.points for c in _used(state, action))
    top = _top(state)
    if isinstance(action, Pickup) and top is not None and rules.initial_meld_counts_top_card:
        count += top.points
    return Refusal(
        "opening_minimum", None, {"count": count, "minimum": state.minimum(state.team_of(state.turn))}
    )


def _bad_meld(state: State, action: Action) -> Refusal:
    """Which rule of a meld's make-up the first offending group breaks (RULES.md, melds)."""
    rules = state.rules
    team = state.team_of(state.turn)
    merged: dict[Rank, list[Card]] = {}
    steps: list[tuple[Rank, tuple[Card, ...]]] = []
    top = _top(state)
    if isinstance(action, Pickup) and top is not None:
        steps.append((top.rank, (*action.with_, top)))
    for g in _groups(action):
        if any(c.is_red_three for c in g.cards):
            return Refusal("bad_meld", "red_three")
        naturals = {c.rank for c in g.cards if not c.is_wild}
        steps.append((g.rank or (naturals.pop() if len(naturals) == 1 else Rank.WILD), g.cards))
    for rank, step in steps:
        merged.setdefault(rank, list(state.melds[team].get(rank, ()))).extend(step)
    for rank, cards in merged.items():
        new = rank not in state.melds[team]
        case = _meld_case(state, rank, len(cards), sum(c.is_wild for c in cards), new, not state.opened[team])
        if case is not None:
            limits = {"too_big": rules.meld_max_size, "naturals": rules.meld_min_naturals}
            return Refusal(
                "bad_meld", case, {"rank": rank.value, "n": limits.get(case, rules.meld_max_wilds)}
            )
    return Refusal("bad_meld")


def _meld_case(state: State, rank: Rank, size: int, wilds: int, new: bool, opening: bool) -> str | None:
    """The rule a meld of `rank` with `size` cards (`wilds` of them wild) would break."""
    rules = state.rules
    naturals = size - wilds
    natural = rank not in (Rank.WILD, Rank.THREE)
    wild_meld = state.melds[state.team_of(state.turn)].get(Rank.WILD)
    pending = rules.wild_melds == "progressive" and wild_meld is not None and len(wild_meld) < 7
    checks = [
        (new and size < 3, "too_few"),
        (rules.meld_max_size is not None and size > rules.meld_max_size, "too_big"),
        (rank is Rank.WILD and rules.wild_melds == "none", "no_wild_melds"),
        (
            rank is Rank.WILD and rules.wild_melds == "canasta_in_one_turn" and (not new or size < 7),
            "wild_canasta",
        ),
        (rank is Rank.THREE and (not new or wilds > 0 or size > 4), "threes"),
        (natural and naturals < rules.meld_min_naturals, "naturals"),
        (natural and wilds > rules.meld_max_wilds, "max_wilds"),
        (natural and rules.wild_ratio_rule == "le" and wilds > naturals, "ratio_le"),
        (natural and rules.wild_ratio_rule == "lt" and wilds >= naturals, "ratio_lt"),
        (natural and wilds > 0 and rules.sevens_no_wilds and rank is Rank.SEVEN, "sevens"),
        (wilds > 0 and rules.aces_wilds_opening_only and rank is Rank.ACE and not opening, "aces_opening"),
        (natural and wilds > 0 and rules.rule_of_five and not opening and naturals < 5, "rule_of_five"),
        (natural and wilds > 0 and pending, "wild_pending"),
    ]
    return next((case for broken, case in checks if broken), None)


def _cannot_go_out(state: State, action: Action) -> Refusal:
    rules = state.rules
    melds = state.melds[state.team_of(state.turn)]
    have = canasta_count(melds)
    if have < rules.go_out_min_canastas:
        return Refusal("cannot_go_out", "canastas", {"need": rules.go_out_min_canastas, "have": have})
    if rules.forbid_go_out_with_incomplete_special and any(
        incomplete_special(r, cs) for r, cs in melds.items()
    ):
        return Refusal("cannot_go_out", "special")
    if state.permission == "no":
        return Refusal("cannot_go_out", "partner_no")
    if rules.permission_mode == "mandatory":
        return Refusal("cannot_go_out", "must_ask")
    return Refusal("cannot_go_out")


def _not_in_hand(state: State, action: Action) -> Refusal:
    cards = [action.card] if isinstance(action, Discard) else _used(state, action)
    hand = Counter(state.hands[state.turn])
    missing = next((c for c, n in Counter(cards).items() if hand[c] < n), None)
    return Refusal("card_not_in_hand", None, {"card": card_text(missing)} if missing else {})


def _discard(state: State, action: Action) -> Refusal:
    assert isinstance(action, Discard)
    card = action.card
    if card.is_three:
        return Refusal("discard_restricted", "three")
    if card.is_wild:
        return Refusal("discard_restricted", "wild")
    return Refusal("discard_restricted", "ace_seven" if card.rank in (Rank.ACE, Rank.SEVEN) else "dead")


def _dead(state: State, action: Action) -> Refusal:
    top = _top(state)
    ranks = [top.rank] if isinstance(action, Pickup) and top is not None else []
    ranks += [g.rank or c.rank for g in _groups(action) for c in g.cards if not c.is_wild]
    dead = next((r for r in ranks if r in dead_ranks(state.rules, state.melds)), None)
    return Refusal("dead_rank", None, {"rank": dead.value} if dead else {})


def _phase(state: State, action: Action) -> Refusal:
    return Refusal("wrong_phase", "draw" if state.phase == "draw" else "play")


_CASES = {
    "frozen_pile": _frozen,
    "bad_pickup": _bad_pickup,
    "pile_blocked": _pile_blocked,
    "opening_minimum": _opening,
    "bad_meld": _bad_meld,
    "cannot_go_out": _cannot_go_out,
    "card_not_in_hand": _not_in_hand,
    "discard_restricted": _discard,
    "dead_rank": _dead,
    "wrong_phase": _phase,
}
