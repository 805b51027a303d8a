"""Resampling with a history: decks a seat cannot tell from the one a deal was dealt from.

`LearningState.resample` deals a seat's unseen cards again onto the current position, which has
no deck of its own. OpenSpiel's history is the deck (its chance outcomes, top card first) and
the ids applied since, so a resampled OpenSpiel state with a history needs a deck from which the
same ids lead to a position the seat cannot tell from this one. `DeckPositions` follows a deal
from its deck: which seat received each card of the deck (dealt, drawn, or as a bonus three's
replacement) and which cards every seat has since shown (discarded, melded from its hand, or
holds in the step being formed). A card the observing seat received, an upcard, a bonus three
(laid out at once) and a card another seat showed stay where they are; `deck(rng)` deals the
other positions' cards (the cards the seat has never seen: other hands' hidden cards and the
stock) among those positions at random. Replaying the ids from such a deck may still fail (a
seat may not hold what a later legal move needed): the caller replays it and checks. With
`skip_forced` every decision must also be forced exactly where it was: `deck_keeping` replays
the ids on such a deck and swaps hidden cards where the replay goes otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from canasta.dataset import engine_action
from canasta.learning import LearningGame, LearningState
from canasta.learning.actions import group_counts
from canasta.rules import ALL_CARDS, Action, Card, Discard, Meld, Pickup, Rank

#: The chance that a swap gives a mover short of choices a card of each kind it wants in turn.
WANT_SHARE = 0.5


class DeckPositions:
    """The deal of `deck` (card kinds, top first) followed through the ids `ids` (atomic ids, as
    `LearningState.history` holds them) for `seat`: the positions whose cards it may not move.
    In a game episode, `deals` deals were played before it and `scores` are the totals then.

    The engine lays a meld or a pickup's cards by the ids' counts, choosing the suits from the
    hand; so that the same ids choose the same suits, a seat's positions received before it
    melded a rank (or twos) keep that rank's cards and take no other card of it.
    """

    def __init__(
        self,
        game: LearningGame,
        deck: Sequence[int],
        ids: Sequence[int],
        seat: int,
        deals: int = 0,
        scores: Sequence[int] | None = None,
    ) -> None:
        plain = LearningGame(game.rules.variant, game.rules.players, game.rules.to_options(), game.scores)
        self.plain = plain
        #: The deal's place in a game episode and the teams' totals before it.
        self.deals, self.scores = deals, tuple(game.scores if scores is None else scores)
        self.ids = list(ids)
        #: The replays of the ids made by `deck_keeping` so far (each one costs a deal's ids).
        self.replays = 0
        state = self._new_deal()
        state.deal([ALL_CARDS[k] for k in deck])
        self.deck = list(deck)
        size = len(deck)
        #: Per position, the seat that received it (None: none yet) and the id's place it came at.
        self.owner: list[int | None] = [None] * size
        self.came = [-1] * size
        #: Per seat, (place, kinds of the ranks it melded there) (`_forbidden`).
        self.melded: dict[int, list[tuple[int, frozenset[int]]]] = {}
        engine = state.engine
        rules = plain.rules
        seats = [engine.next_seat(engine.dealer)]
        while len(seats) < len(engine.order):
            seats.append(engine.next_seat(seats[-1]))
        dealt = rules.hand_size * len(seats)
        owner = self.owner
        for pos in range(dealt):
            owner[pos] = seats[pos % len(seats)]
        pos = dealt + len(engine.pile)  # the upcards
        for i, s in enumerate(seats):  # the bonus threes dealt, replaced from the stock seat by seat
            need = sum(rules.is_bonus_three(ALL_CARDS[deck[p]]) for p in range(i, dealt, len(seats)))
            while need:
                owner[pos] = s
                need += rules.is_bonus_three(ALL_CARDS[deck[pos]]) - 1
                pos += 1
        #: The deal was followed as the engine dealt it (else the positions are not known).
        self.ok = size - len(engine.stock) == pos
        shown: set[int] = set()
        for place, action_id in enumerate(ids):
            if not self.ok:
                break
            mover = engine.turn
            action = engine_action(state, action_id)
            if action is not None:
                self._show(state.current_player(), place, shown, action)
            before = len(engine.stock)
            try:
                state.apply_action(action_id)
            except ValueError:
                self.ok = False
                break
            for p in range(size - before, size - len(engine.stock)):
                owner[p] = mover
                self.came[p] = place
        if self.ok and state.staged and state.candidates:
            self._show(state.current_player(), len(ids), shown, state.candidates[0][1], state)
        stock = size - len(engine.stock)  # the first position still in the stock
        fixed = set(shown)
        for p in range(stock):
            if owner[p] is None or owner[p] == seat or rules.is_bonus_three(ALL_CARDS[deck[p]]):
                fixed.add(p)  # an upcard, the seat's own card, or a bonus three laid out when it came
        #: The positions whose cards may be dealt again: other seats' hidden cards, the stock.
        self.free = [p for p in range(size) if p not in fixed]
        #: The free positions still in the stock: the only ones an unseen bonus three may take.
        self.stock = [p for p in self.free if p >= stock]
        self.bonus = [k for k in (deck[p] for p in self.free) if rules.is_bonus_three(ALL_CARDS[k])]

    def _new_deal(self) -> LearningState:
        """The deal's first chance node, without `skip_forced` (every id is replayed)."""
        state = self.plain.new_initial_state()
        state.deals, state.scores = self.deals, self.scores
        return state

    def __deepcopy__(self, memo: dict[int, object]) -> DeckPositions:
        """Itself: it does not change once made (a copied OpenSpiel state shares it)."""
        return self

    def _show(
        self, seat: int, place: int, shown: set[int], action: Action, staged: LearningState | None = None
    ) -> None:
        """Mark the positions of the cards `seat` shows by `action` at `place` (for a meld or a
        pickup, every card of each rank it lays that the seat received before; with `staged`,
        the groups of the step being formed only). A card the seat has at no position not yet
        marked came from the pile."""
        deck, owner = self.deck, self.owner
        mine = [p for p in range(len(deck)) if owner[p] == seat and p not in shown]
        cards = _staged_cards(staged) if staged is not None else _cards_shown(action)
        for card in cards:
            hit = next((p for p in mine if p not in shown and deck[p] == card.index), None)
            if hit is not None:
                shown.add(hit)
        if isinstance(action, Discard):
            return
        kinds = frozenset(k for c in cards if not c.is_joker for k in _SAME[_rank(c)])
        if kinds:
            shown.update(p for p in mine if deck[p] in kinds)
            self.melded.setdefault(seat, []).append((place, kinds))

    def _forbidden(self, p: int) -> frozenset[int]:
        """The kinds free position `p` may not take: those of the ranks its seat melded later."""
        seat = self.owner[p]
        if seat is None:
            return frozenset()
        out: frozenset[int] = frozenset()
        for place, kinds in self.melded.get(seat, ()):
            if self.came[p] < place:
                out |= kinds
        return out

    def deck_for(self, rng: random.Random) -> list[int] | None:
        """A deck with the free positions' cards dealt among them at random (the bonus threes
        among the stock's, no card where `_forbidden`). A position that no card left may take
        takes one dealt to another position, which takes one left instead; None when none can
        be so moved (the caller tries again)."""
        out = self.deck[:]
        threes = set(rng.sample(self.stock, len(self.bonus)))
        for p, kind in zip(sorted(threes), self.bonus, strict=True):
            out[p] = kind
        bonus = set(self.bonus)
        pool = [k for k in (self.deck[p] for p in self.free) if k not in bonus]
        rng.shuffle(pool)
        rest = [p for p in self.free if p not in threes]
        limits = [(p, self._forbidden(p)) for p in rest]
        limits.sort(key=lambda item: -len(item[1]))  # the most limited first
        dealt: list[tuple[int, frozenset[int]]] = []
        for p, forbidden in limits:
            i = next((i for i, k in enumerate(pool) if k not in forbidden), None)
            if i is not None:
                out[p] = pool.pop(i)
            else:
                moved = next(
                    ((d, i) for d, other in dealt if out[d] not in forbidden
                     for i, k in enumerate(pool) if k not in other),
                    None,
                )
                if moved is None:
                    return None
                d, i = moved
                out[p], out[d] = out[d], pool.pop(i)
            dealt.append((p, forbidden))
        return out

    def deck_keeping(self, rng: random.Random, forced: Collection[int], repairs: int) -> list[int] | None:
        """A deck of `deck_for` on which every id replays legal and each decision is forced (has
        one legal id) exactly where it was (`forced`: the places of the ids played for the agent,
        `skip_forced`), the last one not. Where the replay goes otherwise, a hidden card its
        mover had received is swapped with another (`_swap`), the swap kept
        unless the replay then goes otherwise sooner, up to `repairs` times; None when that does
        not make one. The swaps look only at the replay on the new deck and at what the seat
        knows, so the deck tells nothing more of the hidden cards than `deck_for`'s."""
        deck = self.deck_for(rng)
        if deck is None:
            return None
        difference = self._first_difference(deck, forced)
        for _ in range(repairs):
            if difference.place < 0:
                return deck
            swap = self._swap(deck, difference, rng)
            if swap is None:
                return None
            p, q = swap
            deck[p], deck[q] = deck[q], deck[p]
            after = self._first_difference(deck, forced)
            if 0 <= after.place < difference.place:
                deck[p], deck[q] = deck[q], deck[p]
            else:
                difference = after
        return deck if difference.place < 0 else None

    def _first_difference(self, deck: list[int], forced: Collection[int]) -> _Difference:
        """Where the ids first do not replay from `deck` as they were played (the id not legal,
        or the decision forced or not otherwise); place -1 when they all replay so."""
        self.replays += 1
        state = self._new_deal()
        state.deal([ALL_CARDS[k] for k in deck])
        for place, action_id in enumerate(self.ids):
            if state.is_terminal():
                return _Difference(place)
            legal = state.legal_actions()
            if action_id not in legal or (len(legal) == 1) != (place in forced):
                return _Difference.at(state, place, legal, action_id if place in forced else None)
            state.apply_action(action_id)
        if state.is_terminal() or len(state.legal_actions()) != 1:
            return _Difference(-1)
        return _Difference.at(state, len(self.ids), [], None)

    def _swap(self, deck: list[int], difference: _Difference, rng: random.Random) -> tuple[int, int] | None:
        """Two positions whose cards may be swapped: a free one the difference's mover had
        received before it (one of its `drop` kinds first, one of its first `want` last) and
        another free one not of `drop` (of each `want` in turn with chance `WANT_SHARE`), each
        card allowed where it goes; None when there are none."""
        seat, place = difference.mover, difference.place
        if seat < 0:
            return None
        owner, came, rules = self.owner, self.came, self.plain.rules

        def movable(p: int) -> bool:
            return not rules.is_bonus_three(ALL_CARDS[deck[p]])

        held = [p for p in self.free if owner[p] == seat and came[p] < place and movable(p)]
        others = [p for p in self.free if (owner[p] != seat or came[p] >= place) and movable(p)]
        rng.shuffle(held)
        drop, want = difference.drop, difference.want
        best = want[0] if want else frozenset()
        # a card wanted is given where the mover received a card last: it then changes the
        # fewest of the mover's earlier decisions
        latest = (lambda p: -came[p]) if want else (lambda p: 0)
        held.sort(key=lambda p: (deck[p] not in drop, deck[p] in best, latest(p)))
        for p in held:
            ok = [q for q in others if deck[q] != deck[p] and deck[q] not in self._forbidden(p)
                  and deck[p] not in self._forbidden(q)]
            if ok:
                kept = [q for q in ok if deck[q] not in drop] or ok
                for kinds in want:
                    wanted = [q for q in kept if deck[q] in kinds]
                    if wanted and rng.random() < WANT_SHARE:
                        return p, rng.choice(wanted)
                return p, rng.choice(kept)
        return None


