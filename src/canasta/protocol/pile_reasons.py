"""Why the player about to draw cannot take the pile, in the player's words: the engine's
refusal of the likeliest way to take it from that hand (two natural cards of the top card's
rank, or one of them with a wild card, or no card at all)."""

from __future__ import annotations

from canasta.rules.actions import Pickup
from canasta.rules.errors import IllegalActionError
from canasta.rules.refusal import Code, Refusal
from canasta.rules.state import DRAW, State

# The attempt was legal, yet no listed move takes the whole pile: it takes melds as well, and
# the listed moves say how.
UNTAKEN = Refusal(Code.PILE_BLOCKED, "no listed move takes the whole pile")


def pile_refusal(state: State, seat: int | None) -> Refusal | None:
    """The refusal, when `seat` is to draw and no move the engine lists takes the whole pile
    (None otherwise: the pile can be taken, or it is not this seat's decision)."""
    if seat is None or state.is_over or state.turn != seat or state.phase != DRAW or not state.pile:
        return None
    if any(isinstance(a, Pickup) and not a.top_only for a in state.legal_actions()):
        return None
    top = state.pile[-1]
    hand = state.hands[seat]
    naturals = [c for c in hand if not c.is_wild and c.rank is top.rank][:2]
    wilds = [c for c in hand if c.is_wild][: 2 - len(naturals)] if naturals else []
    try:
        state.clone().apply(Pickup(naturals + wilds), seat)
    except IllegalActionError as exc:
        return exc.refusal or UNTAKEN
    return UNTAKEN
