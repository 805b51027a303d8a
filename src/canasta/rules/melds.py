"""Meld facts and the composition rules of a single meld (RULES.md 1.8, 1.9, R9–R13)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from canasta.rules.cards import (
    ACE_RANK,
    ALL_CARDS,
    NATURAL_RANKS,
    RANK_CODE,
    SEVEN_RANK,
    THREE_RANK,
    WILD_RANK,
    Card,
    Rank,
)
from canasta.rules.refusal import Code, Fact, Refusal
from canasta.rules.ruleset import RuleSet

Melds = dict[Rank, list[Card]]


#: The natural ranks a melding rule names (sevens, aces); threes and wild cards are apart anyway.
NAMED_RANKS: Final = (SEVEN_RANK, ACE_RANK)


def _alike() -> dict[Rank, int]:
    points = {c.rank: c.points for c in ALL_CARDS}
    first: dict[int, Rank] = {}  # the first natural rank no rule names, of each count of points
    alike: dict[Rank, int] = {}
    for rank in Rank:
        like = rank
        if rank in NATURAL_RANKS and rank not in NAMED_RANKS:
            like = first.setdefault(points[rank], rank)
        alike[rank] = RANK_CODE[like]
    return alike


#: Each rank's `judged_alike` number.
_ALIKE: Final = _alike()


def judged_alike(rank: Rank) -> int:
    """A number the ranks share that every melding rule judges alike (whether a meld, a group or
    a step of them is legal): the natural ranks no rule names, by their points; any other rank
    alone. A rule that names a rank adds it to `NAMED_RANKS`."""
    return _ALIKE[rank]


def wild_count(cards: Sequence[Card]) -> int:
    n = 0
    for c in cards:
        if c.is_wild:
            n += 1
    return n


def is_canasta(cards: Sequence[Card]) -> bool:
    return len(cards) >= 7


def canasta_count(melds: Melds) -> int:
    n = 0
    for cards in melds.values():
        if len(cards) >= 7:
            n += 1
    return n


def is_natural_canasta(cards: Sequence[Card]) -> bool:
    return len(cards) >= 7 and wild_count(cards) == 0


def dead_ranks(rules: RuleSet, all_melds: Sequence[Mapping[Rank, Sequence[Card]]]) -> set[Rank]:
    """Ranks nobody may meld any more (Modern American, R11 and A23)."""
    dead: set[Rank] = set()
    if rules.dead_rank_trigger == "none":
        return dead
    for melds in all_melds:
        for rank, cards in melds.items():
            if len(cards) >= 7 and kills_rank(rules, rank, len(cards), wild_count(cards)):
                dead.add(rank)
    return dead


def kills_rank(rules: RuleSet, rank: Rank, size: int, wilds: int) -> bool:
    """Whether a team's meld of `rank`, of `size` cards with `wilds` wild cards, makes the rank
    dead, in a rule set that kills ranks (Modern American, R11 and A23)."""
    return rank is not WILD_RANK and size >= 7 and (rules.dead_rank_trigger == "any_canasta" or wilds == 0)


def incomplete_special(rank: Rank, cards: Sequence[Card]) -> bool:
    """An incomplete meld that Modern American penalises: sevens, clean aces or wild cards (R27)."""
    return incomplete_special_counts(rank, len(cards), wild_count(cards))


def incomplete_special_counts(rank: Rank, size: int, wilds: int) -> bool:
    """`incomplete_special` of a meld of `size` cards, `wilds` of them wild."""
    return size < 7 and (rank in (SEVEN_RANK, WILD_RANK) or (rank is ACE_RANK and wilds == 0))


def canasta_bonus(rules: RuleSet, rank: Rank, cards: Sequence[Card]) -> int:
    """The bonus of a completed canasta under the rule set (R13)."""
    wilds = wild_count(cards)
    if rank is WILD_RANK:
        if rules.special_canasta_bonuses:
            jokers = sum(1 for c in cards if c.is_joker)
            if jokers == 0:
                return 3000
            if jokers == 4 and len(cards) == 7:
                return 2500
            return 2000
        return rules.canasta_bonus_wild
    if wilds == 0:
        if rules.special_canasta_bonuses and rank in (SEVEN_RANK, ACE_RANK):
            return 2500
        return rules.canasta_bonus_natural
    return rules.canasta_bonus_mixed


#: The fewest cards of a new meld.
NEW_MELD_MIN: Final = 3


def meld_error(rules: RuleSet, rank: Rank, size: int, wilds: int, new: bool) -> Refusal | None:
    """Why a meld of `rank` with `size` cards, `wilds` of them wild, breaks a composition rule.

    The caller guarantees the kinds of cards: naturals of `rank` (black threes for rank 3) plus
    wild cards, or wild cards only for `Rank.WILD`.
    """
    if new and size < NEW_MELD_MIN:
        return _bad(rank, "too_few", f"a new meld needs at least {NEW_MELD_MIN} cards")
    if rules.meld_max_size is not None and size > rules.meld_max_size:
        n = rules.meld_max_size
        return _bad(rank, "too_big", f"a meld may not hold more than {n} cards", n)
    if rank is WILD_RANK:
        if rules.wild_melds == "none":
            return _bad(rank, "no_wild_melds", "melds of wild cards only are not allowed")
        if rules.wild_melds == "canasta_in_one_turn":
            if not new:
                return _bad(rank, "wild_canasta", "nothing may be added to a wild canasta")
            if size < 7:
                return _bad(
                    rank,
                    "wild_canasta",
                    "a wild canasta must be laid complete (7 or more wild cards) in one turn",
                )
        return None
    if rank is THREE_RANK:
        if not new:
            return _bad(rank, "threes", "black threes cannot be added to")
        if wilds:
            return _bad(rank, "threes", "a meld of black threes holds no wild cards")
        if size > 4:
            return _bad(rank, "threes", "a meld of black threes holds 3 or 4 cards")
        return None
    naturals = size - wilds
    if naturals < rules.meld_min_naturals:
        n = rules.meld_min_naturals
        return _bad(rank, "naturals", f"a meld needs at least {n} natural cards", n)
    if wilds > rules.meld_max_wilds:
        n = rules.meld_max_wilds
        return _bad(rank, "max_wilds", f"a meld may hold at most {n} wild cards", n)
    ratio = rules.wild_ratio_rule
    if ratio == "le" and wilds > naturals:
        return _bad(rank, "ratio_le", "a meld may not hold more wild cards than natural cards")
    if ratio == "lt" and wilds >= naturals:
        return _bad(rank, "ratio_lt", "a meld must hold more natural cards than wild cards")
    if wilds and rules.sevens_no_wilds and rank is SEVEN_RANK:
        return _bad(rank, "sevens", "a meld of sevens may not hold wild cards")
    return None


def _bad(rank: Rank, case: str, text: str, n: int | None = None) -> Refusal:
    """A `bad_meld` refusal of a meld of `rank` (with the limit `n` it breaks, if any)."""
    facts: dict[str, Fact] = {"rank": rank.value}
    if n is not None:
        facts["n"] = n
    return Refusal(Code.BAD_MELD, text, case, facts)


#: The key of `meld_ok`'s answers in a rule set's cache.
_MELDS_OK: Final = "melds_ok"


def meld_ok(rules: RuleSet, rank: Rank, size: int, wilds: int, new: bool) -> bool:
    """`meld_error(...) is None`, memoised per rule set (the legal-move generator's hot path)."""
    return meld_ok_in(melds_ok_known(rules), rules, rank, size, wilds, new)


def melds_ok_known(rules: RuleSet) -> dict[int, bool]:
    """The rule set's answers of `meld_ok` so far."""
    known: dict[int, bool] | None = rules.cache.get(_MELDS_OK)
    if known is None:
        known = rules.cache[_MELDS_OK] = {}
    return known


def meld_ok_in(known: dict[int, bool], rules: RuleSet, rank: Rank, size: int, wilds: int, new: bool) -> bool:
    """`meld_ok`, with the rule set's answers `known` (by a number: cheap to look up; one for the
    ranks judged alike)."""
    key = ((new << 5 | wilds) << 6 | size) << 4 | _ALIKE[rank]  # (as `_counts_code`)
    ok = known.get(key)
    if ok is None:
        ok = known[key] = meld_error(rules, rank, size, wilds, new) is None
    return ok


def meld_refusal(rules: RuleSet, rank: Rank, size: int, wilds: int, new: bool) -> Refusal | None:
    """`meld_error(...)`, memoised per rule set (the lister meets the same refusals again and again)."""
    key = ("refusal", rank, size, wilds, new)
    cache = rules.cache
    found: Refusal | None = cache.get(key)
    if found is None:
        found = cache[key] = meld_error(rules, rank, size, wilds, new)
    return found


def wild_rule_error(
    rules: RuleSet, rank: Rank, naturals: int, opening: bool, wild_meld_incomplete: bool
) -> Refusal | None:
    """Where wild cards may go (Modern American R11, R12, A51), for a group adding wilds."""
    if rules.aces_wilds_opening_only and rank is ACE_RANK and not opening:
        return _ACES_OPENING
    if rules.rule_of_five and not opening and naturals < 5:
        return _RULE_OF_FIVE
    if wild_meld_incomplete:
        return _WILD_PENDING
    return None


# Made once: the solver and the lister ask these rules of every candidate.
_ACES_OPENING: Final = Refusal(
    Code.BAD_MELD, "wild cards go into aces only in the opening meld", "aces_opening"
)
_RULE_OF_FIVE: Final = Refusal(
    Code.BAD_MELD, "after the opening, wild cards go only into melds of five or more naturals", "rule_of_five"
)
_WILD_PENDING: Final = Refusal(
    Code.BAD_MELD, "while your wild-card meld is incomplete, wild cards go only into it", "wild_pending"
)
