"""Seeded property tests over random deals, for every preset and player count.

Each configuration plays `DEALS` deals of uniformly random legal moves (as `canasta selfplay`
does), in games of up to `DEALS_PER_GAME` deals so that cumulative scores carry, and checks:

INV1  cards are conserved after every action (hands + stock + pile + melds + bonus threes is
      exactly the deck);
INV2  no view shows a card its seat may not see (the view of the seat to move, of another
      seat and of a spectator is the same for a state whose hidden cards are shuffled), and a
      spectator sees no hand;
INV3  every score breakdown adds up, and the game totals are the sums of the deal totals;
INV4  every deal ends within `MAX_DECISIONS` decisions with a known reason;
INV5  the record of every game replays (through JSON text) to the same final position;
INV6  an illegal action leaves the state untouched, and `check` agrees with `apply`;
INV7  every listed legal action is accepted, and listing has no side effects;
INV8  `resample` gives a state with the same view (legal actions in the same order), conserved
      cards, known cards in place and no bonus three in any hand.

The expensive checks run at decisions sampled by a separate random stream, so the games
themselves depend only on their seed. A failure message names the configuration, the game's
seed, the deal and the decision; `play_game(config, seed)` replays it.

The deals run in chunks on worker processes, one per core (CI has two); each test waits for
its own configuration's chunks. The soak run (`pytest -m soak tests/test_invariants.py`,
deselected by default) checks the same over `SOAK_DEALS` deals per configuration, the default
run's deals among them.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import traceback
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest

from canasta.rules import (
    ALL_CARDS,
    Action,
    Answer,
    Ask,
    Card,
    Discard,
    Draw,
    Game,
    Group,
    IllegalActionError,
    Meld,
    Pass,
    Pickup,
    Rank,
    Record,
    RuleSet,
    State,
    action_to_json,
    make_deck,
    position_to_json,
    replay,
    resample,
)
from canasta.rules import view as views
from canasta.rules.completeness import reachable
from canasta.rules.parts import Board, Cards, Turn
from support import act, make_state

DEALS = 300
SOAK_DEALS = 2000
DEALS_PER_GAME = 4
MAX_DECISIONS = 3000
CHECK_RATE = 1 / 60  # share of decisions where INV2, INV6, INV7 and INV8 are checked
REPLAY_EVERY = 3  # INV5: replay every n-th game
CHUNKS = 4  # each configuration's deals are split into this many jobs for the workers

Config = tuple[str, int, dict[str, Any]]

CONFIGS: list[Config] = [
    ("classic", 2, {}),
    ("classic", 3, {}),
    ("classic", 4, {}),
    ("classic", 5, {}),
    ("classic", 6, {"teams": 2}),
    ("classic", 6, {"teams": 3}),
    ("modern-american", 4, {}),
    ("online", 2, {}),
    ("online", 4, {}),
    ("mendelev", 4, {}),
]


def config_id(config: Config) -> str:
    variant, players, options = config
    extra = "".join(f"-{k}={v}" for k, v in sorted(options.items()))
    return f"{variant}-{players}{extra}"


# -- helpers ---------------------------------------------------------------------------------------

N_CARDS = len(ALL_CARDS)


def card_counts(state: State) -> list[int]:
    """How many of each card value the state holds, anywhere."""
    counts = [0] * N_CARDS
    places: list[Sequence[Any]] = [*state.hands, state.stock, state.pile, *state.threes]
    for team in state.melds:
        places.extend(team.values())
    for place in places:
        for c in place:
            counts[c.index] += 1
    return counts


def deck_counts(rules: RuleSet) -> list[int]:
    counts = [0] * N_CARDS
    for c in make_deck(rules.decks, rules.jokers):
        counts[c.index] += 1
    return counts


def _copy(value: Any) -> Any:
    if type(value) is list:
        if value and type(value[0]) is list:
            return [v[:] for v in value]
        if value and type(value[0]) is dict:
            return [[(k, cs[:]) for k, cs in d.items()] for d in value]
        return value[:]
    if type(value) is dict:
        return list(value.items())
    if type(value) is set:
        return set(value)
    return value


#: The fields of a state (a compiled `State` lists them in `__mypyc_attrs__`, see `canasta.native`).
def _fields(cls: type) -> tuple[str, ...]:
    return getattr(cls, "__mypyc_attrs__", None) or cls.__slots__


#: What a state keeps to list faster, made when first asked for: not a part of the position.
KEPT_FOR_LISTING = {"_kinds"}


def snapshot(state: State) -> list[Any]:
    """Every field of a state and of its parts, by value and in order (stricter than
    `position_to_json`), but what it keeps for listing."""
    out = []
    for name in _fields(State):
        if name in KEPT_FOR_LISTING:
            continue
        value = getattr(state, name)
        if isinstance(value, Board | Turn | Cards):
            out.append([_copy(getattr(value, f)) for f in _fields(type(value))])
        else:
            out.append(_copy(value))
    return out


def hidden_shuffle(state: State, seat: int | None, rng: random.Random) -> State:
    """A copy of `state` whose cards hidden from `seat` are shuffled among their places.

    Hidden: the stock and every other hand except its `known` cards (taken with the pile).
    """
    alt = state.clone()
    others = [s for s in range(state.rules.players) if s != seat]
    hidden = list(state.stock)
    rest: dict[int, list[Any]] = {}
    for s in others:
        unknown = list(state.hands[s])
        for c in state.known[s]:
            unknown.remove(c)
        rest[s] = unknown
        hidden.extend(unknown)
    rng.shuffle(hidden)
    for s in others:
        n = len(rest[s])
        alt.hands[s] = [*state.known[s], *hidden[:n]]
        del hidden[:n]
    alt.cards.stock = hidden
    return alt


def view_json(state: State, seat: int | None) -> dict[str, Any]:
    """A view as plain JSON (its legal actions in their order, which only the view decides), built
    by the module's `seat_view` as `State.view` does (a test replaces it)."""
    return views.seat_view(state, seat).to_json()


