"""The completeness contract of `legal_actions`: positions A-D of the rules-core issue, the
black-three pickup, stuck positions of every rule set, the order fixed by the view, and a
seeded sample of random positions for every configuration through the completeness checker."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from canasta.rules import Game, Meld, Pickup, RuleSet, State, make_deck, resample
from canasta.rules.actions import describe
from canasta.rules.cards import Rank
from canasta.rules.completeness import check_position, reachable
from canasta.rules.errors import IllegalActionError
from canasta.rules.game import default_dealer
from canasta.rules.hand import HandKinds
from canasta.rules.irreducible import LARGE_HAND_BUDGET, IrreducibleSearch, _bases
from canasta.rules.judge import POINTS, Judge
from canasta.rules.large_hands import large_hand_positions
from canasta.rules.melds import (
    dead_ranks,
    incomplete_special_counts,
    judged_alike,
    kills_rank,
    meld_error,
    wild_rule_error,
)
from canasta.rules.mover import Mover
from canasta.rules.position import position_from_json, position_to_json
from canasta.rules.ruleset import CONFIGURATIONS, configuration_label
from support import action, make_state

CONFIG_IDS = [configuration_label(*c) for c in CONFIGURATIONS]
#: The most moves a list may hold, however large the hand.
LIST_BOUND = 2_000


def listed_or_reachable(state: State, obj: dict[str, object]) -> None:
    """The action is legal, and listed or reached by listed actions of the same turn."""
    move = action(obj)
    assert state.check(move) is None, state.check(move)
    if move in state.legal_actions():
        return
    target = state.clone()
    target.apply(move)
    assert reachable(state, target), [describe(a) for a in state.legal_actions()]


def test_position_A_opening_of_five_kings_is_listed() -> None:
    s = make_state(hands=[["KS", "KH", "KD", "KC", "KS", "KH", "7D"], [], [], []], drew="stock")
    melds = [a for a in s.legal_actions() if isinstance(a, Meld)]
    assert [describe(m) for m in melds] == ["meld [KS KS KH KH KD]"]
    listed_or_reachable(s, {"type": "meld", "melds": [["KS", "KH", "KD", "KC", "KS"]]})


def test_position_B_pickup_with_two_kings_and_a_two() -> None:
    s = make_state(phase="draw", pile=["6C", "KD"], hands=[["KS", "KH", "2C", "9D", "7S"], [], [], []])
    assert any(isinstance(a, Pickup) for a in s.legal_actions())
    listed_or_reachable(s, {"type": "pickup", "with": ["KS", "KH", "2C"]})


def test_position_C_pickup_with_a_second_meld() -> None:
    hand = ["KS", "KH", "KC", "5S", "5H", "5D", "9D"]
    s = make_state(phase="draw", pile=["6C", "KD"], hands=[hand, [], [], []])
    listed_or_reachable(s, {"type": "pickup", "with": ["KS", "KH", "KC"], "melds": [["5S", "5H", "5D"]]})


def test_position_D_seed_3_first_turn_pickup_of_eights() -> None:
    game = Game.new("classic", players=4, seed=3)
    s = game.current
    assert s.pile[-1].code == "8D" and sum(c.rank.value == "8" for c in s.hands[s.turn]) >= 3
    eights = [c.code for c in s.hands[s.turn] if c.rank.value == "8"]
    assert any(isinstance(a, Pickup) for a in s.legal_actions())
    listed_or_reachable(s, {"type": "pickup", "with": eights})


def test_lone_wild_card_added_to_a_meld_is_listed() -> None:
    s = make_state(
        hands=[["JK", "9C", "9H", "5D"], [], [], []],
        melds=[[["8S", "8H", "8D"]], []],
        opened=[True, False],
        drew="stock",
    )
    assert any(describe(a) == "meld 8:[JK]" for a in s.legal_actions())


def test_black_three_pickup_never_uses_a_card_twice() -> None:
    hand = ["3C", "3C", "3S", "AH", "AD", "AC", "QH", "QD", "QS"]
    kings = ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]
    s = make_state(
        "online",
        4,
        phase="draw",
        pile=["3D", "3S"],
        hands=[hand, [], [], []],
        melds=[[kings], []],
        opened=[True, False],
    )
    assert any(isinstance(a, Pickup) for a in s.legal_actions())
    for move in s.legal_actions():
        assert s.check(move) is None, describe(move)
        s.clone().apply(move)


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_stuck_position_ends_the_deal(config: tuple[str, int, dict[str, object]]) -> None:
    """A48: to draw from an empty stock with no way to take the pile ends the deal at once."""
    variant, players, options = config
    spare = ["7C", "8D", "6S", "5C", "4H", "10S", "JC", "QD", "9S", "8H"]
    hands = [["9C", "5D", "6H"]] + [spare[2 * i : 2 * i + 2] for i in range(players - 1)]
    fields: dict[str, object] = {"sitting_out": 4, "dealer": 3} if players == 5 else {}
    teams = RuleSet.preset(variant, players, options).teams
    s = make_state(
        variant,
        players,
        options,
        phase="draw",
        stock=[],
        pile=["KD"],
        hands=hands,
        melds=[[] for _ in range(teams)],
        red_threes=[[] for _ in range(teams)],
        **fields,
    )
    assert s.is_over and s.result is not None and s.result.reason == "stock_exhausted"
    assert s.legal_actions() == []


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_list_depends_only_on_the_view(config: tuple[str, int, dict[str, object]]) -> None:
    rules = RuleSet.preset(*config)
    rng = random.Random(11)
    game = Game(rules, seed=4)
    game.next_deal()
    state = game.current
    checked = 0
    while not state.is_over and checked < 40:
        view = state.view(state.to_move)
        moves = state.legal_actions()
        for _ in range(3):
            world = resample(view, rng)
            assert world.legal_actions() == moves
        checked += 1
        state.apply(rng.choice(moves))
    assert checked >= 10


def random_positions(config: tuple[str, int, dict[str, object]], count: int, seed: int) -> list[State]:
    """Positions met in seeded random play (deals past the first: cumulative scores vary)."""
    rules = RuleSet.preset(*config)
    rng = random.Random(seed)
    out: list[State] = []
    deal = 0
    while len(out) < count:
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        dealer, sitting_out = default_dealer(rules, deal)
        deal += 1
        scores = [rng.choice([0, -200, 1600, 3100]) for _ in range(rules.teams)]
        state = State.deal(rules, deck, dealer, scores, sitting_out)
        while not state.is_over:
            moves = state.legal_actions()
            if rng.random() < 0.15 and len(out) < count:
                out.append(state.clone())
            state.apply(rng.choice(moves))
    return out


def unopened_plays(config: tuple[str, int, dict[str, object]], count: int, seed: int) -> Iterator[Mover]:
    """The seat to play's knowledge in those of `count` random positions where its team has not
    opened (and no answer is awaited)."""
    for state in random_positions(config, count, seed):
        mover = state.mover()
        if state.phase == "play" and not state.board.opened[mover.team] and mover.now.permission != "pending":
            yield mover


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_completeness_checker_on_random_positions(config: tuple[str, int, dict[str, object]]) -> None:
    legal = 0
    for state in random_positions(config, 25, 2026):
        report = check_position(state, limit=400)
        assert report.ok, (report.unreachable, report.refused, report.dead_ends)
        legal += report.legal
    assert legal > 0


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_an_opening_told_short_from_counts_finds_nothing_walked(
    config: tuple[str, int, dict[str, object]],
) -> None:
    """Where the counts alone show that the hand cannot reach the opening minimum, the search
    skips its walk; walked all the same, it finds no opening."""
    short = 0
    for mover in unopened_plays(config, 150, 7):
        search = IrreducibleSearch(mover, Judge.of(mover, mover.team), mover.kinds(), None)
        if search._short(0, 0, 0):
            short += 1
            search._prepare()
            search._walk(None, 0, (), 0, 0, 0, 0, 0, search._left((None, ())))
            assert search.found == []
    assert config[0] != "modern-american" or short  # its minimum often exceeds what a hand holds


def test_black_threes_go_with_a_pickup_only_when_going_out() -> None:
    """A50: black threes are melded only when going out, with a pickup as with a meld."""
    hand = ["4S", "4D", "5S", "5H", "5C", "JK", "3S", "3C", "3C", "9H", "8D"]
    s = make_state(phase="draw", pile=["7H", "4C"], hands=[hand, [], [], []])
    move = {"type": "pickup", "with": ["4S", "4D"], "melds": [["5S", "5H", "5C", "JK"], ["3S", "3C", "3C"]]}
    assert s.check(action(move)) is not None
    assert s.check(action({**move, "melds": [["5S", "5H", "5C", "JK"]]})) is None


def test_going_out_with_two_cards_that_each_complete_a_needed_canasta_is_listed() -> None:
    """Classic 6 players needs two canastas: neither card alone may leave the other in hand."""
    kings = ["KS", "KS", "KH", "KD", "KC", "JK"]
    jacks = ["JS", "JH", "JD", "JC", "JC", "JK"]
    s = make_state(
        "classic",
        6,
        hands=[[], [], [], [], ["KD", "JD"], []],
        turn=4,
        drew="stock",
        melds=[[kings, jacks, ["9H", "9H", "9C"]], []],
        opened=[True, False],
    )
    assert s.check(action({"type": "meld", "melds": [["KD"]]})) is not None
    listed_or_reachable(s, {"type": "meld", "melds": [["KD"], ["JD"]]})


def test_the_canastas_cards_can_reach_complete_the_melds_lacking_fewest_first() -> None:
    """`Judge.canastas_within`, the bound under which no way of melding out is tried (going out
    needs canastas): melds short of seven completed, those lacking fewest first, then melds of
    seven new cards."""
    queens = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
    kings, jacks = ["KS", "KS", "KH", "KD", "KC", "JK"], ["JS", "JH", "JD", "JC", "2C"]
    nines = ["9H", "9H", "9C"]
    s = make_state(
        "classic",
        6,
        hands=[[], [], [], [], ["KD", "JD"], []],
        turn=4,
        drew="stock",
        melds=[[queens, nines, jacks, kings], []],
        opened=[True, False],
    )
    judge = Judge.of(s.mover(), 0)
    reached = [judge.canastas_within(cards) for cards in (0, 1, 2, 3, 6, 7, 13, 14)]
    assert reached == [1, 2, 2, 3, 3, 4, 4, 5]
    listed_or_reachable(s, {"type": "meld", "melds": [["KD"], ["JD"]]})  # the second canasta: kings


def test_melding_out_beside_a_dead_rank_of_the_team_is_listed() -> None:
    """A meld-out listed whole (each card alone would leave one that may not go out) leaves the
    team's meld of a rank dead to it as it is: with three canastas to make, kings and jacks each
    complete one beside the natural canasta of queens, which kills its rank (a house rule)."""
    options = {"dead_rank_trigger": "natural_canasta", "go_out_min_canastas": 3}
    queens = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
    kings, jacks = ["KS", "KS", "KH", "KD", "KC", "JK"], ["JS", "JH", "JD", "JC", "JC", "2C"]
    s = make_state(
        options=options,
        hands=[["KD", "JD"], [], [], []],
        drew="stock",
        melds=[[queens, kings, jacks], []],
        opened=[True, False],
    )
    assert Rank.QUEEN in Judge.of(s.mover(), 0).dead
    assert s.check(action({"type": "meld", "melds": [["KD"]]})) is not None
    assert action({"type": "meld", "melds": [["KD"], ["JD"]]}) in s.legal_actions()


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_apply_listed_reaches_what_apply_reaches(config: tuple[str, int, dict[str, object]]) -> None:
    """Applying a listed move unvalidated changes the state exactly as validating it does."""
    variant, players, options = config
    rules = RuleSet.preset(variant, players, options)
    rng = random.Random(11)
    for i in range(3):
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        dealer, sitting_out = default_dealer(rules, i)
        checked = State.deal(rules, deck, dealer, None, sitting_out)
        trusted = checked.clone()
        while not checked.is_over:
            move = rng.choice(checked.legal_actions())
            checked.apply(move)
            trusted.apply_listed(move)
            assert position_to_json(trusted) == position_to_json(checked), describe(move)


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_ranks_judged_alike_answer_every_melding_rule_alike(
    config: tuple[str, int, dict[str, object]],
) -> None:
    """The search remembers a step's verdict for every step whose ranks are judged alike
    (`judged_alike`): such ranks count the same points and every rule of melds, wild cards, dead
    ranks and going out answers them alike, at every size; the named ranks stand apart."""
    rules = RuleSet.preset(*config)
    by_alike: dict[int, list[Rank]] = {}
    for rank in Rank:
        by_alike.setdefault(judged_alike(rank), []).append(rank)
    shared = [ranks for ranks in by_alike.values() if len(ranks) > 1]
    assert sorted(len(ranks) for ranks in shared) == [3, 6]  # 6-5-4 and K-Q-J-10-9-8

    def answers(rank: Rank) -> tuple[object, ...]:
        grid = [(size, wilds) for size in range(31) for wilds in range(size + 1)]
        return (
            POINTS[rank],
            [
                meld_error(rules, rank, size, wilds, new) is None
                for size, wilds in grid
                for new in (True, False)
            ],
            [
                wild_rule_error(rules, rank, naturals, opening, pending) is None
                for naturals in range(31)
                for opening in (True, False)
                for pending in (True, False)
            ],
            [kills_rank(rules, rank, size, wilds) for size, wilds in grid],
            [incomplete_special_counts(rank, size, wilds) for size, wilds in grid],
        )

    for ranks in shared:
        first = answers(ranks[0])
        for rank in ranks[1:]:
            assert answers(rank) == first, (ranks[0], rank)


def _kinds_fields(kinds: HandKinds) -> tuple[object, ...]:
    return (
        list(kinds.naturals.items()),
        kinds.jokers,
        kinds.twos,
        kinds.black_threes,
        kinds.in_order,
        kinds.size,
    )


def _random_deals(config: tuple[str, int, dict[str, object]], seed: int) -> Iterator[State]:
    """Four seeded deals of random listed moves: each state before its move, and each deal's end."""
    rules = RuleSet.preset(*config)
    rng = random.Random(seed)
    for i in range(4):
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
        dealer, sitting_out = default_dealer(rules, i)
        state = State.deal(rules, deck, dealer, None, sitting_out)
        yield state
        while not state.is_over:
            state.apply_listed(rng.choice(state.legal_actions()))
            yield state


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_each_hand_by_kinds_follows_every_card_in_and_out(config: tuple[str, int, dict[str, object]]) -> None:
    """The hand by kinds a state keeps from one listing to the next, changed as cards are drawn,
    taken, melded and discarded, is the hand by kinds made afresh (its ranks in card order too)."""
    kept = 0
    for state in _random_deals(config, 9):
        if not state.is_over:
            mover = state.mover()
            kept += mover.keeps_kinds() and mover._kinds is not None
            assert _kinds_fields(mover.kinds()) == _kinds_fields(HandKinds(mover.hand))
    assert kept > 300


