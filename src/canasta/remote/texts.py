"""Everything `canasta bot` says on the terminal, in English, Russian, Spanish, Portuguese and German.

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

SPANISH: Final[dict[str, str]] = {
    "bad_link": "{link!r} no es un enlace de mesa: se espera http://SERVIDOR/t/MESA (como lo comparte "
    "quien creó la mesa), o con #seat=TOKEN (un enlace para volver)",
    "unreachable": "no se puede conectar con {url}: {reason}",
    "bad_answer": "{url} no responde como un servidor de Canasta: {reason}",
    "seated": "Asiento {seat} tomado como {name!r}. Para volver a él: canasta bot '{rejoin}' --bot {spec}",
    "welcome": "Asiento {seat} (equipo {team}) en {variant}, {players} jugadores, partida a {target}; "
    "juega el bot {bot}",
    "other_seat": "el token del enlace es del asiento {seat}, no del {wanted}",
    "waiting": "Esperando a que los demás jugadores se sienten...",
    "deal_start": "Empieza la mano {deal}.",
    "deal_over": "Terminó la mano {deal} ({reason}) tras {moves} jugadas nuestras: {scores}. "
    "Totales: {totals}.",
    "went_out": "el asiento {seat} cerró",
    "went_out_concealed": "el asiento {seat} cerró de mano",
    "stock_exhausted": "se acabó el mazo",
    "we": "nosotros {score}",
    "team_score": "equipo {team} {score}",
    "won": "Fin de la partida: ganamos.",
    "lost": "Fin de la partida: ganó el equipo {team}.",
    "no_winner": "Fin de la partida.",
    "lost_connection": "Se perdió la conexión ({reason}); reconectando en {delay:g} s...",
    "reconnected": "Reconectado.",
    "closed": "el servidor cerró la conexión",
    "gave_up": "sin conexión con {url} tras {attempts} intentos: el bot se detiene",
    "refused": "el servidor rechazó la jugada del bot {action}: {message}",
    "bot_failed": "el bot {name!r} del asiento {seat} lanzó {error}",
    "bot_not_action": "el bot {name!r} del asiento {seat} devolvió {value}, que no es una jugada "
    "(choose devuelve una de view.legal)",
    "given_up": "este asiento se dejó (desde otro dispositivo): el bot se detiene",
    "server_error": "el servidor dice: {message}",
}

PORTUGUESE: Final[dict[str, str]] = {
    "bad_link": "{link!r} não é um link de mesa: esperado http://SERVIDOR/t/MESA (como quem criou a "
    "mesa o compartilha), ou com #seat=TOKEN (um link para voltar)",
    "unreachable": "não foi possível conectar a {url}: {reason}",
    "bad_answer": "{url} não responde como um servidor de Canastra: {reason}",
    "seated": "Lugar {seat} ocupado como {name!r}. Para voltar a ele: canasta bot '{rejoin}' --bot {spec}",
    "welcome": "Lugar {seat} (dupla {team}) em {variant}, {players} jogadores, partida até {target}; "
    "quem joga é o bot {bot}",
    "other_seat": "o token do link é do lugar {seat}, não do {wanted}",
    "waiting": "Esperando os outros jogadores se sentarem...",
    "deal_start": "Começa a mão {deal}.",
    "deal_over": "A mão {deal} acabou ({reason}) depois de {moves} jogadas nossas: {scores}. "
    "Totais: {totals}.",
    "went_out": "o lugar {seat} bateu",
    "went_out_concealed": "o lugar {seat} bateu de mão",
    "stock_exhausted": "o monte acabou",
    "we": "nós {score}",
    "team_score": "dupla {team} {score}",
    "won": "Fim da partida: vencemos.",
    "lost": "Fim da partida: a dupla {team} venceu.",
    "no_winner": "Fim da partida.",
    "lost_connection": "Conexão perdida ({reason}); reconectando em {delay:g} s...",
    "reconnected": "Reconectado.",
    "closed": "o servidor fechou a conexão",
    "gave_up": "sem conexão com {url} depois de {attempts} tentativas: o bot para",
    "refused": "o servidor recusou a jogada do bot {action}: {message}",
    "bot_failed": "o bot {name!r} no lugar {seat} lançou {error}",
    "bot_not_action": "o bot {name!r} no lugar {seat} devolveu {value}, que não é uma jogada "
    "(choose devolve uma de view.legal)",
    "given_up": "este lugar foi deixado (de outro aparelho): o bot para",
    "server_error": "o servidor diz: {message}",
}

GERMAN: Final[dict[str, str]] = {
    "bad_link": "{link!r} ist kein Tisch-Link: erwartet wird http://HOST/t/TISCH (wie ihn der Ersteller "
    "des Tischs teilt), auch mit #seat=TOKEN (ein Link zum Zurückkehren)",
    "unreachable": "{url} ist nicht erreichbar: {reason}",
    "bad_answer": "{url} antwortet nicht wie ein Canasta-Server: {reason}",
    "seated": "Platz {seat} als {name!r} genommen. Zurück zu ihm: canasta bot '{rejoin}' --bot {spec}",
    "welcome": "Platz {seat} (Team {team}) bei {variant}, {players} Spieler, Partie bis {target}; "
    "es spielt der Bot {bot}",
    "other_seat": "das Token des Links gehört zu Platz {seat}, nicht zu Platz {wanted}",
    "waiting": "Warten, bis die anderen Spieler Platz genommen haben ...",
    "deal_start": "Runde {deal} beginnt.",
    "deal_over": "Runde {deal} vorbei ({reason}) nach {moves} eigenen Zügen: {scores}. Gesamt: {totals}.",
    "went_out": "Platz {seat} hat ausgemacht",
    "went_out_concealed": "Platz {seat} hat verdeckt ausgemacht",
    "stock_exhausted": "der Talon ist leer",
    "we": "wir {score}",
    "team_score": "Team {team} {score}",
    "won": "Partie vorbei: wir haben gewonnen.",
    "lost": "Partie vorbei: Team {team} hat gewonnen.",
    "no_winner": "Partie vorbei.",
    "lost_connection": "Verbindung verloren ({reason}); neuer Versuch in {delay:g} s ...",
    "reconnected": "Wieder verbunden.",
    "closed": "vom Server geschlossen",
    "gave_up": "keine Verbindung zu {url} nach {attempts} Versuchen: der Bot hört auf",
    "refused": "der Server hat den Zug des Bots abgelehnt, {action}: {message}",
    "bot_failed": "Bot {name!r} auf Platz {seat} hat {error} ausgelöst",
    "bot_not_action": "Bot {name!r} auf Platz {seat} gab {value} zurück, und das ist kein Zug "
    "(choose gibt einen aus view.legal zurück)",
    "given_up": "dieser Platz wurde aufgegeben (von einem anderen Gerät): der Bot hört auf",
    "server_error": "der Server meldet: {message}",
}

TEXTS: Final[Mapping[str, Mapping[str, str]]] = {
    "en": TEXT, "ru": RUSSIAN, "es": SPANISH, "pt": PORTUGUESE, "de": GERMAN,
}
