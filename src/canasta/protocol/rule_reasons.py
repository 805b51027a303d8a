"""Why the rules forbid a move, in the player's language, from the engine's stable error codes.

English uses the engine's own message (it names the move and the reason precisely); Russian uses
this table, keyed by `IllegalActionError.code`, with a general sentence for codes not listed.
"""

from __future__ import annotations

from collections.abc import Mapping

RUSSIAN: Mapping[str, str] = {
    "awaiting_answer": "партнёр ещё не ответил на вопрос о выходе",
    "bad_meld": "такую комбинацию выложить нельзя",
    "bad_pickup": "этими картами колоду сброса взять нельзя",
    "black_threes": "чёрные тройки можно выложить только при выходе из игры",
    "cannot_ask": "спросить партнёра сейчас нельзя",
    "cannot_go_out": "выйти из игры сейчас нельзя",
    "cannot_pass": "пасовать можно только когда прикуп кончился; возьмите карту",
    "card_not_in_hand": "такой карты нет у вас на руке",
    "dead_rank": "карты этого достоинства больше не выкладываются",
    "deal_not_over": "текущая сдача ещё не закончена",
    "deal_over": "сдача уже закончена",
    "discard_restricted": "эту карту сейчас сбросить нельзя",
    "empty_group": "в комбинации должна быть хотя бы одна карта",
    "empty_meld": "выкладка должна содержать хотя бы одну комбинацию",
    "empty_pile": "колода сброса пуста",
    "frozen_pile": "колода сброса заморожена: возьмите её натуральной парой к верхней карте",
    "game_over": "игра окончена",
    "mixed_ranks": "в комбинации должны быть карты одного достоинства",
    "must_discard": "должна остаться карта для последнего сброса",
    "must_meld_out": "нужно выложить все карты",
    "must_take_pile": "верхняя карта подходит к вашей комбинации, поэтому колоду сброса нужно взять",
    "no_deal": "сдача ещё не роздана",
    "no_question": "никто не спрашивал о выходе",
    "not_your_turn": "сейчас ход другого игрока",
    "opening_composition": "первая выкладка должна содержать комбинацию из трёх натуральных карт",
    "opening_minimum": "в первой выкладке недостаточно очков",
    "pile_blocked": "колоду сброса сейчас взять нельзя",
    "stock_empty": "прикуп пуст",
    "top_only": "купив только верхнюю карту, нужно выложить все карты",
    "wrong_phase": "сейчас нельзя так ходить: сначала возьмите карту, либо вы уже взяли её",
}

RUSSIAN_FALLBACK = "правила этого не разрешают"


def rule_reason(lang: str, code: str, message: str) -> str:
    """The reason an engine `IllegalActionError` gives, in `lang`."""
    if lang == "ru":
        return RUSSIAN.get(code, RUSSIAN_FALLBACK)
    return message
