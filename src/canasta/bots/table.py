"""What the seat to move knows about the table, derived for decisions.

The heuristic decides on a `Mover` (`canasta.rules.mover`): the seat's own view gives one, and
so does a search playout's state, without building a view. A mover holds only what the seat may
know: its own hand, hand sizes, the stock size, the pile, melds, threes and the cards each seat
is known to hold (taken with the pile).
"""

from __future__ import annotations

from typing import Final

from canasta.rules.actions import Action, Discard
from canasta.rules.cards import ALL_CARDS, NATURAL_RANKS, Card, Rank
from canasta.rules.deal import seat_teams
from canasta.rules.hand import HandKinds
from canasta.rules.legal import DRAW, pickup_actions
from canasta.rules.melds import Melds, is_canasta
from canasta.rules.mover import Mover
from canasta.rules.parts import Permission

#: Actions the bots return, made once (actions are values): asking, drawing, passing, and the
#: discard of each card by its index.
#: No cards: what a hand holds of a rank it lacks (never to be changed).
NO_CARDS: Final[list[Card]] = []


class Facts:
    """What a `Table` finds when first asked for, and keeps (explicit caches rather than
    `cached_property`, which compiled classes would recompute on every access): shared by the
    tables of one position that differ only in partner's answer to an ask (`Table.assuming`),
    which changes none of them."""

    __slots__ = (
        "canastas", "dead", "discarded_by", "kinds", "may_go_out", "opponents", "partners", "ready",
        "threat", "unseen", "unseen_total",
    )

    def __init__(self) -> None:
        self.dead: set[Rank] | None = None
        self.unseen: list[int] | None = None  # per natural rank, in `NATURAL_RANKS` order
        self.unseen_total: int | None = None
        self.threat: float | None = None
        self.discarded_by: list[int] | None = None
        self.kinds: HandKinds | None = None
        self.ready: list[bool] | None = None  # per team: `can_go_out_team`
        self.canastas: list[int] | None = None  # per team: its canastas
        self.opponents: tuple[int, ...] | None = None
        self.partners: tuple[int, ...] | None = None
        self.may_go_out: bool | None = None  # `canasta.bots.melding.may_go_out_this_turn`


