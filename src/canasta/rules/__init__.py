"""The Canasta rules engine: cards, rule sets, deal state, legal moves, scoring, notation.

Pure and standard-library only: no I/O, no global randomness.
"""

from canasta.rules.actions import (
    Action,
    Answer,
    Ask,
    Discard,
    Draw,
    Group,
    Meld,
    Pass,
    Pickup,
    action_from_json,
    action_to_json,
)
from canasta.rules.cards import ALL_CARDS, Card, Rank, Suit, make_deck, parse_cards
from canasta.rules.errors import CanastaError, IllegalActionError, InvalidActionError
from canasta.rules.game import Game
from canasta.rules.legal import legal_actions
from canasta.rules.mover import Mover
from canasta.rules.position import position_from_json, position_to_json
from canasta.rules.record import Record, replay
from canasta.rules.resample import resample
from canasta.rules.ruleset import VARIANTS, RuleSet
from canasta.rules.scoring import DealResult, ScoreBreakdown
from canasta.rules.state import State
from canasta.rules.view import SeatView, seat_view

__all__ = [
    "ALL_CARDS",
    "VARIANTS",
    "Action",
    "Answer",
    "Ask",
    "CanastaError",
    "Card",
    "DealResult",
    "Discard",
    "Draw",
    "Game",
    "Group",
    "IllegalActionError",
    "InvalidActionError",
    "Meld",
    "Mover",
    "Pass",
    "Pickup",
    "Rank",
    "Record",
    "RuleSet",
    "ScoreBreakdown",
    "SeatView",
    "State",
    "Suit",
    "action_from_json",
    "action_to_json",
    "legal_actions",
    "make_deck",
    "parse_cards",
    "position_from_json",
    "position_to_json",
    "replay",
    "resample",
    "seat_view",
]
