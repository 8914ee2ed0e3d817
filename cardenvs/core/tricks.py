"""Shared trick-taking machinery: the trick in progress, trick winners, follow-suit options and the
public record of played cards.

Cards are ``int`` ids of the game's own choosing (card ids of :mod:`cardenvs.core.cards`, or rank
indices in games where suits do not matter); the game supplies the strength ``key`` of each card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass(slots=True)
class Trick:
    """The cards played to one trick so far, in order."""

    leader: int
    seats: list[int] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    led_suit: int = -1
    """Suit to follow (the suit of the lead, or the suit named when a joker is led); -1 before the lead."""

    def clone(self) -> Trick:
        return Trick(self.leader, list(self.seats), list(self.cards), self.led_suit)

    def add(self, seat: int, card: int) -> None:
        self.seats.append(seat)
        self.cards.append(card)

    def __len__(self) -> int:
        return len(self.cards)

    def winner(self, key: Callable[[int, int], float], ties_to_last: bool = False) -> int:
        """Seat that wins: highest ``key(card, position)``; equal keys go to the earlier card unless
        ``ties_to_last`` (Kyuuri: the last-played of the highest rank wins)."""
        return self.seats[winning_position([key(c, i) for i, c in enumerate(self.cards)], ties_to_last)]


def winning_position(keys: Sequence[float], ties_to_last: bool = False) -> int:
    """Index of the highest key; among equals the first, or the last if ``ties_to_last``."""
    best = 0
    for i in range(1, len(keys)):
        if keys[i] > keys[best] or (ties_to_last and keys[i] == keys[best]):
            best = i
    return best


def follow_suit_options(hand: Iterable[int], led_suit: int, suit_of: Callable[[int], int]) -> list[int]:
    """Cards of ``hand`` allowed under "follow suit if you can, else anything" (wild cards handled by the game)."""
    cards = list(hand)
    following = [c for c in cards if suit_of(c) == led_suit]
    return following if following else cards


class PlayedCards:
    """Who played which card this deal: counts per seat over a card vocabulary (public information)."""

    def __init__(self, num_players: int, vocabulary: int):
        self.by_seat = np.zeros((num_players, vocabulary), dtype=np.int8)
        n = num_players
        self._orders = [np.array([(me + k) % n for k in range(n)], dtype=np.intp) for me in range(n)]

    def clone(self) -> PlayedCards:
        """An independent copy (the seat orders, never changed, are shared)."""
        new = PlayedCards.__new__(PlayedCards)
        new.by_seat, new._orders = self.by_seat.copy(), self._orders
        return new

    def record(self, seat: int, card: int) -> None:
        self.by_seat[seat, card] += 1

    def clear(self) -> None:
        self.by_seat[:] = 0

    def relative(self, me: int) -> np.ndarray:
        """Rows reordered seat-relative (me first, then in play order), flattened."""
        return self.by_seat.take(self._orders[me], axis=0).ravel()

    def all_played(self) -> np.ndarray:
        """Counts of every card played by anybody."""
        return self.by_seat.sum(axis=0)


def plain_card_strength(suit: int, rank: int, led_suit: int, trump: int) -> int:
    """Strength of a plain (non-joker) card in a trick with trumps: any trump beats any card of the led suit,
    which beats every other card; within a suit the higher ``rank`` wins. Cards that can no longer win score 0,
    so with :func:`winning_position` the earliest of them never beats a card that follows or trumps.
    ``trump`` may be -1 (no trumps). Ranks must be non-negative."""
    if suit == trump:
        return 200 + rank
    if suit == led_suit:
        return 100 + rank
    return 0


def in_play_order(rows: np.ndarray, order: Sequence[int] | np.ndarray) -> np.ndarray:
    """Per-player rows (``rows[player]``) reordered by ``order`` (e.g. me first, then in play order) and
    flattened: the seat-relative encoding of any per-player table (played cards, trick in progress, voids).
    Use it when seats are not simply ``me, me+1, …`` (players who move seats, a dealer who sits out)."""
    return rows.take(np.asarray(order, dtype=np.intp), axis=0).ravel()


def record_void(voids: list[int], player: int, card_suit: int, led_suit: int) -> bool:
    """Note that ``player`` showed a void in ``led_suit`` by playing a card of ``card_suit`` (``voids[player]``
    is a bit set of suits). Returns whether this is new information. Wild cards (jokers) must not be passed."""
    if led_suit < 0 or card_suit == led_suit or voids[player] >> led_suit & 1:
        return False
    voids[player] |= 1 << led_suit
    return True