def test_a_kept_pickup_serves_only_the_group_it_was_made_for() -> None:
    """The pickup of the top card with one group is kept by that group's meld action: another
    hand's group of the same counts, or the same cards once the meld actions were forgotten, gets
    the pickup of its own cards."""
    from canasta.rules import hand as hands
    from canasta.rules.cards import parse_cards

    spec = (Rank.KING, 2, 1, 0)
    first = HandKinds(parse_cards("KS KH JK 5C 5D"))
    other = HandKinds(parse_cards("KD KC JK 9S 9H"))
    taken = first.single_pickup(spec)
    assert taken is first.single_pickup(spec) and taken == Pickup(parse_cards("KS KH JK"))
    assert other.single_pickup(spec) == Pickup(parse_cards("KD KC JK"))
    hands.SINGLES.clear()  # the meld actions forgotten: new objects, new ids
    again = HandKinds(parse_cards("KS KH JK 7C 7D")).single_pickup(spec)
    assert again == taken and other.single_pickup(spec) == Pickup(parse_cards("KD KC JK"))


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_the_counts_judged_and_the_dead_ranks_follow_every_meld(
    config: tuple[str, int, dict[str, object]],
) -> None:
    """The counts a judge reads of each team's melds, kept up to date as cards are laid, are the
    counts made afresh from the melds on the table; so are the ranks the table holds dead."""
    compared = 0
    for state in _random_deals(config, 5):
        board, rules = state.board, state.rules
        assert board.dead_ranks(rules) == dead_ranks(rules, board.melds)
        for team, kept in enumerate(board.judged):
            if kept is not None:
                board.judged[team] = None
                Judge.of(state.mover(), team)
                assert board.judged[team] == kept
                compared += 1
        if not state.is_over:
            for team in range(len(board.melds)):
                Judge.of(state.mover(), team)  # made now, to be followed through the next move
            board.dead_ranks(rules)  # made now, to be followed through the next move
    assert compared > 100