@dataclass(frozen=True)
class _Difference:
    """Where a replay first goes otherwise: the place, the seat to act there (-1: the deal is
    over), the card kinds to take from its hand (those its choices other than the id played
    would show, where the deal had it forced) and the kinds to give it, best first (where it
    has fewer choices than in the deal: the pile's top card's rank, then its hand's natural
    ranks; a wild card would give it choices later where it had none)."""

    place: int
    mover: int = -1
    drop: frozenset[int] = frozenset()
    want: tuple[frozenset[int], ...] = ()

    @staticmethod
    def at(state: LearningState, place: int, legal: list[int], played: int | None) -> _Difference:
        """The difference at `state` (`legal` its ids; `played` the id the deal had forced)."""
        mover = state.current_player()
        if played is not None:
            return _Difference(place, mover, drop=_shown_by_others(state, legal, played))
        engine = state.engine
        top = frozenset(k for c in engine.pile[-1:] for k in _SAME[_rank(c)]) - _WILD
        hand = frozenset(k for c in engine.hands[mover] for k in _SAME[_rank(c)])
        return _Difference(place, mover, want=(top, hand - _WILD))


def _shown_by_others(state: LearningState, legal: list[int], played: int) -> frozenset[int]:
    """The kinds of the hand's cards that the legal ids other than `played` lead to showing."""
    depth = len(state.staged)
    cards = [c for seq, action in state.candidates if seq[depth] != played for c in _cards_shown(action)]
    for action_id in legal:
        action = engine_action(state, action_id) if action_id != played else None
        cards.extend(_cards_shown(action))
    return frozenset(c.index for c in cards)


