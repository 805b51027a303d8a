"""The review of one seat's decisions in a recorded deal: where points were lost, and what was
better.

The record is replayed, and at each decision of the seat (a position where it had more than one
legal move) only that seat's view is read. There the search player (`SearchBot`) values the move
played and the moves it weighs itself (the `hard` level's choice and its alternatives, going out
and asking for it included) on the same sampled worlds: every option is played on from each
world with one seed (common random numbers), so that they are compared on equal cards. At a
draw every option is played to the end of the budget: there the search's tree of the turn
learns as it goes, and the search's shortcut (dropping an option that looks clearly worse after
a dozen worlds) misjudged taking the pile both ways against the whole budget. A decision is
costly when the best alternative's paired advantage over the move played, less `Z` standard
errors, is above `MARGIN` points: a clear margin, not one noisy sample. Each costly decision
comes with the better move, the points it was estimated to be worth (the mean paired
difference) and a reason code, rendered by `canasta.protocol.review_texts`.

Each decision's sample is drawn from the review's seed and the decision's place in the deal, so
a review depends only on the seat's views and its settings: changing the cards the seat could
not see changes nothing.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from canasta.bots.search import DEFAULT_ITERATIONS, SearchBot, advantage
from canasta.bots.table import Table
from canasta.protocol.review_texts import reason_text, summary_text
from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Meld, Pickup, action_to_json, describe
from canasta.rules.errors import CanastaError
from canasta.rules.record import Record, replay
from canasta.rules.state import mover_after
from canasta.rules.view import SeatView

#: Continuations per decision by default: the search player's default number, without its time
#: limit, so that a review is the same on every machine.
ITERATIONS = DEFAULT_ITERATIONS
#: A decision is costly when the best alternative gains more than `MARGIN` points with `Z`
#: standard errors taken off.
Z = 2.0
MARGIN = 20.0


class ReviewError(ValueError):
    """A review that cannot be made (no such seat or deal, a record that does not replay, a
    deal not over); the message says why."""


@dataclass(frozen=True)
class Costly:
    """A costly decision: the move played at `index` (its place in the deal's actions), the better
    move, the points it was estimated to be worth and their lower confidence bound, and why."""

    index: int
    played: Action
    better: Action
    points: float
    bound: float
    reason: str
    params: Mapping[str, str | int]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "index": self.index,
            "played": action_to_json(self.played),
            "better": action_to_json(self.better),
            "played_text": describe(self.played),
            "better_text": describe(self.better),
            "points": round(self.points, 1),
            "bound": round(self.bound, 1),
            "reason": self.reason,
            "params": dict(self.params),
            "reason_text": reason_text(self.reason, self.params, lang),
        }


@dataclass(frozen=True)
class Review:
    """A seat's review of one deal: how many decisions were weighed, and the costly ones."""

    seat: int
    deal: int
    decisions: int
    iterations: int
    costly: tuple[Costly, ...]

    @property
    def points(self) -> float:
        """The points the costly decisions were estimated to cost in all."""
        return sum(c.points for c in self.costly)

    def summary(self, lang: str = "en") -> str:
        return summary_text(len(self.costly), self.points, lang)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "seat": self.seat,
            "deal": self.deal,
            "decisions": self.decisions,
            "iterations": self.iterations,
            "points": round(self.points, 1),
            "summary": self.summary(lang),
            "costly": [c.to_json(lang) for c in self.costly],
        }