def group_signature(group: Group) -> tuple[Any, ...]:
    """A group by what matters: its rank (explicit or of its naturals) and its cards by count."""
    ranks = {c.rank for c in group.cards if not c.is_wild}
    rank = group.rank if group.rank is not None else (ranks.pop() if ranks else Rank.WILD)
    return (
        rank,
        tuple(sorted(c.code for c in group.cards if not c.is_wild and not c.is_black_three)),
        tuple(sorted(c.code for c in group.cards if c.is_black_three)),
        sum(1 for c in group.cards if c.is_joker),
        sum(1 for c in group.cards if c.is_two),
    )


def count_signature(group: Group) -> tuple[Any, ...]:
    """Like `group_signature`, but naturals of one rank are interchangeable (only counts)."""
    rank, naturals, threes, jokers, twos = group_signature(group)
    return (rank, len(naturals), threes, jokers, twos)


def contains(big: Sequence[Any], small: Sequence[Any]) -> bool:
    need = Counter(small)
    have = Counter(big)
    return all(have[c] >= n for c, n in need.items())


class Failure(AssertionError):
    pass


# -- one game --------------------------------------------------------------------------------------


class Checker:
    """Plays one game of random legal moves and checks the invariants on the way."""

    def __init__(self, config: Config, seed: int, deals: int, rate: float = CHECK_RATE) -> None:
        self.config = config
        self.rate = rate
        self.seed = seed
        variant, players, options = config
        self.rules = RuleSet.preset(variant, players, options)
        self.game = Game(self.rules, seed=seed)
        self.choice_rng = random.Random(seed * 7919 + 1)
        self.probe = random.Random(seed * 104729 + 2)
        self.deck = deck_counts(self.rules)
        self.deals = deals
        self.deal_index = 0
        self.decision = 0
        self.before: list[Any] = []

    def where(self) -> str:
        return f"[{config_id(self.config)} seed={self.seed} deal={self.deal_index} decision={self.decision}]"

    def fail(self, what: str) -> Failure:
        state = self.game.state
        pos = json.dumps(position_to_json(state)) if state is not None else "-"
        return Failure(f"{self.where()} {what}\nposition: {pos}")

    def require(self, ok: bool, what: str) -> None:
        if not ok:
            raise self.fail(what)

    # the loop -----------------------------------------------------------------------------------

    def run(self) -> int:
        try:
            return self.play()
        except Failure:
            raise
        except Exception:  # an engine crash: report it with the seed (workers lose tracebacks)
            raise self.fail("unexpected error:\n" + traceback.format_exc()) from None

    def play(self) -> int:
        game = self.game
        played = 0
        while played < self.deals and not game.is_over:
            state = game.next_deal()
            self.deal_index = played
            self.decision = 0
            self.check_cards(state)
            self.play_deal(state)
            self.check_result(state)
            played += 1
        self.check_totals()
        if self.seed % REPLAY_EVERY == 0:
            self.check_replay()
        return played

    def play_deal(self, state: State) -> None:
        while not state.is_over:
            self.require(self.decision < MAX_DECISIONS, "INV4: the deal does not end")
            self.decide(state)

    def decide(self, state: State) -> None:
        legal = state.legal_actions()
        self.require(bool(legal), "INV7: no legal action in a deal that is not over")
        if self.probe.random() < self.rate:
            self.before = before = snapshot(state)
            self.require(state.legal_actions() == legal, "INV7: legal_actions() is not repeatable")
            self.require(snapshot(state) == before, "INV7: legal_actions() changed the state")
            self.check_legal(state, legal)
            self.check_views(state)
            self.check_resample(state)
            self.check_probes(state, legal)
            self.require(snapshot(state) == before, "a check changed the state")
        action = self.choice_rng.choice(legal)
        try:
            self.game.apply(action)
        except IllegalActionError as exc:
            raise self.fail(f"INV7: listed {action_to_json(action)} is refused: {exc}") from None
        self.decision += 1
        self.check_cards(state)

    # INV1 ---------------------------------------------------------------------------------------

    def check_cards(self, state: State) -> None:
        counts = card_counts(state)
        if counts != self.deck:
            diff = {
                ALL_CARDS[i].code: counts[i] - self.deck[i]
                for i in range(N_CARDS)
                if counts[i] != self.deck[i]
            }
            raise self.fail(f"INV1: cards not conserved (extra/missing: {diff})")

    # INV2 ---------------------------------------------------------------------------------------

    def check_views(self, state: State) -> None:
        for s in range(self.rules.players):
            self.require(
                contains(state.hands[s], state.known[s]),
                f"seat {s}'s known cards are not all in its hand",
            )
        mover = state.to_move
        bystander = self.probe.choice([s for s in state.order if s != mover])
        for seat in (mover, bystander, None):
            view = view_json(state, seat)
            alt = hidden_shuffle(state, seat, self.probe)
            self.require(card_counts(alt) == self.deck, "test bug: hidden_shuffle lost cards")
            seen = view_json(alt, seat)
            if seen != view:
                diff = {k: (view[k], seen.get(k)) for k in view if view[k] != seen.get(k)}
                raise self.fail(f"INV2: seat {seat}'s view depends on hidden cards: {diff}")
            if seat is None:
                self.require(view["hand"] == [], "INV2: the spectator view shows a hand")
                self.require(view["legal"] == [], "INV2: the spectator view lists actions")
            else:
                own = sorted(c.code for c in state.hands[seat])
                self.require(sorted(view["hand"]) == own, f"INV2: seat {seat}'s view misses its hand")
            self.require(view["hand_sizes"] == [len(h) for h in state.hands], "INV2: wrong hand sizes")

    # INV3, INV4 ---------------------------------------------------------------------------------

    def check_result(self, state: State) -> None:
        result = state.result
        self.require(result is not None, "INV4: an ended deal has no result")
        assert result is not None
        if result.reason == "went_out":
            self.require(result.went_out in state.order, f"INV4: went_out={result.went_out}")
            self.require(not state.hands[result.went_out], "INV4: the seat that went out holds cards")
        else:
            self.require(result.reason == "stock_exhausted", f"INV4: reason {result.reason!r}")
            self.require(result.went_out is None, "INV4: stock_exhausted names a seat")
        self.require(len(result.scores) == self.rules.teams, "INV3: one breakdown per team")
        for team, part in enumerate(result.scores):
            js = part.to_json()
            parts = ("cards", "canastas", "threes", "going_out", "hand", "penalties")
            self.require(
                js["total"] == sum(js[p] for p in parts) == part.total,
                f"INV3: team {team}'s breakdown does not add up: {js}",
            )
            self.require(js["hand"] <= 0 and js["penalties"] <= 0, f"INV3: signs: {js}")
        before = snapshot(state)
        try:
            state.apply(Draw())
        except IllegalActionError:
            pass
        else:
            raise self.fail("INV6: an action was accepted after the deal ended")
        self.require(snapshot(state) == before, "INV6: refused action changed the state")
        self.require(state.legal_actions() == [], "INV7: legal actions after the deal ended")

    def check_totals(self) -> None:
        game = self.game
        sums = [0] * self.rules.teams
        for result in game.results:
            for team, part in enumerate(result.scores):
                sums[team] += part.total
        self.require(list(game.totals) == sums, f"INV3: totals {game.totals} != sums {sums}")

    # INV5 ---------------------------------------------------------------------------------------

    def check_replay(self) -> None:
        game = self.game
        assert game.state is not None
        text = json.dumps(Record.of_game(game).to_json())
        out, _ = replay(Record.from_json(json.loads(text)))
        self.require(out["ok"], f"INV5: replay failed: {out.get('error')}")
        expected = json.loads(json.dumps(position_to_json(game.state)))
        self.require(out["position"] == expected, "INV5: replay reached another position")
        self.require(out["totals"] == list(game.totals), "INV5: replay totals differ")
        summaries = [r.to_json() for r in game.results]
        self.require(out["deals"] == summaries, "INV5: replay deal results differ")
        self.require(out["winner"] == game.winner, "INV5: replay winner differs")

    # INV6 ---------------------------------------------------------------------------------------

    def must_refuse(self, state: State, action: Action, seat: int | None, what: str) -> None:
        """`action` must be refused by `check` and `apply`, and leave the state as it was."""
        reason = state.check(action, seat)
        try:
            state.apply(action, seat)
        except IllegalActionError:
            pass
        else:
            raise self.fail(f"INV6: {what} was accepted: {action_to_json(action, seat)}")
        self.require(reason is not None, f"INV6: check() accepts {what}")
        self.require(
            snapshot(state) == self.before,
            f"INV6: refused {action_to_json(action, seat)} changed the state",
        )

    def consistent(self, state: State, action: Action, seat: int | None = None) -> bool:
        """Whether `action` applies to a copy; checks that `check` agrees and refusals change nothing."""
        reason = state.check(action, seat)
        copy = state.clone()
        try:
            copy.apply(action, seat)
        except IllegalActionError:
            self.require(
                snapshot(copy) == self.before,
                f"INV6: refused {action_to_json(action, seat)} changed the state",
            )
            ok = False
        else:
            ok = True
            self.check_cards(copy)
        self.require(
            (reason is None) == ok,
            f"INV6: check() says {reason!r} but apply {'accepts' if ok else 'refuses'} "
            f"{action_to_json(action, seat)}",
        )
        return ok

    def check_probes(self, state: State, legal: list[Action]) -> None:
        rng = self.probe
        turn = state.turn
        hand = state.hands[turn]
        mover = state.to_move
        # an action by the wrong seat
        others = [s for s in range(self.rules.players) if s != mover]
        self.must_refuse(state, rng.choice(legal), rng.choice(others), "an action by the wrong seat")
        # an answer when nobody asked; a draw after drawing; a pass with cards in the stock
        if state.permission != "pending":
            self.must_refuse(state, Answer(rng.random() < 0.5), None, "an answer nobody asked for")
            if state.phase == "play":
                self.must_refuse(state, Draw(), None, "a second draw")
                self.must_refuse(state, Pass(), None, "a pass after drawing")
            elif state.stock:
                self.must_refuse(state, Pass(), None, "a pass with cards in the stock")
        # a discard of a card not in hand
        absent = [c for c in ALL_CARDS if c not in hand]
        self.must_refuse(state, Discard(rng.choice(absent)), None, "a discard of a missing card")
        # random melds and pickups from hand cards: check() must agree with apply()
        for _ in range(2 if hand else 0):
            k = rng.randint(1, min(4, len(hand)))
            cards = tuple(rng.sample(hand, k))
            rank = rng.choice([None, None, *(c.rank for c in cards if c.is_natural), Rank.WILD])
            meld = Meld((Group(cards, rank),))
            if self.consistent(state, meld):
                self.require(state.phase == "play", "INV6: a meld was accepted before drawing")
                self.check_listed_meld(state, meld, legal)
            with_ = tuple(rng.sample(hand, rng.randint(0, min(3, len(hand)))))
            pickup = Pickup(with_)
            if self.consistent(state, pickup):
                self.require(state.phase == "draw", "INV6: a pickup was accepted after drawing")
                self.check_listed_pickup(state, pickup, legal)
        for action in (Draw(), Ask(), Pass(), Answer(True), Answer(False)):
            if self.consistent(state, action):
                self.require(action in legal, f"INV7: legal {action_to_json(action)} is not listed")

    def check_listed_meld(self, state: State, meld: Meld, legal: list[Action]) -> None:
        """A legal single-group meld by an opened team is listed (up to interchangeable naturals)."""
        if not state.opened[state.team_of(state.turn)]:
            return
        want = count_signature(meld.melds[0])
        listed = {count_signature(a.melds[0]) for a in legal if isinstance(a, Meld) and len(a.melds) == 1}
        self.require(want in listed, f"INV7: legal {action_to_json(meld)} is not listed (as {want})")

    def check_listed_pickup(self, state: State, pickup: Pickup, legal: list[Action]) -> None:
        """A legal pickup is listed, up to interchangeable cards, or listed actions of the same
        turn reach where it leads (a pickup is listed in its irreducible forms: legal.py)."""
        pickups = [a for a in legal if isinstance(a, Pickup)]
        self.require(bool(pickups), f"INV7: legal {action_to_json(pickup)} but no pickup listed")
        want = count_signature(Group(pickup.with_))[1:]
        listed = {count_signature(Group(a.with_))[1:] for a in pickups if not a.melds and not a.top_only}
        if want in listed:
            return
        target = state.clone()
        target.apply(pickup)
        self.require(reachable(state, target), f"INV7: legal {action_to_json(pickup)} is not reached")

    # INV7 ---------------------------------------------------------------------------------------

    def check_legal(self, state: State, legal: list[Action]) -> None:
        mover = state.to_move
        for action in legal:
            reason = state.check(action, mover)
            self.require(reason is None, f"INV7: listed {action_to_json(action)} is refused: {reason}")
        self.require(
            len({json.dumps(action_to_json(a)) for a in legal}) == len(legal),
            "INV7: an action is listed twice",
        )
        if state.phase == "play" and state.permission != "pending":
            hand = state.hands[state.turn]
            ok = {c for c in hand if state.check(Discard(c)) is None}
            listed = {a.card for a in legal if isinstance(a, Discard)}
            self.require(
                ok == listed,
                f"INV7: discards listed {sorted(c.code for c in listed)}, legal {sorted(c.code for c in ok)}",
            )

    # INV8 ---------------------------------------------------------------------------------------

    def check_resample(self, state: State) -> None:
        seat = state.to_move if self.probe.random() < 0.5 else self.probe.choice(state.order)
        view = state.view(seat)
        expected = view.to_json()
        sample = resample(view, self.probe)
        counts = card_counts(sample)
        if counts != self.deck:
            diff = {
                ALL_CARDS[i].code: counts[i] - self.deck[i]
                for i in range(N_CARDS)
                if counts[i] != self.deck[i]
            }
            raise self.fail(f"INV8: resample for seat {seat} does not conserve cards: {diff}")
        got = view_json(sample, seat)
        if got != expected:
            diff = {k: (expected[k], got.get(k)) for k in expected if expected[k] != got.get(k)}
            raise self.fail(f"INV8: resample for seat {seat} changes the view: {diff}")
        for s in range(self.rules.players):
            self.require(
                contains(sample.hands[s], state.known[s])
                and sorted(sample.known[s]) == sorted(state.known[s]),
                f"INV8: resample for seat {seat} moved seat {s}'s known cards",
            )
        self.require(
            sorted(sample.hands[seat]) == sorted(state.hands[seat]),
            f"INV8: resample changed seat {seat}'s own hand",
        )
        if not sample.is_over:  # a real deal lays every bonus three out at once
            self.require(
                not any(self.rules.is_bonus_three(c) for s in sample.order for c in sample.hands[s]),
                f"INV8: resample for seat {seat} dealt a bonus three into a hand",
            )


