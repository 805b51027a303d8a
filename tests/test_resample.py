"""`resample` for every seat at every decision point of random deals in every configuration, a
step being formed included: what the seat knows stays as it is (its information state and
tensor), the result lists a legal move or is over, the seat to move keeps its very list, and the
result plays on to the end of the deal without a dead end and survives a JSON round trip; and
the last resort after the random deals, alone.

The default run resamples `COUNT` times per configuration; the soak run (`pytest -m soak
tests/test_resample.py`) `SOAK_COUNT` times."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from canasta.learning import LearningGame, LearningState
from canasta.rules import InvalidActionError, resample
from canasta.rules.deal import shuffle
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

CONFIG_IDS = [configuration_label(*c) for c in CONFIGURATIONS]
COUNT = 240
SOAK_COUNT = 20_000
#: Share of resamples played on to the end of the deal with random ids.
PLAYOUT_RATE = 0.05


def check_resample(state: LearningState, seat: int, rng: random.Random) -> None:
    other = state.resample(seat, rng)
    where = f"seat {seat}, staged {list(state.staged)}, position {state.to_json()['position']}"
    assert other.information_state_string(seat) == state.information_state_string(seat), where
    assert other.observation_tensor(seat) == state.observation_tensor(seat), where
    assert other.is_terminal() or other.legal_actions(), f"a dead end: {where}"
    if seat == state.current_player():
        assert other.legal_actions() == state.legal_actions(), where
    again = state.game.state_from_json(other.to_json())
    assert again.to_json() == other.to_json() and again.is_terminal() == other.is_terminal(), where
    if rng.random() < PLAYOUT_RATE:
        while not other.is_terminal():
            legal = other.legal_actions()
            assert legal, f"a dead end after a resample for {where}"
            other.apply_action(rng.choice(legal))


Check = Callable[[LearningState, int, random.Random], None]


def resample_deals(
    variant: str, players: int, options: dict[str, int], count: int, seed: int, check: Check = check_resample
) -> int:
    """Resample for every seat at each decision point of random deals, `count` times in all,
    each checked by `check`; returns how many of them were taken while a step was being formed."""
    game = LearningGame(variant, players, options)
    rng = random.Random(seed)
    done = forming = 0
    while done < count:
        state = game.new_initial_state(seed=rng.randrange(2**32))
        while not state.is_terminal() and done < count:
            for seat in range(players):
                check(state, seat, rng)
            done += players
            forming += players if state.staged else 0
            state.apply_action(rng.choice(state.legal_actions()))
    return forming


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_resample_at_every_decision_point(variant: str, players: int, options: dict[str, int]) -> None:
    assert resample_deals(variant, players, options, COUNT, seed=players) > 0


@pytest.mark.soak
@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_resample_at_every_decision_point_soak(variant: str, players: int, options: dict[str, int]) -> None:
    assert resample_deals(variant, players, options, SOAK_COUNT, seed=100 + players) > 0


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("modern-american", 4), ("mendelev", 4)])
def test_the_last_resort_alone_deals_a_turn_that_goes_on(variant: str, players: int) -> None:
    """With no random deal tried, the hands built rank by rank let the turn's player go on."""
    game = LearningGame(variant, players)
    rng = random.Random(3)
    checked = 0
    while checked < 150:
        state = game.new_initial_state(seed=rng.randrange(2**32))
        while not state.is_terminal() and checked < 150:
            engine = state.engine
            if not state.staged:
                seat = rng.choice([s for s in range(players) if s != engine.turn])
                view = engine.view(seat)
                other = resample(view, rng, tries=0)
                assert other.view(seat).to_json() == view.to_json()
                assert other.legal_actions() and not other.is_over
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_view_that_no_deal_fits_is_refused() -> None:
    state = LearningGame("classic", 4).new_initial_state(seed=1)
    view = state.engine.view(2)
    with pytest.raises(InvalidActionError, match="no deal of the unseen cards fits seat 2's view"):
        resample(view, random.Random(1), accept=lambda world: False)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 53, 108, 162])
