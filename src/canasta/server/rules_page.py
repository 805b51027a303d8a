"""The rules page (`/rules`): `rules.html` with every number read from the engine.

The page's prose names its numbers by tokens, each replaced by
`<span class="n" data-rule="TOKEN">value</span>`:

- `{{VARIANT.PLAYERS.FIELD}}`, a field of `rules_json` of that preset, followed by list indexes
  where the field is a list (`{{classic.4.red3_values.3}}`, `{{classic.4.initial_meld_table.1.1}}`);
- `{{points.CODE}}`, the points of a card (`{{points.JK}}`);
- `{{bonus.VARIANT.CARDS}}`, the bonus the engine gives a canasta of those cards under the
  preset for four players (`{{bonus.modern-american.7S-7H-7D-7C-7S-7H-7D}}`).

`{{players_table}}` becomes the rows of a table of every rule set and player count: teams, cards
dealt, cards drawn, canastas needed to go out and target score.
"""

from __future__ import annotations

import functools
import html
import re
from typing import Any

from canasta.rules.cards import Card, Rank
from canasta.rules.melds import canasta_bonus
from canasta.rules.ruleset import PLAYER_COUNTS, RuleSet
from canasta.server.catalogue import rules_json
from canasta.web import STATIC

TOKEN = re.compile(r"\{\{([\w.-]+)\}\}")
TABLE_FIELDS = ("teams", "hand_size", "draw_count", "go_out_min_canastas", "target_score")


class RulesPageError(ValueError):
    """A token of the rules page that names nothing the engine has."""


def rule_value(token: str) -> Any:
    """The engine's value that `token` names (see the module's docstring)."""
    kind, _, rest = token.partition(".")
    try:
        if kind == "points":
            return Card.parse(rest).points
        if kind == "bonus":
            variant, cards = rest.split(".")
            melded = [Card.parse(code) for code in cards.split("-")]
            rank = next((c.rank for c in melded if not c.is_wild), Rank.WILD)
            return canasta_bonus(RuleSet.preset(variant, 4), rank, melded)
        players, *path = rest.split(".")
        value: Any = rules_json(RuleSet.preset(kind, int(players)))
        for part in path:
            value = value[int(part)] if isinstance(value, list) else value[part]
        return value
    except (KeyError, IndexError, ValueError) as exc:
        message = f"the rules page names {token!r}, which the engine does not have: {exc}"
        raise RulesPageError(message) from None


def _span(token: str) -> str:
    return f'<span class="n" data-rule="{html.escape(token)}">{html.escape(str(rule_value(token)))}</span>'


def _players_table() -> str:
    rows = []
    for variant, counts in PLAYER_COUNTS.items():
        for players in counts:
            cells = [f'<th scope="row"><span data-i18n="variant.{variant}"></span></th>']
            cells.append(f"<td>{_span(f'{variant}.{players}.players')}</td>")
            cells += [f"<td>{_span(f'{variant}.{players}.{field}')}</td>" for field in TABLE_FIELDS]
            rows.append(f"<tr>{''.join(cells)}</tr>")
    return "\n".join(rows)


@functools.cache
def rules_page() -> str:
    """The rules page's HTML, its tokens replaced."""
    text = (STATIC / "rules.html").read_text(encoding="utf-8")
    table = _players_table()
    return TOKEN.sub(lambda m: table if m.group(1) == "players_table" else _span(m.group(1)), text)
