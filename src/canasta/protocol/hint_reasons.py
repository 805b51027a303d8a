"""A hint's one-line reason, in the player's language: what the suggested move does, from the
move and the seat's view (the points it lays, the canasta it completes, the cards it brings)."""

# ruff: noqa: E501  (sentences read better unbroken)
from __future__ import annotations

from collections.abc import Mapping, Sequence

from canasta.protocol import translations
from canasta.protocol.refusal_texts import RANKS
from canasta.protocol.rule_reasons import card_text
from canasta.rules.actions import Action, Answer, Discard, Draw, Meld, Pickup
from canasta.rules.cards import Card, Rank
from canasta.rules.groups import group_rank
from canasta.rules.view import SeatView

_EN_RU: Mapping[str, Mapping[str, str]] = {
    "en": {
        "draw": "Draw from the stock: the pile cannot be taken now.",
        "draw_over_pile": "Draw from the stock: taking the pile is not worth it now.",
        "pickup": "Take the pile with {cards}: {n} more cards come to your hand.",
        "pickup_layoff": "Take the pile by adding its top card to your meld: {n} more cards come to your hand.",
        "lay": "Lay down {cards}",
        "add": "Add {adds}",
        "lay_add": "Lay down {cards} and add {adds}",
        "add_to": "{cards} to your {ranks}",
        "and": " and ",
        "canasta": "{move}: it completes a canasta of {ranks}.",
        "opening": "{move}: your side's first meld, {points} points.",
        "meld": "{move}: {points} more points on the table.",
        "discard_black3": "Discard {card}: a black three keeps the next player from taking the pile.",
        "discard": "Discard {card}: of your cards, it is the one you need least.",
        "ask": "Ask your partner: you could go out this turn.",
        "answer_yes": "Say yes: your side is ready to go out.",
        "answer_no": "Say no: your side should play on.",
        "pass": "Pass: the stock is empty and taking the pile does not help.",
        "joker": "Joker",
    },
    "ru": {
        "draw": "Возьмите карту из прикупа: сброс сейчас взять нельзя.",
        "draw_over_pile": "Возьмите карту из прикупа: брать сброс сейчас невыгодно.",
        "pickup": "Возьмите сброс картами {cards}: на руку придёт ещё карт — {n}.",
        "pickup_layoff": "Возьмите сброс, добавив верхнюю карту к своей комбинации: на руку придёт ещё карт — {n}.",
        "lay": "Выложите {cards}",
        "add": "Добавьте {adds}",
        "lay_add": "Выложите {cards} и добавьте {adds}",
        "add_to": "{cards} в свою комбинацию {ranks}",
        "and": " и ",
        "canasta": "{move}: получится канаста из {ranks}.",
        "opening": "{move}: первая выкладка команды, очков — {points}.",
        "meld": "{move}: на столе прибавится очков — {points}.",
        "discard_black3": "Сбросьте {card}: чёрная тройка не даст следующему игроку взять сброс.",
        "discard": "Сбросьте {card}: из ваших карт она нужна меньше всего.",
        "ask": "Спросите партнёра: в этот ход можно выйти.",
        "answer_yes": "Ответьте «да»: команда готова к выходу.",
        "answer_no": "Ответьте «нет»: команде лучше играть дальше.",
        "pass": "Пас: прикуп кончился, а брать сброс незачем.",
        "joker": "джокер",
    },
}


TEXTS: Mapping[str, Mapping[str, str]] = {**_EN_RU, **translations.HINTS}


def _cards(cards: Sequence[Card], words: Mapping[str, str]) -> str:
    return " ".join(words["joker"] if c.suit is None else card_text(c) for c in cards)


def hint_reason(view: SeatView, action: Action, lang: str) -> str:
    """Why `action` (the hint for the seat of `view`) is a good move, in one line of `lang`."""
    words = TEXTS.get(lang, TEXTS["en"])
    if isinstance(action, Draw):
        can_take = any(isinstance(a, Pickup) for a in view.legal)
        return words["draw_over_pile" if can_take else "draw"]
    if isinstance(action, Pickup):
        n = len(view.board.pile) - 1
        if not action.with_:
            return words["pickup_layoff"].format(n=n)
        return words["pickup"].format(cards=_cards(action.with_, words), n=n)
    if isinstance(action, Meld):
        return _meld(view, action, words, lang)
    if isinstance(action, Discard):
        key = "discard_black3" if action.card.is_black_three else "discard"
        return words[key].format(card=_cards((action.card,), words))
    if isinstance(action, Answer):
        return words["answer_yes" if action.yes else "answer_no"]
    return words[action.type]


def _meld(view: SeatView, action: Meld, words: Mapping[str, str], lang: str) -> str:
    team = view.team
    assert team is not None
    own = view.board.melds[team]
    ranks = RANKS[lang if lang in RANKS else "en"]
    move = _move(action, own, words, ranks)
    for group in action.melds:
        rank = group_rank(group)
        before = len(own.get(rank, ()))
        after = before + sum(len(g.cards) for g in action.melds if group_rank(g) is rank)
        if before < 7 <= after:
            return words["canasta"].format(move=move, ranks=ranks[rank.value])
    points = sum(c.points for g in action.melds for c in g.cards)
    key = "meld" if view.board.opened[team] else "opening"
    return words[key].format(move=move, points=points)


def _move(
    action: Meld, own: Mapping[Rank, Sequence[Card]], words: Mapping[str, str], ranks: Mapping[str, str]
) -> str:
    """The move as the table does it: new melds laid down, cards added to the side's melds
    ("Add 2♥ to your jacks")."""
    new = [c for g in action.melds if not own.get(group_rank(g)) for c in g.cards]
    adds = words["and"].join(
        words["add_to"].format(cards=_cards(g.cards, words), ranks=ranks[group_rank(g).value])
        for g in action.melds
        if own.get(group_rank(g))
    )
    if not adds:
        return words["lay"].format(cards=_cards(new, words))
    if not new:
        return words["add"].format(adds=adds)
    return words["lay_add"].format(cards=_cards(new, words), adds=adds)
