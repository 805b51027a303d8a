"""Legal-move enumeration, free of side effects: the moves `State.apply` accepts, listed.

The lists are computed on what the seat to move knows (its `Mover`, from a state or a view).

Every candidate is judged by the rules core (`canasta.rules.judge`), the same code `apply`
uses, so every listed action applies. Melds and pickups are listed in canonical form: cards
of one rank are interchangeable, so a group is (rank, naturals, jokers, twos), its cards taken
from the hand in card order. The list is complete in this sense:

- every listed action applies;
- every legal action is reachable: some sequence of listed actions in the same turn reaches
  the position it reaches (cards of one rank being interchangeable). Once the team has
  opened, every single group is listed (a meld of several groups is laid group by group). An
  opening, and a pickup, is listed in its irreducible forms: those from which no card or group
  can be held back and laid afterwards by a listed single group; every other legal opening or
  pickup is one of them followed by single groups. After a black-three pickup or a
  top-card-only purchase the cards are laid group by group, each step leaving the rest
  meldable (a purchase is also listed once melding every card at once, as the solver melds
  them). What must be one action is listed whole: a going out below the minimum (concealed,
  after a stock draw), and a going out with the last few cards where adding them one by one
  would pass through a hand of one card that may not go out yet;
- no listed action leads to a position where the deal is not over and nothing is legal;
- the list and its order depend only on what the seat to move sees (its view).

The list is bounded whatever the hand: the searches of openings and pickups do at most
`SEARCH_BUDGET` units of work a listing (a node of the walk, a step judged, a step's verdict,
each counted as asked for, so that what earlier listings left remembered changes nothing;
`LARGE_HAND_BUDGET` for a hand of more than `FULL_BUDGET_HAND` cards), and a whole-hand
meld-out tries at most `MELD_OUT_LIMIT` ways of sharing the wild cards. Random play stays
within both (its largest searches, hands of about twenty cards facing a minimum of 120, do
seven tenths of the budget); a hand of dozens of cards, most of them wild, with more
irreducible openings than any list can hold, may use it all: only the first found are listed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from operator import attrgetter
from typing import TYPE_CHECKING, Final

from canasta.rules.actions import Action, Answer, Ask, Discard, Draw, Meld, Pass
from canasta.rules.cards import ALL_CARDS, THREE_RANK, WILD_RANK, Card, Rank
from canasta.rules.groups import read_groups
from canasta.rules.hand import NO_CARDS, HandKinds, meld_of
from canasta.rules.irreducible import IrreducibleSearch, list_pickups
from canasta.rules.judge import Judge, Spec, has_groups, touched_of
from canasta.rules.mover import Mover
from canasta.rules.parts import DRAW as DRAWING
from canasta.rules.parts import ENDED, PLAY

if TYPE_CHECKING:
    from canasta.rules.state import State

#: The actions that carry no cards, and each card's discard (by the card's index), made once:
#: the lists and the bots hand out these very objects.
DRAW: Final = Draw()
ASK: Final = Ask()
PASS: Final = Pass()
DISCARDS: Final[tuple[Discard, ...]] = tuple([Discard(c) for c in ALL_CARDS])
_ANSWERS: Final[list[Action]] = [Answer(True), Answer(False)]
_INDEX: Final = attrgetter("index")
#: A hand this small may need to go out with several groups in one action.
TINY_HAND: Final = 3
#: Ways of melding a whole hand at once tried in one listing (a hand of dozens of cards with
#: many wild cards can share them out in millions of ways).
MELD_OUT_LIMIT: Final = 300


def _mover(of: Mover | State) -> Mover:
    return of if isinstance(of, Mover) else of.mover()


def legal_actions(of: Mover | State) -> list[Action]:
    """The legal actions of the seat to move, complete as the module docstring says."""
    m = _mover(of)
    now = m.now
    if now.phase is ENDED:
        return []
    if now.permission == "pending":
        return _ANSWERS[:]
    if now.phase is DRAWING:
        actions: list[Action] = [DRAW] if m.stock_size else []
        pickups = list_pickups(m)
        if not m.stock_size and pickups and not m.must_take_pile():
            actions.append(PASS)
        actions.extend(pickups)
    else:
        hand = m.kinds()
        actions = _discards(m, hand)  # a new list
        actions.extend(_melds(m, hand))
    if _may_ask(m):
        actions.append(ASK)
    return actions


def _may_ask(m: Mover) -> bool:
    rules, now = m.rules, m.now
    mode = rules.permission_mode
    if mode == "off" or now.permission is not None:  # a rule set asks only with partnerships
        return False
    if mode == "once_per_deal_after_draw" and (m.board.asked[now.seat] or now.phase is not PLAY):
        return False
    return now.phase is DRAWING or (now.drew == "stock" and not now.melded)


def discard_actions(of: Mover | State) -> list[Action]:
    """The legal discards, in card order."""
    m = _mover(of)
    return _discards(m, m.kinds())


def _discards(m: Mover, hand: HandKinds) -> list[Action]:
    if m.now.must_meld_out:
        return []
    going_out = hand.size == 1
    if going_out and m.go_out_refusal(m.team) is not None:
        return []
    cards = hand.cards()
    errors = m.discard_errors(cards, going_out)
    out: list[Action] = []
    last: Card | None = None
    for c in cards:  # in card order: copies of a card are next to each other
        if c is not last and (not errors or c not in errors):  # most rule sets refuse no discard
            out.append(DISCARDS[c.index])
        last = c
    return out


# -- melds ----------------------------------------------------------------------------------------


def meld_actions(of: Mover | State) -> list[Action]:
    """Meld actions: single groups once the team has opened, else irreducible openings."""
    state = _mover(of)
    return _melds(state, state.kinds())


def _melds(state: Mover, hand: HandKinds) -> list[Action]:
    team = state.team
    judge = Judge.of(state, team)
    if judge.opened:
        singles = _singles(judge, hand, hand.size)
        must_meld_out = state.now.must_meld_out
        if must_meld_out:  # the turn ends by melding every card: a step must leave that possible
            cards = state.hand
            singles = [m for m in singles if _leaves_meld_out(state, team, m, cards)]
        if hand.size <= TINY_HAND and (must_meld_out or state.rules.go_out_discard != "mandatory"):
            # going out by adding the last cards one by one may pass through a hand of one card
            # that could not go out yet (two canastas to complete with the last two cards)
            listed = {m.melds for m in singles}
            for specs in _meld_outs(state, judge, hand, 0):
                groups = hand.groups(specs)
                if len(groups) > 1 and groups not in listed:
                    singles.append(meld_of(groups))
        return list(singles)
    openings = IrreducibleSearch(state, judge, hand, None).combos((None,))
    out: list[Action] = [meld_of(hand.groups(specs)) for _, specs in openings]
    if (
        state.now.drew == "stock"
        and state.rules.concealed_min_rule == "stock_exempt_pile_required"
        and _canasta_possible(hand, state.rules.meld_max_wilds)
    ):
        seen = {a.melds for a in out if isinstance(a, Meld)}
        for keep in (0, 1):
            for specs in _meld_outs(state, judge, hand, keep):
                groups = hand.groups(specs)
                if groups not in seen:
                    seen.add(groups)
                    out.append(meld_of(groups))
    return out


def _leaves_meld_out(state: Mover, team: int, meld: Meld, cards: list[Card]) -> bool:
    used, steps = read_groups(meld.melds, cards, None, ())
    return len(used) == len(cards) or state.can_meld_out(team, used, steps)


def _singles(judge: Judge, hand: HandKinds, size: int) -> list[Meld]:
    """The meld action of every single group an opened team may lay or add now, judged whole."""
    wilds = len(hand.jokers) + len(hand.twos)
    stats = judge.stats
    out: list[Meld] = []
    for rank, pool in hand.naturals.items():
        if rank in stats or has_groups(len(pool) + wilds, False):  # (a melded rank: any card has one)
            _add_singles(out, judge, hand, rank, pool, size)
    if has_groups(wilds, True):  # a rank of no card in hand takes wild cards alone
        for rank in stats:
            if rank not in hand.naturals and rank is not WILD_RANK and rank is not THREE_RANK:
                _add_singles(out, judge, hand, rank, NO_CARDS, size)
        if judge.rules.wild_melds != "none":
            _add_singles(out, judge, hand, WILD_RANK, NO_CARDS, size)
    if len(hand.black_threes) >= 3:
        _add_singles(out, judge, hand, THREE_RANK, hand.black_threes, size)
    return out


def _add_singles(
    out: list[Meld], judge: Judge, hand: HandKinds, rank: Rank, pool: list[Card], size: int
) -> None:
    """Add to `out` the single groups of `rank` from its `pool` and the hand's wild cards."""
    naturals, jokers, twos = len(pool), len(hand.jokers), len(hand.twos)
    specs = judge.groups(rank, naturals, jokers, twos, judge.pending)
    natural = rank is not THREE_RANK and rank is not WILD_RANK
    if natural and size - naturals - jokers - twos > 1:
        for spec in specs:  # each keeps two cards or more: judged by groups()
            out.append(hand.group_meld(pool, spec, 0, 0, 0))
        return
    for spec in specs:
        after = size - spec[1] - spec[2] - spec[3]
        if (natural and after > 1) or judge.single_allowed(spec, after):
            out.append(hand.group_meld(pool, spec, 0, 0, 0))


