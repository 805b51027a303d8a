"""Everything `canasta bot` says on the terminal, in English and Russian.

Errors that come from the server (a seat taken, no such table, a refused move) are the server's
own messages, asked for in the same language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

TEXT: Final[dict[str, str]] = {
    "bad_link": "{link!r} is not a table link: expected http://HOST/t/TABLE (as the table's creator "
    "shares it), optionally with #seat=TOKEN (a rejoin link)",
    "unreachable": "cannot reach {url}: {reason}",
    "bad_answer": "{url} did not answer as a Canasta server: {reason}",
    "seated": "Took seat {seat} as {name!r}. To come back to it: canasta bot '{rejoin}' --bot {spec}",
    "welcome": "Seat {seat} (team {team}) at {variant}, {players} players, game to {target}; "
    "the bot {bot} plays it",
    "other_seat": "the link's token is seat {seat}'s, not seat {wanted}'s",
    "waiting": "Waiting for the other players to take their seats...",
    "deal_start": "Deal {deal} begins.",
    "deal_over": "Deal {deal} over ({reason}) after {moves} moves of ours: {scores}. Totals: {totals}.",
    "went_out": "seat {seat} went out",
    "went_out_concealed": "seat {seat} went out concealed",
    "stock_exhausted": "the stock ran out",
    "we": "we {score}",
    "team_score": "team {team} {score}",
    "won": "Game over: we won.",
    "lost": "Game over: team {team} won.",
    "no_winner": "Game over.",
    "lost_connection": "Connection lost ({reason}); reconnecting in {delay:g} s...",
    "reconnected": "Reconnected.",
    "closed": "closed by the server",
    "gave_up": "no connection to {url} after {attempts} attempts: giving up",
    "refused": "the server refused the bot's move {action}: {message}",
    "bot_failed": "bot {name!r} at seat {seat} raised {error}",
    "bot_not_action": "bot {name!r} at seat {seat} returned {value}, which is not an action "
    "(choose returns one of view.legal)",
    "given_up": "this seat was given up (from another device): the bot stops",
    "server_error": "the server says: {message}",
}

RUSSIAN: Final[dict[str, str]] = {
    "bad_link": "{link!r} — не ссылка на стол: нужна http://АДРЕС/t/СТОЛ (какой ею делится создатель "
    "стола), можно с #seat=ТОКЕН (ссылка для возвращения)",
    "unreachable": "не удаётся связаться с {url}: {reason}",
    "bad_answer": "{url} отвечает не как сервер канасты: {reason}",
    "seated": "Занято место {seat} под именем {name!r}. Чтобы вернуться на него: canasta bot '{rejoin}' "
    "--bot {spec}",
    "welcome": "Место {seat} (команда {team}): {variant}, игроков: {players}, игра до {target}; "
    "играет бот {bot}",
    "other_seat": "токен ссылки — от места {seat}, а не {wanted}",
    "waiting": "Ждём, пока остальные игроки займут места...",
    "deal_start": "Сдача {deal} началась.",
    "deal_over": "Сдача {deal} окончена ({reason}), наших ходов: {moves}: {scores}. Итого: {totals}.",
    "went_out": "место {seat} закончило игру",
    "went_out_concealed": "место {seat} закончило игру с руки",
    "stock_exhausted": "колода кончилась",
    "we": "мы {score}",
    "team_score": "команда {team} {score}",
    "won": "Игра окончена: мы выиграли.",
    "lost": "Игра окончена: выиграла команда {team}.",
    "no_winner": "Игра окончена.",
    "lost_connection": "Связь потеряна ({reason}); переподключение через {delay:g} с...",
    "reconnected": "Связь восстановлена.",
    "closed": "сервер закрыл соединение",
    "gave_up": "нет связи с {url} после попыток: {attempts}; бот останавливается",
    "refused": "сервер не принял ход бота {action}: {message}",
    "bot_failed": "бот {name!r} на месте {seat} выбросил исключение {error}",
    "bot_not_action": "бот {name!r} на месте {seat} вернул {value}, а это не ход "
    "(choose возвращает один из view.legal)",
    "given_up": "это место освобождено (с другого устройства): бот останавливается",
    "server_error": "сервер сообщает: {message}",
}

TEXTS: Final[Mapping[str, Mapping[str, str]]] = {"en": TEXT, "ru": RUSSIAN}
