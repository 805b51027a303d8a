"""Rule questions about public facts, asked alike of a `State`, a `Mover` and a seat's `SeatView`.

Whether the pile is frozen for a team, whether it may be taken at all, the opening minimum,
whether a team may go out, whether the pile must be taken, which cards of a hand may not be
discarded: each depends only on what every seat sees (and the hand in question), so a bot asks
its view and gets the answer the engine applies. They are written once, in `PublicQuestions`,
which the three share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Protocol, cast

from canasta.rules.actions import Action
from canasta.rules.cards import ACE_RANK, SEVEN_RANK, Card, Rank
from canasta.rules.deal import seat_teams
from canasta.rules.errors import IllegalActionError
from canasta.rules.judge import SPECIAL_INCOMPLETE, canastas_refusal, permission_error
from canasta.rules.melds import Melds, canasta_count, incomplete_special, is_canasta
from canasta.rules.parts import Board, Turn
from canasta.rules.refusal import Code, Refusal
from canasta.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from canasta.rules.mover import Mover


class TableFacts(Protocol):
    """What the questions read: the public table, the turn, and the sizes of the hidden cards."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def board(self) -> Board: ...
    @property
    def now(self) -> Turn: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def hand_sizes(self) -> Sequence[int]: ...


class PublicQuestions:
    """The rule questions, written once for `State`, `Mover` and `SeatView` (each one the
    `TableFacts` its questions read), and the check of the seat to move's actions."""

    __slots__ = ()

    def mover(self) -> Mover:
        """The seat to move's knowledge, the validator of its actions (`canasta.rules.mover`)."""
        raise NotImplementedError

    def check(self, action: Action, seat: int | None = None) -> str | None:
        """Why `action` is illegal for `seat` (default: the seat to move) now; None when it is
        legal. Changes nothing."""
        try:
            judged = self.mover().judged(action, seat)
        except IllegalActionError as exc:  # cards named but not held
            return exc.message
        return judged.text if isinstance(judged, Refusal) else None

    def minimum(self, team: int) -> int:
        """The opening minimum of a team in this deal."""
        facts = cast(TableFacts, self)
        return facts.rules.minimum_for(facts.board.scores[team])

    def frozen_for(self, team: int) -> bool:
        """Whether the pile may be taken only with a natural pair by this team."""
        facts = cast(TableFacts, self)
        scope = facts.rules.freeze_scope
        if facts.board.pile_frozen or scope == "always":
            return True
        if scope == "per_side":
            return not facts.board.opened[team]
        return not any(facts.board.opened)

    def pile_block(self, seat: int, black3_ok: bool = False) -> Refusal | None:
        """Why the pile cannot be taken at all by this seat.

        `black3_ok`: a black three on top does not block (the online go-out exception, R17);
        without it, a black three on top under that exception is refused as `black3_go_out`.
        """
        facts = cast(TableFacts, self)
        pile = facts.board.pile
        if not pile:
            return EMPTY_PILE
        top = pile[-1]
        rules = facts.rules
        blocks = rules.block_rules
        if top.is_wild and "wild_top" in blocks:
            return _WILD_TOP
        if top.is_black_three and "black3_top" in blocks and not black3_ok:
            return BLACK3_GO_OUT if rules.black3_pickup_to_go_out else _BLACK3_TOP
        if top.is_red_three and "red3_top" in blocks:
            return _RED3_TOP
        if "one_card" in blocks and len(pile) == 1 and facts.hand_sizes[seat] == 1:
            return _ONE_CARD
        if "canasta_rank" in blocks and top.is_natural:
            meld = facts.board.melds[seat_teams(rules)[seat]].get(top.rank)
            if meld is not None and is_canasta(meld):
                text = f"your team already has a canasta of {top.rank.value}s"
                return Refusal(Code.PILE_BLOCKED, text, "canasta_rank", {"rank": top.rank.value})
        if "dead_rank" in blocks and top.rank in facts.board.dead_ranks(rules):
            return Refusal(
                Code.PILE_BLOCKED, f"{top.rank.value}s are a dead rank", "dead_rank", {"rank": top.rank.value}
            )
        return None

    def go_out_refusal(self, team: int, melds: Melds | None = None) -> Refusal | None:
        """Why the team may not go out now (None when it may); `melds`: as they would stand."""
        facts = cast(TableFacts, self)
        rules = facts.rules
        if melds is None:
            melds = facts.board.melds[team]
        canastas = canasta_count(melds)
        if canastas < rules.go_out_min_canastas:
            return canastas_refusal(rules.go_out_min_canastas, canastas)
        if rules.forbid_go_out_with_incomplete_special and any(
            incomplete_special(r, cs) for r, cs in melds.items()
        ):
            return SPECIAL_INCOMPLETE
        return permission_error(rules, facts.now.permission)

    def must_take_pile(self) -> bool:
        """With the stock exhausted: the top card joins one of the team's melds and is not frozen."""
        facts = cast(TableFacts, self)
        board = facts.board
        team = seat_teams(facts.rules)[facts.now.seat]
        if facts.stock_size or not board.pile or self.frozen_for(team):
            return False
        return board.pile[-1].rank in board.melds[team]

    def discard_errors(self, cards: Sequence[Card], going_out: bool) -> dict[Card, Refusal]:
        """Why each card of `cards` (a hand) may not be discarded (Modern American, R18); {}
        elsewhere."""
        facts = cast(TableFacts, self)
        if facts.rules.discard_rules != "modern":
            return {}
        hand: list[Card] = cards if isinstance(cards, list) else list(cards)  # indexed, not iterated
        errors: dict[Card, Refusal] = {}
        all_wild = all(c.is_wild for c in hand)
        # onto an empty pile only the naturals of the lowest tier held may go (a dead rank's 2,
        # aces' and sevens' 1, the others' 0)
        dead: frozenset[Rank] | None = None
        lowest = 2
        if not facts.board.pile and not going_out:
            dead = facts.board.dead_ranks(facts.rules)
            for c in hand:
                if c.is_natural:
                    lowest = min(lowest, _tier(c.rank, dead))
        for c in hand:
            if c.is_three:
                errors[c] = _DISCARD_THREE
            elif c.is_wild:
                if not (going_out or all_wild):
                    errors[c] = _DISCARD_WILD
            elif dead is not None:
                tier = _tier(c.rank, dead)
                if tier > lowest:
                    errors[c] = _DISCARD_DEAD if tier == 2 else _DISCARD_ACE_SEVEN
        return errors


