"""The closed set of wire error codes, each with its message in every language the table speaks."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from canasta.protocol import translations
from canasta.protocol.rule_reasons import reason_text, refusal_json
from canasta.rules.errors import IllegalActionError
from canasta.rules.refusal import Refusal

LANGUAGES = ("en", "ru", "es", "pt", "de")
STORAGE_RETRY = 5  # seconds after which a change the database did not take may be tried again


class ErrorCode(StrEnum):
    """Every error the server can answer with (HTTP and WebSocket alike)."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    MISSING_FIELD = "missing_field"
    BAD_FIELD = "bad_field"
    BAD_ACTION = "bad_action"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    HELLO_REQUIRED = "hello_required"
    ALREADY_HELLO = "already_hello"
    BAD_TOKEN = "bad_token"
    NOT_SEATED = "not_seated"
    WRONG_SEAT = "wrong_seat"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_STATE = "stale_state"
    ILLEGAL_ACTION = "illegal_action"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    GAME_NOT_OVER = "game_not_over"
    DEAL_NOT_OVER = "deal_not_over"
    DEAL_IN_PROGRESS = "deal_in_progress"
    NO_HINT = "no_hint"
    HINT_TIMEOUT = "hint_timeout"
    HINT_LIMITED = "hint_limited"
    REVIEW_LIMITED = "review_limited"
    CHAT_DISABLED = "chat_disabled"
    CHAT_LIMITED = "chat_limited"
    UNKNOWN_PHRASE = "unknown_phrase"
    TABLE_NOT_FOUND = "table_not_found"
    TABLE_DAMAGED = "table_damaged"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    NOT_HUMAN_SEAT = "not_human_seat"
    BAD_SETTINGS = "bad_settings"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    TOO_MANY_REQUESTS = "too_many_requests"
    SERVER_BUSY = "server_busy"
    STORAGE_BUSY = "storage_busy"
    NOT_FOUND = "not_found"
    BAD_METHOD = "bad_method"
    INTERNAL_ERROR = "internal_error"


