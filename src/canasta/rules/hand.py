"""A hand by what matters for melding: its naturals by rank, jokers, twos and threes, each kind in
card order, so that the groups formed from it are canonical (cards of one rank being
interchangeable, wild cards differing only as a joker or a two)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Final

from canasta.rules.actions import Group, Meld, Pickup
from canasta.rules.cards import RANK_CODE, THREE_RANK, WILD_RANK, Card, Rank, take_out
from canasta.rules.judge import Spec

#: Cards in card order: `sorted(cards, key=INDEX)`.
INDEX: Final = attrgetter("index")
#: The meld actions of single groups made so far, by their cards and explicit rank (`_single_key`).
SINGLES: Final[dict[int, Meld]] = {}
#: At most this many are kept (each full garbage collection walks them all: 100,000 cost a
#: long-running process 100–200 ms a collection; random play's speed is the same either way).
SINGLES_KEPT: Final = 4096
#: The pickup of the top card with one group's cards and no further group, by the `id` of that
#: group's meld action in `SINGLES`, with the meld itself (held, so that no other object takes
#: its id while it is kept).
PICKUPS: Final[dict[int, tuple[Meld, Pickup]]] = {}


NO_CARDS: Final[list[Card]] = []  # the pool of a rank the hand lacks (never changed)
_new: Final = object.__new__
#: The action classes, as constants: compiled code reads a constant, not the module's dictionary
#: by name (the actions module is not compiled).
_GROUP: Final = Group
MELD_CLASS: Final = Meld
PICKUP_CLASS: Final = Pickup
#: How frozen actions store their fields: each slot's own setter (`object.__setattr__` would
#: look the slot up by its name every time).
_GROUP_CARDS: Final = vars(Group)["cards"].__set__
_GROUP_RANK: Final = vars(Group)["rank"].__set__
_MELD_MELDS: Final = vars(Meld)["melds"].__set__
_PICKUP_WITH: Final = vars(Pickup)["with_"].__set__
_PICKUP_MELDS: Final = vars(Pickup)["melds"].__set__
_PICKUP_TOP_ONLY: Final = vars(Pickup)["top_only"].__set__


def group_of(cards: tuple[Card, ...], rank: Rank | None = None) -> Group:
    """`Group(cards, rank)` for cards taken from a hand, without the constructor's checks of what
    a caller outside the engine passes (compiled code makes one in a fraction of the time)."""
    group: Group = _new(_GROUP)
    _GROUP_CARDS(group, cards)
    _GROUP_RANK(group, rank)
    return group


def meld_of(groups: tuple[Group, ...]) -> Meld:
    """`Meld(groups)` for groups made by `group_of`, without the constructor's checks."""
    meld: Meld = _new(MELD_CLASS)
    _MELD_MELDS(meld, groups)
    return meld


def pickup_of(with_: tuple[Card, ...], groups: tuple[Group, ...], top_only: bool = False) -> Pickup:
    """`Pickup(with_, groups, top_only)` for cards and groups taken from a hand, without the
    constructor's checks."""
    pickup: Pickup = _new(PICKUP_CLASS)
    _PICKUP_WITH(pickup, with_)
    _PICKUP_MELDS(pickup, groups)
    _PICKUP_TOP_ONLY(pickup, top_only)
    return pickup


def single_meld(cards: tuple[Card, ...], rank: Rank | None = None) -> Meld:
    """The meld action of one group, `group_of(cards, rank)` (actions are values: one object
    serves every hand that forms it, kept in `SINGLES`)."""
    code = 0
    for c in cards:
        code = code << 6 | c.index + 1
    return _single(_single_key(code, rank), cards, rank)


def _single_key(code: int, rank: Rank | None) -> int:
    """The key in `SINGLES` of a group of cards whose indexes (plus one) are the 6-bit digits of
    `code`, with its explicit rank (then negative: a dictionary looks an int key up by its lowest
    bits first, where the cards differ most)."""
    return code if rank is None else -(code << 5 | RANK_CODE[rank])


