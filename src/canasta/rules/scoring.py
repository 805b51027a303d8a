"""Scoring a deal (RULES.md 1.15, 2.3, 2.4 and A49) and deciding the game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from canasta.rules.cards import ACE_RANK, SEVEN_RANK, WILD_RANK, Card, Rank
from canasta.rules.melds import canasta_bonus, canasta_count, incomplete_special

if TYPE_CHECKING:
    from canasta.rules.ruleset import RuleSet
    from canasta.rules.state import State

PARTS = ("cards", "canastas", "threes", "going_out", "hand", "penalties")


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """One team's score for a deal, by part; `total` is their sum."""

    cards: int = 0
    canastas: int = 0
    threes: int = 0
    going_out: int = 0
    hand: int = 0
    penalties: int = 0

    @property
    def total(self) -> int:
        return self.cards + self.canastas + self.threes + self.going_out + self.hand + self.penalties

    def to_json(self) -> dict[str, int]:
        out = {part: getattr(self, part) for part in PARTS}
        out["total"] = self.total
        return out


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended and what each team scored."""

    reason: str
    went_out: int | None
    concealed: bool
    scores: tuple[ScoreBreakdown, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "ended": True,
            "reason": self.reason,
            "went_out": self.went_out,
            "concealed": self.concealed,
            "scores": [s.to_json() for s in self.scores],
        }


def hand_value(rules: RuleSet, card: Card) -> int:
    """What a card left in hand costs (unsigned)."""
    if card.is_black_three:
        return rules.black3_hand_value if rules.threes_mode == "red_bonus" else card.points
    return card.points


def threes_score(rules: RuleSet, threes: Sequence[Card]) -> int:
    """The unsigned value of a team's bonus threes."""
    if rules.threes_mode == "color_sets":
        red = sum(1 for c in threes if c.is_red_three)
        return rules.red_three_score(red) + rules.red_three_score(len(threes) - red)
    return rules.red_three_score(len(threes))


def score_deal(state: State, reason: str, went_out: int | None, concealed: bool) -> DealResult:
    rules = state.rules
    scores = []
    modern = rules.end_penalties == "modern"
    for team in range(rules.teams):
        melds = state.melds[team]
        seats = [s for s in state.order if s % rules.teams == team]
        cards = sum(c.points for meld in melds.values() for c in meld)
        bonus = sum(canasta_bonus(rules, r, m) for r, m in melds.items() if len(m) >= 7)
        threes = threes_score(rules, state.threes[team])
        going_out = 0
        if went_out is not None and went_out in seats:
            going_out = rules.concealed_total if concealed else rules.go_out_bonus
        hand = -sum(hand_value(rules, c) for s in seats for c in state.hands[s])
        penalties = 0
        if modern:
            k = canasta_count(melds)
            if k == 0:
                cards = -cards
            threes = -threes if k == 0 else (0 if k == 1 else threes)
            penalties = _modern_penalties(melds, [state.hands[s] for s in seats])
        elif not melds:
            threes = -threes
        scores.append(ScoreBreakdown(cards, bonus, threes, going_out, hand, penalties))
    return DealResult(reason, went_out, concealed, tuple(scores))


def _modern_penalties(melds: dict[Rank, list[Card]], hands: Sequence[Sequence[Card]]) -> int:
    """Incomplete special melds and sets of three aces or sevens in one hand (R27)."""
    penalty = 0
    for rank, cards in melds.items():
        if not incomplete_special(rank, cards):
            continue
        if rank is WILD_RANK:
            penalty -= 2500 if sum(1 for c in cards if c.is_joker) >= 4 else 2000
        else:
            penalty -= 2500
    for hand in hands:
        for rank in (ACE_RANK, SEVEN_RANK):
            if sum(1 for c in hand if c.rank is rank) >= 3:
                penalty -= 1500
    return penalty


def game_winner(rules: RuleSet, totals: Sequence[int]) -> int | None:
    """The winning team once some team has reached the target with a unique best total (A31)."""
    if max(totals) < rules.target_score:
        return None
    best = max(totals)
    leaders = [t for t, v in enumerate(totals) if v == best]
    return leaders[0] if len(leaders) == 1 else None
