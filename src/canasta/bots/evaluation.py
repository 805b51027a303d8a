"""The search's evaluation of a deal cut short: what each team may expect it to be worth.

A playout stops at a horizon; the position it reaches is valued as the score the deal would
give if it ended now (`score_deal` on the state: melds, canastas, threes, the hands counted
against their teams, Modern American penalties) plus what the rest of the deal promises: melds
near a canasta, being able to go out, the cards in hand and their wild cards, the pile for the
team to move, each weighed by how much of the stock is still to come. The weights are fitted to
self-play of the `hard` level (`benchmarks/tune_evaluation.py --deals 1500`, which stores
its data under `benchmarks/data/`): least squares of the deal's final score difference on these features.
"""

from __future__ import annotations

from typing import Final

from canasta.rules.deal import seat_teams
from canasta.rules.melds import canasta_count
from canasta.rules.scoring import score_deal
from canasta.rules.state import State

#: The feature names, in the order of the weights.
FEATURES: Final = (
    "score_now",
    "near_canastas",
    "small_melds",
    "ready",
    "hand_cards",
    "hand_wilds",
    "pile_to_move",
    "near_canastas_x_stock",
    "ready_x_stock",
    "hand_cards_x_stock",
)

#: Fitted weights per variant (others use the classic ones); see the module docstring.
WEIGHTS: Final[dict[str, tuple[float, ...]]] = {
    # classic: 14406 rows, R² 0.385 (score now alone 0.269)
    "classic": (0.8728, 50.89, 28.36, 13.91, 13.2, 114.6, -0.2135, 67.53, -1.757, 5.794),
    # modern-american: 21121 rows, R² 0.233 (score now alone 0.105)
    "modern-american": (0.6635, 229.9, 125.1, 1191, 115.3, -9.69, -2.751, 547.5, -1510, 6.272),
}


def team_features(state: State, team: int, scores: list[int], stock_share: float) -> list[float]:
    """The features of one team (see `FEATURES`)."""
    rules = state.rules
    melds = state.board.melds[team]
    near = small = 0
    for cards in melds.values():
        size = len(cards)
        if 5 <= size < 7:
            near += 1
        elif size < 5:
            small += 1
    ready = 1.0 if canasta_count(melds) >= rules.go_out_min_canastas else 0.0
    hands = state.cards.hands
    held = wilds = 0
    teams = seat_teams(rules)
    for seat in state.order:
        if teams[seat] == team:
            held += len(hands[seat])
            wilds += sum(1 for c in hands[seat] if c.is_wild)
    to_move = teams[state.now.seat] == team
    pile = float(len(state.board.pile)) if to_move else 0.0
    return [
        float(scores[team]),
        float(near),
        float(small),
        ready,
        float(held),
        float(wilds),
        pile,
        near * stock_share,
        ready * stock_share,
        held * stock_share,
    ]


def features(state: State, team: int) -> list[float]:
    """`team`'s features less the other teams' mean: what the weights are applied to."""
    rules = state.rules
    result = state.result or score_deal(state, "stock_exhausted", None, False)
    scores = [s.total for s in result.scores]
    share = len(state.cards.stock) / max(1, rules.deck_size)
    per_team = [team_features(state, t, scores, share) for t in range(rules.teams)]
    others = [f for t, f in enumerate(per_team) if t != team]
    return [mine - sum(o[i] for o in others) / len(others) for i, mine in enumerate(per_team[team])]


def evaluate(state: State, team: int) -> float:
    """The expected final score difference of `team` (its score less the others' mean)."""
    weights = WEIGHTS.get(state.rules.variant, WEIGHTS["classic"])
    return sum(w * f for w, f in zip(weights, features(state, team), strict=True))
