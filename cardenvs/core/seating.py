"""Seats and turn order.

Rules engines index players ``0..n-1`` and play passes from seat ``i`` to seat ``i + 1`` (mod ``n``):
each game maps its physical direction (clockwise or counter-clockwise) onto that convention.
Observations are seat-relative: the observer first, then the others in play order.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache


@cache
def relative_order(me: int, n: int) -> tuple[int, ...]:
    """Seats in play order starting with ``me``: ``(me, me+1, …)`` mod ``n``."""
    return tuple((me + k) % n for k in range(n))


def relative_seat(me: int, other: int, n: int) -> int:
    """How many seats after ``me`` (in play order) ``other`` sits: 0 for ``me`` itself."""
    return (other - me) % n


def next_seat(seat: int, active: Sequence[bool]) -> int:
    """The first seat after ``seat`` in play order whose ``active`` flag is set (``-1`` if none)."""
    n = len(active)
    for k in range(1, n + 1):
        candidate = (seat + k) % n
        if active[candidate]:
            return candidate
    return -1


def agent_name(seat: int) -> str:
    """PettingZoo agent name of a player index."""
    return f"player_{seat}"
