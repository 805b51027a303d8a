"""The search bot: determinized Monte Carlo over the seat's view.

At each real decision it lists a few candidate actions (the `hard` level's choice and its
alternatives), deals the unseen cards at random with `resample` (a determinization consistent
with everything the seat knows), and plays each candidate out to the end of the deal with a
fast heuristic policy for every seat. A candidate's value is the own team's deal score minus the
opponents' (their mean with more than two teams), averaged over determinizations; all
candidates share each determinization and playout seed, so they are compared on equal cards.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping

from canasta.bots.base import seat_to_move
from canasta.bots.discarding import DiscardJudge
from canasta.bots.heuristic import decide, fallback, pickup_value
from canasta.bots.melding import go_out, next_build
from canasta.bots.skill import HARD, LEVELS, Skill
from canasta.bots.table import Table
from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Meld, Pass, Pickup
from canasta.rules.errors import CanastaError
from canasta.rules.legal import discard_actions, legal_actions, pickup_actions
from canasta.rules.state import State
from canasta.rules.view import SeatView, resample

#: Default budget: playouts per decision (when neither `iterations` nor `time` is given).
DEFAULT_ITERATIONS = 100
#: Default: how many standard errors an alternative must gain over the heuristic's choice.
CONFIDENCE = 1.0
#: Playouts stop after this many decisions (a safety net; deals end long before).
PLAYOUT_LIMIT = 2000


class SearchBot:
    """Determinized Monte Carlo search with heuristic playouts."""

    name = "search"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        policy: Skill = HARD,
        width: int = 1,
        confidence: float = CONFIDENCE,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if (iterations is not None and iterations < 1) or (seconds is not None and seconds <= 0):
            raise ValueError("a search budget must be positive")
        if width < 1:
            raise ValueError("width must be at least 1")
        if confidence < 0:
            raise ValueError("confidence must not be negative")
        self.iterations = iterations
        self.seconds = seconds
        self.policy = policy
        self.width = width
        self.confidence = confidence

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> SearchBot:
        """Options of `search:...`: `iterations` (playouts per decision), `time` (seconds per
        decision), `policy` (the playout level: easy, normal or hard), `width` (discards
        compared) and `confidence` (standard errors an alternative must gain)."""
        known = {"iterations", "time", "policy", "width", "confidence"}
        unknown = set(params) - known
        if unknown:
            raise ValueError(
                f"unknown search option(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
            )
        try:
            iterations = int(params["iterations"]) if "iterations" in params else None
            seconds = float(params["time"]) if "time" in params else None
            width = int(params.get("width", "1"))
            confidence = float(params.get("confidence", str(CONFIDENCE)))
        except ValueError as exc:
            raise ValueError(f"bad search option: {exc}") from None
        policy_name = params.get("policy", "hard")
        if policy_name not in LEVELS:
            raise ValueError(f"unknown playout policy {policy_name!r} (known: {', '.join(LEVELS)})")
        return cls(iterations, seconds, LEVELS[policy_name], width, confidence)

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        seat = seat_to_move(view)
        if len(legal) == 1:
            return legal[0]
        base = resample(view, random.Random(0))
        preferred = decide(base, seat, HARD, random.Random(0))
        if base.check(preferred) is not None:
            preferred = fallback(legal)
        options = candidates(base, seat, preferred, self.width)
        if len(options) == 1:
            return preferred
        values = self._evaluate(view, seat, options, rng)
        return options[pick(values, self.confidence)]

    def _evaluate(
        self, view: SeatView, seat: int, options: list[Action], rng: random.Random
    ) -> list[list[float]]:
        """Per option, its playout values on shared determinizations."""
        team = view.rules.team_of(seat)
        values: list[list[float]] = [[] for _ in options]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        played = 0
        while True:
            world = determinize(view, rng)
            seed = rng.getrandbits(32)
            for i, action in enumerate(options):
                state = world.clone()
                state.apply(action)
                values[i].append(playout(state, team, self.policy, random.Random(seed)))
            played += len(options)
            if self.iterations is not None and played >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return values


def determinize(view: SeatView, rng: random.Random) -> State:
    """`resample`, with bonus threes dealt into other hands moved to the stock (a seat lays its
    bonus threes out at once, so none can be in a hand)."""
    world = resample(view, rng)
    bonus_sets = world.rules.threes_mode == "color_sets"
    stock = world.stock
    plain = [i for i, c in enumerate(stock) if not (c.is_red_three or (bonus_sets and c.is_three))]
    rng.shuffle(plain)
    for seat, hand in enumerate(world.hands):
        if seat == view.seat:
            continue
        known = world.known[seat]
        for i, card in enumerate(hand):
            if (card.is_red_three or (bonus_sets and card.is_three)) and card not in known and plain:
                j = plain.pop()
                hand[i], stock[j] = stock[j], card
    return world


def pick(values: list[list[float]], confidence: float) -> int:
    """The option to play: an alternative replaces the first (the heuristic's choice) only when
    its paired advantage exceeds `confidence` standard errors, so that playout noise alone
    rarely overrules the heuristic."""
    base = values[0]
    best, best_score = 0, 0.0
    for i in range(1, len(values)):
        diffs = [v - b for v, b in zip(values[i], base, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 if n > 1 else float("inf")
        score = mean - confidence * spread / n**0.5
        if score > best_score:
            best, best_score = i, score
    return best


def candidates(state: State, seat: int, preferred: Action, width: int) -> list[Action]:
    """The actions worth comparing here, the level's own choice first.

    The search weighs the decisions where the stakes are high: the draw (stock or pile, and
    how to take it), going out or not, spending wild cards on a meld or keeping them, freezing
    the pile, and asking or answering. Among ordinary discards it compares the `width` best by
    the heuristic's judgement (by default only its choice: their differences are small next to
    the noise of playouts).
    """
    out: list[Action] = [preferred]

    def add(action: Action | None) -> None:
        if action is not None and action not in out and state.check(action) is None:
            out.append(action)

    if state.permission == "pending":
        add(Answer(not preferred.yes) if isinstance(preferred, Answer) else None)
        return out
    table = Table(state, seat)
    if state.phase == "draw":
        add(Draw() if state.stock else Pass())
        pickups = [p for p in pickup_actions(state) if isinstance(p, Pickup)]
        by_kind: dict[tuple[int, bool], Pickup] = {}
        for p in sorted(pickups, key=lambda p: -pickup_value(table, HARD, p)):
            by_kind.setdefault((sum(1 for c in p.with_ if c.is_wild), p.top_only), p)
        for p in by_kind.values():
            add(p)
        return out
    if isinstance(preferred, Ask):
        add(_without_ask(table))
        return out
    if preferred == go_out(table):
        add(_best_discard(table, keeping=True))  # hold on: end the turn without going out
        return out
    if isinstance(preferred, Meld):
        if any(c.is_wild for g in preferred.melds for c in g.cards):
            add(_best_discard(table))
        return out
    judge = DiscardJudge(table, HARD)
    cards = [a.card for a in discard_actions(state) if isinstance(a, Discard)]
    for card in sorted(cards, key=lambda c: (judge.score(c), c.index))[:width]:
        add(Discard(card))
    freeze = judge.freeze_card()
    add(Discard(freeze) if freeze is not None and freeze in cards else None)
    return out


def _without_ask(table: Table) -> Action | None:
    """What the turn does next if it does not ask partner."""
    return go_out(table) or next_build(table, HARD, False) or _best_discard(table)


def _best_discard(table: Table, keeping: bool = False) -> Action | None:
    """The heuristic's discard now (`keeping`: only if a card stays in hand)."""
    cards = [a.card for a in discard_actions(table.state) if isinstance(a, Discard)]
    if not cards or (keeping and len(table.hand) < 2):
        return None
    judge = DiscardJudge(table, HARD)
    return Discard(min(cards, key=lambda c: (judge.score(c), c.index)))


def playout(state: State, team: int, policy: Skill, rng: random.Random) -> float:
    """Play the deal out with `policy` for every seat; the team's score minus the others'."""
    steps = 0
    while not state.is_over and steps < PLAYOUT_LIMIT:
        try:
            state.apply(decide(state, state.to_move, policy, rng))
        except CanastaError:
            legal = legal_actions(state)
            if not legal:
                break
            state.apply(fallback(legal))
        steps += 1
    result = state.result
    if result is None:
        return 0.0
    scores = [s.total for s in result.scores]
    others = [v for t, v in enumerate(scores) if t != team]
    return scores[team] - sum(others) / len(others)
