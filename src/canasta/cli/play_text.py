"""Every text the terminal game (`canasta play`) shows, in one place, in English and Russian
(Spanish, Portuguese and German in `canasta.cli.play_languages`).

Why the rules refuse a move comes from the server's texts (`canasta.protocol.errors`), so that
the terminal and the browser explain it in the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from canasta.cli.play_languages import COMMANDS, GERMAN, PORTUGUESE, SPANISH
from canasta.cli.play_languages import PART_NAMES as OTHER_PART_NAMES

LANGUAGES: Final = ("en", "ru", "es", "pt", "de")

TEXT: Final[dict[str, str]] = {
    # seats and teams
    "you": "You",
    "seat": "Seat {seat}",
    "partner": "Seat {seat} (partner)",
    "your_team": "Your team",
    "team": "Team {team}",
    "team_seats": "{name} (seats {seats})",
    # the table
    "title": "=== Deal {deal} · {variant}, {players} players · game to {target} ===",
    "team_line": "{team} {score}, {status}: {melds}",
    "opened": "opened",
    "to_open": "{minimum} to open",
    "stock_pile": "Stock {stock} · Pile {pile}",
    "pile_empty": "empty",
    "pile_cards": "{size}, top {top}",
    "pile_whole": "{size}: {cards}",
    "frozen": ", FROZEN",
    "no_melds": "no melds",
    "meld": "{rank} [{cards}]",
    "canasta": "{rank} {kind} ({count})",
    "wild_rank": "wild",
    "canasta_natural": "natural canasta",
    "canasta_mixed": "mixed canasta",
    "canasta_wild": "wild canasta",
    "threes": " · bonus threes {cards}",
    "hands": "Hands: {entries}",
    "hand_entry": "{name} {count}",
    "hand_known": "{name} {count} (known: {cards})",
    "sitting_out": "{name} sits out",
    "phase_draw": "draw or take the pile",
    "phase_play": "meld and discard",
    "phase_answer": "answer your partner",
    "permission": "{asker} asks you for permission to go out",
    "your_hand": "Your hand ({count}): {cards}",
    # moves
    "moves": "Your moves ({phase}):",
    "ask_cost": "{ask} ({cost})",
    "more": "  ... more moves: type + to see them",
    "ask_optional_binding": "partner's answer binds you",
    "ask_mandatory": "needed before going out",
    "ask_once_per_deal_after_draw": "once a deal; partner's answer binds you",
    "move": "{number}) {action}",
    "prompt": "Your move (a number, an action like 'discard 9C', or 'help'): ",
    "drew": "You drew {cards}.",
    "took": "You took the pile: {cards}.",
    "took_top": "You took the pile: all of it went into melds.",
    "bot_turn": "{moves}.",
    "pile_size": " (a pile of {count})",
    "said_draw": "{name} draws from the stock",
    "said_pickup": "{name} takes the pile with {cards}",
    "said_pickup_layoff": "{name} takes the pile, adding its top card to a meld",
    "said_top_only": "{name} buys only the top card with {cards}",
    "said_top_only_layoff": "{name} buys only the top card, adding it to a meld",
    "said_melds": " and melds {cards}",
    "said_meld": "{name} melds {cards}",
    "said_discard": "{name} discards {card}",
    "said_ask": "{name} asks partner: may I go out?",
    "said_yes": "{name} answers yes",
    "said_no": "{name} answers no",
    "said_pass": "{name} passes",
    "bad_input": "Cannot read that: {message}",
    "bad_number": "There is no move {number}; choose 1 to {count}.",
    "help": (
        "Type the number of a listed move, or an action:\n"
        "  draw                     draw from the stock\n"
        "  pickup KS KH             take the pile, melding its top card with KS KH\n"
        "  pickup                   take the pile, its top card added to your meld\n"
        "  pickup KS KH + QS QH QD  take the pile and lay more melds (to open)\n"
        "  meld KS KH KD, 7S 7H 2C  lay melds or add to your team's (groups split by ',')\n"
        "  meld K:[2C]              add a wild card alone to your team's king meld\n"
        "  discard 9C               discard (ends your turn)\n"
        "  ask / yes / no           ask partner to go out / answer partner\n"
        "  pass                     decline the pile when the stock is exhausted\n"
        "Cards: rank A K Q J 10 (or T) 9..2, suit S H D C; JK is a joker.\n"
        "Also: 'table' shows the table again, '+' the rest of a long list of moves,\n"
        "'scores' the score sheet, 'quit' leaves the game."
    ),
    # parsing typed actions
    "empty": "type a move",
    "unknown_verb": "unknown action {verb!r} (try 'help')",
    "one_card": "'discard' takes exactly one card",
    "no_groups": "'meld' needs at least one group of cards",
    "answer_word": "answer 'yes' or 'no'",
    "extra_words": "'{verb}' takes no cards",
    "bad_json": "not a JSON action: {message}",
    "unknown_card": "unknown card {text!r}",
    "unknown_rank": "unknown meld rank {text!r}",
    # end of a deal and of the game
    "deal_over": "Deal {deal} is over: {how}.",
    "went_out": "{name} went out",
    "went_out_concealed": "{name} went out concealed",
    "stock_exhausted": "the stock is exhausted",
    "breakdown_part": "part",
    "sheet": "Score sheet",
    "sheet_deal": "deal",
    "sheet_total": "total",
    "continue": "Press Enter for the next deal (or type 'quit'): ",
    "winner_you": "Your team wins the game, {score} points.",
    "winner": "{team} wins the game, {score} points.",
    "bye": "Game left. Final scores: {scores}.",
    "start": "{variant}, {players} players, to {target} (seed {seed}). You are seat 0; {others}.",
    "other_bot": "{name} plays {bot}",
    "level_random": "random",
    "level_easy": "easy",
    "level_normal": "normal",
    "level_hard": "hard",
}

RUSSIAN: Final[dict[str, str]] = {
    # seats and teams
    "you": "Вы",
    "seat": "Место {seat}",
    "partner": "Место {seat} (партнёр)",
    "your_team": "Ваша команда",
    "team": "Команда {team}",
    "team_seats": "{name} (места {seats})",
    # the table
    "title": "=== Сдача {deal} · {variant}, игроков: {players} · игра до {target} ===",
    "team_line": "{team} {score}, {status}: {melds}",
    "opened": "открылись",
    "to_open": "для открытия {minimum}",
    "stock_pile": "Прикуп {stock} · Сброс {pile}",
    "pile_empty": "пуст",
    "pile_cards": "{size}, сверху {top}",
    "pile_whole": "{size}: {cards}",
    "frozen": ", ЗАМОРОЖЕН",
    "no_melds": "комбинаций нет",
    "meld": "{rank} [{cards}]",
    "canasta": "{rank} {kind} ({count})",
    "wild_rank": "дикие",
    "canasta_natural": "чистая канаста",
    "canasta_mixed": "смешанная канаста",
    "canasta_wild": "дикая канаста",
    "threes": " · бонусные тройки {cards}",
    "hands": "На руках: {entries}",
    "hand_entry": "{name} {count}",
    "hand_known": "{name} {count} (известны: {cards})",
    "sitting_out": "{name} пропускает сдачу",
    "phase_draw": "взять карту из прикупа или сброс",
    "phase_play": "выложить комбинации и сбросить карту",
    "phase_answer": "ответить партнёру",
    "permission": "{asker} спрашивает, можно ли выйти (закончить сдачу)",
    "your_hand": "Ваши карты ({count}): {cards}",
    # moves
    "moves": "Ваши ходы ({phase}):",
    "ask_cost": "{ask} ({cost})",
    "more": "  ... есть ещё ходы: наберите +, чтобы их увидеть",
    "ask_optional_binding": "ответ партнёра обязателен для вас",
    "ask_mandatory": "нужно перед выходом",
    "ask_once_per_deal_after_draw": "раз за сдачу; ответ партнёра обязателен для вас",
    "move": "{number}) {action}",
    "prompt": "Ваш ход (номер, ход вроде «сбросить 9C» или «помощь»): ",
    "drew": "Вы взяли {cards}.",
    "took": "Вы взяли сброс: {cards}.",
    "took_top": "Вы взяли сброс: он весь ушёл в комбинации.",
    "bot_turn": "{moves}.",
    "pile_size": " (карт в сбросе: {count})",
    "said_draw": "{name} берёт карту из прикупа",
    "said_pickup": "{name} берёт сброс, к верхней карте: {cards}",
    "said_pickup_layoff": "{name} берёт сброс, верхняя карта идёт в комбинацию",
    "said_top_only": "{name} покупает только верхнюю карту, к ней: {cards}",
    "said_top_only_layoff": "{name} покупает только верхнюю карту, она идёт в комбинацию",
    "said_melds": "; выкладывает ещё {cards}",
    "said_meld": "{name} выкладывает {cards}",
    "said_discard": "{name} сбрасывает {card}",
    "said_ask": "{name} спрашивает партнёра: можно выйти?",
    "said_yes": "{name} отвечает «да»",
    "said_no": "{name} отвечает «нет»",
    "said_pass": "{name} пасует",
    "bad_input": "Не удалось прочитать ход: {message}",
    "bad_number": "Хода с номером {number} нет; выберите от 1 до {count}.",
    "help": (
        "Наберите номер хода из списка или сам ход:\n"
        "  взять карту                   взять карту из прикупа\n"
        "  взять сброс KS KH             взять сброс, выложив верхнюю карту с KS KH\n"
        "  взять сброс                   взять сброс, добавив верхнюю карту к комбинации\n"
        "  взять сброс KS KH + QS QH QD  взять сброс и выложить ещё (для открытия)\n"
        "  выложить KS KH KD, 7S 7H 2C   выложить комбинации или добавить к комбинациям\n"
        "                                команды (комбинации разделяются запятой)\n"
        "  выложить K:[2C]               добавить дикую карту к комбинации королей\n"
        "  сбросить 9C                   сбросить карту (ход окончен)\n"
        "  спросить / да / нет           спросить партнёра о выходе / ответить\n"
        "  пас                           отказаться от сброса, когда прикуп кончился\n"
        "Карты: A K Q J 10 (или T) 9..2; масти S (пики) H (черви) D (бубны) C (трефы);\n"
        "JK — джокер. Английские команды (draw, pickup, meld, ...) тоже понимаются.\n"
        "Ещё: «стол» показывает стол снова, «+» — остаток длинного списка ходов,\n"
        "«счёт» — таблицу счёта, «выход» — выйти из игры."
    ),
    # parsing typed actions
    "empty": "наберите ход",
    "unknown_verb": "неизвестный ход «{verb}» (наберите «помощь»)",
    "one_card": "сбросить можно ровно одну карту",
    "no_groups": "для выкладки нужна хотя бы одна комбинация",
    "answer_word": "ответьте «да» или «нет»",
    "extra_words": "«{verb}» пишется без карт",
    "bad_json": "ход в виде JSON не читается: {message}",
    "unknown_card": "неизвестная карта «{text}»",
    "unknown_rank": "неизвестное достоинство комбинации «{text}»",
    # end of a deal and of the game
    "deal_over": "Сдача {deal} окончена: {how}.",
    "went_out": "выход: {name} — карт на руке не осталось",
    "went_out_concealed": "закрытый выход: {name} — все карты выложены за один ход",
    "stock_exhausted": "прикуп кончился",
    "breakdown_part": "очки за",
    "sheet": "Счёт",
    "sheet_deal": "сдача",
    "sheet_total": "итого",
    "continue": "Нажмите Enter, чтобы сыграть следующую сдачу (или наберите «выход»): ",
    "winner_you": "Ваша команда выиграла игру, очков: {score}.",
    "winner": "Игру выиграли: {team}, очков: {score}.",
    "bye": "Игра покинута. Итоговый счёт: {scores}.",
    "start": "{variant}, игроков: {players}, игра до {target} (начальное число {seed}). "
    "Вы — место 0; {others}.",
    "other_bot": "{name}: компьютер «{bot}»",
    "level_random": "случайный",
    "level_easy": "лёгкий",
    "level_normal": "средний",
    "level_hard": "сильный",
}

#: Names of the parts of a deal's score (`canasta.rules.scoring.PARTS`, plus the total).
PART_NAMES: Final = {
    "cards": "cards melded",
    "canastas": "canastas",
    "threes": "bonus threes",
    "going_out": "going out",
    "hand": "cards in hand",
    "penalties": "penalties",
    "total": "deal total",
}

RUSSIAN_PART_NAMES: Final = {
    "cards": "выложенные карты",
    "canastas": "канасты",
    "threes": "бонусные тройки",
    "going_out": "выход",
    "hand": "карты на руке",
    "penalties": "штрафы",
    "total": "итого за сдачу",
}

TEXTS: Final[Mapping[str, Mapping[str, str]]] = {
    "en": TEXT, "ru": RUSSIAN, "es": SPANISH, "pt": PORTUGUESE, "de": GERMAN,
}
PART_TEXTS: Final[Mapping[str, Mapping[str, str]]] = {
    "en": PART_NAMES, "ru": RUSSIAN_PART_NAMES, **OTHER_PART_NAMES,
}

#: The words of the terminal's own commands (besides moves), read in every language.
COMMAND_WORDS: Final[Mapping[str, frozenset[str]]] = {
    command: frozenset((*words, *(w for lang in COMMANDS.values() for w in lang[command])))
    for command, words in {
        "quit": ("quit", "q", "exit", "выход", "выйти"),
        "help": ("help", "h", "?", "помощь"),
        "table": ("table", "t", "стол"),
        "scores": ("scores", "s", "счёт", "счет"),
        "more": ("+", "more", "ещё", "еще"),
    }.items()
}


def language_from(environ: Mapping[str, str]) -> str:
    """The language of the locale (`LC_ALL`, then `LC_MESSAGES`, then `LANG`): one of `LANGUAGES`
    (`ru_RU.UTF-8` is Russian, `pt_BR` Portuguese, ...), else English."""
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(key)
        if value:
            lang = value.lower()[:2]
            return lang if lang in LANGUAGES else "en"
    return "en"
