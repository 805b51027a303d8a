"""What a client needs to offer a choice of rules: the rule sets, their house options, bot levels.

`GET /api/rulesets` sends `catalogue()`; `GET /api/tables/{id}/rules` sends `rules_json` of a
table's rule set (every field, so a client can show minimums and canastas needed to go out).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from canasta.protocol import translations
from canasta.protocol.settings import BOT_LEVELS
from canasta.rules.ruleset import PLAYER_COUNTS, VARIANTS, RuleSet

TARGET_SCORES: Final = (2500, 5000, 7500, 10000)

#: What each rule set is like, in plain words for the home page.
_EN_RU: Final[Mapping[str, Mapping[str, str]]] = {
    "en": {
        "classic": "The best-known game: partners sit across, lay down sets of one rank and build "
        "canastas of seven cards. For 2 to 6 players.",
        "modern-american": "Today's American style: 13 cards each, the pile always frozen, sets of wild "
        "cards allowed, and two canastas needed to go out.",
        "online": "As on most card sites: a canasta of wild cards scores 2000, and a black three left "
        "in your hand costs 100.",
        "mendelev": "An older style: you may go out by buying just the top card of the pile, and "
        "once your side has a canasta of a rank, that rank no longer takes the pile.",
    },
    "ru": {
        "classic": "Самая известная игра: партнёры сидят друг напротив друга, выкладывают карты одного "
        "достоинства и собирают канасты из семи карт. От 2 до 6 игроков.",
        "modern-american": "Современный американский вариант: по 13 карт, сброс всегда заморожен, можно "
        "выкладывать одни джокеры и двойки, для выхода нужны две канасты.",
        "online": "Как на большинстве карточных сайтов: канаста из джокеров и двоек приносит 2000, "
        "а чёрная тройка, оставшаяся на руке, стоит −100.",
        "mendelev": "Старинный вариант: выйти можно, купив одну верхнюю карту сброса, а достоинство, "
        "из которого у команды уже есть канаста, сброс больше не берёт.",
    },
}

DESCRIPTIONS_PLAIN: Final[Mapping[str, Mapping[str, str]]] = {**_EN_RU, **translations.DESCRIPTIONS}

#: House options a table's creator may change, per rule set, with the values offered.
#: `black3_freezes` and `pile_take_by_layoff` are the RuleSet's boolean shortcuts. A value the
#: rule set refuses at a player count (3 teams of 4 players, say) is not offered there.
HOUSE_OPTIONS: Final[Mapping[str, Mapping[str, tuple[Any, ...]]]] = {
    "classic": {
        "teams": (2, 3),
        "go_out_min_canastas": (1, 2),
        "permission_mode": ("optional_binding", "off"),
        "black3_freezes": (False, True),
        "pile_take_by_layoff": (True, False),
        "pile_review": ("off", "own_turn"),
        "stock_exhaustion": ("continue_with_discards", "end"),
    },
    "modern-american": {
        "pile_review": ("off", "own_turn"),
        "permission_mode": ("once_per_deal_after_draw", "off"),
    },
    "online": {
        "go_out_min_canastas": (1, 2),
        "pile_take_by_layoff": (True, False),
        "pile_review": ("off", "own_turn"),
    },
    "mendelev": {
        "permission_mode": ("optional_binding", "off"),
        "black3_freezes": (False, True),
        "pile_review": ("off", "own_turn"),
    },
}

_SHORTCUTS: Final = {
    "black3_freezes": ("freeze_triggers", "black3"),
    "pile_take_by_layoff": ("pile_take_methods", "layoff"),
}


def _jsonable(value: Any) -> Any:
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def rules_json(rules: RuleSet) -> dict[str, Any]:
    """Every field of a rule set as JSON (sets as sorted lists), plus `partnership`."""
    out = {
        f.name: _jsonable(getattr(rules, f.name))
        for f in dataclasses.fields(rules)
        if f.name not in ("options", "cache")
    }
    out["partnership"] = rules.partnership
    return out


def _option_value(rules: RuleSet, key: str) -> Any:
    if key in _SHORTCUTS:
        field, member = _SHORTCUTS[key]
        return member in getattr(rules, field)
    return _jsonable(getattr(rules, key))


def _accepts(rules: RuleSet, key: str, value: Any) -> bool:
    try:
        rules.with_options({key: value})
    except ValueError:
        return False
    return True


def _house_options(variant: str, rules: RuleSet) -> list[dict[str, Any]]:
    """The house options that apply to a preset at a player count, each with its default first
    (an option with no other value the preset accepts is left out)."""
    out = []
    for key, offered in HOUSE_OPTIONS[variant].items():
        if key == "permission_mode" and not rules.partnership:
            continue
        default = _option_value(rules, key)
        values = [default, *(v for v in offered if v != default and _accepts(rules, key, v))]
        if len(values) > 1:
            out.append({"key": key, "default": default, "values": values})
    return out


def _by_teams(rules: RuleSet, options: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """For each number of teams a table of the preset may play as: its target score and the
    team of each seat (as the rule set assigns them)."""
    counts = next((o["values"] for o in options if o["key"] == "teams"), [rules.teams])
    out = {}
    for teams in counts:
        layout = rules.with_options({"teams": teams})
        seats = [layout.team_of(seat) for seat in range(layout.players)]
        out[str(teams)] = {"target_score": layout.target_score, "seat_teams": seats}
    return out


def catalogue() -> dict[str, Any]:
    """The rule sets with their descriptions (in every language), player counts, default
    target scores, house options and seats' teams per player count; the bot levels and target
    scores offered."""
    variants = []
    for variant in VARIANTS:
        per_players = {}
        for players in PLAYER_COUNTS[variant]:
            rules = RuleSet.preset(variant, players)
            options = _house_options(variant, rules)
            per_players[str(players)] = {
                "target_score": rules.target_score,
                "teams": rules.teams,
                "options": options,
                "by_teams": _by_teams(rules, options),
            }
        variants.append(
            {
                "variant": variant,
                "description": {lang: texts[variant] for lang, texts in DESCRIPTIONS_PLAIN.items()},
                "players": list(PLAYER_COUNTS[variant]),
                "by_players": per_players,
            }
        )
    levels = [*BOT_LEVELS, "search"]  # the search at its default budget: under a second a move
    return {"variants": variants, "bot_levels": levels, "target_scores": list(TARGET_SCORES)}
