"""canasta.learning: the fixed action space, atomic play complete over the engine's legal list
(every listed action reachable, no dead end), masks, tensors, clones, hidden cards, the chance
nodes of the deal, returns and serialisation."""

from __future__ import annotations

import ast
import pickle
import random
import re
from pathlib import Path

import pytest

from canasta.learning import COMMIT, DISCARD, DRAW, LearningGame, LearningState
from canasta.learning.actions import GROUP_RANKS
from canasta.learning.game import CHANCE, TERMINAL
from canasta.rules import (
    ALL_CARDS,
    Card,
    Game,
    InvalidActionError,
    Rank,
    position_from_json,
    position_to_json,
)
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label

CONFIG_IDS = [configuration_label(*c) for c in CONFIGURATIONS]
DEALS = 3
#: Share of positions where every listed action is walked in atomic ids.
WALK_RATE = 0.15


def deal_out(state: LearningState, rng: random.Random) -> None:
    """Play the chance nodes of the deal with their probabilities."""
    while state.is_chance_node():
        kinds, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1) < 1e-9
        state.apply_action(rng.choices(kinds, probs)[0])


def reached_by_ids(state: LearningState, ids: tuple[int, ...]) -> LearningState:
    """A clone after `ids`, each of them legal when given."""
    walk = state.clone()
    for action_id in ids:
        assert action_id in walk.legal_actions(), (walk.action_to_string(action_id), walk.legal_actions())
        walk.apply_action(action_id)
    return walk


def check_every_listed_action_is_reachable(state: LearningState) -> None:
    engine = state.engine
    for action in engine.legal_actions():
        ids = state.game.actions.sequence(action)
        walk = reached_by_ids(state, ids)
        direct = engine.clone()
        direct.apply(action)
        assert walk.staged == ()
        assert position_to_json(walk.engine) == position_to_json(direct)


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_random_atomic_play_is_complete_without_dead_ends(variant: str, players: int, options: dict) -> None:
    game = LearningGame(variant, players, options)
    rng = random.Random(f"learning/{variant}/{players}/{options}")
    shape = game.observation_shape
    walked = 0
    for _ in range(DEALS):
        state = game.new_initial_state()
        deal_out(state, rng)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, f"no legal id in a deal that goes on:\n{state}"
            assert legal == sorted(set(legal))
            mask = state.legal_actions_mask()
            assert len(mask) == game.num_distinct_actions
            assert [i for i, m in enumerate(mask) if m] == legal
            seat = state.current_player()
            assert 0 <= seat < players
            tensor = state.observation_tensor(seat)
            assert (len(tensor),) == shape and all(type(x) is float for x in tensor)
            if not state.staged and rng.random() < WALK_RATE:
                check_every_listed_action_is_reachable(state)
                walked += 1
            state.apply_action(rng.choice(legal))
            steps += 1
            assert steps <= game.max_game_length
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        assert (len(state.observation_tensor(0)),) == shape
    assert walked > 10


def test_a_clone_is_independent() -> None:
    game = LearningGame("classic", 4)
    rng = random.Random(5)
    state = game.new_initial_state(seed=5)
    for _ in range(60):
        before = state.to_json()
        other = state.clone()
        for _ in range(5):
            if not other.is_terminal():
                other.apply_action(rng.choice(other.legal_actions()))
        assert state.to_json() == before
        state.apply_action(rng.choice(state.legal_actions()))
        assert other.to_json() != state.to_json() or other.is_terminal()


