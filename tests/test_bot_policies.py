"""The built-in bots as policies over ids (`canasta.learning.bots.BotPolicy`): every move of
`easy`, `normal`, `hard` and `search` plays as legal ids in every configuration, a meld the list
holds in parts included; and as OpenSpiel bots of `python_canasta`."""

from __future__ import annotations

import random

import pyspiel
import pytest

import canasta.openspiel  # noqa: F401  (registers python_canasta)
from canasta.bots.base import Bot, RandomBot
from canasta.bots.registry import make_bot
from canasta.learning import LearningGame, LearningState
from canasta.learning.bots import BotPolicy
from canasta.openspiel import CanastaBot
from canasta.rules import Action, Meld, SeatView
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

CONFIG_IDS = [configuration_label(*c) for c in CONFIGURATIONS]


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_the_heuristic_bots_play_every_move_as_ids(
    variant: str, players: int, options: dict[str, int]
) -> None:
    game = LearningGame(variant, players, options)
    for level in ("easy", "normal", "hard"):
        policies = [BotPolicy(level, seed=seat) for seat in range(players)]
        state = game.new_initial_state(seed=players)
        while not state.is_terminal():
            state.apply_action(policies[state.current_player()](state))  # a legal id, or ValueError
        assert sum(p.fallbacks for p in policies) == 0


class Recording:
    """A bot that keeps each view it was shown and the move it chose."""

    def __init__(self, bot: Bot) -> None:
        self.bot, self.name = bot, bot.name
        self.chosen: list[tuple[SeatView, Action]] = []

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        action = self.bot.choose(view, rng)
        self.chosen.append((view, action))
        return action


def laid(state: LearningState, team: int) -> int:
    return sum(map(len, state.engine.melds[team].values()))


def test_a_meld_the_list_holds_in_parts_is_played_whole() -> None:
    """A bot's meld that the list holds only in parts (an opening of four kings where the list
    has three, the fourth added after) is laid whole before the bot is asked again."""
    game = LearningGame("online", 2)
    whole = 0
    for seed in range(6):
        bots = [Recording(make_bot("hard")) for _ in range(2)]
        policies = [BotPolicy(bot, seed=seat) for seat, bot in enumerate(bots)]
        state = game.new_initial_state(seed=seed)
        pending: tuple[int, int] | None = None  # (team, cards on its melds once the meld is laid)
        while not state.is_terminal():
            seat = state.current_player()
            asked = len(bots[seat].chosen)
            action = policies[seat](state)
            if len(bots[seat].chosen) > asked:  # the bot chose anew: its last meld is laid
                if pending is not None:
                    assert laid(state, pending[0]) == pending[1]
                    whole += 1
                view, chosen = bots[seat].chosen[-1]
                parts = isinstance(chosen, Meld) and chosen not in view.legal
                cards = sum(len(g.cards) for g in chosen.melds) if isinstance(chosen, Meld) else 0
                pending = (seat % 2, laid(state, seat % 2) + cards) if parts else None
            state.apply_action(action)
        assert sum(p.fallbacks for p in policies) == 0
    assert whole


def test_the_search_bot_and_an_own_bot_play_as_ids() -> None:
    game = LearningGame("classic", 2)
    policies = [BotPolicy("search:iterations=8", seed=1), BotPolicy(RandomBot(), seed=2)]
    state = game.new_initial_state(seed=3)
    for _ in range(40):
        state.apply_action(policies[state.current_player()](state))
    assert policies[0].fallbacks == policies[1].fallbacks == 0


def test_bots_as_openspiel_bots() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})
    bots = [CanastaBot("hard", seed=seat) for seat in range(4)]
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert any(state.returns()) and all(b.policy.fallbacks == 0 for b in bots)