def _canasta_possible(hand: HandKinds, max_wilds: int) -> bool:
    """Whether a team without melds might lay every card but one, a canasta among them."""
    short = 0 < len(hand.black_threes) < 3  # a kind too short for a meld: one may be kept
    for cs in hand.naturals.values():
        if len(cs) < 2:
            if short:
                return False
            short = True
    wilds = len(hand.jokers) + len(hand.twos)
    return hand.longest() + min(wilds, max_wilds) >= 7 or wilds >= 7


# -- melding every card ---------------------------------------------------------------------------


def _meld_outs(state: Mover, judge: Judge, hand: HandKinds, keep: int) -> Iterator[tuple[Spec, ...]]:
    """Every way to meld the whole hand (less `keep` cards, one of a kind), each judged whole."""
    rules = state.rules
    if judge.canastas_within(hand.size) < rules.go_out_min_canastas:
        return  # every way leaves one card at most: `go_out_error` refuses it, too few canastas
    kinds: list[Spec | None] = [None]
    if keep:
        kinds = [(r, 1, 0, 0) for r in hand.naturals]
        kinds += [(WILD_RANK, 0, 1, 0)] * bool(hand.jokers) + [(WILD_RANK, 0, 0, 1)] * bool(hand.twos)
        kinds += [(THREE_RANK, 1, 0, 0)] * bool(hand.black_threes)
    tries = MELD_OUT_LIMIT
    for kept in kinds:
        naturals = {r: len(cs) for r, cs in hand.naturals.items()}
        jokers, twos, threes = len(hand.jokers), len(hand.twos), len(hand.black_threes)
        if kept is not None:
            if kept[0] is THREE_RANK:
                threes -= 1
            elif kept[0] is WILD_RANK:
                jokers, twos = jokers - kept[2], twos - kept[3]
            else:
                naturals[kept[0]] -= 1
        least = rules.meld_min_naturals
        if any(0 < n < least and r not in judge.stats for r, n in naturals.items()) or 0 < threes < 3:
            continue  # a rank too short for a meld of its own: this hand cannot all be melded
        targets = [r for r, n in naturals.items() if n > 0]
        targets += [r for r in judge.stats if r not in naturals and r not in (WILD_RANK, THREE_RANK)]
        if rules.wild_melds != "none":
            targets.append(WILD_RANK)
        fixed = [(THREE_RANK, threes, 0, 0)] if threes else []
        used = hand.size - (1 if kept is not None else 0)
        options = [_target_options(judge, r, naturals.get(r, 0), jokers, twos) for r in targets]
        for shares in islice(_shares(options, jokers, twos), tries):
            tries -= 1
            specs = [
                (r, naturals.get(r, 0) if r is not WILD_RANK else 0, j, t)
                for r, (j, t) in zip(targets, shares, strict=True)
            ]
            specs = [s for s in specs if s[1] + s[2] + s[3]] + fixed
            if sum(s[1] + s[2] + s[3] for s in specs) != used:
                continue
            if not judge.step_illegal(touched_of(specs), hand.size - used):
                yield tuple(specs)