def test_a_meld_is_formed_group_by_group_and_applied_by_commit() -> None:
    game = LearningGame("classic", 4)
    state = game.state_from_json(
        {
            "format": "canasta-learning/1",
            **game.options_json(),
            "position": position_to_json(
                position_from_json(
                    {
                        "variant": "classic",
                        "dealer": 3,
                        "turn": 0,
                        "phase": "play",
                        "drew": "stock",
                        "hands": [["KS", "KH", "KD", "8S", "8H", "8D", "9D", "5C"], [], [], []],
                        "stock": ["5C", "QD"],
                        "pile": ["6C"],
                        "melds": [[], []],
                    }
                )
            ),
        }
    )
    space = game.actions
    kings = space.group_id(Rank.KING, 3, 0, 0)
    eights = space.group_id(Rank.EIGHT, 3, 0, 0)
    # groups of one step come in increasing id order: kings before eights
    assert kings in state.legal_actions() and eights not in state.legal_actions()
    assert COMMIT not in state.legal_actions()
    state.apply_action(kings)
    # 30 points are not the opening minimum of 50: the kings alone cannot be committed
    assert state.legal_actions() == [eights]
    assert state.engine.melds[0] == {}
    state.apply_action(eights)
    assert state.legal_actions() == [COMMIT]
    text = state.observation_string(0)
    assert "staged: group K 3n 0j 0t | group 8 3n 0j 0t" in text
    state.apply_action(COMMIT)
    assert sorted(r.value for r in state.engine.melds[0]) == ["8", "K"]
    assert state.staged == () and DISCARD + _card("9D") in state.legal_actions()


def test_an_illegal_id_is_refused_and_changes_nothing() -> None:
    state = LearningGame("classic", 4).new_initial_state(seed=2)
    state.apply_action(DRAW)
    before = state.to_json()
    missing = next(c for c in ALL_CARDS if c not in state.engine.hands[0])
    for bad in (COMMIT, DRAW, -1, 10**6, DISCARD + missing.index):
        with pytest.raises(ValueError, match=r"not legal here|outside"):
            state.apply_action(bad)
        assert state.to_json() == before


def test_every_id_has_a_text_that_reads_back() -> None:
    for variant, players, options in CONFIGURATIONS:
        game = LearningGame(variant, players, options)
        space = game.actions
        texts = [space.to_string(i) for i in range(game.num_distinct_actions)]
        assert len(set(texts)) == game.num_distinct_actions
        assert [space.from_string(t) for t in texts] == list(range(game.num_distinct_actions))
    space = LearningGame("classic", 4).actions
    assert space.to_string(DRAW) == "draw" and space.from_string(" Discard ks ") == DISCARD + _card("KS")
    for bad in ("discard XX", "group K 3 0 0", "take 99n 0j 0t", "fly", "group 2 1n 0j 0t"):
        with pytest.raises(ValueError, match="not an action"):
            space.from_string(bad)


def test_the_action_space_bounds_follow_the_rule_set() -> None:
    classic = LearningGame("classic", 4)
    modern = LearningGame("modern-american", 4)  # at most 2 wild cards in a natural meld
    six = LearningGame("classic", 6)  # three packs: up to 12 naturals of a rank
    assert modern.num_distinct_actions < classic.num_distinct_actions < six.num_distinct_actions
    six.actions.group_id(Rank.KING, 12, 1, 2)
    with pytest.raises(KeyError):
        classic.actions.group_id(Rank.KING, 9, 0, 0)
    with pytest.raises(KeyError):
        modern.actions.group_id(Rank.KING, 2, 1, 2)


def test_a_seeded_deal_is_the_games_deal() -> None:
    for seed in (1, 7):
        state = LearningGame("classic", 4).new_initial_state(seed=seed)
        assert position_to_json(state.engine) == position_to_json(Game.new("classic", 4, seed=seed).current)
    five = LearningGame("classic", 5).new_initial_state(seed=3)
    assert position_to_json(five.engine) == position_to_json(Game.new("classic", 5, seed=3).current)


