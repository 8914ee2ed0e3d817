"""Challenge windows of the bluffing games: who may challenge the latest play, in which order, and who wins.

A *window* opens on the latest play of a face-down pile at a *sampling point* (before the turn action of the
player to act, and at the flush point when the turn comes back to the play's owner). It serialises the
asynchronous call of the rules into AEC decisions under one of three models:

* ``"A"`` — simultaneous: every eligible player decides at the same moment. In AEC form the eligible players
  other than the turn player are asked one after another (clockwise from the owner's left), none seeing the
  others' choices; the turn player decides last, with "challenge" as a third option of its turn action.
  Ties go to the caller nearest clockwise from the owner. ``N − 1`` decisions per turn.
* ``"B"`` — priority poll: eligible players are asked in clockwise order from the owner's left, each seeing the
  earlier declines; the first call wins; then the turn player plays or passes. Up to ``N`` decisions per turn.
* ``"C"`` — turn only: the turn player alone may challenge, as an option of its turn action (Verish' ne
  verish' and Cheat). One decision per turn; no window at the flush point.

The window only sequences and resolves; the game logs events and applies the outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

ChallengeModel = Literal["A", "B", "C"]
CHALLENGE_MODELS: tuple[ChallengeModel, ...] = ("A", "B", "C")


def clockwise_after(seat: int, seats: Sequence[int], num_players: int) -> list[int]:
    """``seats`` ordered clockwise starting just after ``seat`` (``seat`` itself, if listed, comes last)."""
    return sorted(seats, key=lambda s: (s - seat - 1) % num_players)


def nearest_clockwise(owner: int, callers: Sequence[int], num_players: int) -> int:
    """The caller nearest clockwise from ``owner`` (the seed's tie rule between simultaneous calls)."""
    if not callers:
        raise ValueError("nearest_clockwise needs at least one caller")
    return clockwise_after(owner, callers, num_players)[0]


@dataclass(slots=True)
class ChallengeWindow:
    """One window on the latest play of ``owner``, before the turn of ``turn`` (``turn == owner``: the flush
    point). ``queue`` holds the players still to be asked by the window itself, in order; the turn player's
    own decision (models A and C) is taken with its turn action and reported with :meth:`decide`."""

    model: ChallengeModel
    owner: int
    turn: int
    eligible: list[int]
    """Players who may call, clockwise from the owner's left."""
    queue: list[int]
    decided: list[int] = field(default_factory=list)
    challengers: list[int] = field(default_factory=list)
    num_players: int = 0
    eligible_mask: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    """``eligible`` as a 0/1 vector over the seats (for observations)."""

    @classmethod
    def open(
        cls, model: ChallengeModel, owner: int, turn: int, active: Sequence[bool], *, at_flush: bool = True
    ) -> ChallengeWindow | None:
        """The window at a sampling point, or ``None`` when nobody decides in it: model C at the flush point,
        or any flush point when ``at_flush`` is false. ``active[s]``: ``s`` is still in the game."""
        n = len(active)
        flush_point = turn == owner
        if model == "C":
            eligible = [] if flush_point else [turn]
        else:
            eligible = clockwise_after(owner, [s for s in range(n) if active[s] and s != owner], n)
        if flush_point and (model == "C" or not at_flush or not eligible):
            return None
        if model == "A" and not flush_point:
            queue = [s for s in eligible if s != turn]
        elif model == "C":
            queue = []
        else:
            queue = list(eligible)
        return cls(model, owner, turn, eligible, queue, num_players=n, eligible_mask=_mask(eligible, n))

    def copy(self) -> ChallengeWindow:
        """An independent copy."""
        return ChallengeWindow(
            self.model,
            self.owner,
            self.turn,
            list(self.eligible),
            list(self.queue),
            list(self.decided),
            list(self.challengers),
            self.num_players,
            self.eligible_mask,
        )

    @property
    def flush_point(self) -> bool:
        return self.turn == self.owner

    def decided_mask(self) -> np.ndarray:
        """``decided`` as a 0/1 vector over the seats (model B's public declines)."""
        return _mask(self.decided, self.num_players)

    @property
    def asking(self) -> int:
        """The player the window asks now (``-1`` once its own queue is empty)."""
        return self.queue[0] if self.queue else -1

    @property
    def turn_may_challenge(self) -> bool:
        """Whether the turn player's action includes "challenge" (models A and C, not at the flush point)."""
        return self.model != "B" and not self.flush_point

    def decide(self, seat: int, challenge: bool) -> None:
        """Record ``seat``'s choice (the window's current seat, or the turn player with its turn action)."""
        if self.queue and self.queue[0] == seat:
            self.queue.pop(0)
        self.decided.append(seat)
        if challenge:
            self.challengers.append(seat)
            if self.model == "B":
                self.queue.clear()  # the first call of a priority poll wins: nobody else is asked

    @property
    def resolved(self) -> bool:
        """Whether the outcome is known without the turn player's action (a call in model B, or the flush
        point once everybody was asked)."""
        if self.queue:
            return False
        return self.flush_point or (self.model == "B" and bool(self.challengers))

    def winner(self) -> int:
        """The winning caller (nearest clockwise from the owner), or ``-1`` if nobody called."""
        return nearest_clockwise(self.owner, self.challengers, self.num_players) if self.challengers else -1

    def public(self) -> dict[str, Any]:
        """What everybody learns when the window closes (all calls are heard)."""
        return {
            "model": self.model,
            "eligible": list(self.eligible),
            "decided": clockwise_after(self.owner, self.decided, self.num_players),
            "challengers": clockwise_after(self.owner, self.challengers, self.num_players),
        }


def _mask(seats: Sequence[int], num_players: int) -> np.ndarray:
    mask = np.zeros(num_players, dtype=np.float32)
    mask[list(seats)] = 1.0
    return mask