class Table:
    """Facts about the deal from the point of view of the seat to move, each computed when
    first asked for and kept in `facts`."""

    def __init__(self, mover: Mover, facts: Facts | None = None) -> None:
        self.facts = Facts() if facts is None else facts
        self.mover = mover
        self.board = mover.board
        self.seat = seat = mover.seat
        self.rules = mover.rules
        self.teams = teams = seat_teams(mover.rules)  # each seat's team
        self.team = teams[seat]
        self.hand: list[Card] = mover.hand
        self._discards: list[Card] | None = None  # `discards()`, once found
        self._pickups: list[Action] | None = None  # `pickups()`, once listed

    @property
    def opponents(self) -> tuple[int, ...]:
        """The seats of the other teams, in turn order."""
        facts = self.facts
        if facts.opponents is None:
            facts.opponents = tuple([s for s in self.mover.order if self.teams[s] != self.team])
        return facts.opponents

    @property
    def partners(self) -> tuple[int, ...]:
        """The other seats of this seat's team, in turn order."""
        facts = self.facts
        if facts.partners is None:
            seat, team = self.seat, self.team
            facts.partners = tuple([s for s in self.mover.order if s != seat and self.teams[s] == team])
        return facts.partners

    def assuming(self, permission: Permission | None) -> Table:
        """The table with partner's answer to an ask taken as given (`Mover.assuming`), sharing
        this table's facts."""
        return Table(self.mover.assuming(permission), self.facts)

    @property
    def kinds(self) -> HandKinds:
        """The hand by kind: naturals by rank, jokers, twos, threes (not to be changed)."""
        facts = self.facts
        if facts.kinds is None:
            facts.kinds = HandKinds(self.hand)
        return facts.kinds

    def discards(self) -> list[Card]:
        """The cards the seat may discard now, in card order, each once: the cards of
        `discard_actions`, found with the engine's `discard_errors` on the table's kinds (once
        a table; not to be changed)."""
        if self._discards is None:
            self._discards = self._find_discards()
        return self._discards

    def _find_discards(self) -> list[Card]:
        mover = self.mover
        if mover.now.must_meld_out:
            return []
        going_out = len(self.hand) == 1
        if going_out and mover.go_out_refusal(mover.team) is not None:
            return []
        cards = self.kinds.cards()
        errors = mover.discard_errors(cards, going_out)
        out: list[Card] = []
        last: Card | None = None
        for card in cards:  # copies of a card are next to each other
            if card is not last and card not in errors:
                out.append(card)
            last = card
        return out

    def pickups(self) -> list[Action]:
        """The engine's pickups (`pickup_actions`), listed once a table (not to be changed)."""
        if self._pickups is None:
            self._pickups = pickup_actions(self.mover)
        return self._pickups

    def listed(self, action: Action) -> bool:
        """Whether the engine lists `action` for this position, as this table found: the draw
        (`DRAW`) while the stock lasts, a discard of `discards()` in the play phase, a pickup of
        `pickups()` (that very action); so `State.apply_listed` may apply it unjudged."""
        mover = self.mover
        now = mover.now
        if now.permission == "pending":
            return False
        if action is DRAW:
            return now.phase == "draw" and mover.stock_size > 0
        if isinstance(action, Discard):
            return now.phase == "play" and self._discards is not None and action.card in self._discards
        pickups = self._pickups
        return pickups is not None and any(p is action for p in pickups)

    @property
    def dead(self) -> set[Rank]:
        """Ranks nobody may meld any more (Modern American)."""
        facts = self.facts
        if facts.dead is None:
            facts.dead = self._compute_dead()
        return facts.dead

    def _compute_dead(self) -> set[Rank]:
        if self.rules.dead_rank_trigger == "none":
            return set()
        return set(self.board.dead_ranks(self.rules))

    def unseen(self, rank: Rank) -> int:
        """How many cards of natural `rank` this seat cannot locate (in the stock or hidden in
        hands); 0 for other ranks."""
        facts = self.facts
        if facts.unseen is None:
            facts.unseen = self._compute_unseen()
        slot = _RANK_SLOT.get(rank)
        return 0 if slot is None else facts.unseen[slot]

    def _compute_unseen(self) -> list[int]:
        board = self.board
        counts = [self.rules.decks * 4] * len(NATURAL_RANKS)
        _uncount(counts, self.hand)
        _uncount(counts, board.pile)
        for melds in board.melds:
            for cards in melds.values():
                _uncount(counts, cards)
        for s, known in enumerate(board.known):
            if s != self.seat:
                _uncount(counts, known)
        return counts

    @property
    def unseen_total(self) -> int:
        """How many cards this seat cannot locate."""
        facts = self.facts
        if facts.unseen_total is None:
            facts.unseen_total = self._compute_unseen_total()
        return facts.unseen_total

    def _compute_unseen_total(self) -> int:
        m = self.mover
        hidden = sum(m.hand_sizes[s] - len(self.board.known[s]) for s in m.order if s != self.seat)
        return max(1, hidden + m.stock_size)

    # -- teams and melds ----------------------------------------------------------------------

    @property
    def melds(self) -> Melds:
        return self.board.melds[self.team]

    @property
    def opened(self) -> bool:
        return self.board.opened[self.team]

    def canastas(self, team: int | None = None) -> int:
        canastas = self.facts.canastas
        if canastas is None:
            canastas = self._count_canastas()[0]
        return canastas[self.team if team is None else team]

    def can_go_out_team(self, team: int) -> bool:
        """Whether a team has the canastas it needs to go out (or is one card from them)."""
        ready = self.facts.ready
        if ready is None:
            ready = self._count_canastas()[1]
        return ready[team]

    def _count_canastas(self) -> tuple[list[int], list[bool]]:
        need = self.rules.go_out_min_canastas
        counts: list[int] = []
        ready: list[bool] = []
        for melds in self.board.melds:  # each team's
            done = 0
            six = False
            for meld in melds.values():
                if is_canasta(meld):
                    done += 1
                elif len(meld) == 6:
                    six = True
            counts.append(done)
            ready.append(done >= need or (done == need - 1 and six))
        self.facts.canastas = counts
        self.facts.ready = ready
        return counts, ready

    def blocked_rank_for(self, team: int, rank: Rank) -> bool:
        """Whether a top card of `rank` would block the pile for `team` (dead or canasta rank)."""
        return rank in self.blocked_ranks_for(team)

    def blocked_ranks_for(self, team: int) -> set[Rank]:
        """The ranks of which a top card would block the pile for `team`."""
        blocked = set(self.dead)
        if "canasta_rank" in self.rules.block_rules:
            for rank, meld in self.board.melds[team].items():
                if is_canasta(meld):
                    blocked.add(rank)
        return blocked

    def frozen_for(self, team: int) -> bool:
        """Whether the pile may be taken only with a natural pair by `team`."""
        return self.mover.frozen_for(team)

    # -- the progress of the deal -------------------------------------------------------------

    @property
    def threat(self) -> float:
        """How near the deal is to its end, from 0 (far) to 1 (it may end at any moment)."""
        facts = self.facts
        if facts.threat is None:
            facts.threat = self._compute_threat()
        return facts.threat

    def _compute_threat(self) -> float:
        m = self.mover
        turns_left = m.stock_size / max(1, self.rules.draw_count * len(m.order))
        level = 0.0
        if turns_left < 1.5:
            level = 1.0
        elif turns_left < 4:
            level = 0.5
        for s in m.order:
            team = self.teams[s]
            if not self.can_go_out_team(team):
                continue
            size = m.hand_sizes[s]
            if team == self.team and s != self.seat:
                level = max(level, 0.3 if size <= 3 else 0.0)
            elif team != self.team:
                level = max(level, 1.0 if size <= 2 else 0.7 if size <= 4 else 0.4 if size <= 7 else 0.2)
        return level

    @property
    def discarded_by(self) -> list[int]:
        """The seat that discarded each pile card (bottom first), counting back from the top.

        The bottom cards of a pile never taken are upcards; they are attributed like discards,
        which at worst misplaces one card.
        """
        facts = self.facts
        if facts.discarded_by is None:
            facts.discarded_by = self._compute_discarded_by()
        return facts.discarded_by

    def _compute_discarded_by(self) -> list[int]:
        order = self.mover.order
        n = len(order)
        size = len(self.board.pile)
        first = _position(order, self.mover.now.seat) - size  # the bottom card's, counted back
        return [order[(first + i) % n] for i in range(size)]

    def discarded_ranks(self, seat: int) -> set[Rank]:
        """The ranks `seat` discarded onto the present pile (as `discarded_by` tells)."""
        order = self.mover.order
        at = _position(order, seat)
        ranks: set[Rank] = set()
        if at < 0:
            return ranks
        pile = self.board.pile
        n = len(order)
        i = (at - _position(order, self.mover.now.seat) + len(pile)) % n  # its first discard
        while i < len(pile):
            ranks.add(pile[i].rank)
            i += n
        return ranks


def _position(order: tuple[int, ...], seat: int) -> int:
    """Where `seat` plays in turn `order` (-1: it sits out)."""
    for i in range(len(order)):
        if order[i] == seat:
            return i
    return -1


def rank_counts(cards: list[Card]) -> dict[Rank, int]:
    """How many of `cards` there are of each rank (ranks absent: none)."""
    counts: dict[Rank, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return counts


#: Each natural rank's place in `NATURAL_RANKS`, and each card's, by its index (-1: not a natural).
_RANK_SLOT: Final[dict[Rank, int]] = {rank: i for i, rank in enumerate(NATURAL_RANKS)}
_NATURAL_SLOT: Final[list[int]] = [NATURAL_RANKS.index(c.rank) if c.is_natural else -1 for c in ALL_CARDS]


def _uncount(counts: list[int], cards: list[Card]) -> None:
    """Take `cards` off `counts` (per natural rank, in `NATURAL_RANKS` order)."""
    slots = _NATURAL_SLOT
    for card in cards:
        slot = slots[card.index]
        if slot >= 0:
            counts[slot] -= 1