def _single(key: int, cards: tuple[Card, ...], rank: Rank | None) -> Meld:
    """`single_meld(cards, rank)` by its `_single_key`."""
    action = SINGLES.get(key)
    if action is None:
        if len(SINGLES) > SINGLES_KEPT:
            SINGLES.clear()
        action = SINGLES[key] = meld_of((group_of(cards, rank),))
    return action


class HandKinds:
    """A hand by what matters for melding, each kind in card order (so the result is canonical).

    A state keeps one for each hand, changed by `add` and `remove` as the hand changes; `held`
    is the hand it stands for (None for one made for a single listing).
    """

    __slots__ = ("black_threes", "held", "in_order", "jokers", "last", "naturals", "size", "twos")

    def __init__(self, cards: Sequence[Card], rank: Rank | None = None) -> None:
        """The hand by kinds (with `rank`: `of_rank`)."""
        self.held: list[Card] | None = None
        self.naturals: dict[Rank, list[Card]] = {}
        self.last = -1  # at least the index of a card of the last rank in `naturals`
        self.jokers: list[Card] = []
        self.twos: list[Card] = []
        self.black_threes: list[Card] = []
        self.size = len(cards)
        if rank is not None:
            self._of_rank(cards, rank)
            return
        naturals = self.naturals
        last: Rank | None = None  # in card order the cards of a rank are next to each other
        run = NO_CARDS
        self.in_order = sorted(cards)
        for c in self.in_order:
            if c.is_natural:
                if c.rank is last:
                    run.append(c)
                else:
                    last = c.rank
                    run = naturals[last] = [c]
                    self.last = c.index
            elif c.is_joker:
                self.jokers.append(c)
            elif c.is_two:
                self.twos.append(c)
            elif c.is_black_three:
                self.black_threes.append(c)

    @staticmethod
    def of_rank(cards: Sequence[Card], rank: Rank) -> HandKinds:
        """The hand by kinds with the naturals of `rank` alone (all a pickup by an opened team
        with more than a few cards looks at: the top card's rank and the wild cards); its
        `cards()` are those kinds' (threes too, red ones as a made-up position may hold them)."""
        return HandKinds(cards, rank)

    def _of_rank(self, cards: Sequence[Card], rank: Rank) -> None:
        pool: list[Card] = []
        threes: list[Card] = []
        for c in cards:
            if c.rank is rank and c.is_natural:
                pool.append(c)
            elif c.is_joker:
                self.jokers.append(c)
            elif c.is_two:
                self.twos.append(c)
            elif c.is_three:
                threes.append(c)
                if c.is_black_three:
                    self.black_threes.append(c)
        if pool:
            pool.sort()
            self.naturals[rank] = pool
            self.last = pool[0].index
        self.twos.sort()
        threes.sort()
        self.black_threes.sort()
        self.in_order = [*self.jokers, *self.twos, *pool, *threes]

    def add(self, card: Card) -> None:
        """The hand with `card` added."""
        self.size += 1
        _insert(self.in_order, card)
        if card.is_natural:
            naturals = self.naturals
            run = naturals.get(card.rank)
            if run is not None:
                _insert(run, card)
                return
            if card.index > self.last:
                naturals[card.rank] = [card]
                self.last = card.index
                return
            ordered: dict[Rank, list[Card]] = {}  # the ranks in card order, as a hand's cards give them
            index, placed = card.index, False
            for rank, cards in naturals.items():
                if not placed and cards[0].index > index:
                    ordered[card.rank] = [card]
                    placed = True
                ordered[rank] = cards
            if not placed:  # after every rank left
                ordered[card.rank] = [card]
            self.naturals = ordered
        elif card.is_joker:
            self.jokers.append(card)
        elif card.is_two:
            _insert(self.twos, card)
        elif card.is_black_three:
            _insert(self.black_threes, card)

    def remove(self, card: Card) -> None:
        """The hand with (one copy of) `card`, which it holds, taken out."""
        self.size -= 1
        take_out(self.in_order, card)
        if card.is_natural:
            run = self.naturals[card.rank]
            take_out(run, card)
            if not run:
                del self.naturals[card.rank]
        elif card.is_joker:
            self.jokers.pop()
        elif card.is_two:
            take_out(self.twos, card)
        elif card.is_black_three:
            take_out(self.black_threes, card)

    def longest(self) -> int:
        """The most naturals of one rank."""
        most = 0
        for cs in self.naturals.values():
            if len(cs) > most:
                most = len(cs)
        return most

    @property
    def wilds(self) -> list[Card]:
        """Wild cards, jokers first (they are worth most on the table and cost most in hand)."""
        return self.jokers + self.twos

    def cards(self) -> list[Card]:
        """The hand in card order (not to be changed)."""
        return self.in_order

    def pool(self, rank: Rank) -> list[Card]:
        """The cards of `rank` (black threes for rank 3); none for a rank the hand lacks."""
        if rank is THREE_RANK:
            return self.black_threes
        cards = self.naturals.get(rank)
        return NO_CARDS if cards is None else cards

    def single(self, spec: Spec) -> Meld:
        """The meld action of one group of `spec`, its cards taken first in card order (actions
        are values: one object serves every hand that forms the same group)."""
        return self.group_meld(self.pool(spec[0]), spec, 0, 0, 0)

    def single_pickup(self, spec: Spec) -> Pickup:
        """The pickup of the top card with the cards of `single(spec)` and no further group
        (actions are values: one object serves every hand that forms it, kept in `PICKUPS`)."""
        meld = self.single(spec)
        known = PICKUPS.get(id(meld))
        if known is not None:
            return known[1]
        if len(PICKUPS) > SINGLES_KEPT:
            PICKUPS.clear()
        pickup = pickup_of(meld.melds[0].cards, ())
        PICKUPS[id(meld)] = (meld, pickup)
        return pickup

    def group_meld(self, pool: list[Card], spec: Spec, first: int, jokers: int, twos: int) -> Meld:
        """The meld action of one group of `spec`, its cards taken in card order from the
        `first` of its rank's `pool` (`pool(rank)`), the `jokers`-th joker and the `twos`-th two on."""
        rank, k, j, t = spec
        code = 0
        for i in range(first, first + k):
            code = code << 6 | pool[i].index + 1
        if j:  # (most groups hold no wild card)
            for i in range(jokers, jokers + j):
                code = code << 6 | self.jokers[i].index + 1
        if t:
            for i in range(twos, twos + t):
                code = code << 6 | self.twos[i].index + 1
        explicit = rank if k == 0 and rank is not WILD_RANK else None
        key = code if explicit is None else -(code << 5 | RANK_CODE[explicit])  # (`_single_key`)
        action = SINGLES.get(key)
        if action is not None:
            return action
        cards = (*pool[first : first + k], *self.jokers[jokers : jokers + j], *self.twos[twos : twos + t])
        return _single(key, cards, explicit)

    def groups(self, specs: tuple[Spec, ...], start: tuple[Spec, ...] = ()) -> tuple[Group, ...]:
        """The groups of `specs`, each taking the next cards after those `start` took."""
        jokers = twos = 0
        for _, _, j, t in start:
            jokers += j
            twos += t
        out = []
        for i in range(len(specs)):
            spec = specs[i]
            rank = spec[0]
            first = 0  # the naturals of its rank taken before it (steps hold few groups)
            for taken in start:
                if taken[0] is rank:
                    first += taken[1]
            for n in range(i):
                if specs[n][0] is rank:
                    first += specs[n][1]
            meld = self.group_meld(self.pool(rank), spec, first, jokers, twos)
            out.append(meld.melds[0])  # groups are values too
            jokers += spec[2]
            twos += spec[3]
        return tuple(out)


def _insert(cards: list[Card], card: Card) -> None:
    """Insert `card` into `cards`, kept in card order, after its copies."""
    index = card.index
    i = len(cards)
    while i and cards[i - 1].index > index:
        i -= 1
    cards.insert(i, card)


def wild_splits(jokers: int, twos: int, limit: int) -> list[tuple[int, int]]:
    return [(j, t) for j in range(min(jokers, limit) + 1) for t in range(min(twos, limit - j) + 1)]