def _tier(rank: Rank, dead: frozenset[Rank]) -> int:
    """A natural rank's tier for a discard onto an empty pile (Modern American, R18)."""
    if rank in dead:
        return 2
    return 1 if rank is ACE_RANK or rank is SEVEN_RANK else 0


# The refusals that name no fact, made once (the legal-move lister meets them constantly).
EMPTY_PILE: Final = Refusal(Code.EMPTY_PILE, "the discard pile is empty")
BLACK3_GO_OUT: Final = Refusal(
    Code.PILE_BLOCKED, "a pile topped by a black three may be taken only to go out at once", "black3_go_out"
)
_WILD_TOP: Final = Refusal(Code.PILE_BLOCKED, "a wild card on top of the pile blocks it", "wild_top")
_BLACK3_TOP: Final = Refusal(Code.PILE_BLOCKED, "a black three on top of the pile blocks it", "black3_top")
_RED3_TOP: Final = Refusal(
    Code.PILE_BLOCKED, "a red three on top of the pile blocks it until it is covered", "red3_top"
)
_ONE_CARD: Final = Refusal(
    Code.PILE_BLOCKED, "a player holding one card may not take a one-card pile", "one_card"
)
_DISCARD_THREE: Final = Refusal(Code.DISCARD_RESTRICTED, "threes are never discarded", "three")
_DISCARD_WILD: Final = Refusal(
    Code.DISCARD_RESTRICTED,
    "a wild card may be discarded only when going out or holding only wild cards",
    "wild",
)
_DISCARD_DEAD: Final = Refusal(
    Code.DISCARD_RESTRICTED, "a card of a dead rank may go on an empty pile only if nothing else can", "dead"
)
_DISCARD_ACE_SEVEN: Final = Refusal(
    Code.DISCARD_RESTRICTED,
    "an ace or a seven may go on an empty pile only if you hold no other natural card",
    "ace_seven",
)
