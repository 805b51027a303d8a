"""The review of a deal in the player's language: the reason a better move was better (by the
code `canasta.review` gives it) and the summary line. Every language shipped has every key."""

from __future__ import annotations

from collections.abc import Mapping

from canasta.protocol.refusal_texts import RANKS
from canasta.protocol.rule_reasons import card_text
from canasta.rules.cards import Card

TEXTS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "go_out": "goes out for {points}",
        "ask_go_out": "asks partner to go out",
        "answer_yes": "lets partner go out",
        "answer_no": "keeps partner from going out",
        "take_pile": "takes the pile of {n} cards",
        "leave_pile": "leaves the pile and draws",
        "pickup_other": "takes the pile another way",
        "meld_first": "lays down cards before discarding",
        "hold_cards": "keeps the cards in hand",
        "meld_other": "melds other cards",
        "freeze": "freezes the pile for them",
        "keep_wild": "keeps the wild card",
        "feeds_pile": "keeps the pile from them",
        "near_canasta": "keeps the {rank} for the canasta",
        "discard_other": "discards {card} instead",
        "other": "plays on better",
        "summary_none": "No costly decisions.",
        "summary_one": "1 costly decision, about {points} points.",
        "summary": "{n} costly decisions, about {points} points.",
        "joker": "Joker",
    },
    "ru": {
        "go_out": "выход, {points} очков",
        "ask_go_out": "спросить партнёра о выходе",
        "answer_yes": "разрешить партнёру выйти",
        "answer_no": "не дать партнёру выйти",
        "take_pile": "взять сброс, карт — {n}",
        "leave_pile": "оставить сброс и взять из прикупа",
        "pickup_other": "взять сброс по-другому",
        "meld_first": "выложить карты до сброса",
        "hold_cards": "оставить карты на руке",
        "meld_other": "выложить другие карты",
        "freeze": "заморозить сброс для соперников",
        "keep_wild": "оставить джокер или двойку",
        "feeds_pile": "не отдать сброс соперникам",
        "near_canasta": "оставить карты для канасты из {rank}",
        "discard_other": "сбросить {card}",
        "other": "сыграть лучше",
        "summary_none": "Дорогих решений нет.",
        "summary_one": "Дорогих решений: 1, около {points} очков.",
        "summary": "Дорогих решений: {n}, около {points} очков.",
        "joker": "джокер",
    },
}

#: The languages the review is shown in.
LANGUAGES = tuple(TEXTS)


def _words(lang: str) -> Mapping[str, str]:
    return TEXTS.get(lang, TEXTS["en"])


def reason_text(code: str, params: Mapping[str, str | int], lang: str) -> str:
    """The one-line reason for `code` in `lang`; `params` hold a card (`card`, its code), a
    rank (`rank`, a `Rank` value) or numbers, as the code needs."""
    words = _words(lang)
    values: dict[str, str | int] = dict(params)
    if "card" in values:
        card = Card.parse(str(values["card"]))
        values["card"] = words["joker"] if card.suit is None else card_text(card)
    if "rank" in values:
        values["rank"] = RANKS[lang if lang in RANKS else "en"][str(values["rank"])]
    return words[code].format(**values)


def summary_text(count: int, points: float, lang: str) -> str:
    """The summary line: how many decisions were costly, and about how many points in all."""
    words = _words(lang)
    key = "summary_none" if count == 0 else "summary_one" if count == 1 else "summary"
    return words[key].format(n=count, points=round(points))