def test_apply_checked_reuses_the_movers_judgement_and_refuses_what_apply_refuses() -> None:
    """A bot's move applied as the mover that checked it judged it: the same position as `apply`
    reaches; a move the mover never checked is judged, and an illegal one changes nothing."""
    hand = ["AD", "AC", "AH", "5S", "9D"]
    s = make_state("classic", 4, hands=[hand, [], [], []], drew="stock", scores=[0, 0])
    meld = action({"type": "meld", "melds": [["AD", "AC", "AH"], ["5S", "9D", "JK"]]})
    mover = s.mover()
    assert mover.check(meld) is not None  # a wild card the hand does not hold: refused
    before = position_to_json(s)
    with pytest.raises(IllegalActionError):
        s.apply_checked(mover, meld)
    assert position_to_json(s) == before
    good = action({"type": "meld", "melds": [["AD", "AC", "AH"]]})
    plain = s.clone()
    plain.apply(good)
    mover = s.mover()
    step = mover.validate(good)
    assert mover.step_for(good) is step  # validated once: its step is reused
    s.apply_checked(mover, good)
    assert position_to_json(s) == position_to_json(plain)


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_large_hands_list_a_bounded_number_of_moves(config: tuple[str, int, dict[str, object]]) -> None:
    """Hands of 30–60 cards with many wild cards, in every phase a meld or a pickup is listed in:
    the list stays short enough to send and to choose from, and what it lists applies."""
    variant, players, options = config
    rules = RuleSet.preset(variant, players, options)
    longest = 0
    for state in large_hand_positions(rules, 12, seed=5):
        listed = state.legal_actions()
        longest = max(longest, len(listed))
        assert len(listed) <= LIST_BOUND
        for move in random.Random(len(listed)).sample(listed, min(len(listed), 5)):
            assert state.check(move) is None, describe(move)
    assert longest > 20  # the positions are large ones


