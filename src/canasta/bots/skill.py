"""The playing levels of the heuristic bot: which parts of good play each level uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: With `solo_hold`, how many of the dealt cards may be melded before going out is in sight.
SOLO_MELDED: Final = 3


@dataclass(frozen=True, slots=True)
class Skill:
    """Switches and settings that separate the levels (`easy`, `normal`, `hard`)."""

    name: str
    #: Chance of a random legal discard or draw-phase choice instead of the planned one.
    mistake_rate: float
    #: Keep natural pairs in hand (for taking the pile) instead of melding them with a wild.
    keep_pairs: bool
    #: Where wild cards go: "greedy" (wherever they fit), or "complete" (only to complete a
    #: canasta, or to shed cards when the deal may end).
    wilds: str
    #: Cards kept in hand before the discard when not going out.
    min_keep: int
    #: Cards kept in hand while the team lacks the canastas to go out (to take the pile).
    hold: int
    #: Without a partner and drawing one card a turn (the hand never grows from the stock),
    #: keep all but `SOLO_MELDED` of the dealt cards while the canastas to go out are lacking.
    solo_hold: bool
    #: Discard safety: 0 ignores the opponents, 1 avoids their melds and known cards,
    #: 2 also counts unseen cards, reads their discards and weighs the pile.
    safety: int
    #: Taking the pile: "always" when legal, "size" when it holds two or more cards, or
    #: "value" when the cards gained are worth more than a draw.
    pile: str
    #: Discard a wild card to freeze a valuable pile the opponents could take.
    freeze: bool
    #: Ask partner before going out when partner's cards might make it a poor idea.
    ask: bool
    #: Answer partner's "may I go out?" from own hand and the danger, not always yes.
    answer: bool
    #: Care about special melds (Modern American sevens, clean aces, wild melds, hand sets).
    special_care: bool


EASY: Final = Skill(
    name="easy",
    mistake_rate=0.2,
    keep_pairs=False,
    wilds="greedy",
    min_keep=2,
    hold=2,
    solo_hold=False,
    safety=0,
    pile="always",
    freeze=False,
    ask=False,
    answer=False,
    special_care=False,
)

NORMAL: Final = Skill(
    name="normal",
    mistake_rate=0.0,
    keep_pairs=True,
    wilds="greedy",
    min_keep=2,
    hold=3,
    solo_hold=False,
    safety=1,
    pile="size",
    freeze=False,
    ask=False,
    answer=True,
    special_care=True,
)

HARD: Final = Skill(
    name="hard",
    mistake_rate=0.0,
    keep_pairs=True,
    wilds="complete",
    min_keep=2,
    hold=5,
    solo_hold=True,
    safety=2,
    pile="value",
    freeze=True,
    ask=True,
    answer=True,
    special_care=True,
)

#: The stand-in for a person who dropped out and may be back: `hard`'s judgement, but it keeps
#: most of the hand (`CAREFUL_HOLD` cards) until its side can go out, so that the person comes
#: back to a hand, not to the one card a stranger left.
CAREFUL_HOLD: Final = 8
CAREFUL: Final = Skill(
    name="careful",
    mistake_rate=0.0,
    keep_pairs=True,
    wilds="complete",
    min_keep=2,
    hold=CAREFUL_HOLD,
    solo_hold=True,
    safety=2,
    pile="value",
    freeze=True,
    ask=False,
    answer=True,
    special_care=True,
)

LEVELS: Final = {s.name: s for s in (EASY, NORMAL, HARD, CAREFUL)}
