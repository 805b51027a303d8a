"""The wire protocol's own rules: every error and phrase in both languages, message parsing,
table settings, and the Russian reasons for every rule the engine enforces."""

from __future__ import annotations

import re
import string

import pytest

from canasta.protocol import (
    ActionRequest,
    ChatRequest,
    ErrorCode,
    Hello,
    ProtocolError,
    RematchRequest,
    TableSettings,
    parse_client_message,
)
from canasta.protocol.chat import PHRASES
from canasta.protocol.errors import LANGUAGES, MESSAGES
from canasta.rules import Card, Discard, Draw, Group, IllegalActionError, Meld, parse_cards
from support import make_state

CYRILLIC = re.compile("[а-яА-Я]")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_error_code_has_a_message_in_every_language() -> None:
    assert set(MESSAGES) == set(ErrorCode)
    for code, texts in MESSAGES.items():
        assert set(texts) == set(LANGUAGES), code
        if code is ErrorCode.ILLEGAL_ACTION:  # the whole message is the rule's sentence (test_refusals)
            assert texts == dict.fromkeys(LANGUAGES, "{reason}")
            continue
        assert CYRILLIC.search(texts["ru"]) and not CYRILLIC.search(texts["en"]), code
        assert _fields(texts["ru"]) <= _fields(texts["en"]), code


def test_every_phrase_in_every_language() -> None:
    for texts in PHRASES.values():
        assert set(texts) == set(LANGUAGES) and CYRILLIC.search(texts["ru"])


def test_an_illegal_move_explains_itself() -> None:
    state = make_state(hands=[["KS", "KH", "KD", "9C", "4D"], [], [], []])
    move = Meld((Group(tuple(Card.parse(c) for c in ("KS", "KH", "KD"))),))
    with pytest.raises(IllegalActionError) as refused:
        state.apply(move)
    error = ProtocolError.illegal(refused.value)
    assert error.message("en") == "Your first meld counts 30 points; you need at least 50."
    assert error.message("ru") == "Для первой выкладки не хватает очков: 30 из 50."
    assert (
        error.detail == "meld [KS KH KD]: opening melds count 30, minimum is 50"
        and error.params["rule"] == "opening_minimum"
        and error.params["refusal"]
        == {"code": "opening_minimum", "case": None, "facts": {"count": 30, "minimum": 50}}
    )
    # without the facts of the refusal, or for a rule this table has no sentence for: a plain general one
    for unknown in (
        ProtocolError.illegal(IllegalActionError("opening melds count 30", "opening_minimum")),
        ProtocolError.illegal(IllegalActionError("something new", "brand_new_rule")),
    ):
        assert unknown.message("ru") == "Правила не разрешают этот ход."
        assert unknown.message("en") == "The rules do not allow this move."


def test_parsing_valid_messages() -> None:
    assert parse_client_message('{"type": "hello"}', 100) == (Hello(None, "en"), None)
    hello = '{"type": "hello", "token": "abc", "lang": "ru", "id": 4}'
    assert parse_client_message(hello, 100) == (Hello("abc", "ru"), 4)
    move = '{"type": "action", "version": 3, "action": {"type": "meld", "melds": [["KS", "KH", "2C"]]}}'
    assert parse_client_message(move, 200) == (
        ActionRequest(3, Meld((Group(tuple(parse_cards(["KS", "KH", "2C"]))),)), None),
        None,
    )
    discard = '{"type": "action", "version": 0, "action": {"seat": 2, "type": "discard", "card": "th"}}'
    request, _ = parse_client_message(discard, 200)
    assert request == ActionRequest(0, Discard(parse_cards(["10H"])[0]), 2)
    assert parse_client_message('{"type": "chat", "phrase": "thanks"}', 100)[0] == ChatRequest("thanks", None)
    assert parse_client_message(b'{"type": "rematch", "id": "r"}', 100) == (RematchRequest(), "r")
    assert parse_client_message('{"type": "action", "version": 1, "action": {"type": "draw"}}', 100)[0] == (
        ActionRequest(1, Draw(), None)
    )


@pytest.mark.parametrize(
    ("raw", "code", "params"),
    [
        ('{"type": "chat", "phrase": "hi", "pad": "' + "x" * 100 + '"}', ErrorCode.TOO_LARGE, {"limit": 100}),
        ("[" * 40 + "]" * 40, ErrorCode.BAD_MESSAGE, {}),
        ('{"type": 5}', ErrorCode.BAD_FIELD, {"field": "type"}),
        ('{"type": "action", "version": true, "action": {}}', ErrorCode.BAD_FIELD, {"field": "version"}),
        ('{"type": "action", "version": -1, "action": {}}', ErrorCode.BAD_FIELD, {"field": "version"}),
        ('{"type": "hello", "token": 7}', ErrorCode.BAD_FIELD, {"field": "token"}),
        ('{"type": "chat", "text": "a\\u0000b"}', ErrorCode.BAD_FIELD, {"field": "text"}),
    ],
)
def test_parsing_errors(raw: str, code: ErrorCode, params: dict[str, object]) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw, 100)
    assert caught.value.code is code and caught.value.params == params


def test_deeply_nested_json_is_refused() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message("[" * 100_000 + "]" * 100_000, 1_000_000)
    assert caught.value.code is ErrorCode.BAD_JSON


def test_table_settings_round_trip_and_defaults() -> None:
    settings = TableSettings.from_json(
        {
            "variant": "online",
            "players": 2,
            "seats": ["human", "random"],
            "target_score": 3000,
            "turn_timer": 30,
        },
        0.5,
    )
    assert settings.options == {"target_score": 3000} and settings.rules().target_score == 3000
    assert settings.bot_delay == 0.5 and settings.grace == 60.0 and settings.turn_timer == 30.0
    assert settings.human_seats == (0,)
    assert TableSettings.from_json(settings.to_json(), 9.0) == settings
    assert TableSettings.from_json({}, 1.0).seats == ("human",) * 4


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": "whist"}, "variant"),
        ({"players": 5, "variant": "online"}, "players"),
        ({"options": {"no_such_option": 1}}, "options"),
        ({"players": 2, "seats": ["human", "grandmaster"]}, "seats"),
        ({"stand_in": "nobody"}, "stand_in"),
    ],
)
def test_table_settings_errors_name_the_field(body: dict[str, object], field: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        TableSettings.from_json(body, 0.0)
    assert caught.value.code is ErrorCode.BAD_SETTINGS and caught.value.params == {"field": field}
    assert caught.value.detail and field in caught.value.message("ru")