def play_game(config: Config, seed: int, deals: int = DEALS_PER_GAME, rate: float = CHECK_RATE) -> int:
    """Play and check one game; returns the number of deals played."""
    return Checker(config, seed, deals, rate).run()


def run_chunk(config: Config, chunk: int, deals: int, rate: float = CHECK_RATE) -> int:
    """Play games (seeds `chunk * 100_000 + i`) until `deals` deals have been checked."""
    played = 0
    seed = chunk * 100_000
    while played < deals:
        played += play_game(config, seed, min(DEALS_PER_GAME, deals - played), rate)
        seed += 1
    return played


# -- the tests -------------------------------------------------------------------------------------


def worker_count() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def start_runs(deals: int) -> Iterator[dict[str, list[Future[int]]]]:
    """Every configuration's chunks of `deals` deals, started at once on a pool of worker processes."""
    per_chunk = -(-deals // CHUNKS)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(worker_count(), mp_context=context) as pool:
        futures: dict[str, list[Future[int]]] = {}
        for chunk in range(CHUNKS):
            for config in CONFIGS:
                job = pool.submit(run_chunk, config, chunk, per_chunk)
                futures.setdefault(config_id(config), []).append(job)
        yield futures
        for jobs in futures.values():
            for job in jobs:
                job.cancel()


@pytest.fixture(scope="module")
def runs() -> Iterator[dict[str, list[Future[int]]]]:
    yield from start_runs(DEALS)


@pytest.fixture(scope="module")
def soak_runs() -> Iterator[dict[str, list[Future[int]]]]:
    yield from start_runs(SOAK_DEALS)


def check_runs(jobs: list[Future[int]], deals: int) -> None:
    """Every chunk passed, and together they played at least `deals` deals."""
    played = 0
    failures = []
    for job in jobs:
        try:
            played += job.result()
        except Failure as exc:
            failures.append(str(exc))
    assert not failures, "\n\n".join(failures)
    assert played >= deals


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_INV1_to_INV8_random_deals(config: Config, runs: dict[str, list[Future[int]]]) -> None:
    """INV1-INV8 hold over `DEALS` random deals of this configuration."""
    check_runs(runs[config_id(config)], DEALS)


@pytest.mark.soak
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_INV1_to_INV8_soak(config: Config, soak_runs: dict[str, list[Future[int]]]) -> None:
    """INV1-INV8 hold over `SOAK_DEALS` random deals of this configuration."""
    check_runs(soak_runs[config_id(config)], SOAK_DEALS)


def test_INV1_INV2_checker_detects_violations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks themselves can fail: a lost card and a view that leaks the stock are caught."""
    checker = Checker(("classic", 4, {}), 0, 1)
    state = checker.game.next_deal()
    checker.check_cards(state)
    checker.check_views(state)
    alt = hidden_shuffle(state, 0, random.Random(1))
    assert card_counts(alt) == checker.deck
    assert alt.hands[0] == state.hands[0] and alt.pile == state.pile
    assert [len(h) for h in alt.hands] == [len(h) for h in state.hands]
    assert alt.stock != state.stock or alt.hands[1:] != state.hands[1:]

    honest = views.seat_view

    class Leaky:
        def __init__(self, state: State, seat: int | None) -> None:
            self.view, self.top = honest(state, seat), state.stock[-1].code

        def to_json(self) -> dict[str, Any]:
            return {**self.view.to_json(), "stock_top": self.top}

    monkeypatch.setattr(views, "seat_view", Leaky)
    with pytest.raises(Failure, match="INV2"):
        checker.check_views(state)
    monkeypatch.undo()
    state.hands[1], state.hands[2] = state.hands[2][:-1], state.hands[1]
    with pytest.raises(Failure, match="INV1"):
        checker.check_cards(state)


def test_INV7_answer_no_with_empty_stock_ends_the_hand() -> None:
    """Found by INV7 (classic-6-teams=2, chunk 3, seed 300000): asking before drawing with the
    stock exhausted, a "no" made the only pickup (going out) illegal, which left no legal action.
    The player can no longer take the pile, so the hand ends (RULES.md 1.14)."""
    fields: dict[str, Any] = {
        "dealer": 0,
        "turn": 2,
        "phase": "draw",
        "stock": [],
        "pile": ["8S"],
        "hands": [["AD"], ["4C"], ["2D", "10H", "8D"], ["KD"], ["9D"], ["10D"]],
        "melds": [
            [["10S", "10H", "10H", "10D", "10D", "10C", "10C"], ["4S", "4H", "4H", "4D", "4D", "4C", "JK"]],
            [["7S", "7H", "7D"]],
        ],
        "seat_melded": [True] * 6,
        "asked": [False, False, True, False, False, False],
        "permission": "pending",
    }
    no = make_state("classic", 6, {"teams": 2}, **fields)
    assert no.to_move == 4
    act(no, {"type": "answer", "yes": False})
    assert no.is_over and no.result is not None
    assert (no.result.reason, no.result.went_out) == ("stock_exhausted", None)
    yes = make_state("classic", 6, {"teams": 2}, **fields)
    act(yes, {"type": "answer", "yes": True})
    assert not yes.is_over
    assert Pickup((Card.parse("8D"), Card.parse("2D"))) in yes.legal_actions()
