"""The server's texts in Spanish, Portuguese (Brazil) and German are complete: every key the
English ones have, the same parameters, nothing left in English, and they reach the player
(a refusal, a hint, a wire error, a chat phrase and the catalogue in each language)."""

from __future__ import annotations

import string
from collections.abc import Mapping

import pytest

from canasta.protocol import translations
from canasta.protocol.chat import PHRASES, phrases_in
from canasta.protocol.errors import LANGUAGES, MESSAGES, ErrorCode, ProtocolError, error_text
from canasta.protocol.hint_reasons import TEXTS as HINTS
from canasta.protocol.hint_reasons import hint_reason
from canasta.protocol.refusal_texts import EN, FALLBACK, METHODS, RANK, RANKS, TEXTS
from canasta.rules.actions import Group, Meld, action_from_json
from canasta.rules.cards import Card
from canasta.rules.errors import IllegalActionError
from canasta.server.catalogue import catalogue
from support import make_state

NEW = ("es", "pt", "de")
# Texts that are the same words in English and in a language.
SAME_AS_ENGLISH = {"{reason}", "Joker"}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _complete(english: Mapping[str, str], other: Mapping[str, str], where: str) -> None:
    assert set(other) == set(english), (where, set(english) ^ set(other))
    for key, text in english.items():
        assert _fields(other[key]) <= _fields(text) | {"ranks_acc"}, (where, key)
        assert other[key] != text or text in SAME_AS_ENGLISH, (where, key, text)


@pytest.mark.parametrize("lang", NEW)
def test_every_server_text_is_translated(lang: str) -> None:
    assert lang in LANGUAGES
    for code, texts in MESSAGES.items():
        _complete({code.value: texts["en"]}, {code.value: texts[lang]}, "errors")
    _complete(EN, TEXTS[lang], "refusals")
    for table in (RANKS, RANK, METHODS):
        _complete(table["en"], table[lang], "refusal words")
    assert FALLBACK[lang] != FALLBACK["en"]
    _complete(HINTS["en"], HINTS[lang], "hints")
    _complete({k: v["en"] for k, v in PHRASES.items()}, phrases_in(lang), "chat")
    assert set(translations.DESCRIPTIONS[lang]) == {v["variant"] for v in catalogue()["variants"]}


def test_a_player_reads_refusals_hints_and_errors_in_each_language() -> None:
    state = make_state(hands=[["KS", "KH", "KD", "9C", "4D"], [], [], []])
    move = Meld((Group(tuple(Card.parse(c) for c in ("KS", "KH", "KD"))),))
    with pytest.raises(IllegalActionError) as refused:
        state.apply(move)
    error = ProtocolError.illegal(refused.value)
    assert {lang: error.message(lang) for lang in NEW} == {
        "es": "Tu primer juego suma 30 puntos; necesitas al menos 50.",
        "pt": "Seu primeiro jogo soma 30 pontos; você precisa de pelo menos 50.",
        "de": "Dein erstes Auslegen zählt 30 Punkte; du brauchst mindestens 50.",
    }
    six_kings = [[["KS", "KH", "KD", "KC", "2C", "KS"]], []]
    opened = make_state(hands=[["KH", "9S", "9H", "9D", "5C"], [], [], []], melds=six_kings)
    king = action_from_json({"type": "meld", "melds": [["KH"]]})[0]
    assert {lang: hint_reason(opened.view(0), king, lang) for lang in NEW} == {
        "es": "Añade K♥ a tus reyes: completa una canasta de reyes.",
        "pt": "Junte K♥ aos seus reis: completa uma canastra de reis.",
        "de": "Lege K♥ an deine Könige an: das vollendet eine Canasta (Wert: Könige).",
    }
    assert error_text(ErrorCode.SEAT_TAKEN, "de", seat=2) == "Platz 2 ist schon besetzt."
    assert phrases_in("pt")["good_luck"] == "Boa sorte!"
    described = catalogue()["variants"][0]["description"]
    assert set(described) == set(LANGUAGES) and described["es"].startswith("El juego más conocido")
