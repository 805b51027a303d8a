"""The heuristic bot: rule-of-thumb Canasta at three levels (`easy`, `normal`, `hard`).

`decide` plays for the seat to move on what that seat knows, a `Mover` (see
`canasta.bots.table`): the bot takes it from its view, and the search bot's playouts take it from
their own states.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from canasta.bots.base import seat_to_move
from canasta.bots.discarding import choose_discard
from canasta.bots.melding import go_out, next_build, opening_meld, special_outlook
from canasta.bots.skill import Skill
from canasta.bots.table import Table, rank_counts
from canasta.rules.actions import Action, Answer, Discard, Draw, Meld, Pickup
from canasta.rules.cards import Card, Rank
from canasta.rules.errors import IllegalActionError
from canasta.rules.legal import ASK, DISCARDS, DRAW, PASS, legal_actions, meld_actions
from canasta.rules.melds import incomplete_special, wild_count
from canasta.rules.mover import Mover
from canasta.rules.state import mover_after
from canasta.rules.view import SeatView

#: What a draw from the stock is worth, against which the pile is weighed ("value" levels).
DRAW_VALUE: Final = 5.0
_SPECIAL: Final = (Rank.ACE, Rank.SEVEN)
#: What a wild card used to take the pile costs (it will make a mixed canasta at best).
WILD_PICKUP_COST: Final = 30.0


class HeuristicBot:
    """A rule-based player at one level."""

    def __init__(self, skill: Skill) -> None:
        self.skill = skill
        self.name = skill.name

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        seat_to_move(view)
        if len(legal) == 1:
            return legal[0]
        mover = view.mover()
        action = decide(mover, self.skill, rng)
        if action in legal or mover.check(action) is None:
            return action
        return fallback(legal)


def fallback(legal: Sequence[Action]) -> Action:
    """A safe legal action when planning found none: draw, else discard, else the first."""
    for kind in (Draw, Discard):
        for action in legal:
            if isinstance(action, kind):
                return action
    if not legal:
        raise IllegalActionError("no legal action in this position", "no_move")
    return legal[0]


def decide(mover: Mover, skill: Skill, rng: random.Random) -> Action:
    """The level's action for the seat to move."""
    return decide_on(Table(mover), skill, rng)


def decide_on(table: Table, skill: Skill, rng: random.Random) -> Action:
    """The level's action for the seat to move, on its `table` (which then tells whether the
    engine listed it: `Table.listed`)."""
    now = table.mover.now
    if now.permission == "pending":
        return _answer(table, skill)
    if now.phase == "draw":
        return _draw_phase(table, skill, rng)
    return _play_phase(table, skill, rng)


# -- asking and answering ------------------------------------------------------------------------


def _answer(table: Table, skill: Skill) -> Answer:
    """Partner asks to go out: no while the side lacks the canastas it needs (more than one card
    from them, going out is out of reach); else yes, unless (levels that weigh it) this hand
    would lose more than the deal may gain."""
    if not table.can_go_out_team(table.team):
        return Answer(False)
    if not skill.answer:
        return Answer(True)
    hand = table.hand
    points = sum(c.points for c in hand)
    return Answer(points <= 60 or len(hand) <= 3 or table.threat >= 0.5)


def going_out(table: Table, skill: Skill) -> Action | None:
    """The first action of a way to go out this turn, if the level takes it: always, except
    (with special care) where the rule set penalises a side's incomplete special melds at the
    end and going out would leave one while the deal is not about to end anyway."""
    out = go_out(table)
    if out is None or not skill.special_care or table.threat >= 0.5:
        return out
    return None if _leaves_penalised_meld(table, out) else out


def _leaves_penalised_meld(table: Table, out: Action) -> bool:
    """Whether the side, once out by `out`, keeps a meld its rule set penalises at the end."""
    if table.rules.end_penalties != "modern":
        return False
    melds = mover_after(table.mover, out).board.melds[table.team] if isinstance(out, Meld) else table.melds
    return any(incomplete_special(r, cs) for r, cs in melds.items())


def _want_ask(table: Table, skill: Skill) -> bool:
    """Ask before going out: when the rules demand it, or (hard) when partner holds many cards."""
    mover = table.mover
    now = mover.now
    if now.permission is not None or now.drew != "stock" or now.melded:
        return False
    mode = table.rules.permission_mode
    if mode == "off" or not table.partners:
        return False
    if mode != "mandatory" and not (skill.ask and _most_cards(mover.hand_sizes, table.partners) >= 6):
        return False
    return mover.check(ASK) is None


def _most_cards(sizes: tuple[int, ...], seats: tuple[int, ...]) -> int:
    """The most cards one of `seats` holds (`max` over them)."""
    most = sizes[seats[0]]
    for seat in seats:
        most = max(most, sizes[seat])
    return most


# -- the draw ------------------------------------------------------------------------------------


def _draw_phase(table: Table, skill: Skill, rng: random.Random) -> Action:
    mover = table.mover
    pickups = table.pickups()
    if mover.stock_size:
        pickups = [p for p in pickups if not (isinstance(p, Pickup) and takes_back_own_discards(table, p))]
    options: list[Action] = list(pickups)
    if mover.stock_size:
        options.insert(0, DRAW)
    elif pickups and not mover.must_take_pile():
        options.insert(0, PASS)
    if not pickups:
        return options[0] if options else fallback(legal_actions(mover))
    if skill.mistake_rate and rng.random() < skill.mistake_rate:
        return rng.choice(options)
    best: Action = options[0]
    value = -math.inf
    for p in pickups:  # the first of the most valuable
        if isinstance(p, Pickup):
            v = pickup_value(table, skill, p)
            if v > value:
                best, value = p, v
    if not mover.stock_size:
        return best if value > 0 or mover.must_take_pile() else options[0]
    if skill.pile == "always":
        return best
    if skill.pile == "size":
        return best if len(table.board.pile) >= 2 or not table.opened else options[0]
    return best if value > DRAW_VALUE else options[0]