# Templates use language-neutral parameters (field names, numbers, card codes); `detail` is the
# English explanation of a validator and appears only in English texts; `reason` of
# illegal_action is the player's sentence of `canasta.protocol.rule_reasons`.
_EN_RU: Mapping[ErrorCode, Mapping[str, str]] = {
    ErrorCode.BAD_JSON: {
        "en": "The message is not valid JSON.",
        "ru": "Сообщение не является корректным JSON.",
    },
    ErrorCode.BAD_MESSAGE: {
        "en": "A message must be one JSON object with a field 'type'.",
        "ru": "Сообщение должно быть одним JSON-объектом с полем «type».",
    },
    ErrorCode.UNKNOWN_TYPE: {
        "en": "Unknown message type '{type}'.",
        "ru": "Неизвестный тип сообщения «{type}».",
    },
    ErrorCode.MISSING_FIELD: {
        "en": "The message lacks the field '{field}'.",
        "ru": "В сообщении нет поля «{field}».",
    },
    ErrorCode.BAD_FIELD: {
        "en": "The field '{field}' has an invalid value.",
        "ru": "Поле «{field}» имеет недопустимое значение.",
    },
    ErrorCode.BAD_ACTION: {
        "en": "The move is not written correctly (see FORMATS.md): {detail}",
        "ru": "Ход записан неправильно (см. FORMATS.md); подробности в поле detail.",
    },
    ErrorCode.TOO_LARGE: {
        "en": "The message is too large: the limit is {limit} bytes.",
        "ru": "Сообщение слишком длинное: предел {limit} байт.",
    },
    ErrorCode.RATE_LIMITED: {
        "en": "Too many messages: the message was ignored, please slow down.",
        "ru": "Слишком много сообщений: сообщение пропущено, отправляйте реже.",
    },
    ErrorCode.HELLO_REQUIRED: {
        "en": "Send 'hello' before anything else.",
        "ru": "Сначала отправьте «hello».",
    },
    ErrorCode.ALREADY_HELLO: {
        "en": "This connection has already said 'hello'.",
        "ru": "Это соединение уже отправило «hello».",
    },
    ErrorCode.BAD_TOKEN: {
        "en": "This seat token does not belong to any seat at this table.",
        "ru": "Этот ключ места не подходит ни к одному месту за этим столом.",
    },
    ErrorCode.NOT_SEATED: {
        "en": "Spectators cannot do that: take a seat first.",
        "ru": "Зрители не могут этого делать: сначала займите место.",
    },
    ErrorCode.WRONG_SEAT: {
        "en": "That action is for seat {seat}, but you sit at seat {own}.",
        "ru": "Это ход места {seat}, а вы сидите на месте {own}.",
    },
    ErrorCode.NOT_YOUR_TURN: {
        "en": "It is not your turn: seat {to_move} is to move.",
        "ru": "Сейчас не ваш ход: ходит место {to_move}.",
    },
    ErrorCode.STALE_STATE: {
        "en": "The table has changed (it is at version {current}, you saw {seen}): look again and retry.",
        "ru": "Положение на столе изменилось (версия {current}, вы видели {seen}): посмотрите и повторите.",
    },
    ErrorCode.ILLEGAL_ACTION: {
        "en": "{reason}",
        "ru": "{reason}",
    },
    ErrorCode.NOT_STARTED: {
        "en": "The game has not started yet: it waits for every seat to be taken.",
        "ru": "Игра ещё не началась: ждём, пока займут все места.",
    },
    ErrorCode.GAME_OVER: {
        "en": "The game is over: start a rematch to play again.",
        "ru": "Игра окончена: начните реванш, чтобы сыграть снова.",
    },
    ErrorCode.GAME_NOT_OVER: {
        "en": "A rematch can start only once the game is over.",
        "ru": "Реванш можно начать только после окончания игры.",
    },
    ErrorCode.DEAL_NOT_OVER: {
        "en": "That deal is not over yet: its record holds hidden cards.",
        "ru": "Эта сдача ещё не закончена: её запись содержит скрытые карты.",
    },
    ErrorCode.DEAL_IN_PROGRESS: {
        "en": "The deal is still being played: the next one can start once it is over.",
        "ru": "Сдача ещё идёт: следующую можно начать, когда эта закончится.",
    },
    ErrorCode.NO_HINT: {
        "en": "A hint is given only for your own decision during a deal.",
        "ru": "Подсказка бывает только для вашего собственного хода во время сдачи.",
    },
    ErrorCode.HINT_TIMEOUT: {
        "en": "The hint took too long to work out: please try again.",
        "ru": "Подсказка не успела найтись: попробуйте ещё раз.",
    },
    ErrorCode.HINT_LIMITED: {
        "en": "Too many hints asked for from your seat: try again in {seconds} s.",
        "ru": "Слишком много подсказок для вашего места: попробуйте снова через {seconds} с.",
    },
    ErrorCode.REVIEW_LIMITED: {
        "en": "A review is already being worked out for you or at this table: wait until it is done.",
        "ru": "Для вас или за этим столом уже готовится разбор: дождитесь, пока он будет готов.",
    },
    ErrorCode.CHAT_DISABLED: {
        "en": "Free-text chat is turned off at this table: use the preset phrases.",
        "ru": "Свободный чат за этим столом отключён: используйте готовые фразы.",
    },
    ErrorCode.CHAT_LIMITED: {
        "en": "Too many chat lines from your seat or at this table: the line was not sent, wait a moment.",
        "ru": "Слишком много строк чата от вашего места или за столом: строка не отправлена, подождите.",
    },
    ErrorCode.UNKNOWN_PHRASE: {
        "en": "Unknown chat phrase '{phrase}'.",
        "ru": "Неизвестная фраза чата «{phrase}».",
    },
    ErrorCode.TABLE_NOT_FOUND: {
        "en": "There is no such table.",
        "ru": "Такого стола нет.",
    },
    ErrorCode.TABLE_DAMAGED: {
        "en": "This table's stored games cannot be read back; the server's operator has the details.",
        "ru": "Сохранённые партии этого стола не читаются; подробности есть у администратора сервера.",
    },
    ErrorCode.TABLE_FULL: {
        "en": "Every seat for a person at this table is taken: you can watch.",
        "ru": "Все места для игроков за этим столом заняты: можно смотреть игру.",
    },
    ErrorCode.SEAT_TAKEN: {
        "en": "Seat {seat} is already taken.",
        "ru": "Место {seat} уже занято.",
    },
    ErrorCode.NOT_HUMAN_SEAT: {
        "en": "Seat {seat} is played by the computer.",
        "ru": "На месте {seat} играет компьютер.",
    },
    ErrorCode.BAD_SETTINGS: {
        "en": "Invalid table settings ({field}): {detail}",
        "ru": "Недопустимые настройки стола: поле «{field}»; подробности в поле detail.",
    },
    ErrorCode.TOO_MANY_TABLES: {
        "en": "Too many tables created from your address: try again in a minute.",
        "ru": "С вашего адреса создано слишком много столов: попробуйте через минуту.",
    },
    ErrorCode.TOO_MANY_CONNECTIONS: {
        "en": "Too many connections to this table or from your address: close some and retry.",
        "ru": "Слишком много соединений с этим столом или с вашего адреса: закройте лишние и повторите.",
    },
    ErrorCode.TOO_MANY_REQUESTS: {
        "en": "Too many requests from your address: try again in {seconds} s.",
        "ru": "Слишком много запросов с вашего адреса: повторите через {seconds} с.",
    },
    ErrorCode.SERVER_BUSY: {
        "en": "The server holds as many tables as it can: please try again later.",
        "ru": "Сервер обслуживает максимум столов: попробуйте позже.",
    },
    ErrorCode.STORAGE_BUSY: {
        "en": "The server could not save this in time (its database is busy): try again in a moment; "
        "the table shows whatever was saved.",
        "ru": "Сервер не успел это сохранить (его база данных занята): повторите через несколько секунд; "
        "на столе видно то, что сохранилось.",
    },
    ErrorCode.NOT_FOUND: {
        "en": "There is nothing at this address.",
        "ru": "По этому адресу ничего нет.",
    },
    ErrorCode.BAD_METHOD: {
        "en": "This address does not answer that method.",
        "ru": "Этот адрес не принимает такой метод запроса.",
    },
    ErrorCode.INTERNAL_ERROR: {
        "en": "The server could not complete this request; nothing was changed. Please retry.",
        "ru": "Сервер не смог выполнить запрос; ничего не изменилось. Повторите попытку.",
    },
}

