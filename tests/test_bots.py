"""The bots: names, legality in every preset, honesty (the view only), sound play, a strength tripwire."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from canasta.bots import BOT_NAMES, Bot, make_bot
from canasta.bots.evaluation import evaluate
from canasta.bots.heuristic import decide, decide_on
from canasta.bots.search import (
    DEFAULT_ITERATIONS,
    DEFAULT_SECONDS,
    WIDEN,
    Reply,
    SearchBot,
    candidates,
    continuation,
    determinize,
    pick,
)
from canasta.bots.skill import CAREFUL_HOLD, HARD
from canasta.bots.table import Table
from canasta.rules import (
    Answer,
    Ask,
    Card,
    Discard,
    Group,
    Meld,
    Pickup,
    Rank,
    RuleSet,
    SeatView,
    State,
    make_deck,
    position_to_json,
    resample,
)
from canasta.rules.game import default_dealer
from canasta.rules.legal import DISCARDS, DRAW
from support import make_state

PRESETS = [
    ("classic", 2, {}),
    ("classic", 3, {}),
    ("classic", 4, {}),
    ("classic", 5, {}),
    ("classic", 6, {}),
    ("classic", 6, {"teams": 3}),
    ("modern-american", 4, {}),
    ("online", 2, {}),
    ("online", 4, {}),
    ("mendelev", 4, {}),
]
PRESET_IDS = [f"{v}-{p}{'-3teams' if o else ''}" for v, p, o in PRESETS]


def deal(variant: str, players: int, options: dict[str, Any], seed: int, index: int = 0) -> State:
    rules = RuleSet.preset(variant, players, options)
    deck = make_deck(rules.decks, rules.jokers)
    random.Random(seed).shuffle(deck)
    dealer, out = default_dealer(rules, index)
    return State.deal(rules, deck, dealer, None, out)


def play_out(state: State, bots: list[Bot], seed: int, limit: int = 5000) -> State:
    """Play the deal to its end; every action must be legal (`apply` raises otherwise)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over:
            return state
        seat = state.to_move
        view = state.view(seat)
        action = bots[seat].choose(view, rng)
        assert action in view.legal or state.check(action) is None, (bots[seat].name, action)
        state.apply(action)
    raise AssertionError("the deal did not end")


def turn(state: State, bot: Bot, seat: int) -> list[Any]:
    """Let `bot` play `seat`'s moves until another seat is to move; the actions played."""
    played = []
    rng = random.Random(0)
    while not state.is_over and state.to_move == seat:
        action = bot.choose(state.view(seat), rng)
        state.apply(action)
        played.append(action)
    return played


# -- names ---------------------------------------------------------------------------------------


def test_bot_names_and_specs() -> None:
    assert BOT_NAMES == ("random", "easy", "normal", "hard", "careful", "search")
    for name in BOT_NAMES:
        assert make_bot(name).name == name
    search = make_bot("search:iterations=300")
    assert isinstance(search, SearchBot) and search.iterations == 300 and search.seconds is None
    default = make_bot("search")
    assert isinstance(default, SearchBot)
    assert (default.iterations, default.seconds) == (DEFAULT_ITERATIONS, DEFAULT_SECONDS)
    assert default.tree and default.melds
    timed = make_bot("search:time=0.5,policy=normal,width=3,confidence=2,horizon=20,tree=off,melds=off")
    assert isinstance(timed, SearchBot)
    assert (
        timed.iterations,
        timed.seconds,
        timed.policy.name,
        timed.width,
        timed.confidence,
        timed.horizon,
        timed.tree,
        timed.melds,
    ) == (None, 0.5, "normal", 3, 2.0, 20, False, False)


@pytest.mark.parametrize(
    "spec",
    [
        "nobody",
        "hard:iterations=3",
        "search:iterations",
        "search:depth=3",
        "search:time=-1",
        "search:iterations=x",
        "search:policy=genius",
        "search:confidence=-1",
        "search:horizon=0",
        "search:horizon=1.5",
        "search:tree=yes",
        "search:melds=1",
    ],
)
def test_bad_bot_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError):
        make_bot(spec)


def test_a_bot_is_asked_only_for_the_seat_to_move() -> None:
    state = deal("classic", 4, {}, 1)
    assert state.to_move == 0
    for name in ("easy", "normal", "hard", "search"):
        with pytest.raises(ValueError, match="seat to move"):
            make_bot(name).choose(state.view(1), random.Random(0))