def test_a_hand_of_21_cards_facing_120_lists_every_irreducible_opening() -> None:
    """Met in random play: 21 cards, four of them wild, many pairs, a minimum of 120. The search
    of its openings does more work than a larger hand may (it stopped there and 39 of its 136
    irreducible openings went unlisted), and lists them all: every legal opening is reached."""
    hand = "JK 2S 2D 2C AC KH KH KD JH 10H 9H 9C 8H 7S 7H 7C 6S 6S 6H 6H 3C"
    state = make_state(
        "classic",
        2,
        scores=[1600, 3100],
        turn=1,
        drew="stock",
        pile=["4S"],
        hands=[[], hand.split()],
        melds=[[["AS", "AH", "AH", "AD"], ["6C", "6C", "2H"], ["5S", "5D", "5D"]], []],
        opened=[True, False],
        seat_melded=[True, False],
        red_threes=[[], ["3H", "3H"]],
    )
    mover = state.mover()
    search = IrreducibleSearch(mover, Judge.of(mover, mover.team), mover.kinds(), None)
    assert len(search.combos((None,))) == 136
    assert LARGE_HAND_BUDGET < search.allowed - search.budget <= search.allowed
    report = check_position(state)
    assert report.legal > 150 and report.ok, report.unreachable[:3]