MESSAGES: Mapping[ErrorCode, Mapping[str, str]] = {
    code: {**texts, **{lang: more[code.value] for lang, more in translations.ERRORS.items()}}
    for code, texts in _EN_RU.items()
}


class ProtocolError(Exception):
    """An error to send to a client: a code, the template's parameters and an optional detail.

    `detail` is the engine's or validator's English explanation, sent as its own field so that
    developers can read it whatever the player's language. `retry_after`: the seconds after
    which the same request may succeed (an HTTP answer's `Retry-After`), when that is known.
    """

    def __init__(
        self, code: ErrorCode, detail: str | None = None, retry_after: float | None = None, **params: Any
    ) -> None:
        super().__init__(code.value)
        self.code = code
        self.detail = detail
        self.retry_after = retry_after
        self.params = params
        self.request_id: str | int | None = None
        self.refusal: Refusal | None = None  # the engine's, for an illegal action

    @staticmethod
    def illegal(exc: IllegalActionError) -> ProtocolError:
        """The wire error for an action the rules forbid: the engine's code becomes `rule`, its
        refusal (code, case, facts) `refusal`, and the player's sentence is rendered from it."""
        error = ProtocolError(ErrorCode.ILLEGAL_ACTION, exc.message, rule=exc.code, refusal=refusal_json(exc))
        error.refusal = exc.refusal
        return error

    def message(self, lang: str) -> str:
        """The message in `lang` (English for a language the server does not speak)."""
        params = dict(self.params)
        if self.code is ErrorCode.ILLEGAL_ACTION:
            params.pop("refusal", None)
            params["reason"] = reason_text(lang, self.refusal)
        return error_text(self.code, lang, detail=self.detail or "", **params)


def storage_busy() -> ProtocolError:
    """The error of a change that the database did not take in time (`StorageBusy`): nothing
    was changed, unless the table shows it since; it may be tried again in a few seconds."""
    return ProtocolError(ErrorCode.STORAGE_BUSY, retry_after=STORAGE_RETRY)


def error_text(code: ErrorCode, lang: str, **params: Any) -> str:
    texts = MESSAGES[code]
    return texts.get(lang, texts["en"]).format(**params)