def test_the_deal_is_a_chance_node_per_card() -> None:
    game = LearningGame("classic", 4)
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.legal_actions_mask() == [0] * game.num_distinct_actions
    deck = [c for c in ALL_CARDS for _ in range(game.deck_counts[c.index])]
    random.Random(4).shuffle(deck)
    for i, card in enumerate(deck):
        outcomes = dict(state.chance_outcomes())
        assert outcomes[card.index] == pytest.approx(
            (game.deck_counts[card.index] - deck[:i].count(card)) / (len(deck) - i)
        )
        state.apply_action(card.index)
    assert not state.is_chance_node() and state.chance_outcomes() == []
    dealt = LearningGame("classic", 4).new_initial_state()
    dealt.deal(deck)
    assert position_to_json(state.engine) == position_to_json(dealt.engine)
    with pytest.raises(InvalidActionError, match="already been dealt"):
        dealt.deal(deck)
    partly = game.new_initial_state()
    partly.apply_action(next(c for c in deck if c is not deck[0]).index)
    with pytest.raises(InvalidActionError, match="does not begin with the cards dealt so far"):
        partly.deal(deck)
    with pytest.raises(InvalidActionError, match="the deck has 107 cards"):
        game.new_initial_state().deal(deck[:-1])
    with pytest.raises(ValueError, match="no JK is left"):
        exhausted = game.new_initial_state()
        for _ in range(5):
            exhausted.apply_action(_card("JK"))


def test_returns_are_the_team_scores_in_thousands() -> None:
    game = LearningGame("classic", 4)
    rng = random.Random(3)
    state = game.new_initial_state(seed=3)
    assert state.returns() == [0.0] * 4
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    result = state.engine.result
    assert result is not None
    totals = [part.total / 1000 for part in result.scores]
    assert state.returns() == [totals[0], totals[1], totals[0], totals[1]]
    low, high = game.bounds()
    assert all(low <= r <= high for r in state.returns())


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGURATIONS, ids=CONFIG_IDS)
def test_no_hidden_card_reaches_a_seat(variant: str, players: int, options: dict) -> None:
    """Two states that differ only in one hidden card of one hand give every other seat the
    same observations; the seat holding it sees the difference."""
    game = LearningGame(variant, players, options)
    rng = random.Random(f"hidden/{variant}/{players}/{options}")
    state = game.new_initial_state(seed=8)
    checked = 0
    while not state.is_terminal() and checked < 4:
        for _ in range(rng.randrange(5, 40)):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        position = position_to_json(state.engine)
        holder = rng.choice([s for s in range(players) if position["hands"][s]])
        hand, stock = list(position["hands"][holder]), list(position["stock"])
        unknown = [c for c in hand if c not in position["known"][holder]]
        swaps = [(c, i) for c in unknown for i, d in enumerate(stock) if d != c]
        if state.is_terminal() or not swaps:
            continue
        card, i = swaps[0]
        hand[hand.index(card)], stock[i] = stock[i], card
        hands = [hand if s == holder else h for s, h in enumerate(position["hands"])]
        changed = {**position, "hands": hands, "stock": stock}
        other = game.state_from_json({**state.to_json(), "position": changed})
        assert position_to_json(other.engine) != position
        for seat in range(players):
            same = seat != holder
            assert (other.observation_tensor(seat) == state.observation_tensor(seat)) is same
            assert (other.observation_string(seat) == state.observation_string(seat)) is same
            assert (other.information_state_string(seat) == state.information_state_string(seat)) is same
        checked += 1
    assert checked


def test_resampling_keeps_what_the_seat_knows() -> None:
    game = LearningGame("classic", 4)
    rng = random.Random(8)
    state = game.new_initial_state(seed=8)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(4):
        resampled = state.resample(seat, random.Random(seat))
        assert resampled.information_state_string(seat) == state.information_state_string(seat)
        assert resampled.observation_tensor(seat) == state.observation_tensor(seat)
    mover = state.current_player()
    assert state.resample(mover, random.Random(1)).legal_actions() == state.legal_actions()
    stocks = {str(state.resample(0, random.Random(i)).engine.stock) for i in range(3)}
    assert stocks != {str(state.engine.stock)}