# -- legality everywhere ---------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "options"), PRESETS, ids=PRESET_IDS)
def test_heuristic_levels_play_whole_deals_legally(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    specs = ["hard", "normal", "easy", "random"]
    for seed in range(2):
        bots = [make_bot(specs[(s + seed) % len(specs)]) for s in range(players)]
        state = play_out(deal(variant, players, options, seed, index=seed), bots, seed)
        assert state.result is not None


@pytest.mark.parametrize(
    ("variant", "players"), [("classic", 4), ("modern-american", 4), ("online", 2), ("mendelev", 4)]
)
def test_search_plays_a_whole_deal_legally(variant: str, players: int) -> None:
    bots = [make_bot("search:iterations=2") if s % 2 == 0 else make_bot("hard") for s in range(players)]
    assert play_out(deal(variant, players, {}, 3), bots, 3).result is not None


# -- honesty -------------------------------------------------------------------------------------


def reshuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position for `seat` with every card it cannot see dealt again: the other hands
    (beyond the cards known from pickups) and the stock are shuffled among themselves."""
    other = state.clone()
    pool: list[Card] = list(other.stock)
    for s, hand in enumerate(other.hands):
        if s != seat:
            rest = list(hand)
            for card in other.known[s]:
                rest.remove(card)
            pool.extend(rest)
    rng.shuffle(pool)
    for s, hand in enumerate(other.hands):
        if s != seat:
            need = len(hand) - len(other.known[s])
            other.hands[s] = [*other.known[s], *pool[:need]]
            del pool[:need]
    other.cards.stock = pool
    return other


def positions(variant: str, players: int, seed: int, count: int) -> list[State]:
    """Positions along a deal played by `hard` (copies, taken at spread-out moments)."""
    state = deal(variant, players, {}, seed)
    bot = make_bot("hard")
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over and len(out) < count:
        if step % 7 == 3:
            out.append(state.clone())
        state.apply(bot.choose(state.view(state.to_move), rng))
        step += 1
    return out


def test_a_view_holds_no_path_to_the_state() -> None:
    state = deal("classic", 4, {}, 1)
    view = state.view(0)
    assert isinstance(view, SeatView)
    for value in (getattr(view, f.name) for f in dataclasses.fields(view)):
        assert not isinstance(value, State)
        if isinstance(value, tuple):
            assert not any(isinstance(v, State) for v in value)
    assert not hasattr(view, "__dict__") or set(vars(view)) == {f.name for f in dataclasses.fields(view)}


@pytest.mark.parametrize("spec", ["random", "easy", "normal", "hard", "search:iterations=6"])
@pytest.mark.parametrize(
    ("variant", "players"), [("classic", 4), ("modern-american", 4), ("online", 2), ("classic", 3)]
)
def test_a_bot_decides_from_its_view_only(spec: str, variant: str, players: int) -> None:
    changed = 0
    for state in positions(variant, players, seed=5, count=4):
        seat = state.to_move
        other = reshuffle_hidden(state, seat, random.Random(99))
        changed += any(
            a != b for s, (a, b) in enumerate(zip(state.hands, other.hands, strict=True)) if s != seat
        )
        first, second = state.view(seat), other.view(seat)
        assert first == second and first is not second
        a = make_bot(spec).choose(first, random.Random(17))
        b = make_bot(spec).choose(second, random.Random(17))
        assert a == b
    assert changed  # the hidden cards really differed


def test_search_determinizations_are_consistent_and_keep_bonus_threes_laid_out() -> None:
    for variant in ("modern-american", "classic"):
        for state in positions(variant, 4, seed=2, count=3):
            seat = state.to_move
            view = state.view(seat)
            for seed in range(5):
                world = determinize(view, random.Random(seed))
                again = world.view(seat)
                assert dataclasses.replace(again, legal=()) == dataclasses.replace(view, legal=())
                assert set(again.legal) == set(view.legal)
                for s, hand in enumerate(world.hands):
                    bonus = [c for c in hand if c.is_red_three or (variant != "classic" and c.is_three)]
                    assert s == seat or not bonus


def test_search_determinizations_give_no_pair_of_a_rank_a_seat_discarded_or_let_pass() -> None:
    """Seat 1 discarded KD, which seat 2 let pass; seat 2 discarded 9S, which seat 3 let pass;
    seat 3 discarded 7C. Plain `resample` often deals those seats such pairs; `determinize` never."""
    s = make_state(phase="draw", hands=[["AS", "AH", "5D"], [], [], []], pile=["KD", "9S", "7C"], stock=[])
    pool = make_deck(2, 4)
    for card in (*s.hands[0], *s.pile):
        pool.remove(card)
    random.Random(0).shuffle(pool)
    s.hands[1:] = [pool[0:11], pool[11:22], pool[22:33]]
    s.cards.stock = pool[33:]
    view = s.view(0)
    limits = {1: [Rank.KING], 2: [Rank.KING, Rank.NINE], 3: [Rank.NINE, Rank.SEVEN]}

    def violations(world: State) -> int:
        hands = world.hands
        return sum(sum(c.rank is rank for c in hands[seat]) > 1 for seat in limits for rank in limits[seat])

    assert sum(violations(resample(view, random.Random(seed))) for seed in range(40)) > 0
    for seed in range(40):
        world = determinize(view, random.Random(seed))
        assert violations(world) == 0
        assert [len(h) for h in world.hands] == [3, 11, 11, 11]


def test_search_overrules_the_heuristic_only_on_a_clear_advantage() -> None:
    assert pick([[0.0] * 4, [10.0] * 4], 1.0) == 1
    assert pick([[0.0] * 4, [10.0, -10.0, 10.0, -10.0]], 1.0) == 0
    noisy = [[0.0] * 4, [30.0, -10.0, 30.0, -10.0]]  # mean +10, standard error about 11.5
    assert pick(noisy, 1.0) == 0
    assert pick(noisy, 0.5) == 1
    assert pick([[0.0] * 4, [5.0] * 4, [9.0] * 4], 1.0) == 2


def test_the_turn_tree_plays_the_heuristics_discard_until_a_node_is_known_then_ucb1() -> None:
    node = Reply([Discard(Card.parse(code)) for code in ("9S", "6S", "KS")])
    value = {0: 100.0, 1: -500.0, 2: 400.0}
    for _ in range(WIDEN):  # an information set seen a few times: the heuristic's choice
        assert node.select() == 0
        node.update(0, value[0])
    assert node.select() == 1  # then every alternative once, in order
    node.update(1, value[1])
    assert node.select() == 2
    node.update(2, value[2])
    for _ in range(300):
        choice = node.select()
        node.update(choice, value[choice])
    assert node.visits[2] > 250 and node.visits[1] < node.visits[0] < 25
    assert node.totals[2] == value[2] * node.visits[2]


def test_the_search_weighs_holding_back_a_meld_and_melding_before_a_discard() -> None:
    """Against the heuristic's meld, melding nothing more (its discard now); against its discard
    while it holds cards back, melding what lowers the hand first. Which cards make a meld stays
    the heuristic's, and with `melds` off its meld is not weighed at all."""
    hand = ["QC", "KS", "KH", "KD", "JS", "JH", "5S", "10H"]
    mover = make_state(hands=[hand, *OTHERS], pile=["10S", "10H", "JD"], melds=OPENED).mover()
    meld = decide(mover, HARD, random.Random(0))
    assert isinstance(meld, Meld) and [c.code for c in meld.melds[0].cards] == ["QC"]
    assert candidates(mover, meld, 3, True) == [meld, Discard(Card.parse("10H"))]
    assert candidates(mover, meld, 3, False) == [meld]
    holding = make_state(hands=[["QC", "JS", "JH", "5S", "5C"], *OTHERS], pile=["10S"], melds=OPENED).mover()
    discard = decide(holding, HARD, random.Random(0))
    assert discard == Discard(Card.parse("JS"))  # five cards kept while the team lacks a canasta
    options = candidates(holding, discard, 3, True)
    assert options[:2] == [discard, Meld((Group((Card.parse("QC"),)),))]
    assert options[2:] == candidates(holding, discard, 3, False)[1:]


@pytest.mark.parametrize("variant", ["classic", "modern-american"])
def test_the_table_claims_listed_only_what_the_engine_lists(variant: str) -> None:
    """`Table.listed` (which the playouts apply unjudged) holds only for actions `legal_actions`
    lists for the position, and applying the heuristic's choice so reaches the position `apply`
    does."""
    rules = RuleSet.preset(variant, 4)
    rng = random.Random(5)
    claimed = 0
    for _ in range(3):
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        state = State.deal(rules, deck, 0)
        while not state.is_over:
            table = Table(state.mover())
            action = decide_on(table, HARD, rng)
            table.discards(), table.pickups()  # every claim the table can make
            legal = state.legal_actions()
            hand = state.hands[state.to_move]
            tried = [action, DRAW, *[DISCARDS[c.index] for c in hand], *legal]
            assert [a for a in tried if table.listed(a) and a not in legal] == []
            judged = state.clone()
            judged.apply(action)
            if table.listed(action):
                claimed += 1
                state.apply_listed(action)
                assert position_to_json(state) == position_to_json(judged)
            else:
                state = judged
    assert claimed > 100


class StepClock:
    """A clock that moves on by `step` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def discard_position() -> State:
    """Team 0 to discard from a hand of six, with several discards worth comparing."""
    return make_state(
        hands=[["9S", "6S", "KS", "KH", "JS", "JH"], *OTHERS],
        pile=["10S", "10H", "JD", "AS", "AC", "5C", "5H", "KD"],
        melds=OPENED,
    )


def test_search_stops_at_its_deadline_read_before_every_continuation() -> None:
    view = discard_position().view(0)
    unhurried = SearchBot(iterations=40, clock=StepClock(0.01))
    unhurried.choose(view, random.Random(0))
    assert unhurried.continuations >= 40  # the budget in iterations, whatever the clock says
    bot = SearchBot(seconds=0.1, clock=StepClock(0.01))  # deadline 0.11: ten more readings
    action = bot.choose(view, random.Random(0))
    assert view.mover().check(action) is None
    assert 1 <= bot.continuations < 10
    late = SearchBot(seconds=0.5, clock=StepClock(1.0))  # spent before the first continuation
    assert late.choose(view, random.Random(0)) == make_bot("hard").choose(view, random.Random(0))
    assert late.continuations == 0


def test_a_continuation_is_evaluated_at_its_horizon_and_scored_at_the_end_of_the_deal() -> None:
    ahead = make_state(
        melds=[[["QS", "QH", "QD", "QC", "QS", "QH", "QD"], ["9S", "9H", "9D"]], []],
        hands=[["4S", "5H"], ["KS", "KH", "KD", "JS", "JH", "8C", "8D"], ["4D"], ["7C", "7D"]],
    )
    assert evaluate(ahead, 0) > 300 and evaluate(ahead, 1) == -evaluate(ahead, 0)
    assert continuation(ahead.clone(), 0, random.Random(1), horizon=1) != continuation(
        ahead.clone(), 0, random.Random(1), horizon=400
    )
    ended = ahead.clone()
    while not ended.is_over:
        ended.apply(make_bot("hard").choose(ended.view(ended.to_move), random.Random(0)))
    assert ended.result is not None
    scores = [part.total for part in ended.result.scores]
    assert continuation(ended, 0, random.Random(0)) == scores[0] - scores[1]


# -- sound play ----------------------------------------------------------------------------------

#: Small hands for the seats a test does not look at.
OTHERS = [["4S", "4H"], ["4D", "4C"], ["7S", "7H"]]
#: Both teams have opened; the opponents (team 1) have melded nines, eights and sixes.
OPENED = [[["QS", "QH", "QD"]], [["9H", "9D", "9C"], ["8H", "8D", "8C"], ["6H", "6D", "6C"]]]
#: Team 0 has a canasta of queens and may go out.
CANASTA = [[["QS", "QH", "QD", "QC", "QS", "QH", "QD"]], [["9H", "9D", "9C"]]]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_a_big_pile(level: str) -> None:
    s = make_state(
        phase="draw",
        hands=[["KH", "KD", "5S", "7C", "JD"], *OTHERS],
        pile=["10S", "10H", "JH", "AS", "AC", "5C", "5H", "KS"],
        melds=OPENED,
    )
    assert isinstance(make_bot(level).choose(s.view(0), random.Random(0)), Pickup)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_does_not_feed_the_opponents_melds(level: str) -> None:
    s = make_state(
        hands=[["9S", "6S", "KS", "KH", "JS", "JH"], *OTHERS],
        pile=["10S", "10H", "JD", "AS", "AC", "5C", "5H", "KD"],
        melds=OPENED,
    )
    played = turn(s, make_bot(level), 0)
    assert isinstance(played[-1], Discard) and played[-1].card.rank not in (Rank.NINE, Rank.SIX)


def test_hard_freezes_a_pile_the_opponents_would_take() -> None:
    s = make_state(
        hands=[["9S", "8S", "6S", "2C", "2D"], *OTHERS],
        pile=["10S", "10H", "JD", "AS", "AC", "5C", "5H", "KD", "JC"],
        melds=OPENED,
    )
    played = turn(s, make_bot("hard"), 0)
    assert isinstance(played[-1], Discard) and played[-1].card.is_wild
    assert s.pile_frozen


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_goes_out_when_it_can(level: str) -> None:
    s = make_state(
        hands=[["KS", "KH", "KD", "5S"], *OTHERS], melds=CANASTA, seat_melded=[True, False, False, False]
    )
    turn(s, make_bot(level), 0)
    assert s.result is not None and s.result.went_out == 0


def test_modern_american_does_not_start_a_short_meld_of_sevens() -> None:
    s = make_state(
        "modern-american",
        hands=[["7S", "7H", "7D", "9S", "9H", "9D", "5C", "KD", "JC"], *OTHERS],
        melds=[[["QS", "QH", "QD"]], [["10H", "10D", "10C"]]],
        pile=["6S"],
    )
    turn(s, make_bot("hard"), 0)
    assert Rank.SEVEN not in s.melds[0] and Rank.NINE in s.melds[0]


def test_online_sheds_a_black_three_first() -> None:
    s = make_state(
        "online",
        2,
        hands=[["3S", "9S", "8H", "KD", "KC", "6D"], ["4S", "4H", "4D", "5C"]],
        melds=[[["QS", "QH", "QD"]], [["10H", "10D", "10C"]]],
        pile=["6S", "JH"],
    )
    assert turn(s, make_bot("hard"), 0)[-1] == Discard(Card.parse("3S"))


@pytest.mark.parametrize(("variant", "melds"), [("online", False), ("classic", True)])
def test_alone_and_drawing_one_card_hard_keeps_its_hand(variant: str, melds: bool) -> None:
    """Two players drawing one card a turn (online): melding would shrink the hand for good,
    so `hard` keeps all but three of its dealt cards until it can go out; drawing two
    (classic), it melds."""
    hand = ["KS", "KH", "KD", "9S", "9H", "9D", "8C", "8D", "6S", "6H", "5C", "JC", "4D"]
    s = make_state(variant, 2, hands=[hand, ["4S", "4H", "5D", "7C"]],
                   melds=[[["QS", "QH", "QD"]], [["10H", "10D", "10C"]]], pile=["6D", "JH"])
    played = turn(s, make_bot("hard"), 0)
    assert isinstance(played[-1], Discard)
    assert (len(played) > 1) == melds and (Rank.KING in s.melds[0]) == melds


def test_mendelev_buys_the_top_card_to_go_out() -> None:
    s = make_state(
        "mendelev",
        phase="draw",
        hands=[["KS", "KH", "5S", "5H", "5D"], *OTHERS],
        melds=CANASTA,
        pile=["8S", "JH", "JD", "KD"],
        seat_melded=[True, False, False, False],
    )
    assert any(isinstance(a, Pickup) and a.top_only for a in s.legal_actions())
    turn(s, make_bot("hard"), 0)
    assert s.result is not None and s.result.went_out == 0
    assert s.pile == [Card.parse(c) for c in ("8S", "JH", "JD")]


@pytest.mark.parametrize(
    ("hand", "yes"), [(["5S", "6H"], True), (["AS", "AH", "KD", "QC", "JD", "9S", "10H", "8D"], False)]
)
def test_partner_answers_from_its_own_hand(hand: list[str], yes: bool) -> None:
    s = make_state(hands=[["KS", "KH", "KD", "5S"], OTHERS[0], hand, OTHERS[2]], melds=CANASTA)
    s.apply(Ask())
    assert s.to_move == 2
    assert make_bot("hard").choose(s.view(2), random.Random(0)) == Answer(yes)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_partner_says_no_while_the_side_lacks_the_canastas_to_go_out(level: str) -> None:
    """Asked with no canasta on the side (going out is out of reach), every level says no;
    with it, even `easy` says yes."""
    for melds, yes in (([[["QS", "QH", "QD"]], [["9H", "9D", "9C"]]], False), (CANASTA, True)):
        s = make_state(hands=[["KS", "KH", "KD", "5S"], OTHERS[0], ["5C", "6H"], OTHERS[2]], melds=melds)
        s.apply(Ask())
        assert make_bot(level).choose(s.view(2), random.Random(0)) == Answer(yes)


def test_the_careful_stand_in_keeps_most_of_the_hand_until_its_side_can_go_out() -> None:
    """With three melds of three in a hand of eleven, `normal` lays out six or more cards in one
    turn; `careful` (standing in for someone who will be back) keeps `CAREFUL_HOLD`, less the
    discard."""
    hand = ["KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD", "5C", "6H"]
    opened = [[["AS", "AH", "AD"]], [["9H", "9D", "9C"]]]
    kept = {}
    for level in ("normal", "careful"):
        s = make_state(hands=[hand, OTHERS[0], OTHERS[1], OTHERS[2]], melds=opened, phase="play",
                       seat_melded=[True, False, False, False])
        turn(s, make_bot(level), 0)
        kept[level] = len(s.hands[0])
    assert kept["normal"] <= 4 and kept["careful"] >= CAREFUL_HOLD - 1, kept  # less the discard


def test_asks_before_going_out_when_the_rules_demand_it() -> None:
    s = make_state(
        options={"permission_mode": "mandatory"},
        hands=[["KS", "KH", "KD", "5S"], OTHERS[0], ["6S", "6H"], OTHERS[2]],
        melds=CANASTA,
    )
    bot = make_bot("hard")
    assert bot.choose(s.view(0), random.Random(0)) == Ask()
    s.apply(Ask())
    s.apply(bot.choose(s.view(2), random.Random(0)))
    assert s.permission == "yes"
    turn(s, bot, 0)
    assert s.result is not None and s.result.went_out == 0


def test_takes_the_pile_it_must_take_after_the_stock_runs_out() -> None:
    s = make_state(
        phase="draw",
        hands=[["KS", "5S", "7C"], *OTHERS],
        melds=OPENED,
        pile=["JH", "QC"],
        stock=[],
    )
    action = make_bot("hard").choose(s.view(0), random.Random(0))
    assert isinstance(action, Pickup)
    s.apply(action)
    assert isinstance(turn(s, make_bot("hard"), 0)[-1], Discard)


# -- strength tripwire ---------------------------------------------------------------------------


def paired_margin(variant: str, strong: str, weak: str, deals: int) -> list[float]:
    """Per deal, `strong`'s team score minus `weak`'s, averaged over the two seatings of the deck."""
    rules = RuleSet.preset(variant, 4)
    a, b = make_bot(strong), make_bot(weak)
    out = []
    for seed in range(deals):
        margin = 0.0
        for swap in (0, 1):
            state = deal(variant, 4, {}, 1000 + seed)
            bots = [a if (rules.team_of(s) == 0) != bool(swap) else b for s in range(4)]
            result = play_out(state, bots, seed).result
            assert result is not None
            scores = [part.total for part in result.scores]
            margin += (scores[swap] - scores[1 - swap]) / 2
        out.append(margin)
    return out


@pytest.mark.parametrize(
    ("variant", "deals", "mean", "wins"), [("classic", 20, 700, 19), ("modern-american", 16, 2000, 12)]
)
def test_hard_beats_random_clearly(variant: str, deals: int, mean: float, wins: int) -> None:
    """Seeded deals, so the outcome is fixed: a change that weakens `hard` fails here."""
    margins = paired_margin(variant, "hard", "random", deals)
    assert sum(margins) / deals > mean
    assert sum(m > 0 for m in margins) >= wins


def test_search_beats_hard_on_seeded_deals() -> None:
    """A budget in continuations, not time, so the outcome is fixed: a change that breaks the
    search (its candidates, determinizations, continuations or evaluation) fails here. Twelve
    paired deals cannot show a small loss of strength: `benchmarks/bot_strength.py` measures it."""
    margins = paired_margin("classic", "search:iterations=40", "hard", 12)
    assert sum(margins) / len(margins) > 0
