"""Typed actions for the terminal: the short forms the engine prints (`describe`), read back.

    draw · pass · ask · yes · no · answer yes · discard 9C
    meld KS KH KD, 7S 7H 2C      (groups split by ',' '+' '|' or written [KS KH KD] [7S 7H 2C])
    meld K:[2C]                  (an explicit rank: a wild card added alone)
    pickup · pickup KS KH · pickup with [KS KH] + [QS QH QD] · ... (top card only) or ... top

The forms `action_text(action, lang)` shows in the other languages read back too, whatever the
player's language: взять карту, взять сброс, выложить, сбросить, ... (только верхнюю карту);
robar, tomar pozo, bajar, descartar, ...; comprar, pegar lixo, baixar, ...; ziehen, stapel
nehmen, melden, ablegen, ... (`canasta.cli.play_languages.VERBS`).
A JSON action object (FORMATS.md) is accepted too. Malformed text raises `InvalidActionError`
with a message in the player's language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from canasta.cli.play_languages import TOP_ONLY, VERBS
from canasta.cli.play_text import TEXTS
from canasta.rules import Action, Answer, Ask, Card, Discard, Draw, Group, Meld, Pass, Pickup, Rank
from canasta.rules.actions import action_from_json, describe
from canasta.rules.errors import InvalidActionError

_TOKEN = re.compile(r"\[|\]|,|\+|\||[^\s\[\],+|]+")
_SEPARATORS = (",", "+", "|")
#: "(top card only)" in each language, and the short forms that may be typed instead.
_TOP_ONLY_IN = {"en": ("(top card only)", "top"), "ru": ("(только верхнюю карту)", "верх"), **TOP_ONLY}
_TOP_ONLY = (*(long for long, _ in _TOP_ONLY_IN.values()), *(short for _, short in _TOP_ONLY_IN.values()))
#: The Russian forms of the moves and the English ones they stand for (longer forms first).
_RUSSIAN = (
    ("взять карту", "draw"),
    ("взять сброс", "pickup with"),
    ("ответить да", "answer yes"),
    ("ответить нет", "answer no"),
    ("выложить", "meld"),
    ("сбросить", "discard"),
    ("спросить", "ask"),
    ("ответить", "answer"),
    ("да", "yes"),
    ("нет", "no"),
    ("пас", "pass"),
)
_FORMS = {"ru": _RUSSIAN, **VERBS}
#: Every language's forms, read back into English (longer forms first, whatever the language).
_FROM_ANY = tuple(sorted((form for forms in _FORMS.values() for form in forms), key=lambda f: -len(f[0])))
#: For each language, the English forms (longer first) and the first of its own for each.
_TO = {lang: tuple(sorted({english: (english, own) for own, english in reversed(forms)}.values(),
                          key=lambda f: -len(f[0])))
       for lang, forms in _FORMS.items()}
_SIMPLE: dict[str, Action] = {
    "draw": Draw(),
    "pass": Pass(),
    "ask": Ask(),
    "yes": Answer(True),
    "no": Answer(False),
    "answer yes": Answer(True),
    "answer no": Answer(False),
}


def action_text(action: Action, lang: str = "en") -> str:
    """How a move is shown to the player (and may be typed back): `describe`, in `lang`."""
    text = describe(action)
    if lang == "en":
        return text
    return _swap_verb(text, _TO[lang]).replace(_TOP_ONLY_IN["en"][0], _TOP_ONLY_IN[lang][0])


def move_sentence(action: Action, name: str, texts: Mapping[str, str]) -> str:
    """Someone's move in words ("Ann takes the pile with KS KH"), in the language of `texts`."""

    def cards(group: Sequence[Card]) -> str:
        return " ".join(c.code for c in group)

    if isinstance(action, Pickup):
        key = ("said_top_only" if action.top_only else "said_pickup") + ("" if action.with_ else "_layoff")
        text = texts[key].format(name=name, cards=cards(action.with_))
        if action.melds:
            text += texts["said_melds"].format(cards=", ".join(cards(g.cards) for g in action.melds))
        return text
    if isinstance(action, Meld):
        return texts["said_meld"].format(name=name, cards=", ".join(cards(g.cards) for g in action.melds))
    if isinstance(action, Discard):
        return texts["said_discard"].format(name=name, card=action.card.code)
    if isinstance(action, Answer):
        return texts["said_yes" if action.yes else "said_no"].format(name=name)
    return texts[f"said_{action.type}"].format(name=name)