def test_a_large_hand_of_many_wild_cards_lists_taking_the_pile() -> None:
    """A hand of 42 cards, 8 of them wild, facing Modern American's minimum of 155 with a frozen
    pile: the search tries the wild cards' groups first, so its budget reaches the pickups (a
    walk over natural groups first spent it all and listed only the draw)."""
    rules = RuleSet.preset("modern-american", 4)
    state = list(large_hand_positions(rules, 10, seed=7))[9]
    mover = state.mover()
    assert len(state.hands[state.to_move]) == 42 and not mover.board.opened[mover.team]
    assert mover.frozen_for(mover.team) and rules.minimum_for(mover.board.scores[mover.team]) == 155
    pickups = [a for a in state.legal_actions() if isinstance(a, Pickup)]
    assert pickups
    for move in pickups:
        assert state.check(move) is None, describe(move)


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=CONFIG_IDS)
def test_a_listing_does_not_depend_on_what_the_rule_set_remembers(
    config: tuple[str, int, dict[str, object]],
) -> None:
    """The searches remember openings across listings in the rule set's cache, and large hands
    stop at a budget of work: listed again with everything remembered, each position lists the
    same moves as it did first, and as with a rule set that remembers nothing."""
    variant, players, options = config
    rules = RuleSet.preset(variant, players, options)
    positions = list(large_hand_positions(rules, 8, seed=11))
    met = random_positions(config, 40, 3)
    positions += [position_from_json(position_to_json(s), rules=rules) for s in met]
    first = [s.legal_actions() for s in positions]
    assert [s.legal_actions() for s in positions] == first
    fresh = RuleSet.preset(variant, players, options)
    assert [position_from_json(position_to_json(s), rules=fresh).legal_actions() for s in positions] == first


