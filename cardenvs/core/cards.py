"""Cards, decks and card text.

A card is an ``int``. Cards ``0..51`` are the standard cards, ``rank * 4 + suit`` with ranks in the
canonical order ``2 3 4 5 6 7 8 9 10 J Q K A`` (rank index 0..12) and suits ``♣ ♦ ♥ ♠`` (0..3).
Card 52 is the black joker ``BJ`` and card 53 the red joker ``RJ``; games with a single joker use ``BJ``.

The canonical order is only an indexing convention: every game ranks cards with its own table
(Kyuuri: A high; Zheng Shang You: 3 low, 2 above A, jokers on top).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from cardenvs.core.errors import CardTextError

RANK_TEXT: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_TEXT: tuple[str, ...] = ("♣", "♦", "♥", "♠")
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
NUM_RANKS = 13
NUM_SUITS = 4
BLACK_JOKER = 52
RED_JOKER = 53
NUM_CARD_IDS = 54
JOKER_TEXT = {BLACK_JOKER: "BJ", RED_JOKER: "RJ"}

_ASCII_SUITS = {"c": CLUBS, "d": DIAMONDS, "h": HEARTS, "s": SPADES}
_SUIT_BY_TEXT = {**{s: i for i, s in enumerate(SUIT_TEXT)}, **_ASCII_SUITS}
_RANK_BY_TEXT = {**{r: i for i, r in enumerate(RANK_TEXT)}, "T": 8}


def rank_index(text: str) -> int:
    """Canonical rank index (0 = ``2`` … 12 = ``A``) of a rank written as text (``"10"``, ``"T"``, ``"q"``)."""
    key = text.strip().upper()
    if key not in _RANK_BY_TEXT:
        raise CardTextError(f"unknown rank {text!r}; valid ranks: {' '.join(RANK_TEXT)}")
    return _RANK_BY_TEXT[key]


def make_card(rank: int, suit: int) -> int:
    """The card of canonical rank index ``rank`` and suit index ``suit``."""
    if not 0 <= rank < NUM_RANKS or not 0 <= suit < NUM_SUITS:
        raise ValueError(f"rank must be in 0..12 and suit in 0..3, got rank={rank}, suit={suit}")
    return rank * NUM_SUITS + suit


def is_joker(card: int) -> bool:
    """Whether ``card`` is one of the two jokers."""
    return card >= BLACK_JOKER


def rank_of(card: int) -> int:
    """Canonical rank index of a standard card (jokers have no rank and raise)."""
    if not 0 <= card < BLACK_JOKER:
        raise ValueError(f"card {card} has no rank (standard cards are 0..51)")
    return card // NUM_SUITS


def suit_of(card: int) -> int:
    """Suit index of a standard card (jokers have no suit and raise)."""
    if not 0 <= card < BLACK_JOKER:
        raise ValueError(f"card {card} has no suit (standard cards are 0..51)")
    return card % NUM_SUITS


def card_text(card: int) -> str:
    """Text of one card: ``10♠``, ``A♥``, ``BJ``, ``RJ``."""
    if card in JOKER_TEXT:
        return JOKER_TEXT[card]
    if not 0 <= card < BLACK_JOKER:
        raise ValueError(f"not a card id: {card!r} (valid ids are 0..53)")
    return RANK_TEXT[card // NUM_SUITS] + SUIT_TEXT[card % NUM_SUITS]


def cards_text(cards: Iterable[int]) -> str:
    """Space-separated text of several cards, in the order given."""
    return " ".join(card_text(c) for c in cards)


def parse_card(text: str) -> int:
    """Card id from its text. Suits may be Unicode (``♠``) or ASCII letters (``s``); ``T`` means 10."""
    t = text.strip()
    if t.upper() in ("BJ", "RJ"):
        return BLACK_JOKER if t.upper() == "BJ" else RED_JOKER
    suit = _SUIT_BY_TEXT.get(t[-1:], _SUIT_BY_TEXT.get(t[-1:].lower()))
    if len(t) < 2 or suit is None:
        raise CardTextError(
            f"cannot read card {text!r}: write a rank then a suit, e.g. '10♠', 'A♥', 'Qd', or 'BJ'/'RJ'"
        )
    return make_card(rank_index(t[:-1]), suit)


def parse_cards(text: str) -> list[int]:
    """Card ids from space-separated card text (``"10♠ A♥ BJ"``)."""
    return [parse_card(tok) for tok in text.split()]


@dataclass(frozen=True)
class Deck:
    """A named pack of distinct cards."""

    name: str
    cards: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cards)

    def shuffled(self, rng: np.random.Generator) -> list[int]:
        """The cards in a uniformly random order drawn from ``rng``."""
        order = rng.permutation(len(self.cards))
        return [self.cards[i] for i in order]

    def ranks(self) -> tuple[int, ...]:
        """Canonical rank indices present in the deck, ascending (jokers excluded)."""
        return tuple(sorted({rank_of(c) for c in self.cards if not is_joker(c)}))

    def rank_counts(self) -> dict[int, int]:
        """How many cards of each canonical rank the deck holds."""
        counts: dict[int, int] = {}
        for c in self.cards:
            if not is_joker(c):
                counts[rank_of(c)] = counts.get(rank_of(c), 0) + 1
        return counts


def _deck(name: str, cards: Sequence[int]) -> Deck:
    return Deck(name, tuple(sorted(cards)))


_STANDARD = range(52)
STANDARD_52 = _deck("standard-52", _STANDARD)
"""The 52-card pack."""
SHORT_36 = _deck("short-36", [c for c in _STANDARD if rank_of(c) >= rank_index("6")])
"""The 36-card pack 6…A (Verish' ne verish' with two or three players)."""
GONINKAN_50 = _deck(
    "goninkan-50",
    [c for c in _STANDARD if not (rank_of(c) == 0 and suit_of(c) != SPADES)] + [BLACK_JOKER],
)
"""Goninkan's 50 cards: the 52-card pack without 2♣ 2♦ 2♥, plus one joker (``BJ``)."""
YONINKAN_40 = _deck(
    "yoninkan-40",
    [c for c in _STANDARD if rank_of(c) > 2 and c != make_card(rank_index("5"), SPADES)] + [BLACK_JOKER],
)
"""Yoninkan's 40 cards: without the 2s, 3s, 4s and 5♠, plus one joker (``BJ``)."""
ZHENG_SHANG_YOU_54 = _deck("zheng-shang-you-54", range(NUM_CARD_IDS))
"""The 54-card pack with distinguishable black (``BJ``) and red (``RJ``) jokers."""



