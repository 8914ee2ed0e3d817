"""Zheng Shang You's card order: every card as a *pick index* in strength order.

A pick index ``p`` numbers the 54 cards weakest first: ``p = value * 4 + suit`` for the values
``0..12`` (ranks ``3 4 5 6 7 8 9 10 J Q K A 2``) and suits ``♣ ♦ ♥ ♠``, then ``52`` = black joker and
``53`` = red joker (values 13 and 14). Observations, pick actions and hands all use this order, so that
a card's position says how strong it is; :func:`card_id` converts to the package-wide card ids of
:mod:`cardenvs.core.cards` (which put the 2 first) for events and text.

Hands are Python ``int`` bit sets over pick indices: bit ``p`` set means card ``p`` is held.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cardenvs.core.cards import BLACK_JOKER, NUM_SUITS, RED_JOKER, card_text, parse_card

NUM_CARDS = 54
NUM_VALUES = 15
ACE = 11
"""Value of the ace, the highest rank a sequence may reach."""
TWO = 12
BLACK = 13
RED = 14
BJ = 52
"""Pick index of the black joker (equal to its card id)."""
RJ = 53
"""Pick index of the red joker (equal to its card id)."""
VALUE_TEXT: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")

ALL_CARDS = (1 << NUM_CARDS) - 1
TWOS = 0xF << (TWO * 4)
"""Bit set of the four 2s."""
JOKERS = (1 << BJ) | (1 << RJ)


def value_of(p: int) -> int:
    """Strength value of pick index ``p``: 0 (a 3) … 12 (a 2), 13 (BJ), 14 (RJ)."""
    return p >> 2 if p < BJ else p - 39


def suit_of(p: int) -> int:
    """Suit of a non-joker pick index (0..3)."""
    return p & 3


def value_bits(v: int) -> int:
    """Bit set of every card of value ``v``."""
    if v < BLACK:
        return 0xF << (v * 4)
    return 1 << (v + 39)


def card_id(p: int) -> int:
    """The :mod:`cardenvs.core.cards` id of pick index ``p``."""
    if p >= BJ:
        return p
    value, suit = divmod(p, NUM_SUITS)
    rank = 0 if value == TWO else value + 1
    return rank * NUM_SUITS + suit


def pick_index(card: int) -> int:
    """The pick index of a :mod:`cardenvs.core.cards` id."""
    if card >= BLACK_JOKER:
        if card > RED_JOKER:
            raise ValueError(f"not a card id: {card!r} (valid ids are 0..53)")
        return card
    rank, suit = divmod(card, NUM_SUITS)
    value = TWO if rank == 0 else rank - 1
    return value * NUM_SUITS + suit


PICK_TEXT: tuple[str, ...] = tuple(card_text(card_id(p)) for p in range(NUM_CARDS))
"""Text of each pick index: ``3♣ … 2♠ BJ RJ``."""


def text(cards: Iterable[int]) -> str:
    """Space-separated text of pick indices."""
    return " ".join(PICK_TEXT[p] for p in cards)


def text_list(cards: Iterable[int]) -> list[str]:
    """Card texts of pick indices, as a list (for events)."""
    return [PICK_TEXT[p] for p in cards]


def parse(text_cards: str) -> list[int]:
    """Pick indices from card text (``"10♠ 2h BJ"``), sorted weakest first."""
    return sorted(pick_index(parse_card(tok)) for tok in text_cards.split())


def to_bits(cards: Iterable[int]) -> int:
    """Bit set of pick indices."""
    bits = 0
    for p in cards:
        bits |= 1 << p
    return bits


def iter_bits(bits: int) -> Iterator[int]:
    """Pick indices of a bit set, ascending."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


_BYTE_PICKS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * byte + i for i in range(8) if value >> i & 1) for value in range(256))
    for byte in range((NUM_CARDS + 7) // 8)
)
"""``_BYTE_PICKS[k][v]``: the pick indices of the bits ``v`` in byte ``k`` of a bit set."""


def bits_list(bits: int) -> list[int]:
    """Pick indices of a bit set, ascending, as a list (a byte at a time: a hand has ~20 cards)."""
    if bits >> NUM_CARDS:
        raise ValueError(f"bit set {bits:#x} has bits beyond the {NUM_CARDS} cards")
    picks: list[int] = []
    for table in _BYTE_PICKS:
        if not bits:
            break
        picks += table[bits & 0xFF]
        bits >>= 8
    return picks


def _stronger_than(v: int) -> int:
    bits = 0
    for w in range(v + 1, NUM_VALUES):
        bits |= value_bits(w)
    return bits


_STRONGER = tuple(_stronger_than(v) for v in range(-1, NUM_VALUES))
"""``stronger_than`` of every value from -1 on, worked out once (move generation asks at every step)."""


def stronger_than(v: int) -> int:
    """Bit set of every card of value greater than ``v`` (``v = -1``: every card)."""
    if v < -1:
        raise ValueError(f"a card value is -1 (none) or more, got {v}")
    return _STRONGER[v + 1] if v < NUM_VALUES else 0


def above(p: int) -> int:
    """Bit set of every pick index strictly greater than ``p`` (``p = -1``: every card)."""
    return ALL_CARDS & ~((1 << (p + 1)) - 1)