def test_top_card_purchase_of_a_huge_hand_is_listed_in_a_few_forms() -> None:
    """Buying only the top card with a 30-card hand of 8 wild cards, able to meld out: the
    purchase is listed in a bounded number of forms (not once per way of melding out), and
    laying the rest group by group, as listed, goes out."""
    hand = "JK JK JK JK 2S 2H 2D 2C " + " ".join(f"{r}S {r}H {r}D" for r in "AKQJ987") + " 6S"
    state = make_state(
        "mendelev",
        4,
        phase="draw",
        pile=["4C", "5C", "6D"],
        hands=[hand.split(), [], [], []],
        melds=[[["QC", "QC", "QD", "QH", "QS", "2C", "2D"], ["6C", "6H", "6H"]], []],
    )
    buys = [a for a in state.legal_actions() if isinstance(a, Pickup) and a.top_only]
    assert 0 < len(buys) <= 10
    state.apply(buys[-1])
    while not state.is_over:
        moves = state.legal_actions()
        assert moves and all(isinstance(m, Meld) for m in moves) and len(moves) <= LIST_BOUND
        state.apply(moves[0])
    assert state.result is not None and state.result.went_out == 0


def test_melding_out_after_a_black_three_pickup_is_listed() -> None:
    """Online for 2 players (two canastas to go out), reached by random play after a resample:
    the pickup melded black threes, so every card must be melded; laying off 10D and JC makes
    the team's tens and jacks its two canastas."""
    six = ["6S", "6H", "6H", "6D", "6C", "2C"]
    aces = ["AS", "AH", "AD", "AD", "AC", "2D"]
    tens = ["10S", "10S", "10H", "10H", "10D", "10C"]
    jacks = ["JS", "JH", "JH", "JD", "JC", "JK"]
    s = make_state(
        "online",
        2,
        hands=[["JC", "10D"], ["AS", "AH", "AC", "KC", "10C", "8H", "6C", "4C"]],
        drew="pile",
        turn_melded=True,
        turn_started=["3"],
        must_meld_out=True,
        melds=[[six, aces, tens, jacks, ["KS", "KS", "KH", "KH", "KD"], ["3S", "3S", "3C"]], []],
        opened=[True, True],
        seat_melded=[True, True],
    )
    assert s.check(action({"type": "meld", "melds": [["10D"]]})) is not None
    listed_or_reachable(s, {"type": "meld", "melds": [["10D"], ["JC"]]})


def test_a_black_three_pickup_whose_pile_completes_a_short_rank_is_listed() -> None:
    """A pickup that must leave every card meldable is searched only where no rank would stay too
    short for a meld; the pile's cards count: here they make a meld of the lone seven in hand."""
    canasta = [["KS", "KH", "KD", "KC", "KS", "KH", "KD"]]
    hands = [["3C", "3S", "7D", "KC"], ["5S"], ["6S"], ["8S"]]
    s = make_state("online", 4, phase="draw", pile=["7H", "7S", "3S"], hands=hands, melds=[canasta, []])
    listed = [a for a in s.legal_actions() if isinstance(a, Pickup)]
    assert [sorted(c.code for c in a.with_) for a in listed] == [["3C", "3S"]]
    assert walked_pickups(s) == [(a.with_, a.melds) for a in listed]
    short = make_state("online", 4, phase="draw", pile=["9H", "7S", "3S"], hands=hands, melds=[canasta, []])
    assert [a for a in short.legal_actions() if isinstance(a, Pickup)] == []
    assert walked_pickups(short) == []


