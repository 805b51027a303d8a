"""A finished deal move by move, every hand shown: what the hand-history page steps through."""

from __future__ import annotations

from typing import Any

from canasta.rules.actions import action_to_json
from canasta.rules.game import Game
from canasta.rules.position import position_to_json
from canasta.rules.state import State
from canasta.server.table_facts import table_facts


def deal_start(game: Game, deal: int) -> State:
    """The position a deal of `game` started from, with the scores of the deals before it.

    Raises ValueError for a deal that started from a position rather than a deck.
    """
    record = game.deals[deal]
    if record.deck is None:
        raise ValueError("deal starts from a position")
    scores = [sum(r.scores[team].total for r in game.results[:deal]) for team in range(game.rules.teams)]
    return State.deal(game.rules, record.deck, record.dealer, scores, record.sitting_out)


def deal_steps(game: Game, deal: int) -> dict[str, Any]:
    """The positions of a finished deal of `game`: the deal itself, then one after each action.

    Raises ValueError when the deal is not over (its cards are still hidden) or does not exist.
    """
    if not 0 <= deal < len(game.results):
        raise ValueError("deal not over")
    record = game.deals[deal]
    state = deal_start(game, deal)
    steps: list[dict[str, Any]] = [
        {"seat": None, "action": None, "position": position_to_json(state), "facts": table_facts(state)}
    ]
    for seat, action in record.actions:
        state.apply(action, seat)
        position, facts = position_to_json(state), table_facts(state)
        steps.append({"seat": seat, "action": action_to_json(action), "position": position, "facts": facts})
    result = game.results[deal]
    return {"deal": deal, "deals": len(game.results), "result": result.to_json(), "steps": steps}
