"""Review quality: how often the review flags planted mistakes, how often it flags the search's own
moves, and what reviewing one seat's deal costs.

Usage: .venv/bin/python benchmarks/review_quality.py [--planted N] [--own N] [--iterations C]
                                                     [--seed S] [--timed-deals D]

Positions come from real classic deals (4 players): the tournament's decks (seed 2026), played
by `hard` at every seat. At the seat's decisions the script plants a move that loses clearly,
of five kinds, at most one of each kind per deal and N/5 of each kind in all, until it has N
(default 80; it reads at most 5N deals):

- `missed_out`: the seat could go out (a meld-out was there) and partner would say yes (holds
  60 points or less), and it discards instead (the heuristic's discard);
- `feeds_pile`: it discards a natural card of a rank the opponents have melded onto a pile of
  five or more cards they may take by adding it to their meld;
- `wild_away`: it discards a wild card onto a pile of three cards or fewer (nothing worth
  freezing), which the opponents may then take, wild card and all, with a natural pair;
- `breaks_canasta`: it discards a natural card of the rank of its side's meld of six cards
  (which that card would have made a canasta);
- `late_pile`: it takes a pile of three cards or more (the way `hard` would, or the first legal
  way) while an opponent who may go out holds three cards or fewer, where drawing is worth
  more by twice the review's margin: valued as the review values a decision (paired
  continuations of both moves, the review's budget for each, none cut short), on worlds of
  its own seed.

Each planted move is reviewed (`canasta.review.review_decision`, C continuations, default the
review's own) and the share flagged is reported, per kind and in all. Then, at N decisions
(default 200) of the same deals where the search weighs more than one move, `search` at the
same budget chooses, and the share of its own moves the review flags (with another seed) is
reported. Last, the CPU time of reviewing one seat (seat 0) of D classic deals at that budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator

from canasta.bots.discarding import choose_discard
from canasta.bots.heuristic import decide
from canasta.bots.melding import go_out
from canasta.bots.search import SearchBot, advantage
from canasta.bots.skill import HARD
from canasta.bots.table import Table
from canasta.review import ITERATIONS, MARGIN, Z, review_deal, review_decision
from canasta.rules import Action, Discard, Draw, Game, Pickup, Record, RuleSet, State
from canasta.rules.game import default_dealer
from canasta.rules.legal import discard_actions, pickup_actions
from canasta.rules.view import SeatView
from canasta.tournament import TournamentSpec, deal_deck

RULES = RuleSet.preset("classic", 4)
#: Deals read per planted mistake asked for, at most.
DEALS_READ = 5
KINDS = ("missed_out", "feeds_pile", "wild_away", "breaks_canasta", "late_pile")


def played_deals(seed: int) -> Iterator[tuple[int, Game]]:
    """The tournament's classic decks, each dealt and played to its end by `hard`; the game holds
    the record."""
    spec = TournamentSpec("classic", 4, ("hard",), 1, seed=seed)
    index = 0
    while True:
        game = Game(RULES)
        game.next_deal(deal_deck(spec, RULES, index), *default_dealer(RULES, index))
        rng = random.Random(index)
        while not game.current.is_over:
            state = game.current
            game.apply(decide(state.mover(), HARD, rng))
        yield index, game
        index += 1


def decisions(game: Game) -> Iterator[tuple[State, SeatView]]:
    """The position and the view of the seat to move at each decision of the game's deal (more
    than one legal move), replayed from its record."""
    state = State.deal(RULES, list(game.deals[0].deck or ()), game.deals[0].dealer)
    for _, action in game.deals[0].actions:
        view = state.view(state.to_move)
        if len(view.legal) > 1:
            yield state, view
        state.apply(action)


def plant(
    state: State, view: SeatView, judge: SearchBot, rng: random.Random
) -> Iterator[tuple[str, Action]]:
    """The planted mistakes this position allows, by kind (the whole position is read to plant
    them; the review reads only the view); `judge` and `rng` value a pile taken late."""
    mover = view.mover()
    table = Table(mover)
    chosen = decide(mover, HARD, random.Random(0))
    if mover.now.permission == "pending":
        return
    if mover.now.phase == "draw":
        yield from _late_pile(view, table, chosen, judge, rng)
        return
    cards = [a.card for a in discard_actions(mover) if isinstance(a, Discard)]
    if not cards:
        return
    partners = [s for s in mover.order if s != mover.seat and RULES.team_of(s) == table.team]
    if go_out(table) is not None and sum(c.points for s in partners for c in state.hands[s]) <= 60:
        yield "missed_out", Discard(choose_discard(table, HARD, cards))
    opponents = [t for t in range(RULES.teams) if t != table.team]
    nxt = RULES.team_of(mover.next_seat(mover.now.seat))
    if len(view.board.pile) >= 5 and not mover.frozen_for(nxt):
        fed = [c for c in cards if c.is_natural and any(c.rank in table.board.melds[t] for t in opponents)]
        if fed and Discard(fed[0]) != chosen:
            yield "feeds_pile", Discard(fed[0])
    wilds = [c for c in cards if c.is_wild]
    if wilds and len(view.board.pile) <= 3 and not (isinstance(chosen, Discard) and chosen.card.is_wild):
        yield "wild_away", Discard(wilds[0])
    near = [c for c in cards if c.is_natural and len(table.melds.get(c.rank, ())) == 6]
    if near and Discard(near[0]) != chosen:
        yield "breaks_canasta", Discard(near[0])


def _late_pile(
    view: SeatView, table: Table, chosen: Action, judge: SearchBot, rng: random.Random
) -> Iterator[tuple[str, Action]]:
    """Taking a pile of four cards or more while an opponent who may go out holds three cards or
    fewer, where `judge` values drawing higher by a clear margin (twice the review's)."""
    mover = view.mover()
    pickups = [p for p in pickup_actions(mover) if isinstance(p, Pickup) and not p.top_only]
    if not pickups or len(view.board.pile) < 3 or not view.stock_size:
        return
    danger = any(
        mover.hand_sizes[s] <= 3 and table.canastas(RULES.team_of(s)) >= RULES.go_out_min_canastas
        for s in mover.order if RULES.team_of(s) != table.team
    )
    if not danger:
        return
    taken = chosen if chosen in pickups else pickups[0]
    values = judge.values(view, [taken, Draw()], rng, stop_early=False)
    if advantage(values[1], values[0], Z) > 2 * MARGIN:
        yield "late_pile", taken


def planted_set(count: int, seed: int, judge: SearchBot) -> list[tuple[str, SeatView, Action]]:
    """`count` planted mistakes, as even a share of each kind as `DEALS_READ` times `count` deals
    allow, at most one of each kind per deal."""
    share = -(-count // len(KINDS))
    out: list[tuple[str, SeatView, Action]] = []
    for index, game in played_deals(seed):
        if index >= DEALS_READ * count:
            return out
        taken = Counter(kind for kind, _, _ in out)
        seen: set[str] = set()
        for k, (state, view) in enumerate(decisions(game)):
            for kind, move in plant(state, view, judge, random.Random(f"judge/{index}/{k}")):
                if kind not in seen and taken[kind] < share:
                    seen.add(kind)
                    out.append((kind, view, move))
        if len(out) >= count:
            return out[:count]
    raise AssertionError("unreachable: the deals never end")


def own_set(count: int, seed: int, bot: SearchBot) -> list[tuple[SeatView, Action]]:
    out: list[tuple[SeatView, Action]] = []
    for index, game in played_deals(seed):
        for k, (_, view) in enumerate(decisions(game)):
            if k % 3 == 0 and len(bot.options(view)) > 1:
                out.append((view, bot.choose(view, random.Random(f"choose/{index}/{k}"))))
                if len(out) >= count:
                    return out
    raise AssertionError("unreachable: the deals never end")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--planted", type=int, default=80)
    parser.add_argument("--own", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timed-deals", type=int, default=3)
    args = parser.parse_args()
    bot = SearchBot(iterations=args.iterations)

    planted = planted_set(args.planted, args.seed, SearchBot(iterations=2 * args.iterations))
    flagged: Counter[str] = Counter()
    start = time.process_time()
    for i, (kind, view, move) in enumerate(planted):
        flagged[kind] += review_decision(view, move, bot, random.Random(f"planted/{i}")) is not None
    spent = time.process_time() - start
    kinds = Counter(kind for kind, _, _ in planted)
    each = spent / len(planted)
    print(f"planted mistakes, {args.iterations} continuations a decision ({each:.2f} s CPU each):")
    for kind in KINDS:
        print(f"  {kind:15} {flagged[kind]:3d} / {kinds[kind]:3d} flagged")
    total = sum(flagged.values())
    print(f"  {'all':15} {total:3d} / {len(planted):3d} flagged ({100 * total / len(planted):.1f}%)")

    if args.own:
        own = own_set(args.own, args.seed, bot)
        wrongly = sum(review_decision(view, move, bot, random.Random(f"own/{i}")) is not None
                      for i, (view, move) in enumerate(own))
        print(f"the search's own moves: {wrongly} / {len(own)} flagged ({100 * wrongly / len(own):.1f}%)")

    times = []
    for _, (_, game) in zip(range(args.timed_deals), played_deals(args.seed + 1), strict=False):
        start = time.process_time()
        review = review_deal(Record.of_game(game), 0, 0, args.iterations)
        times.append(time.process_time() - start)
        print(f"  review of seat 0: {review.decisions} decisions, {times[-1]:.1f} s CPU; {review.summary()}")
    if times:
        print(f"CPU time to review one seat's classic deal: median {statistics.median(times):.1f} s")


if __name__ == "__main__":
    main()