def test_shuffle_is_random_shuffle(size: int) -> None:
    """The engine's shuffle puts cards in the order `random.Random.shuffle` does, and leaves the
    generator where it leaves it (seeded results do not depend on which one ran)."""
    for seed in range(20):
        ours, theirs = list(range(size)), list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        shuffle(a, ours)
        b.shuffle(theirs)
        assert ours == theirs
        assert a.getrandbits(64) == b.getrandbits(64)


#: Seat 3 part way through an opening meld of modern-american for 4 players: three tens and a two
#: staged, groups up to the opening minimum still to come, which few hands can finish.
OPENING_IN_PROGRESS = (
    "{\"format\":\"canasta-learning/1\",\"variant\":\"modern-american\",\"players\":4,\"options\":{},\"scores\":[0,"
    "0],\"position\":{\"format\":\"canasta-position/1\",\"variant\":\"modern-american\",\"players\":4,\"options\":{"
    "},\"scores\":[0,0],\"dealer\":3,\"pile\":[\"JH\",\"7H\",\"JH\"],\"melds\":[[],[]],\"red_threes\":[[\"3C\"],[\"3H\",\""
    "3D\",\"3S\"]],\"seat_melded\":[false,false,false,false],\"asked\":[false,false,false,false],\"opened\":[f"
    "alse,false],\"pile_frozen\":false,\"known\":[[],[],[],[]],\"turn\":3,\"phase\":\"play\",\"drew\":\"stock\",\"pe"
    "rmission\":null,\"turn_melded\":false,\"concealed_ok\":true,\"turn_canasta\":false,\"turn_started\":[],\"t"
    "urn_layoff\":false,\"must_meld_out\":false,\"hands\":[[\"JK\",\"JK\",\"KD\",\"KC\",\"QH\",\"QC\",\"JD\",\"8D\",\"8C\",\""
    "5S\",\"5C\",\"4H\",\"4C\"],[\"JK\",\"2S\",\"2H\",\"2D\",\"KS\",\"KD\",\"JS\",\"JC\",\"9D\",\"8C\",\"7S\",\"6H\",\"4S\"],[\"AS\",\"AS"
    "\",\"AD\",\"KH\",\"QD\",\"JD\",\"9H\",\"9C\",\"6D\",\"5S\",\"5H\",\"5D\",\"4S\"],[\"JK\",\"2C\",\"AD\",\"QS\",\"10H\",\"10C\",\"10C\""
    ",\"9C\",\"8S\",\"6S\",\"6H\",\"4H\",\"4D\",\"4C\"]],\"stock\":[\"QD\",\"2C\",\"8D\",\"AC\",\"KS\",\"JC\",\"7C\",\"8H\",\"3C\",\"AH\""
    ",\"5H\",\"4D\",\"5D\",\"3S\",\"7S\",\"3H\",\"7D\",\"KH\",\"AH\",\"7D\",\"QC\",\"9H\",\"2H\",\"10S\",\"8S\",\"6C\",\"7C\",\"QS\",\"AC\""
    ",\"8H\",\"3D\",\"KC\",\"2D\",\"9S\",\"6C\",\"5C\",\"10D\",\"QH\",\"2S\",\"JS\",\"10D\",\"10H\",\"9D\",\"6S\",\"6D\",\"9S\",\"7H\",\"1"
    "0S\"]},\"staged\":[397],\"history\":[0,24,0,40,0,24,0,397],\"public\":[[18,1],[193,1],[336,1]]}"
)


def test_a_turn_that_few_hands_can_finish_is_resampled() -> None:
    """One call of `canasta.rules.resample` finds a hand for seat 3 that can finish its opening in
    about a third of calls (with this seed, the second); `LearningState.resample` makes up to
    `RESAMPLE_ROUNDS` of them."""
    state = LearningGame("modern-american", 4).state_from_json(json.loads(OPENING_IN_PROGRESS))
    assert state.staged and state.current_player() == 3
    check_resample(state, 1, random.Random(1))