def review_deal(
    record: Record,
    seat: int,
    deal: int = 0,
    iterations: int = ITERATIONS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review `seat`'s decisions in deal `deal` of `record` (which must have ended), with
    `iterations` continuations per decision; `progress(done, total)` after each decision."""
    if iterations < 1:
        raise ReviewError("a review needs at least one continuation per decision")
    decisions = seat_decisions(record, seat, deal)
    bot = SearchBot(iterations=iterations)
    costly = []
    for done, (index, view, played) in enumerate(decisions, 1):
        found = review_decision(view, played, bot, random.Random(f"{seed}/{deal}/{index}"))
        if found is not None:
            better, points, bound = found
            code, params = reason(view, played, better)
            costly.append(Costly(index, played, better, points, bound, code, params))
        if progress is not None:
            progress(done, len(decisions))
    return Review(seat, deal, len(decisions), iterations, tuple(costly))


def seat_decisions(record: Record, seat: int, deal: int) -> list[tuple[int, SeatView, Action]]:
    """The decisions of `seat` in deal `deal` of `record`: each move's place in the deal's
    actions, the seat's view before it and the move played (moves that were the only legal one
    left out)."""
    rules = record.rules
    if not 0 <= seat < rules.players:
        raise ReviewError(f"no seat {seat}: the seats are 0 to {rules.players - 1}")
    if not 0 <= deal < len(record.deals):
        raise ReviewError(f"no deal {deal}: the record holds deals 0 to {len(record.deals) - 1}")
    start = dataclasses.replace(record.deals[deal], actions=[])
    out, game = replay(Record(rules, [*record.deals[:deal], start]))
    if not out["ok"]:
        raise ReviewError(f"the record does not replay: {out['error']['message']}")
    decisions = []
    for index, (actor, action) in enumerate(record.deals[deal].actions):
        state = game.current
        if actor == seat and state.to_move == seat:
            view = state.view(seat)
            if len(view.legal) > 1:
                decisions.append((index, view, action))
        try:
            game.apply(action, actor)
        except CanastaError as exc:
            raise ReviewError(f"the record does not replay: deal {deal} action {index}: {exc}") from None
    if not game.current.is_over:
        raise ReviewError(f"deal {deal} has not ended: a deal is reviewed once it is over")
    return decisions


def review_decision(
    view: SeatView, played: Action, bot: SearchBot, rng: random.Random
) -> tuple[Action, float, float] | None:
    """The better move, its estimated gain and the gain's lower bound, when the best of the
    moves `bot` weighs beats `played` by a clear margin on the same sampled worlds; else None."""
    options = [played, *(a for a in bot.options(view) if a != played)]
    if len(options) == 1:
        return None
    values = bot.values(view, options, rng, stop_early=view.now.phase != "draw")
    best = max(range(1, len(options)), key=lambda i: advantage(values[i], values[0], Z))
    bound = advantage(values[best], values[0], Z)
    if bound <= MARGIN:
        return None
    return options[best], advantage(values[best], values[0], 0.0), bound


def reason(view: SeatView, played: Action, better: Action) -> tuple[str, dict[str, str | int]]:
    """Why `better` beats `played`, as a code of `canasta.protocol.review_texts` and its values."""
    mover = view.mover()
    if _goes_out(view, better):
        return "go_out", {"points": view.rules.go_out_bonus}
    if isinstance(better, Ask):
        return "ask_go_out", {}
    if isinstance(better, Answer):
        return ("answer_yes" if better.yes else "answer_no"), {}
    if isinstance(better, Pickup):
        return ("pickup_other" if isinstance(played, Pickup) else "take_pile"), {"n": len(view.board.pile)}
    if isinstance(better, Draw):
        return "leave_pile", {}
    if isinstance(better, Meld):
        return ("meld_other" if isinstance(played, Meld) else "meld_first"), {}
    if not isinstance(better, Discard):
        return "other", {}
    if not isinstance(played, Discard):
        return "hold_cards", {}
    card = played.card
    table = Table(mover)
    if better.card.is_wild:
        return "freeze", {}
    if card.is_wild:
        return "keep_wild", {}
    if any(card.rank in table.board.melds[t] for t in range(view.rules.teams) if t != table.team):
        return "feeds_pile", {}
    if len(table.melds.get(card.rank, ())) >= 4:
        return "near_canasta", {"rank": card.rank.value}
    return "discard_other", {"card": better.card.code}


def _goes_out(view: SeatView, action: Action) -> bool:
    """Whether `action` goes out: the last card's discard, or a meld that leaves at most a card
    the seat may then discard to go out."""
    mover = view.mover()
    if isinstance(action, Discard):
        return len(mover.hand) == 1
    if not isinstance(action, Meld):
        return False
    after = mover_after(mover, action)
    return not after.hand or (len(after.hand) == 1 and after.check(Discard(after.hand[0])) is None)
