"""canasta.openspiel: `python_canasta` registered with OpenSpiel, its parameters, OpenSpiel's
random-simulation conformance test in every configuration, and OpenSpiel's ISMCTS and MCTS bots
playing it."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr
from open_spiel.python.observation import make_observation

import canasta.openspiel  # registers python_canasta
from canasta.learning import LearningGame
from canasta.openspiel import CanastaState
from canasta.rules import InvalidActionError
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

CONFIG_IDS = [configuration_label(*c) for c in CONFIGURATIONS]
#: Random deals of the resampling soak test (`pytest -m soak tests/test_openspiel.py`).
SOAK_DEALS = 40


def load(variant: str, players: int, options: dict[str, object], **flags: object) -> pyspiel.Game:
    params: dict[str, object] = {"variant": variant, "players": players, **flags}
    if options:
        params["options"] = " ".join(f"{k}:{v}" for k, v in options.items())
    return pyspiel.load_game("python_canasta", params)


def test_the_game_loads_with_its_parameters() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})
    learning = LearningGame("classic", 4)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == learning.num_distinct_actions
    assert game.observation_tensor_shape() == list(learning.observation_shape)
    assert game.max_game_length() == learning.max_game_length
    assert game.max_chance_outcomes() == 53
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    options = "meld_max_wilds:1 pile_take_methods:pair/layoff initial_meld_table:0+60/1500+100"
    house = pyspiel.load_game(
        "python_canasta", {"variant": "classic", "players": 2, "options": options, "scores": "1500 0"}
    )
    rules = house.learning.rules
    assert rules.meld_max_wilds == 1 and rules.pile_take_methods == {"pair", "layoff"}
    assert rules.minimum_for(1500) == 100 and house.learning.scores == (1500, 0)
    assert house.num_distinct_actions() < game.num_distinct_actions()
    again = pyspiel.load_game(str(house))  # the game string reads back
    assert again.learning.rules == rules and again.learning.scores == (1500, 0)
    six = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 6, "options": "teams:3"})
    assert six.learning.rules.teams == 3 and six.num_players() == 6


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"variant": "poker"}, "unknown variant"),
        ({"variant": "online", "players": 3}, "online is played by 2, 4 players"),
        ({"options": "meld_max_wilds"}, "expected key:value"),
        ({"options": "wings:2"}, "unknown option"),
        ({"scores": "lots"}, "scores must be whole numbers"),
        ({"scores": "1 2 3"}, "scores must be 2 whole numbers"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        pyspiel.load_game("python_canasta", params)


FLAGS = {"zero_sum": True, "skip_forced": True, "episode": "game", "max_deals": 2}


@pytest.mark.parametrize("flags", [{}, FLAGS], ids=["plain", "parameters"])
@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_openspiel_random_simulation_conformance(
    variant: str, players: int, options: dict[str, int], flags: dict[str, object]
) -> None:
    game = load(variant, players, options, **flags)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_zero_sum_game_is_typed_so_and_mccfr_runs_on_it() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "online", "players": 2, "zero_sum": True})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
    assert game.max_utility() == -game.min_utility() == game.learning.bounds()[1]
    plain = pyspiel.load_game("python_canasta", {"variant": "online", "players": 2})
    assert plain.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    probabilities = solver.average_policy().action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1)


def test_the_observer_gives_the_tensor_and_both_strings() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    inner = state.inner
    assert state.observation_tensor(seat) == pytest.approx(inner.observation_tensor(seat))
    assert state.observation_string(seat) == inner.observation_string(seat)
    assert state.information_state_string(seat) == inner.information_state_string(seat)
    assert state.information_state_string(seat).endswith("history: " + str(state.history()[-1]))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history() and clone.inner.to_json() != inner.to_json()


def test_a_public_only_observer_shows_no_private_card() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    while state.is_chance_node() or len(state.inner.history) < 12:
        state.apply_action(int(rng.choice(state.legal_actions())))
    none, single, every = (
        pyspiel.PrivateInfoType.NONE,
        pyspiel.PrivateInfoType.SINGLE_PLAYER,
        pyspiel.PrivateInfoType.ALL_PLAYERS,
    )
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, private_info=none))
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True, private_info=none))
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, private_info=single))
    for seat in range(4):
        hand = state.inner.engine.hands[seat]
        public.set_from(state, seat)
        private.set_from(state, seat)
        assert not public.dict["hand"].any() and private.dict["hand"].sum() == len(hand)
        others = np.delete(np.arange(public.tensor.size), np.arange(53))
        assert (public.tensor[others] == private.tensor[others]).all()
        lines = public.string_from(state, seat).splitlines()
        mine = private.string_from(state, seat).splitlines()
        differ = [(a, b) for a, b in zip(lines, mine, strict=True) if a != b]
        assert differ == [("hand: hidden", "hand: " + " ".join(c.code for c in sorted(hand)))]
        assert recall.string_from(state, seat) == state.inner.information_state_string(seat, private=False)
    with pytest.raises(ValueError, match="with the seat's own hand or without"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, private_info=every))


def test_resampling_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node() or len(state.inner.history) < 30:
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    others = [state.resample_from_infostate(seat, sampler) for _ in range(3)]
    for other in others:
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.legal_actions() == state.legal_actions()
    hidden = {str(other.inner.engine.stock) for other in others}
    assert len(hidden) > 1  # the unseen cards are dealt again


Resampled = tuple[pyspiel.State, int, pyspiel.State]


def resampled_states(game: pyspiel.Game, seed: int, share: float, first_deal: int = 0) -> list[Resampled]:
    """(state, seat, resample) for every seat at a `share` of the decision points of a random
    deal (a game episode: of its deals from `first_deal` on)."""
    rng = np.random.default_rng(seed)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    out = []
    state = game.new_initial_state()
    while not state.is_terminal():
        if not state.is_chance_node() and state.inner.deals >= first_deal and rng.random() < share:
            for seat in range(game.num_players()):
                out.append((state.clone(), seat, state.resample_from_infostate(seat, sampler)))
        state.apply_action(int(rng.choice(state.legal_actions())))
    return out


def deal_start(state: pyspiel.State) -> int:
    """Where the current deal's chance outcomes begin in the state's history."""
    inner = state.inner
    if inner.is_chance_node():
        return len(state.history()) - len(inner.deck)
    ids = len(inner.history) - len(inner.forced)  # the ids played for the agent are not in it
    return len(state.history()) - state.get_game().learning.rules.deck_size - ids


def check_resampled(state: pyspiel.State, seat: int, other: pyspiel.State) -> None:
    """`other`, resampled from `state` for `seat`, is the deal of another deck (its chance
    outcomes) after the same deals before it (a game episode), and the same ids: the seat
    cannot tell it from the state (with `skip_forced`, the same decisions were forced),
    replaying its history under the same parameters reaches it (the same serialisation,
    observation and legal ids), and it reads back from OpenSpiel's serialisation."""
    game = state.get_game()
    history, size, start = other.history(), game.learning.rules.deck_size, deal_start(state)
    assert len(history) == len(state.history()) and history[:start] == state.history()[:start]
    assert history[start + size :] == state.history()[start + size :]
    assert other.information_state_string(seat) == state.information_state_string(seat)
    if state.current_player() == seat:
        assert other.legal_actions() == state.legal_actions()
    again = game.new_initial_state()
    for action in history:
        again.apply_action(action)
    assert str(again) == str(other) and again.inner.to_json() == other.inner.to_json()
    assert again.observation_tensor(seat) == other.observation_tensor(seat)
    assert again.legal_actions() == other.legal_actions()
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, other))
    assert str(loaded) == str(other) and loaded.history() == history


