"""Chat: preset phrases (shown in each reader's language) and the limits of free text."""

from __future__ import annotations

from collections.abc import Mapping

from canasta.protocol import translations

MAX_CHAT_TEXT = 200

_EN_RU: Mapping[str, Mapping[str, str]] = {
    "hello": {"en": "Hello!", "ru": "Привет!"},
    "good_luck": {"en": "Good luck!", "ru": "Удачи!"},
    "well_played": {"en": "Well played!", "ru": "Хорошо сыграно!"},
    "thanks": {"en": "Thanks!", "ru": "Спасибо!"},
    "oops": {"en": "Oops!", "ru": "Ой!"},
    "hurry": {"en": "Please hurry up.", "ru": "Пожалуйста, побыстрее."},
    "wait": {"en": "One moment, please.", "ru": "Минутку, пожалуйста."},
    "good_game": {"en": "Good game!", "ru": "Хорошая игра!"},
    "rematch": {"en": "Rematch?", "ru": "Реванш?"},
    "bye": {"en": "Bye!", "ru": "Пока!"},
}
PHRASES: Mapping[str, Mapping[str, str]] = {
    key: {**texts, **{lang: more[key] for lang, more in translations.PHRASES.items()}}
    for key, texts in _EN_RU.items()
}


def phrases_in(lang: str) -> dict[str, str]:
    """Every preset phrase in `lang`, by id (sent to a client when it connects)."""
    return {key: texts[lang] for key, texts in PHRASES.items()}
