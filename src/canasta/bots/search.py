"""The search bot: determinized Monte Carlo over the seat's view.

At the draw and the discard it lists a few candidate actions (the `hard` level's choice and its
alternatives), deals the unseen cards at random with `resample` (a determinization consistent
with everything the seat knows, corrected by what the other seats' play reveals), and plays each
candidate out to the end of the deal with a fast heuristic policy for every seat. A candidate's
value is the own team's deal score minus the opponents' (their mean with more than two teams),
averaged over determinizations; all candidates share each determinization and playout seed, so
they are compared on equal cards. Candidates clearly worse than the heuristic's choice drop out
early, and an alternative is played only when it is better by a clear margin.

How the design was settled (classic, 4 players): the gain of each decision the search changes
was measured again on the real hands (only the stock shuffled). Against those true values the
plain `resample` overrated its changes about threefold; reading the discards (`determinize`)
and leaving melds and going out to the heuristic made the changes pay.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Mapping

from canasta.bots.base import seat_to_move
from canasta.bots.discarding import DiscardJudge
from canasta.bots.heuristic import decide, fallback, pickup_value
from canasta.bots.melding import go_out, next_build
from canasta.bots.skill import HARD, LEVELS, Skill
from canasta.bots.table import Table
from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Meld, Pass, Pickup
from canasta.rules.cards import Card, Rank
from canasta.rules.errors import CanastaError
from canasta.rules.legal import discard_actions, legal_actions, pickup_actions
from canasta.rules.mover import Mover
from canasta.rules.state import State
from canasta.rules.view import SeatView, resample

#: Default budget: playouts per decision (when neither `iterations` nor `time` is given).
DEFAULT_ITERATIONS = 300
#: Default: how many discards of different ranks are compared.
DEFAULT_WIDTH = 3
#: Default: how many standard errors an alternative must gain over the heuristic's choice.
CONFIDENCE = 1.0
#: Playouts stop after this many decisions (a safety net; deals end long before).
PLAYOUT_LIMIT = 2000
#: Rounds (determinizations) before an alternative may drop out, and how often it is checked.
MIN_ROUNDS = 12
CHECK_EVERY = 4
#: An alternative drops out when its advantage plus this many standard errors is below zero;
#: the search stops when the one alternative left leads by this many standard errors.
DROP_Z = 2.0
CLEAR_Z = 3.0


class SearchBot:
    """Determinized Monte Carlo search with heuristic playouts."""

    name = "search"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        policy: Skill = HARD,
        width: int = DEFAULT_WIDTH,
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
            width = int(params.get("width", str(DEFAULT_WIDTH)))
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
        mover = view.mover()
        preferred = decide(mover, HARD, random.Random(0))
        if mover.check(preferred) is not None:
            preferred = fallback(legal)
        options = candidates(mover, preferred, self.width)
        if len(options) == 1:
            return preferred
        values = self._evaluate(view, seat, options, rng)
        return options[pick(values, self.confidence)]

    def _evaluate(
        self, view: SeatView, seat: int, options: list[Action], rng: random.Random
    ) -> list[list[float]]:
        """Per option, its playout values on shared determinizations.

        Every round deals one determinization and plays each option still in the running from
        it. From `MIN_ROUNDS` on, an alternative clearly worse than the first option (the
        heuristic's choice) drops out, so that the budget goes to the close contests; the
        search stops early once no alternative is left, or once a single one is clearly better.
        """
        team = view.rules.team_of(seat)
        values: list[list[float]] = [[] for _ in options]
        alive = list(range(len(options)))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        played = rounds = 0
        while True:
            world = determinize(view, rng)
            seed = rng.getrandbits(32)
            for i in alive:
                state = world.clone()
                state.apply(options[i])
                values[i].append(playout(state, team, self.policy, random.Random(seed)))
            played += len(alive)
            rounds += 1
            if self.iterations is not None and played >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if rounds >= MIN_ROUNDS and rounds % CHECK_EVERY == 0:
                alive = [i for i in alive if i == 0 or advantage(values[i], values[0], -DROP_Z) >= 0]
                if len(alive) == 1:
                    break
                if len(alive) == 2 and advantage(values[alive[1]], values[0], CLEAR_Z) > 0:
                    break
        return values


def determinize(view: SeatView, rng: random.Random) -> State:
    """`resample`, with two corrections from how players play, applied by swapping hidden cards
    of other hands with the stock:

    - bonus threes dealt into other hands go to the stock (a seat lays them out at once);
    - a seat holds no hidden pair of a rank it discarded onto the present pile, nor of a rank it
      let pass on top of the pile (players keep pairs, and take a pile they can take).
    """
    world = resample(view, rng)
    bonus_sets = world.rules.threes_mode == "color_sets"

    def bonus(card: Card) -> bool:
        return card.is_red_three or (bonus_sets and card.is_three)

    caps = _pair_caps(world, view)
    stock = world.stock
    free = [i for i, c in enumerate(stock) if not bonus(c)]
    rng.shuffle(free)
    for seat, hand in enumerate(world.hands):
        if seat == view.seat:
            continue
        known = len(world.known[seat])  # `resample` puts the known cards first
        limits = caps.get(seat, {})
        held = Counter(c.rank for c in hand[known:] if c.is_natural)
        for i in range(known, len(hand)):
            card = hand[i]
            excess = card.is_natural and held[card.rank] > limits.get(card.rank, 99)
            if not (bonus(card) or excess):
                continue
            j = next((j for j in reversed(free) if limits.get(stock[j].rank, 99) > held[stock[j].rank]), None)
            if j is None:
                continue
            free.remove(j)
            if card.is_natural:
                held[card.rank] -= 1
            if stock[j].is_natural:
                held[stock[j].rank] += 1
            hand[i], stock[j] = stock[j], card
    return world


def _pair_caps(world: State, view: SeatView) -> dict[int, dict[Rank, int]]:
    """Per seat, ranks of which it holds at most one hidden natural, read from the pile: the
    seat that discarded each card, and the next seat, which let the pile pass with that card on
    top (when the pile could be taken with a pair)."""
    table = Table(view.mover())
    pile = world.pile
    caps: dict[int, dict[Rank, int]] = {}
    for i, (card, seat) in enumerate(zip(pile, table.discarded_by, strict=True)):
        if not card.is_natural or card.is_three:
            continue
        caps.setdefault(seat, {})[card.rank] = 1
        nxt = world.next_seat(seat)
        if i + 1 < len(pile) and not table.blocked_rank_for(world.rules.team_of(nxt), card.rank):
            caps.setdefault(nxt, {})[card.rank] = 1
    return caps


def advantage(values: list[float], base: list[float], z: float) -> float:
    """The paired advantage of `values` over `base` (on their common determinizations) less `z`
    standard errors (`z` < 0: plus)."""
    diffs = [v - b for v, b in zip(values, base, strict=False)]
    n = len(diffs)
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


def candidates(mover: Mover, preferred: Action, width: int) -> list[Action]:
    """The actions worth comparing here, the level's own choice first.

    The search weighs the draw (stock or pile, and how to take the pile), the discard (the
    `width` best of different ranks by the heuristic's judgement, and freezing the pile), and
    asking or answering. Melds and going out are left to the heuristic: measured against the
    true hands, the search did no better there.
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
        add(Draw() if mover.stock_size else Pass())
        pickups = [p for p in pickup_actions(mover) if isinstance(p, Pickup)]
        by_kind: dict[tuple[int, bool], Pickup] = {}
        for p in sorted(pickups, key=lambda p: -pickup_value(table, HARD, p)):
            by_kind.setdefault((sum(1 for c in p.with_ if c.is_wild), p.top_only), p)
        for p in by_kind.values():
            add(p)
        return out
    if isinstance(preferred, Ask):
        add(_without_ask(table))
        return out
    if isinstance(preferred, Meld):
        return out  # measured: the heuristic's melds (and going out) are as good as the search's
    judge = DiscardJudge(table, HARD)
    cards = [a.card for a in discard_actions(mover) if isinstance(a, Discard)]
    kinds = {(preferred.card.rank, preferred.card.is_red_three)} if isinstance(preferred, Discard) else set()
    for card in sorted(cards, key=lambda c: (judge.score(c), c.index)):
        if len(kinds) >= width:
            break
        if (card.rank, card.is_red_three) not in kinds:  # suits make no difference
            kinds.add((card.rank, card.is_red_three))
            add(Discard(card))
    freeze = judge.freeze_card()
    add(Discard(freeze) if freeze is not None and freeze in cards else None)
    return out


def _without_ask(table: Table) -> Action | None:
    """What the turn does next if it does not ask partner."""
    return go_out(table) or next_build(table, HARD, False) or _best_discard(table)


def _best_discard(table: Table) -> Action | None:
    """The heuristic's discard now."""
    cards = [a.card for a in discard_actions(table.mover) if isinstance(a, Discard)]
    if not cards:
        return None
    judge = DiscardJudge(table, HARD)
    return Discard(min(cards, key=lambda c: (judge.score(c), c.index)))


def playout(state: State, team: int, policy: Skill, rng: random.Random) -> float:
    """Play the deal out with `policy` for every seat; the team's score minus the others'."""
    steps = 0
    while not state.is_over and steps < PLAYOUT_LIMIT:
        try:
            state.apply(decide(state.mover(), policy, rng))
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
