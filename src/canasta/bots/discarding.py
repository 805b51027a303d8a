"""Choosing the discard: what the hand loses by it, and what it may give the opponents."""

from __future__ import annotations

import math
from typing import Final

from canasta.bots.skill import Skill
from canasta.bots.table import NO_CARDS, Table, rank_counts
from canasta.rules.cards import Card, Rank

#: What a black three is worth in hand where it is cheap: as much as a pair, so it is saved for
#: a pile worth blocking (measured: discarding it early costs about 200 points a deal with 2).
BLACK_THREE_KEEP: Final = 30.0
#: Weight of the danger from opponents after the next one (the pile may reach them untaken).
LATER_OPPONENT: Final = 0.35


class DiscardJudge:
    """Scores discards for one seat: lower is a better discard."""

    __slots__ = (
        "dangers", "naturals", "opponents", "pile_value", "rivals", "scores", "skill", "table", "threat",
    )

    def __init__(self, table: Table, skill: Skill) -> None:
        self.table = table
        self.skill = skill
        self.naturals = table.kinds.naturals  # the hand's, by rank
        self.threat = table.threat
        self.pile_value = self._pile_value()
        self.opponents = _opponents_in_turn(table)
        self.dangers: dict[Rank, float] = {}
        self.scores: dict[Rank, float] = {}
        self.rivals: list[_Rival] | None = None  # the opponents' facts, once a danger is asked for

    def score(self, card: Card) -> float:
        """What discarding `card` costs (the same for every card of its rank)."""
        score = self.scores.get(card.rank)
        if score is None:
            score = self.scores[card.rank] = self.keep_value(card) + (
                self.danger(card) if self.skill.safety else 0.0
            )
        return score

    # -- what keeping the card is worth ---------------------------------------------------------

    def keep_value(self, card: Card) -> float:
        table = self.table
        rules = table.rules
        if card.is_wild:
            return 500.0
        if card.is_three:
            # A black three blocks the next player: keep it for when the pile is worth blocking
            # (a safe discard then), unless it costs a lot in hand.
            return -50.0 if rules.black3_hand_value >= 50 else BLACK_THREE_KEEP
        rank = card.rank
        n = len(self.naturals.get(rank, NO_CARDS))
        late = card.points * self.threat * 0.5
        if rank in table.dead:
            return -10.0
        if rank in table.melds:
            return 30.0 - late
        if self.skill.special_care and rules.special_canasta_bonuses and rank in (Rank.ACE, Rank.SEVEN):
            if 3 <= n <= 4:
                return -20.0  # three in hand cost 1500; a short meld of them costs 2500
            if n >= 5:
                return 40.0  # worth melding toward a 2500 canasta
        if n >= 3:
            return 40.0 - late
        if n == 2:
            return 22.0 - late
        hope = table.unseen(rank) * 0.6 if self.skill.safety >= 2 else 0.0
        return 6.0 + hope - late

    # -- what the card may give away ------------------------------------------------------------

    def _pile_value(self) -> float:
        pile = self.table.board.pile
        value = 12.0 * (len(pile) + 1)
        value += sum(40.0 for c in pile if c.is_wild)
        return value

    def danger(self, card: Card) -> float:
        if card.is_wild or card.is_three:
            return 0.0
        known = self.dangers.get(card.rank)
        if known is not None:
            return known
        if self.rivals is None:
            self.rivals = [_Rival(self.table, seat) for seat in self.opponents]
        total = 0.0
        weight = 1.0
        for rival in self.rivals:
            total += weight * self._take_chance(rival, card.rank) * self.pile_value
            weight = LATER_OPPONENT
        self.dangers[card.rank] = total
        return total

    def _take_chance(self, rival: _Rival, rank: Rank) -> float:
        """The chance that opponent `rival` can take the pile with `rank` on top."""
        table = self.table
        if rank in rival.blocked:
            return 0.0
        if rival.layoff and rank in rival.melds:
            return 1.0
        known = rival.known.get(rank, 0)
        if known >= 2:
            return 1.0
        if self.skill.safety < 2:
            return 0.5 if known == 1 else 0.1
        hidden = rival.hidden
        q = min(1.0, table.unseen(rank) / table.unseen_total)
        none = math.pow(1.0 - q, float(hidden))  # as `**` computes it, unboxed when compiled
        one = hidden * q * math.pow(1.0 - q, float(max(0, hidden - 1)))
        at_least_one = 1.0 - none
        if known == 1:
            chance = at_least_one
        else:
            chance = max(0.0, 1.0 - none - one)
            if rival.natural_wild:
                chance += (at_least_one - chance) * 0.5
        if rank in rival.discarded:
            chance *= 0.4
        if not rival.opened:
            chance *= 0.6
        return chance

    # -- freezing ---------------------------------------------------------------------------------

    def freeze_card(self) -> Card | None:
        """A wild card to discard to freeze a valuable pile that the opponents could take."""
        table = self.table
        board = table.board
        rules = table.rules
        if not self.skill.freeze or "wild" not in rules.freeze_triggers:
            return None
        if rules.discard_rules == "modern" or board.pile_frozen or len(board.pile) < 5:
            return None
        if all(table.frozen_for(table.teams[s]) for s in table.opponents):
            return None
        wilds = [c for c in table.hand if c.is_wild]
        if len(wilds) < 2:
            return None
        return min(wilds, key=lambda c: c.points)


class _Rival:
    """What the chance that one opponent takes the pile depends on, read once per judge."""

    __slots__ = ("blocked", "discarded", "hidden", "known", "layoff", "melds", "natural_wild", "opened")

    def __init__(self, table: Table, seat: int) -> None:
        board = table.board
        methods = table.rules.pile_take_methods
        team = table.teams[seat]
        frozen = table.frozen_for(team)
        self.blocked = table.blocked_ranks_for(team)
        self.melds = board.melds[team]
        self.layoff = not frozen and "layoff" in methods
        self.natural_wild = not frozen and "natural_wild" in methods
        self.known = rank_counts(board.known[seat])
        self.hidden = max(0, table.mover.hand_sizes[seat] - len(board.known[seat]))
        self.discarded = table.discarded_ranks(seat)
        self.opened = board.opened[team]


def _opponents_in_turn(table: Table) -> list[int]:
    """The opponents in the order they play after this seat."""
    mover = table.mover
    out = []
    seat = mover.next_seat(table.seat)
    while seat != table.seat:
        if table.teams[seat] != table.team:
            out.append(seat)
        seat = mover.next_seat(seat)
    return out


def choose_discard(table: Table, skill: Skill, cards: list[Card]) -> Card:
    """The best of the legal discards `cards` for this level."""
    judge = DiscardJudge(table, skill)
    best = cards[0]
    best_score = judge.score(best)
    for card in cards:  # the lowest score, and of those the card first in card order
        score = judge.score(card)
        if score < best_score or (score == best_score and card.index < best.index):
            best, best_score = card, score
    freeze = judge.freeze_card()
    if freeze is not None and freeze in cards and best_score - judge.keep_value(best) >= 60.0:
        return freeze
    return best