def _target_options(judge: Judge, rank: Rank, naturals: int, jokers: int, twos: int) -> list[tuple[int, int]]:
    """The (jokers, twos) a target of a meld-out may take: what its meld's composition allows
    (nothing, for a target with no card of its own: the team's meld left as it is)."""
    limit = 99 if rank is WILD_RANK else judge.rules.meld_max_wilds
    out = []
    for j in range(min(jokers, limit), -1, -1):
        for t in range(min(twos, limit - j), -1, -1):
            if naturals + j + t == 0 or judge.group_error(
                rank, 0 if rank is WILD_RANK else naturals, j, t, False
            ) is None:
                out.append((j, t))
    return out


def _shares(
    options: Sequence[Sequence[tuple[int, int]]], jokers: int, twos: int
) -> Iterator[list[tuple[int, int]]]:
    """Every way to share all the wild cards out, one (jokers, twos) option per target."""
    room = [0] * (len(options) + 1)  # wild cards the targets from i on can take at most
    for i in range(len(options) - 1, -1, -1):
        room[i] = room[i + 1] + max((j + t for j, t in options[i]), default=0)

    def share(i: int, jokers: int, twos: int) -> Iterator[list[tuple[int, int]]]:
        if i == len(options):
            if not jokers and not twos:
                yield []
            return
        if jokers + twos > room[i]:
            return
        for j, t in options[i]:
            if j <= jokers and t <= twos:
                for tail in share(i + 1, jokers - j, twos - t):
                    yield [(j, t), *tail]

    return share(0, jokers, twos)


# -- pickups --------------------------------------------------------------------------------------


def pickup_actions(of: Mover | State, first_only: bool = False) -> list[Action]:
    """Legal pickups in canonical form (`first_only`: stop at the first one found)."""
    return list_pickups(_mover(of), first_only)