def check_resampled_histories(game: pyspiel.Game, seed: int, deals: int, first_deal: int = 0) -> None:
    """`check_resampled` at random decision points of `deals` random deals (game episodes: of
    their deals from `first_deal` on); each resample plays on to the end of the episode."""
    size = game.learning.rules.deck_size
    rng = np.random.default_rng(seed)
    decks = set()
    for deal in range(deals):
        share = 0.12 / game.num_players()
        for state, seat, other in resampled_states(game, seed + deal, share, first_deal):
            check_resampled(state, seat, other)
            start = deal_start(state)
            decks.add(tuple(other.history()[start : start + size]))
            while not other.is_terminal():
                other.apply_action(int(rng.choice(other.legal_actions())))
    assert len(decks) > 1  # the unseen cards are dealt again


@pytest.mark.parametrize("skip_forced", [False, True], ids=["", "skip_forced"])
@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_resampled_states_carry_their_history(
    variant: str, players: int, options: dict[str, int], skip_forced: bool
) -> None:
    game = load(variant, players, options, skip_forced=skip_forced)
    check_resampled_histories(game, seed=len(variant) + players, deals=1)


@pytest.mark.parametrize("skip_forced", [False, True], ids=["", "skip_forced"])
@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_resampled_states_carry_their_history_in_a_game_episode(
    variant: str, players: int, options: dict[str, int], skip_forced: bool
) -> None:
    """In the second deal of a game episode: the first deal replays as it was played."""
    game = load(variant, players, options, skip_forced=skip_forced, episode="game", max_deals=2)
    check_resampled_histories(game, seed=len(variant) + players, deals=1, first_deal=1)


