"""Refusals as data: the closed set of rule codes, and the `Refusal` a rule returns.

A rule that forbids a move answers with a `Refusal`, built where the rule is decided: its
`code` (which rule), its `case` (which situation of the rule, where one code covers several),
the `facts` that decide it (ranks as `Rank.value`, cards as codes, counts, the minimum, the
methods allowed...) and the English `text` for developers. `IllegalActionError` carries it;
the protocol renders it for players without deciding any rule itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

#: A fact of a refusal: a rank or card code, a number, or a list of words (the methods allowed).
Fact = str | int | tuple[str, ...]


class Code(StrEnum):
    """Every rule the engine refuses a move by (`IllegalActionError.code`)."""

    DEAL_OVER = "deal_over"
    DEAL_NOT_OVER = "deal_not_over"
    GAME_OVER = "game_over"
    NO_DEAL = "no_deal"
    NOT_YOUR_TURN = "not_your_turn"
    AWAITING_ANSWER = "awaiting_answer"
    WRONG_PHASE = "wrong_phase"
    STOCK_EMPTY = "stock_empty"
    CANNOT_PASS = "cannot_pass"
    MUST_TAKE_PILE = "must_take_pile"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    EMPTY_MELD = "empty_meld"
    EMPTY_GROUP = "empty_group"
    MIXED_RANKS = "mixed_ranks"
    BAD_MELD = "bad_meld"
    BLACK_THREES = "black_threes"
    DEAD_RANK = "dead_rank"
    OPENING_MINIMUM = "opening_minimum"
    OPENING_COMPOSITION = "opening_composition"
    CANNOT_GO_OUT = "cannot_go_out"
    MUST_DISCARD = "must_discard"
    MUST_MELD_OUT = "must_meld_out"
    TOP_ONLY = "top_only"
    DISCARD_RESTRICTED = "discard_restricted"
    EMPTY_PILE = "empty_pile"
    PILE_BLOCKED = "pile_blocked"
    FROZEN_PILE = "frozen_pile"
    BAD_PICKUP = "bad_pickup"
    CANNOT_ASK = "cannot_ask"
    NO_QUESTION = "no_question"


RULE_CODES: frozenset[str] = frozenset(Code)


class Refusal(NamedTuple):
    """Why a rule forbids a move: `code`, `case` (or None), the deciding `facts`, English `text`.

    A tuple, so that making one costs what the (code, message) pair it replaces cost.
    """

    code: Code
    text: str
    case: str | None = None
    facts: Mapping[str, Fact] = MappingProxyType({})

    @property
    def key(self) -> str:
        """`code.case`, or the code alone: the key of its sentence in a table of texts."""
        return f"{self.code.value}.{self.case}" if self.case else self.code.value

    def worded(self, text: str) -> Refusal:
        """The same refusal told in other English words (a wrapping context, say)."""
        return self._replace(text=text)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "case": self.case, "facts": dict(self.facts)}
