"""The search bot: determinized Monte Carlo over the seat's view, with a tree over its turn.

At the draw, the discard and each meld it lists a few candidate actions (the `hard` level's
choice and its alternatives, `candidates`), deals the unseen cards at random with `resample` (a
determinization consistent with everything the seat knows, corrected by what the other seats'
play reveals), and plays each candidate on for `horizon` decisions with the `hard` policy for
every seat (its modules are compiled with the engine's), where the evaluation of the position
(`canasta.bots.evaluation`, fitted to self-play) takes over, unless the deal ended first. A
candidate's value is the own team's deal score minus the opponents' (their mean with more than
two teams), averaged over determinizations; all candidates share each determinization and
continuation seed, so they are compared on equal cards. Candidates clearly worse than the
heuristic's choice drop out early, and an alternative is played only when it is better by a
clear margin. The budget is a number of continuations, a time (read from `clock` before every
determinization and continuation), or by default both, whichever ends first.

At the draw the search is a tree over the seat's own information sets: after each way of
drawing, every meld and the discard of the rest of the turn are themselves searched, each at
the information set the seat's hand then names (a card drawn from the stock differs between
determinizations; a pile taken does not), among its candidates by UCB1 (`Reply`), so that a way
of drawing is valued with the play it leads to rather than the heuristic's.

How the design was settled (classic, 4 players): the gain of each decision the search changes
was measured again on the real hands (only the stock shuffled). Against those true values the
plain `resample` overrated its changes about threefold; reading the discards (`determinize`)
and leaving melds and going out to the heuristic made the changes pay. Later, with the better
determinizations, weighing whether to meld at all (not which cards) paid too: classic search −
hard +189.6 over 200 paired deals, against +141.8 without; and +239.6 once the tree weighed the
melds of the turn after the draw as well. Once `hard` itself went out by each rule set's rules
the gain fell to +168.5; the best of several alternatives' estimates is flattered by its noise,
and asking an alternative to gain three standard errors instead of one raised it to +221.3
(+202.8 against +150.3 and +154.6 against +160.4 on other decks), where more continuations had
lowered it. Going out, and asking partner for it, is weighed against every discard and meld
where the rules allow it, so that neither the search nor a hint or a review made with it misses
a way out the heuristic held back.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from canasta.bots.base import seat_to_move
from canasta.bots.discarding import DiscardJudge
from canasta.bots.evaluation import evaluate
from canasta.bots.heuristic import decide, decide_on, fallback, pickup_value, takes_back_own_discards
from canasta.bots.melding import go_out, next_build
from canasta.bots.skill import HARD, LEVELS, Skill
from canasta.bots.table import Table
from canasta.rules.actions import Action, Answer, Ask, Discard, Meld, Pickup
from canasta.rules.cards import Card, Rank
from canasta.rules.deal import shuffle
from canasta.rules.errors import CanastaError
from canasta.rules.legal import ASK, DISCARDS, DRAW, PASS, legal_actions
from canasta.rules.mover import Mover
from canasta.rules.resample import resample
from canasta.rules.state import State
from canasta.rules.view import SeatView

#: Default budget: continuations per decision, and at most this many seconds (when neither
#: `iterations` nor `time` is given).
DEFAULT_ITERATIONS: Final = 2000
DEFAULT_SECONDS: Final = 0.7
#: Default: how many discards of different ranks are compared.
DEFAULT_WIDTH: Final = 3
#: Default: how many standard errors an alternative must gain over the heuristic's choice (a
#: search weighs several alternatives, and the best of several estimates is flattered by its
#: noise: one standard error let classic's search play alternatives that lost).
CONFIDENCE: Final = 3.0
#: Decisions a continuation plays before the evaluation values the position it reached.
HORIZON: Final = 12
#: Rounds (determinizations) before an alternative may drop out, and how often it is checked.
MIN_ROUNDS: Final = 12
CHECK_EVERY: Final = 4
#: An alternative drops out when its advantage plus this many standard errors is below zero;
#: the search stops when the one alternative left leads by this many standard errors (or by the
#: bot's `confidence`, when that asks more).
DROP_Z: Final = 2.0
CLEAR_Z: Final = 3.0
#: The discard that ends a turn after a way of drawing: the visits of its information set before
#: alternatives to the heuristic's choice are tried, and UCB1's exploration constant, in points.
WIDEN: Final = 8
EXPLORE: Final = 250.0


#: The generator of every continuation of a policy that makes no mistakes, which never draws
#: from it (seeding one per continuation took about 4% of the search's time).
_UNDRAWN: Final = random.Random(0)


class SearchBot:
    """Determinized Monte Carlo search with heuristic continuations cut at a horizon.

    `clock` (seconds, monotonic) times the `time` budget: the search stops when it is spent,
    reading it before every determinization and every continuation.
    """

    name = "search"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        policy: Skill = HARD,
        width: int = DEFAULT_WIDTH,
        confidence: float = CONFIDENCE,
        horizon: int = HORIZON,
        clock: Callable[[], float] = time.perf_counter,
        tree: bool = True,
        melds: bool = True,
    ) -> None:
        if iterations is None and seconds is None:
            iterations, seconds = DEFAULT_ITERATIONS, DEFAULT_SECONDS
        if (iterations is not None and iterations < 1) or (seconds is not None and seconds <= 0):
            raise ValueError("a search budget must be positive")
        if width < 1:
            raise ValueError("width must be at least 1")
        if confidence < 0:
            raise ValueError("confidence must not be negative")
        if horizon < 1:
            raise ValueError("horizon must be at least 1")
        self.iterations = iterations
        self.seconds = seconds
        self.policy = policy
        self.width = width
        self.confidence = confidence
        self.horizon = horizon
        self.clock = clock
        self.tree = tree
        self.melds = melds
        #: Continuations played over the bot's life (for the speed benchmark).
        self.continuations = 0

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> SearchBot:
        """Options of `search:...`: `iterations` (continuations per decision), `time` (seconds
        per decision), `policy` (the continuations' level: easy, normal or hard), `width`
        (discards compared), `confidence` (standard errors an alternative must gain),
        `horizon` (decisions a continuation plays before it is evaluated), `tree` (`on`, or
        `off`: the play after each way of drawing left to the heuristic) and `melds` (`on`,
        or `off`: the heuristic's melds played unweighed)."""
        known = {"iterations", "time", "policy", "width", "confidence", "horizon", "tree", "melds"}
        unknown = set(params) - known
        if unknown:
            raise ValueError(
                f"unknown search option(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
            )
        iterations = _number(params, "iterations", int, None)
        seconds = _number(params, "time", float, None)
        width = _number(params, "width", int, DEFAULT_WIDTH)
        confidence = _number(params, "confidence", float, CONFIDENCE)
        horizon = _number(params, "horizon", int, HORIZON)
        policy_name = params.get("policy", "hard")
        if policy_name not in LEVELS:
            raise ValueError(f"unknown playout policy {policy_name!r} (known: {', '.join(LEVELS)})")
        return cls(iterations, seconds, LEVELS[policy_name], width, confidence, horizon,
                   tree=_switch(params, "tree"), melds=_switch(params, "melds"))

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        seat_to_move(view)
        if len(legal) == 1:
            return legal[0]
        deadline = None if self.seconds is None else self.clock() + self.seconds
        options = self.options(view)
        if len(options) == 1:
            return options[0]
        values = self.values(view, options, rng, deadline)
        return options[pick(values, self.confidence)]

    def options(self, view: SeatView) -> list[Action]:
        """The actions this search weighs for the seat to move, the `hard` level's choice first."""
        mover = view.mover()
        preferred = decide(mover, HARD, random.Random(0))
        if mover.check(preferred) is not None:
            preferred = fallback(view.legal)
        return candidates(mover, preferred, self.width, self.melds)

    def values(
        self,
        view: SeatView,
        options: list[Action],
        rng: random.Random,
        deadline: float | None = None,
        stop_early: bool = True,
    ) -> list[list[float]]:
        """Per option (legal actions of the seat to move), its continuation values on shared
        determinizations of `view`.

        Every round deals one determinization and plays each option still in the running from
        it, with one seed for all (common random numbers). From `MIN_ROUNDS` on, an alternative
        clearly worse than the first option (the heuristic's choice) drops out, so that the
        budget goes to the close contests; the search stops early once no alternative is left,
        or once a single one is clearly better. Without `stop_early`, every option is played to
        the end of the budget. A round the deadline cuts short is dropped.
        """
        team = view.rules.team_of(seat_to_move(view))
        values: list[list[float]] = [[] for _ in options]
        alive = list(range(len(options)))
        drawing = self.tree and view.now.phase == "draw"
        replies: Replies = {}
        caps = pair_caps(view)
        mistakes = self.policy.mistake_rate > 0  # else the policy never draws from its generator
        clear = max(CLEAR_Z, self.confidence)
        played = rounds = 0
        while self.iterations is None or played < self.iterations:
            if self._late(deadline):
                break
            world = determinize(view, rng, caps)
            seed = rng.getrandbits(32)
            row: list[float] = []
            for i in alive:
                if self._late(deadline):
                    break
                state = world.clone()
                state.apply(options[i])
                turn_rng = random.Random(seed) if mistakes else _UNDRAWN
                if drawing:
                    row.append(self._own_turn(state, team, turn_rng, replies, i))
                else:
                    row.append(continuation(state, team, turn_rng, self.horizon, self.policy))
            played += len(row)
            self.continuations += len(row)
            if len(row) < len(alive):
                break
            for i, value in zip(alive, row, strict=True):
                values[i].append(value)
            rounds += 1
            if stop_early and rounds >= MIN_ROUNDS and rounds % CHECK_EVERY == 0:
                alive = [i for i in alive if i == 0 or advantage(values[i], values[0], -DROP_Z) >= 0]
                if len(alive) == 1:
                    break
                if len(alive) == 2 and advantage(values[alive[1]], values[0], clear) > 0:
                    break
        return values

    def _late(self, deadline: float | None) -> bool:
        return deadline is not None and self.clock() >= deadline

    def _own_turn(
        self, state: State, team: int, rng: random.Random, replies: Replies, option: int
    ) -> float:
        """A continuation after draw option `option` in which the seat's melds (with `melds`)
        and its discard ending this turn are chosen in the tree: each at the information set of
        `replies` that the choices before it and the hand then name (the public table follows
        from them and the option), among its candidates, by UCB1; the value reached is counted
        to every choice made."""
        seat = state.to_move
        steps = 0
        path: list[tuple[Reply, int]] = []
        while steps < self.horizon and not state.is_over:
            if state.to_move != seat or state.now.phase != "play" or state.now.permission == "pending":
                break
            mover = state.mover()
            table = Table(mover)
            action = decide_on(table, self.policy, rng)
            chosen = isinstance(action, Discard) or (
                self.melds and isinstance(action, Meld) and not mover.now.must_meld_out
            )
            if chosen:
                key = (option, len(path), tuple(sorted(c.index for c in mover.hand)))
                node = replies.get(key)
                if node is None:
                    node = replies[key] = Reply(candidates(mover, action, self.width, self.melds))
                path.append((node, node.select()))
                action = node.options[path[-1][1]]
            if not play(state, table, action):
                break
            steps += 1
        value = continuation(state, team, rng, self.horizon - steps, self.policy)
        for node, choice in path:
            node.update(choice, value)
        return value


def _number(params: Mapping[str, str], name: str, kind: type[int] | type[float], default: Any) -> Any:
    """A numeric option (`int` or `float`), `default` when absent; ValueError naming it when malformed."""
    if name not in params:
        return default
    try:
        return kind(params[name])
    except ValueError:
        wanted = "a whole number" if kind is int else "a number"
        raise ValueError(f"search option {name}={params[name]}: expected {wanted}") from None


def _switch(params: Mapping[str, str], name: str) -> bool:
    """An option that is `on` (the default) or `off`."""
    value = params.get(name, "on")
    if value not in ("on", "off"):
        raise ValueError(f"{name} must be on or off, not {value!r}")
    return value == "on"


class Reply:
    """A meld or the discard later in the seat's turn, after one draw option: an information
    set of the tree, with its candidates (the heuristic's choice first) and what each has
    scored."""

    __slots__ = ("options", "totals", "visits")

    def __init__(self, options: list[Action]) -> None:
        self.options = options
        self.totals = [0.0] * len(options)
        self.visits = [0] * len(options)

    def select(self) -> int:
        """The heuristic's choice for the first `WIDEN` visits (an information set seen a few
        times is valued by sound play, not by trials), then every alternative once, in order,
        then UCB1: the best mean plus `EXPLORE` times the usual bonus."""
        total = sum(self.visits)
        if total < WIDEN:
            return 0
        for j, n in enumerate(self.visits):
            if n == 0:
                return j
        log_total = math.log(total)
        best, best_score = 0, -math.inf
        for j, n in enumerate(self.visits):
            score = self.totals[j] / n + EXPLORE * math.sqrt(log_total / n)
            if score > best_score:
                best, best_score = j, score
        return best

    def update(self, choice: int, value: float) -> None:
        self.totals[choice] += value
        self.visits[choice] += 1


#: The tree's information sets in the seat's turn, by (draw option, choices made before in the
#: turn, the hand then).
Replies = dict[tuple[int, int, tuple[int, ...]], Reply]


def determinize(view: SeatView, rng: random.Random, caps: dict[int, dict[Rank, int]] | None = None) -> State:
    """`resample`, with two corrections from how players play, applied by swapping hidden cards
    of other hands with the stock:

    - bonus threes dealt into other hands go to the stock (a seat lays them out at once);
    - a seat holds no hidden pair of a rank it discarded onto the present pile, nor of a rank it
      let pass on top of the pile (players keep pairs, and take a pile they can take).
    """
    world = resample(view, rng)
    bonus_sets = world.rules.threes_mode == "color_sets"
    if caps is None:
        caps = pair_caps(view)
    stock = world.stock
    free = [i for i, c in enumerate(stock) if not _bonus(c, bonus_sets)]
    shuffle(rng, free)
    for seat, hand in enumerate(world.hands):
        if seat == view.seat:
            continue
        known = len(world.known[seat])  # `resample` puts the known cards first
        limits = caps.get(seat, _NO_CAPS)
        held: dict[Rank, int] = {}  # the seat's hidden naturals by rank
        for i in range(known, len(hand)):
            if hand[i].is_natural:
                held[hand[i].rank] = held.get(hand[i].rank, 0) + 1
        for i in range(known, len(hand)):
            card = hand[i]
            excess = card.is_natural and held.get(card.rank, 0) > limits.get(card.rank, 99)
            if not (_bonus(card, bonus_sets) or excess):
                continue
            at = len(free) - 1  # the last free stock card the seat may hold within its caps
            while at >= 0 and limits.get(stock[free[at]].rank, 99) <= held.get(stock[free[at]].rank, 0):
                at -= 1
            if at < 0:
                continue
            j = free.pop(at)
            if card.is_natural:
                held[card.rank] -= 1
            if stock[j].is_natural:
                held[stock[j].rank] = held.get(stock[j].rank, 0) + 1
            hand[i], stock[j] = stock[j], card
    return world


def _bonus(card: Card, bonus_sets: bool) -> bool:
    """Whether a seat lays `card` out at once (a red three; any three with `color_sets`)."""
    return card.is_red_three or (bonus_sets and card.is_three)


#: No pair caps: a seat that neither discarded nor let pass a card of the present pile.
_NO_CAPS: Final[dict[Rank, int]] = {}


def pair_caps(view: SeatView) -> dict[int, dict[Rank, int]]:
    """Per seat, ranks of which it holds at most one hidden natural, read from the pile: the
    seat that discarded each card, and the next seat, which let the pile pass with that card on
    top (when the pile could be taken with a pair). The same for every determinization of the
    view: a search reads them once."""
    mover = view.mover()
    table = Table(mover)
    pile = view.board.pile
    caps: dict[int, dict[Rank, int]] = {}
    for i, (card, seat) in enumerate(zip(pile, table.discarded_by, strict=True)):
        if not card.is_natural or card.is_three:
            continue
        caps.setdefault(seat, {})[card.rank] = 1
        nxt = mover.next_seat(seat)
        if i + 1 < len(pile) and not table.blocked_rank_for(view.rules.team_of(nxt), card.rank):
            caps.setdefault(nxt, {})[card.rank] = 1
    return caps


def advantage(values: list[float], base: list[float], z: float) -> float:
    """The paired advantage of `values` over `base` (on their common determinizations) less `z`
    standard errors (`z` < 0: plus)."""
    diffs = [v - b for v, b in zip(values, base, strict=False)]
    n = len(diffs)
    if n == 0:
        return -math.inf  # nothing played (the deadline came first): no advantage shown
    mean = sum(diffs) / n
    if n < 2:
        return mean if not z else -math.copysign(math.inf, z)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean - z * spread / math.sqrt(n)


def pick(values: list[list[float]], confidence: float) -> int:
    """The option to play: an alternative replaces the first (the heuristic's choice) only when
    its paired advantage exceeds `confidence` standard errors, so that playout noise alone
    rarely overrules the heuristic. An alternative that dropped out of the evaluation early
    has fewer values, compared with the first option's on the same determinizations."""
    best, best_score = 0, 0.0
    for i in range(1, len(values)):
        score = advantage(values[i], values[0], confidence)
        if score > best_score:
            best, best_score = i, score
    return best


def candidates(mover: Mover, preferred: Action, width: int, melds: bool = False) -> list[Action]:
    """The actions worth comparing here, the level's own choice first.

    The search weighs the draw (stock or pile, and how to take the pile), the discard (the
    `width` best of different ranks by the heuristic's judgement, and freezing the pile), going
    out and asking partner for it wherever the rules allow them (against a discard or a meld
    alike), and answering. With `melds`, it also weighs how much to meld: against a meld of the
    heuristic (going out included), the meld that lowers the hand most (as the heuristic melds
    when the deal may end) and melding nothing more this turn; against its discard, first
    melding what lowers the hand. The groups themselves are the heuristic's.
    """
    out: list[Action] = [preferred]

    def add(action: Action | None) -> None:
        if action is not None and action not in out and mover.check(action) is None:
            out.append(action)

    if mover.now.permission == "pending":
        add(Answer(not preferred.yes) if isinstance(preferred, Answer) else None)
        return out
    table = Table(mover)
    if mover.now.phase == "draw":
        add(DRAW if mover.stock_size else PASS)
        pickups = [p for p in table.pickups() if isinstance(p, Pickup)]
        by_kind: dict[tuple[int, bool], Pickup] = {}
        if mover.stock_size:  # the heuristic's choice stays; no other pile of one's own discards
            pickups = [p for p in pickups if not takes_back_own_discards(table, p)]
        for p in sorted(pickups, key=lambda p: -pickup_value(table, HARD, p)):
            by_kind.setdefault((sum(1 for c in p.with_ if c.is_wild), p.top_only), p)
        for p in by_kind.values():
            add(p)
        return out
    if isinstance(preferred, Ask):
        add(_without_ask(table))
        return out
    add(go_out(table))  # the level may hold it back
    add(_ask_to_go_out(table))
    if isinstance(preferred, Meld):
        if melds and not mover.now.must_meld_out:
            add(next_build(table, HARD, True))  # what lowers the hand most, as when the deal may end
            add(_best_discard(table))  # meld nothing more this turn
        return out
    if melds:
        add(next_build(table, HARD, True))  # meld what lowers the hand, as when the deal may end
    judge = DiscardJudge(table, HARD)
    cards = table.discards()
    kinds = {(preferred.card.rank, preferred.card.is_red_three)} if isinstance(preferred, Discard) else set()
    for card in sorted(cards, key=lambda c: (judge.score(c), c.index)):
        if len(kinds) >= width:
            break
        if (card.rank, card.is_red_three) not in kinds:  # suits make no difference
            kinds.add((card.rank, card.is_red_three))
            add(DISCARDS[card.index])
    freeze = judge.freeze_card()
    add(DISCARDS[freeze.index] if freeze is not None and freeze in cards else None)
    return out


def _without_ask(table: Table) -> Action | None:
    """What the turn does next if it does not ask partner."""
    return go_out(table) or next_build(table, HARD, False) or _best_discard(table)


def _ask_to_go_out(table: Table) -> Action | None:
    """Asking partner, where the rule set lets the seat ask now and a yes lets it go out."""
    mover = table.mover
    if mover.check(ASK) is not None:
        return None
    return ASK if go_out(table.assuming("yes")) is not None else None


def _best_discard(table: Table) -> Action | None:
    """The heuristic's discard now."""
    cards = table.discards()
    if not cards:
        return None
    judge = DiscardJudge(table, HARD)
    return DISCARDS[min(cards, key=lambda c: (judge.score(c), c.index)).index]


def play(state: State, table: Table, action: Action) -> bool:
    """Apply `action`, chosen on `table` (this position's): unjudged where the engine listed it
    (`Table.listed`), else as its mover judges it; or the first legal action should it be
    refused. False when none is left."""
    if table.listed(action):
        state.apply_listed(action)
        return True
    try:
        state.apply_checked(table.mover, action)
    except CanastaError:
        legal = legal_actions(state)
        if not legal:
            return False
        state.apply(fallback(legal))
    return True


def continuation(
    state: State, team: int, rng: random.Random, horizon: int = HORIZON, policy: Skill = HARD
) -> float:
    """One sampled continuation of `state`: `horizon` decisions of `policy` for every seat,
    then the evaluation of the position reached (`canasta.bots.evaluation`), or the deal's own
    result if it ended first; the team's score less the others' mean."""
    steps = 0
    while not state.is_over and steps < horizon:
        table = Table(state.mover())
        if not play(state, table, decide_on(table, policy, rng)):
            break
        steps += 1
    result = state.result
    if result is None:
        return evaluate(state, team)
    scores = [s.total for s in result.scores]
    others = [v for t, v in enumerate(scores) if t != team]
    return scores[team] - sum(others) / len(others)
