"""OpenSpiel adapter: importing this module registers the game `python_canasta` with OpenSpiel.

    import pyspiel
    import canasta.openspiel  # registers python_canasta
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})

One deal of a rule set, over `canasta.learning` (the same ids, chance nodes, tensors and
returns). Parameters: `variant` and `players` as in `RuleSet.preset`; `options`, house options
as space-separated `key:value` items (e.g. `"meld_max_wilds:2 pile_take_methods:pair/layoff"`:
a number, `true`/`false`, a word, or for a list option words or numbers separated by `/`, the
pairs of `initial_meld_table` as `score+minimum`); `scores`, the teams' cumulative scores
before the deal, space-separated (they decide the opening minimum); `zero_sum` (returns less
the teams' mean, game type zero-sum) and `skip_forced` (a decision with one legal id is played
at once), booleans; `episode`, `deal` (default) or `game` (deals until a team wins, at most
`max_deals`, 20). Needs the `openspiel`
extra (`pip install 'canasta[openspiel]'`).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pyspiel

from canasta.bots.base import Bot
from canasta.deck_resample import DeckPositions
from canasta.learning import CHANCE, LearningGame, LearningState
from canasta.learning.bots import BotPolicy
from canasta.learning.game import MAX_DEALS, seeded_deck
from canasta.rules import InvalidActionError, RuleSet

PARAMETERS: dict[str, Any] = {
    "variant": "classic",
    "players": 4,
    "options": "",
    "scores": "",
    "zero_sum": False,
    "skip_forced": False,
    "episode": "deal",
    "max_deals": MAX_DEALS,
}
#: Decks tried by `resample_from_infostate` before it gives a copy of the state, and with
#: `skip_forced` the swaps of hidden cards tried on each (`DeckPositions.deck_keeping`) and the
#: replays of the deal's ids tried in all (each swap is one; without a bound 20 decks could take
#: 820, and of 1,500 resamples in the second deal of modern-american 4p games 3 needed more
#: than 200, at most 375).
DECK_TRIES = 20
DECK_REPAIRS = 40
DECK_REPLAYS = 200
#: Options whose value is a list (`/`-separated in the `options` parameter).
_LISTS = {f.name for f in dataclasses.fields(RuleSet) if isinstance(f.default, frozenset | tuple)}



def game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    """`python_canasta`'s game type, general-sum (as registered) or zero-sum (`zero_sum`)."""
    return pyspiel.GameType(
        short_name="python_canasta",
        long_name="Python Canasta (a deal or a game)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=PARAMETERS,
    )


GAME_TYPE = game_type(pyspiel.GameType.Utility.GENERAL_SUM)


def parse_options(text: str) -> dict[str, Any]:
    """The `options` parameter as a dict of house options (see the module docstring)."""
    options: dict[str, Any] = {}
    for item in text.split():
        key, sep, value = item.partition(":")
        if not sep or not key:
            raise InvalidActionError(f"option {item!r}: expected key:value", "bad_option")
        if key in _LISTS:
            options[key] = [_value(v) for v in value.split("/") if v]
        else:
            options[key] = _value(value)
    return options


def _value(text: str) -> Any:
    if "+" in text:
        return [_value(v) for v in text.split("+")]
    if text in ("true", "false"):
        return text == "true"
    if text == "none":
        return None
    try:
        return int(text)
    except ValueError:
        return text