def _rank(card: Card) -> Rank | None:
    """A card's rank as melds choose suits by it (twos apart; None for a joker)."""
    return None if card.is_joker else card.rank


#: Per rank, the card kinds of that rank.
_SAME: dict[Rank | None, tuple[int, ...]] = {}
for _card in ALL_CARDS:
    _SAME.setdefault(_rank(_card), ())
    _SAME[_rank(_card)] += (_card.index,)
#: The wild cards' kinds.
_WILD = frozenset(c.index for c in ALL_CARDS if c.is_wild)


def _cards_shown(action: object) -> list[Card]:
    """The cards an engine action shows from the hand."""
    if isinstance(action, Discard):
        return [action.card]
    if isinstance(action, Pickup):
        return [*action.with_, *(c for g in action.melds for c in g.cards)]
    if isinstance(action, Meld):
        return [c for g in action.melds for c in g.cards]
    return []


def _staged_cards(state: LearningState) -> list[Card]:
    """The hand's cards of the step being formed, as one of the actions it can become lays them."""
    space = state.game.actions
    _, action = state.candidates[0]
    staged = list(state.staged)
    out: list[Card] = []
    if isinstance(action, Pickup):
        staged = staged[1:]
        out.extend(action.with_)
    groups = action.melds if isinstance(action, Meld | Pickup) else ()
    for group in groups:
        gid = space.group_id(*group_counts(group))
        if gid in staged:
            staged.remove(gid)
            out.extend(group.cards)
    return out