def takes_back_own_discards(table: Table, pickup: Pickup) -> bool:
    """Whether taking the pile this way would bring into the hand only cards its own side
    discarded (every card under the top one), while not going out at once: a pile the side would
    take for its top card, throwing the card under it back, turn after turn, while an opponent
    keeps discarding cards its melds take. (Measured over 40 classic deals: with 2 players
    `normal` threw the same card back up to twelve turns running and `hard` up to nine; with 4,
    partners passed a card between them six turns each.)"""
    pile = table.board.pile
    if pickup.top_only or len(pile) < 2 or pile[-1].is_black_three:
        return False
    return all(table.teams[seat] == table.team for seat in table.discarded_by[:-1])


def pickup_value(table: Table, skill: Skill, pickup: Pickup) -> float:
    """What taking the pile this way is worth, in rough points."""
    pile = table.board.pile
    top = pile[-1]
    if pickup.top_only or top.is_black_three:
        return 500.0  # these pickups go out at once
    gained = [] if pickup.top_only else pile[:-1]
    in_hand = rank_counts(table.hand)
    melded = [c for g in pickup.melds for c in g.cards]
    for c in (*pickup.with_, *melded):
        in_hand[c.rank] = in_hand.get(c.rank, 0) - 1
    ranks = set(table.melds) | {top.rank} | {c.rank for c in melded if c.is_natural}
    risk = table.threat if table.mover.stock_size else 1.0
    value = float(top.points)
    coming = rank_counts(gained)
    for card in gained:
        value += _gain(table, card, card.rank in ranks, in_hand.get(card.rank, 0) + coming[card.rank], risk)
    wilds = sum(1 for c in (*pickup.with_, *melded) if c.is_wild)
    value -= WILD_PICKUP_COST * wilds
    if skill.special_care:
        value += _special_change(table, pickup, gained)
    if not table.opened:
        value += 40.0  # opening unfreezes the pile for the team
    if skill.pile != "value":
        value = max(value, 1.0)
    return value - 0.5 * len(pickup.with_)  # keep the pair in hand when laying off will do


def _special_change(table: Table, pickup: Pickup, gained: Sequence[Card]) -> float:
    """How a pickup changes the outlook of Modern American melds of sevens and aces."""
    if not table.rules.special_canasta_bonuses:
        return 0.0  # no outlook changes (`special_outlook`)
    top = table.board.pile[-1]
    laid: dict[Rank, list[Card]] = {top.rank: [*pickup.with_, top]}
    for group in pickup.melds:
        rank = next((c.rank for c in group.cards if c.is_natural), group.rank or Rank.WILD)
        laid.setdefault(rank, []).extend(group.cards)
    change = 0.0
    for rank, cards in laid.items():
        meld = table.melds.get(rank, [])
        in_hand = sum(1 for c in table.hand if c.rank is rank)
        spare = in_hand - sum(1 for c in cards if c.rank is rank) + sum(1 for c in gained if c.rank is rank)
        wilds = wild_count(meld) + wild_count(cards)
        before = special_outlook(table, rank, len(meld), wild_count(meld), in_hand) if meld else 0.0
        change += special_outlook(table, rank, len(meld) + len(cards), wilds, spare) - before
    return change


def _gain(table: Table, card: Card, melded_rank: bool, copies: int, risk: float) -> float:
    """What one card taken with the pile is worth (`risk`: the chance it is left in hand)."""
    rules = table.rules
    if card.is_wild:
        return 40.0
    if card.is_red_three or (card.is_three and rules.threes_mode == "color_sets"):
        return 100.0
    if card.is_black_three:
        return -float(rules.black3_hand_value) * risk if rules.black3_hand_value >= 50 else 3.0
    if card.rank in table.dead:
        return -card.points * risk
    if rules.special_canasta_bonuses and card.rank in _SPECIAL and not melded_rank and 3 <= copies <= 4:
        return -40.0  # three aces or sevens in hand cost 1500 at the end: they must be shed
    if melded_rank or copies >= 3:
        return card.points + 8.0
    if copies == 2:
        return 8.0 + 0.3 * card.points
    return 3.0 - card.points * risk


# -- melding and discarding ------------------------------------------------------------------------


def _play_phase(table: Table, skill: Skill, rng: random.Random) -> Action:
    mover = table.mover
    if mover.now.must_meld_out:
        melds = meld_actions(mover)
        return melds[0] if melds else fallback(legal_actions(mover))
    if _want_ask(table, skill) and going_out(table.assuming("yes"), skill) is not None:
        return ASK
    out = going_out(table, skill)
    if out is not None:
        return out
    if not table.opened:
        opening = opening_meld(table, skill)
        if opening is not None:
            return opening
    threat = table.threat
    build = next_build(table, skill, threat >= 0.7)
    if build is not None:
        return build
    discards = table.discards()
    if not discards:
        return fallback(legal_actions(mover))
    if skill.mistake_rate and rng.random() < skill.mistake_rate:
        return DISCARDS[rng.choice(discards).index]
    return DISCARDS[choose_discard(table, skill, discards).index]