def highest_ranks_deck(num_ranks: int) -> Deck:
    """The four suits of the ``num_ranks`` highest ranks (2 → K, A; 9 → the 36-card pack 6…A): the small decks of
    the variants solved exactly (``docs/openspiel.md``)."""
    if not 1 <= num_ranks <= NUM_RANKS:
        raise ValueError(f"a deck has 1–{NUM_RANKS} ranks, got {num_ranks}")
    if num_ranks == 9:
        return SHORT_36
    if num_ranks == NUM_RANKS:
        return STANDARD_52
    low = NUM_RANKS - num_ranks
    return _deck(f"highest-{4 * num_ranks}", [c for c in _STANDARD if rank_of(c) >= low])


SMALL_DECK_SIZES: tuple[int, ...] = tuple(4 * k for k in range(2, NUM_RANKS))
"""Deck sizes of :func:`highest_ranks_deck` below 52: 8, 12, …, 48 (four cards a rank)."""

DECKS: dict[str, Deck] = {d.name: d for d in (STANDARD_52, SHORT_36, GONINKAN_50, YONINKAN_40, ZHENG_SHANG_YOU_54)}


def ranks_text(counts: Sequence[int] | np.ndarray) -> str:
    """Rank counts as text, low to high: ``"3 3 7 K"``."""
    return " ".join(RANK_TEXT[r] for r in range(NUM_RANKS) for _ in range(int(counts[r])))


def rank_counts(text: str) -> np.ndarray:
    """Rank counts from text such as ``"6 K 3"`` (suits may be written and are ignored: ``"6♣ K♥ 10s"``)."""
    counts = np.zeros(NUM_RANKS, dtype=np.int8)
    for token in text.split():
        counts[rank_index(token.rstrip("♣♦♥♠cdhsCDHS") or token)] += 1
    return counts
