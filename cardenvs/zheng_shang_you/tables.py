"""Card facts per observer and per seat, stored already seat-relative so that an observation copies them in
one contiguous block (rotating seats on every observation was the encoder's main cost)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardenvs.zheng_shang_you.ranks import NUM_CARDS

SEAT_ROWS = ("hand_sizes", "passed", "places", "dealer", "totals", "prev_places")
"""Per-seat features the engine keeps in one ``(6, n)`` table, in this order (adjacent in the observation)."""
MAX_TOTAL_RATIO = 7.0
"""The unit's match points over the target, capped here (so the observation stays bounded)."""


class RelativeCardTable:
    """``data[o, k, c]``: what observer ``o`` holds true of card ``c`` for the seat ``k`` places after it
    (``k = 0``: itself): e.g. "has played it", "is known to hold it"."""

    def __init__(self, num_players: int):
        n = self.num_players = num_players
        self.data = np.zeros((n, n, NUM_CARDS), dtype=np.float32)
        observers = np.arange(n)
        self._observers = observers[:, None]
        self._rows = [((seat - observers) % n)[:, None] for seat in range(n)]

    def set_for_all(self, seat: int, cards: Sequence[int] | slice, value: float) -> None:
        """Every observer learns ``value`` for these cards of ``seat``."""
        if isinstance(cards, slice):
            self.data[self._observers, self._rows[seat], cards] = value
        else:
            self.data[self._observers, self._rows[seat], list(cards)] = value

    def set_for(self, observer: int, seat: int, cards: Sequence[int], value: float) -> None:
        """Only ``observer`` learns ``value`` for these cards of ``seat``."""
        self.data[observer, (seat - observer) % self.num_players, list(cards)] = value

    def of(self, observer: int, seat: int) -> np.ndarray:
        """What ``observer`` holds true of ``seat``'s cards (a view)."""
        return self.data[observer, (seat - observer) % self.num_players]

    def flat(self, observer: int, first_seat: int = 0) -> np.ndarray:
        """The observer's rows from relative seat ``first_seat`` on, flattened (a view)."""
        return self.data[observer, first_seat:].reshape(-1)

    def copy(self) -> RelativeCardTable:
        twin = RelativeCardTable.__new__(RelativeCardTable)
        twin.num_players, twin._observers, twin._rows = self.num_players, self._observers, self._rows
        twin.data = self.data.copy()
        return twin