def walked_pickups(state: State) -> list[tuple[object, object]]:
    """The pickups of a position as the search's walk finds them without first asking whether a
    rank would stay too short (`IrreducibleSearch.combos` asks it)."""
    mover = state.mover()
    hand = mover.kinds()
    top = mover.board.pile[-1]
    search = IrreducibleSearch(mover, Judge.of(mover, mover.team), hand, top)
    search.found = []
    melded = top.rank in mover.board.melds[mover.team]
    for base in _bases(mover, hand, top, mover.frozen_for(mover.team), melded):
        search._start(base)
    out = []
    for base, specs in search.found:
        assert base is not None
        out.append((hand.groups((base,))[0].cards, hand.groups(specs, (base,))))
    return out


def test_an_opening_stopped_for_its_composition_loses_nothing() -> None:
    """Where an opening must hold a clean meld of three naturals or a meld of wild cards, the walk
    stops where no rank left has such a group and the step holds none; walked to the end, it
    finds the same openings."""
    config = next(c for c in CONFIGURATIONS if c[0] == "modern-american")
    stopped = 0
    for mover in unopened_plays(config, 150, 7):
        judge = Judge.of(mover, mover.team)
        found = IrreducibleSearch(mover, judge, mover.kinds(), None).combos((None,))
        search = IrreducibleSearch(mover, judge, mover.kinds(), None)
        search._prepare()
        stopped += 0 <= search.composers < len(search.ranks)
        search.composers = -1  # no stop
        search.found = []
        search._start(None)
        walked = search.found
        assert (search._canonical(walked) if search.ranks[:1] == [Rank.WILD] else walked) == found
    assert stopped


def test_a_hand_that_cannot_compose_an_opening_has_none() -> None:
    """Where an opening must hold a clean meld of three naturals or a meld of wild cards, a hand
    the counts say has no such group is not searched: walked to the end without the stop, its
    search finds no opening either."""
    config = next(c for c in CONFIGURATIONS if c[0] == "modern-american")
    skipped = 0
    for mover in unopened_plays(config, 300, 5):
        search = IrreducibleSearch(mover, Judge.of(mover, mover.team), mover.kinds(), None)
        if not search._uncomposed():
            continue
        assert search.combos((None,)) == []
        search._prepare()
        search.compose_stop = -1  # no stop: every step is walked and judged
        search._walk(None, 0, (), 0, 0, 0, 0, 0, search._left((None, ())))
        assert search.found == []
        skipped += 1
    assert skipped >= 10


def walk_order(search: IrreducibleSearch, found: list) -> list:
    """Steps found with the wild cards' groups chosen first, in the order a walk choosing them
    after the naturals (before black threes) finds them: each step's groups by their ranks' places
    in that walk, compared group by group by rank, then by place among the rank's groups, a step
    after the steps that extend it."""
    ranks = search.ranks
    order = {r: i for i, r in enumerate((*ranks[1:], Rank.WILD))}
    if ranks[-1] is Rank.THREE:
        order[Rank.WILD], order[Rank.THREE] = len(ranks) - 2, len(ranks) - 1
    place = {spec: j for options in search.options for j, spec in enumerate(options)}
    keyed = []
    for base, specs in found:
        ordered = tuple(sorted(specs, key=lambda spec: order[spec[0]]))
        key = [(order[spec[0]], place[spec]) for spec in ordered] + [(len(ranks), 0)]
        keyed.append((key, (base, ordered)))
    return [combo for _, combo in sorted(keyed, key=lambda pair: pair[0])]


def test_steps_found_with_the_wild_cards_first_come_in_the_walks_order() -> None:
    """A search that walks the wild cards' groups first (here, where an opening's composition is
    asked for) lists its steps in the order of a walk choosing them after the naturals (with a
    low opening minimum, so that hands have several openings)."""
    config = ("modern-american", 4, {"initial_meld_table": [[0, 50]]})
    compared = 0
    for mover in unopened_plays(config, 400, 11):
        search = IrreducibleSearch(mover, Judge.of(mover, mover.team), mover.kinds(), None)
        search._start(None)
        if search.prepared and search.ranks[:1] == [Rank.WILD]:
            assert search._canonical(search.found) == walk_order(search, search.found)
            compared += len(search.found) > 1
    assert compared >= 10