def test_the_tensor_reads_as_the_table() -> None:
    game = LearningGame("classic", 4)
    rng = random.Random(6)
    state = game.new_initial_state(seed=6)
    while not any(state.engine.melds) or state.engine.phase != "draw" or not state.engine.pile:
        state.apply_action(rng.choice(state.legal_actions()))
    engine = state.engine
    seat = state.current_player()
    tensor = state.observation_tensor(seat)

    def piece(name: str) -> list[float]:
        offset, shape = game.observation.pieces[name]
        size = 1
        for n in shape:
            size *= n
        return tensor[offset : offset + size]

    assert piece("hand") == [float(engine.hands[seat].count(c)) for c in ALL_CARDS]
    assert piece("pile_top") == [float(c is engine.pile[-1]) for c in ALL_CARDS]
    assert piece("stock") == [float(len(engine.stock))]
    sizes = [len(engine.hands[(seat + r) % 4]) for r in range(4)]
    assert piece("hand_sizes") == [float(n) for n in sizes]
    team = seat % 2
    melds = piece("melds")
    for rel in range(2):
        for rank, cards in engine.melds[(team + rel) % 2].items():
            row = (rel * 13 + [*GROUP_RANKS].index(rank)) * 4
            jokers = sum(c.is_joker for c in cards)
            twos = sum(c.is_two for c in cards)
            assert melds[row : row + 4] == [1.0, len(cards) - jokers - twos, jokers, twos]
    assert sum(melds[::4]) == sum(len(m) for m in engine.melds)
    assert piece("phase") == [0.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_serialisation_round_trips(seed: int) -> None:
    game = LearningGame("online", 2, {"target_score": 2500}, scores=[1500, 0])
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(50):  # partly dealt
        state.apply_action(rng.choice(state.legal_actions()))
    copies = [game.state_from_json(state.to_json()), pickle.loads(pickle.dumps(state))]
    for copy in copies:
        assert copy.to_json() == state.to_json() and copy.legal_actions() == state.legal_actions()
    deal_out(state, rng)
    staged = 0
    while not state.is_terminal():
        copy = pickle.loads(pickle.dumps(state))
        assert copy.to_json() == state.to_json()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.information_state_string(0) == state.information_state_string(0)
        assert copy.observation_tensor(1) == state.observation_tensor(1)
        staged += bool(state.staged)
        state.apply_action(rng.choice(state.legal_actions()))
    assert game.state_from_json(state.to_json()).returns() == state.returns()
    assert staged


def test_bad_serialised_states_are_refused() -> None:
    game = LearningGame("classic", 4)
    state = game.new_initial_state(seed=1)
    good = state.to_json()
    for bad in (
        {},
        {**good, "format": "x"},
        {**good, "staged": [COMMIT]},
        {**good, "history": ["draw"]},
        {**good, "position": {"format": "canasta-position/1"}},
        {**good, "players": 2},
        {"format": "canasta-learning/1", **game.options_json(), "deck": ["JK"] * 5},
    ):
        with pytest.raises(InvalidActionError):
            game.state_from_json(bad)
    with pytest.raises(InvalidActionError, match="scores must be 2 whole numbers"):
        LearningGame("classic", 4, scores=[1, 2, 3])
    for seat in (4, -1, "0"):
        with pytest.raises(ValueError, match="is not a seat of this 4-player game"):
            state.observation_tensor(seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="an action id is a whole number"):
        state.apply_action("draw")  # type: ignore[arg-type]
    assert state.to_json() == good


def _card(code: str) -> int:
    return Card.parse(code).index


def test_the_guides_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    guide = (Path(__file__).resolve().parent.parent / "docs" / "learning.md").read_text(encoding="utf-8")
    example = re.findall(r"```python\n(.*?)```", guide, re.S)[0]
    exec(compile(example, "docs/learning.md", "exec"), {})
    returns = ast.literal_eval(capsys.readouterr().out.strip())
    assert len(returns) == 4 and returns[0] == returns[2] and returns[1] == returns[3]