@pytest.mark.parametrize("skip_forced", [False, True], ids=["", "skip_forced"])
def test_a_state_made_from_a_seeded_learning_state_has_its_deal_as_history(skip_forced: bool) -> None:
    game = load("classic", 2, {}, skip_forced=skip_forced)
    inner = LearningGame("classic", 2, skip_forced=skip_forced).new_initial_state(seed=5)
    rng = random.Random(4)
    for _ in range(60):
        inner.apply_action(rng.choice(inner.legal_actions()))
    state = CanastaState(game, inner)
    assert state.inner is inner and state.dealt_here
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.inner.to_json() == inner.to_json()
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    for seat in range(2):
        check_resampled(state, seat, state.resample_from_infostate(seat, sampler))
    position = game.learning.state_from_json({**inner.to_json(), "history": [], "forced": []})
    assert not CanastaState(game, position).dealt_here  # no deal to replay


def test_a_resample_that_finds_no_deck_is_a_copy_of_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load("classic", 2, {}, skip_forced=True)
    rng = np.random.default_rng(6)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.inner.history) < 40:
        state.apply_action(int(rng.choice(state.legal_actions())))
    monkeypatch.setattr(canasta.openspiel, "DECK_REPLAYS", 0)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(6, 0.0, 1.0))
    assert other.history() == state.history() and other.inner.to_json() == state.inner.to_json()
    check_resampled(state, 0, other)


def test_resampling_while_a_later_deal_is_dealt() -> None:
    """At a chance node of a game episode's second deal: the first deal as it was, then other
    cards for the ones dealt so far."""
    game = load("classic", 2, {}, episode="game", max_deals=2)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while not (state.inner.deals == 1 and len(state.inner.deck) == 10):
        state.apply_action(int(rng.choice(state.legal_actions())))
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    others = [state.resample_from_infostate(0, sampler) for _ in range(3)]
    for other in others:
        check_resampled(state, 0, other)
    assert len({tuple(other.history()) for other in others}) > 1


@pytest.mark.soak
@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_resampled_histories_soak(variant: str, players: int, options: dict[str, int]) -> None:
    """With `skip_forced`, over `SOAK_DEALS` random deals."""
    check_resampled_histories(load(variant, players, options, skip_forced=True), seed=1000, deals=SOAK_DEALS)


def test_ismcts_and_mcts_play_a_deal() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    rngs = [np.random.RandomState(1), np.random.RandomState(2)]
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rngs[0]),
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rngs[1]),
    ]
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    moves = [0, 0]
    while not state.is_terminal() and sum(moves) < 60:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        seat = state.current_player()
        action = bots[seat].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves[seat] += 1
    assert min(moves) >= 10


def test_the_ismcts_peer_of_the_benchmarks_plays_listed_moves_from_its_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`benchmarks/openspiel_peers.py:ISMCTS`, OpenSpiel's ISMCTS as a Canasta bot, answers every
    decision of a deal's first turns with one of the view's listed actions."""
    from canasta.bots.loading import load_bot
    from canasta.rules import Game

    monkeypatch.setenv("CANASTA_ISMCTS_SIMULATIONS", "2")
    root = Path(__file__).resolve().parent.parent
    bot = load_bot(f"{root / 'benchmarks' / 'openspiel_peers.py'}:ISMCTS")
    game = Game.new("classic", 4, seed=3)
    state = game.current
    rng = random.Random(5)
    kinds = set()
    for _ in range(12):
        view = state.view(state.to_move)
        action = bot.choose(view, rng)
        assert action in view.legal
        kinds.add(type(action).__name__)
        state.apply(action)
    assert {"Draw", "Discard"} <= kinds


def test_rl_environment_reads_the_information_state_tensor() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "online", "players": 2, "skip_forced": True})
    env = rl_environment.Environment(game, seed=1)
    rng = random.Random(1)
    time_step = env.reset()
    for _ in range(30):
        player = time_step.observations["current_player"]
        inner = env.get_state.inner
        for seat in range(2):
            assert time_step.observations["info_state"][seat] == inner.information_state_tensor(seat)
        time_step = env.step([rng.choice(time_step.observations["legal_actions"][player])])
    assert not time_step.last()