def _swap_verb(text: str, forms: tuple[tuple[str, str], ...]) -> str:
    """`text` with its leading verb (the first of `forms` it starts with) in the other language."""
    lowered = text.lower()
    for old, new in forms:
        if lowered.startswith(old) and lowered[len(old):len(old) + 1] in ("", " ", "["):
            return new + text[len(old):]
    return text


class _UnknownWord(InvalidActionError):
    """An unknown card or meld rank (`code` "unknown_card" or "unknown_rank") in typed text."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(TEXTS["en"][code].format(text=text), code)
        self.text = text


def parse_action(text: str, lang: str = "en") -> Action:
    """The action a player typed (see the module doc); errors are explained in `lang`."""
    texts = TEXTS[lang]
    try:
        return _parse(_swap_verb(text.strip(), _FROM_ANY), texts)
    except _UnknownWord as exc:
        raise InvalidActionError(texts[exc.code].format(text=exc.text), exc.code) from None


def _parse(text: str, texts: Mapping[str, str]) -> Action:
    if not text:
        raise InvalidActionError(texts["empty"])
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidActionError(texts["bad_json"].format(message=exc.msg)) from None
        return action_from_json(obj)[0]
    words = text.split()
    key = " ".join(words).lower()
    if key in _SIMPLE:
        return _SIMPLE[key]
    verb, rest = words[0].lower(), text[len(words[0]):].strip()
    if verb in ("draw", "pass", "ask"):
        raise InvalidActionError(texts["extra_words"].format(verb=verb))
    if verb == "answer":
        raise InvalidActionError(texts["answer_word"])
    if verb == "discard":
        cards = rest.split()
        if len(cards) != 1:
            raise InvalidActionError(texts["one_card"])
        return Discard(_card(cards[0]))
    if verb == "meld":
        groups = parse_groups(rest)
        if not groups:
            raise InvalidActionError(texts["no_groups"])
        return Meld(tuple(groups))
    if verb == "pickup":
        return _pickup(rest)
    raise InvalidActionError(texts["unknown_verb"].format(verb=words[0]))


def _card(text: str) -> Card:
    try:
        return Card.parse(text)
    except InvalidActionError:
        raise _UnknownWord("unknown_card", text) from None


def _pickup(rest: str) -> Pickup:
    top_only = False
    for marker in _TOP_ONLY:
        if rest.lower().endswith(marker.lower()):
            rest, top_only = rest[: -len(marker)].strip(), True
            break
    if rest.lower().split()[:1] == ["with"]:
        rest = rest[4:]
    groups = parse_groups(rest)
    if not groups:
        return Pickup(top_only=top_only)
    return Pickup(groups[0].cards, tuple(groups[1:]), top_only)


def parse_groups(text: str) -> list[Group]:
    """Groups of cards: `[KS KH KD] [7S 7H 2C]`, `KS KH KD, 7S 7H 2C`, `K:[2C]` or `K:2C`."""
    groups: list[Group] = []
    cards: list[Card] | None = None  # the open group, if any
    rank: Rank | None = None

    def close() -> None:
        nonlocal cards, rank
        if cards is not None:
            groups.append(Group(tuple(cards), rank))
        cards, rank = None, None

    for token in _TOKEN.findall(text):
        if token in _SEPARATORS:
            close()
        elif token == "[":
            if cards:
                close()
            cards = cards if cards is not None else []
        elif token == "]":
            close()
        else:
            if ":" in token:
                close()
                rank_text, _, token = token.partition(":")
                try:
                    rank, cards = Rank.parse_meld_rank(rank_text), []
                except InvalidActionError:
                    raise _UnknownWord("unknown_rank", rank_text) from None
                if not token:
                    continue
            if cards is None:
                cards = []
            cards.append(_card(token))
    close()
    return groups