def parse_scores(text: str) -> list[int] | None:
    try:
        return [int(v) for v in text.split()] or None
    except ValueError:
        raise InvalidActionError(f"scores must be whole numbers, not {text!r}", "bad_field") from None


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    """`python_canasta`: one deal of a rule set (`canasta.learning.LearningGame`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        options, scores = parse_options(params["options"]), parse_scores(params["scores"])
        flags = {name: params[name] for name in ("zero_sum", "skip_forced", "episode", "max_deals")}
        learning = LearningGame(params["variant"], params["players"], options, scores, **flags)
        low, high = learning.bounds()
        utility = pyspiel.GameType.Utility
        kind = game_type(utility.ZERO_SUM) if learning.zero_sum else GAME_TYPE
        info = pyspiel.GameInfo(
            num_distinct_actions=learning.num_distinct_actions,
            max_chance_outcomes=learning.max_chance_outcomes,
            num_players=learning.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if learning.zero_sum else None,
            max_game_length=learning.max_game_length,
        )
        super().__init__(kind, info, params)
        self.learning = learning

    def new_initial_state(self) -> CanastaState:
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CanastaObserver:
        return CanastaObserver(self.learning, iig_obs_type, params)


class CanastaState(pyspiel.State):  # type: ignore[misc]
    """A state of `python_canasta`, over a `LearningState` (`inner`).

    Made from a learning state of a deal episode dealt from a seed
    (`LearningGame.new_initial_state(seed)`), the state's history is that deck's chance
    outcomes and the ids played for the agents since, which replay to it; from any other
    learning state (one read from a position, say), it has no history of the deal."""

    def __init__(self, game: CanastaGame, inner: LearningState | None = None) -> None:
        super().__init__(game)
        self.inner = game.learning.new_initial_state()
        #: Where the current deal (of a game episode) begins in the history.
        self._start = DealStart(0)
        #: Per seat, how this deal's deck was dealt (`resample_from_infostate`).
        self._positions = Positions()
        #: Whether the state's history holds its deal (its chance outcomes).
        self.dealt_here = inner is None or self._replay(inner)
        if inner is not None:
            self.inner = inner

    def _replay(self, inner: LearningState) -> bool:
        """Apply the seeded deck and the ids of `inner`'s deal; whether that reaches it."""
        learning = self.get_game().learning
        if inner.seed is None or learning.episode != "deal" or inner.is_chance_node():
            return False
        if inner.game.options_json() != learning.options_json():
            return False
        forced = set(inner.forced)
        ids = [a for place, a in enumerate(inner.history) if place not in forced]
        try:
            for action in (*(c.index for c in seeded_deck(learning.rules, inner.seed, 0)), *ids):
                self.apply_action(action)
        except ValueError:
            return False
        return bool(self.inner.to_json() == inner.to_json())

    def current_player(self) -> int:
        player = self.inner.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL) if player < 0 else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        inner = self.inner
        deals = inner.deals
        inner.apply_action(int(action))
        if inner.deals != deals:  # the history holds this action once it is applied
            self._start = DealStart(len(self.history()) + 1)
        if self._positions:
            self._positions = Positions()

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    # Python callers (rl_environment, the Python algorithms) read these directly, without the
    # observer's copies; OpenSpiel's own code goes through the observer and gets the same.
    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.inner.observation_tensor(self._player(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self.inner.information_state_tensor(self._player(player))

    def _player(self, player: int | None) -> int:
        return self.current_player() if player is None else player

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CanastaState:
        """A state `player_id` cannot tell from this one, the unseen cards dealt from a seed
        drawn from `probability_sampler` (a callable giving [0, 1)), with a history: the deals
        before this one as they were (public record), then a deck of this deal `player_id`
        cannot tell from its own (`canasta.deck_resample`) and this deal's ids applied to it.
        When no such deck is found in `DECK_TRIES` tries, a copy of this state (its own deck,
        which the seat cannot tell from itself either), so that every resample's history
        replays to it. A state made from a learning state has no deal in its history, so its
        resamples are `LearningState.resample`'s, without a history."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.get_game()
        inner = self.inner
        if not self.dealt_here:
            return CanastaState(game, inner.resample(player_id, rng))
        if inner.is_chance_node():
            out = self._start.state(game, self.history())
            for kind in inner.resample(player_id, rng).deck:
                out.apply_action(kind.index)
            return out
        replayed = self._replayed(player_id, rng)
        return replayed if replayed is not None else self.clone()

    def _replayed(self, seat: int, rng: random.Random) -> CanastaState | None:
        """This deal's ids applied, after the deals before it, to a deck `seat` cannot tell
        from its own, if one is found."""
        game = self.get_game()
        inner = self.inner
        history = self.history()
        start, size = self._start.size, game.learning.rules.deck_size
        positions = self._positions.get(seat)
        if positions is None:
            deck = history[start : start + size]
            positions = DeckPositions(game.learning, deck, inner.history, seat, inner.deals, inner.scores)
            self._positions[seat] = positions
        if not positions.ok:
            return None
        want = inner.information_state_string(seat)
        forced = set(inner.forced)
        budget = positions.replays + DECK_REPLAYS
        for _ in range(DECK_TRIES):
            if game.learning.skip_forced:
                left = budget - positions.replays - 1  # a deck's first replay, then one per swap
                if left < 0:
                    return None
                deck = positions.deck_keeping(rng, forced, min(DECK_REPAIRS, left))
            else:
                deck = positions.deck_for(rng)
            if deck is None:
                continue
            out = self._start.state(game, history)
            try:
                for action in (*deck, *history[start + size :]):
                    out.apply_action(action)
            except ValueError:
                continue
            done = out.inner
            if done.information_state_string(seat) == want and (done.is_terminal() or done.legal_actions()):
                return out
        return None

    def __str__(self) -> str:
        return str(self.inner)


class DealStart:
    """Where a deal begins in a state's history (`size` actions before it), and the state
    there, made from the history on first use and shared by the copies of the states of the
    deal (the deals before it do not change)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._state: CanastaState | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> DealStart:
        """Itself: what it holds does not change (see the class docstring)."""
        return self

    def __reduce__(self) -> tuple[type[DealStart], tuple[int]]:
        """Pickled (OpenSpiel's serialisation) without the state, made again on first use."""
        return DealStart, (self.size,)

    def state(self, game: CanastaGame, history: list[int]) -> CanastaState:
        """A new state at the deal's first chance node, `history` holding the deals before it."""
        if self._state is None:
            state = game.new_initial_state()
            for action in history[: self.size]:
                state.apply_action(action)
            self._state = state
        out: CanastaState = self._state.clone()
        out._start = self
        return out


class Positions(dict[int, DeckPositions]):
    """Per seat, how a state's deal was dealt: a cache, left out of copies and pickles (OpenSpiel's
    serialisation)."""

    def __reduce__(self) -> tuple[type[Positions], tuple[()]]:
        return Positions, ()


class CanastaObserver:
    """OpenSpiel's observer: the tensor and text of `canasta.learning.observation`; with
    perfect recall, the information state's (the tensor with the deal's public history). A
    public-only observation type (`private_info` NONE) leaves the seat's hand out of both."""

    def __init__(self, learning: LearningGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"python_canasta's observer takes no parameters, not {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_canasta observes the public information, with the seat's own hand or without"
                f" (private_info SINGLE_PLAYER or NONE), not public_info {kind.public_info},"
                f" {kind.private_info}"
            )
        self.perfect_recall = bool(kind.perfect_recall)
        self.private = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        layout = learning.observation
        pieces = layout.info_pieces if self.perfect_recall else layout.pieces
        self.tensor = np.zeros(layout.info_size if self.perfect_recall else layout.size, np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        for name, (offset, shape) in pieces.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + size].reshape(shape)

    def set_from(self, state: CanastaState, player: int) -> None:
        inner = state.inner
        if self.perfect_recall:
            self.tensor[:] = inner.information_state_tensor(player, self.private)
        else:
            self.tensor[:] = inner.observation_tensor(player, self.private)

    def string_from(self, state: CanastaState, player: int) -> str:
        if self.perfect_recall:
            return state.inner.information_state_string(player, self.private)
        return state.inner.observation_string(player, self.private)


class CanastaBot(pyspiel.Bot):  # type: ignore[misc]
    """A built-in bot (`random`, `easy`, `normal`, `hard`, `search`, or an own `Bot`) as an
    OpenSpiel bot of `python_canasta` (`canasta.learning.bots.BotPolicy`: its moves as ids)."""

    def __init__(self, bot: str | Bot, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self.policy = BotPolicy(bot, seed)

    def step(self, state: CanastaState) -> int:
        return self.policy(state.inner)

    def restart_at(self, state: CanastaState) -> None:
        pass


pyspiel.register_game(GAME_TYPE, CanastaGame)
