"""Cards, ranks and suits, with the text forms of the interchange formats."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final

from canasta.rules.errors import InvalidActionError


class Suit(enum.StrEnum):
    """A card suit; only the colour of threes matters in play."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(enum.StrEnum):
    """A rank of cards, and the rank of a meld (`WILD` for a meld of wild cards only)."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"
    JOKER = "JK"
    WILD = "wild"

    @classmethod
    def parse_meld_rank(cls, text: str) -> Rank:
        """Parse the `rank` of an explicit group: a natural rank, `3` or `wild`."""
        key = text.strip().upper() if text.isascii() else ""
        key = "10" if key == "T" else key
        if key == "WILD":
            return Rank.WILD
        rank = _RANK_BY_TEXT.get(key)
        if rank is None or rank in (Rank.TWO, Rank.JOKER):
            raise InvalidActionError(f"unknown meld rank {text!r}")
        return rank


_RANK_BY_TEXT: Final = {r.value: r for r in Rank if r is not Rank.WILD}
#: Ranks the rules compare often, as module constants: plain Python 3.11 reads an enum's member
#: through its metaclass's attribute hook, several times slower (compiled code reads either alike).
WILD_RANK: Final = Rank.WILD
THREE_RANK: Final = Rank.THREE
ACE_RANK: Final = Rank.ACE
SEVEN_RANK: Final = Rank.SEVEN
#: Each rank's number (its place in `Rank`), for keys made of numbers.
RANK_CODE: Final[dict[Rank, int]] = {r: i for i, r in enumerate(Rank)}

#: Ranks that form melds, highest first.
NATURAL_RANKS: Final = (
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.TEN,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
    Rank.SIX,
    Rank.FIVE,
    Rank.FOUR,
)

_POINTS: Final = {
    Rank.JOKER: 50,
    Rank.TWO: 20,
    Rank.ACE: 20,
    Rank.KING: 10,
    Rank.QUEEN: 10,
    Rank.JACK: 10,
    Rank.TEN: 10,
    Rank.NINE: 10,
    Rank.EIGHT: 10,
    Rank.SEVEN: 5,
    Rank.SIX: 5,
    Rank.FIVE: 5,
    Rank.FOUR: 5,
    Rank.THREE: 5,
}


class Card:
    """One card value, such as `KS` or `JK`. Instances are interned: compare with `is` or `==`.
    Its attributes are final (read-only in the compiled engine)."""

    __slots__ = (
        "code",
        "index",
        "is_black_three",
        "is_joker",
        "is_natural",
        "is_red_three",
        "is_three",
        "is_two",
        "is_wild",
        "points",
        "rank",
        "suit",
    )
    code: Final[str]
    rank: Final[Rank]
    suit: Final[Suit | None]
    index: Final[int]
    points: Final[int]
    is_wild: Final[bool]
    is_joker: Final[bool]
    is_two: Final[bool]
    is_natural: Final[bool]
    is_three: Final[bool]
    is_red_three: Final[bool]
    is_black_three: Final[bool]

    def __init__(self, rank: Rank, suit: Suit | None, index: int) -> None:
        self.rank = rank
        self.suit = suit
        self.index = index
        self.code = rank.value + (suit.value if suit else "")
        self.points = _POINTS[rank]
        self.is_joker = rank is Rank.JOKER
        self.is_two = rank is Rank.TWO
        self.is_wild = rank in (Rank.JOKER, Rank.TWO)
        self.is_three = rank is Rank.THREE
        self.is_natural = rank in NATURAL_RANKS
        red = suit is not None and suit.is_red
        self.is_red_three = rank is Rank.THREE and red
        self.is_black_three = rank is Rank.THREE and not red

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    @staticmethod
    def parse(text: object) -> Card:
        """Parse a card code, case-insensitive, `T` accepted for ten (`th` is `10H`)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"a card must be a string, not {text!r}")
        key = text.strip().upper() if text.isascii() else ""  # no look-alikes such as "Kſ"
        card = _BY_CODE.get(key)
        if card is None and key[:1] == "T":
            card = _BY_CODE.get("10" + key[1:])
        if card is None:
            raise InvalidActionError(f"unknown card {text!r}")
        return card


def _make_cards() -> tuple[Card, ...]:
    ordered: list[tuple[Rank, Suit | None]] = [(Rank.JOKER, None)]
    for rank in (Rank.TWO, *NATURAL_RANKS, Rank.THREE):
        ordered.extend((rank, suit) for suit in Suit)
    return tuple(Card(rank, suit, i) for i, (rank, suit) in enumerate(ordered))


#: Every card value, in display order: joker, twos, aces down to fours, threes.
ALL_CARDS: Final = _make_cards()
_BY_CODE: Final = {c.code: c for c in ALL_CARDS}
JOKER: Final = _BY_CODE["JK"]


def parse_cards(texts: object) -> list[Card]:
    """Parse card codes: one string of codes separated by spaces or commas (`"8S 8H, JK"`), or an
    iterable of codes (`["8S", "8H"]`); anything else raises `InvalidActionError`."""
    if isinstance(texts, str):
        return [Card.parse(text) for text in texts.replace(",", " ").split()]
    if isinstance(texts, bytes) or not isinstance(texts, Iterable):
        raise InvalidActionError(f"expected card codes (a string or a list of strings), not {texts!r}")
    return [Card.parse(text) for text in texts]


def card_codes(cards: Iterable[Card]) -> list[str]:
    """The codes of cards, in the order given."""
    return [c.code for c in cards]


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in display order: jokers, twos, then aces down to fours, then threes."""
    return sorted(cards, key=_index)


def _index(card: Card) -> int:
    return card.index


def take_out(cards: list[Card], card: Card) -> bool:
    """Remove the first copy of `card` from `cards` (cards are interned: found by identity,
    compared by nothing else); whether there was one."""
    for i, held in enumerate(cards):
        if held is card:
            del cards[i]
            return True
    return False


def make_deck(packs: int = 2, jokers: int = 4) -> list[Card]:
    """An unshuffled deck: `packs` standard packs plus `jokers` jokers."""
    deck: list[Card] = []
    for card in ALL_CARDS:
        deck.extend([card] * (jokers if card.is_joker else packs))
    return deck
