"""Opponents for :class:`~cardenvs.wrappers.seat_env.SeatEnv`: who plays the seats the learner does not.

An opponent is anything with ``act(observation) -> int`` (the observation dict of the AEC env) and, optionally,
``reset(seed)``; one that sets ``wants_public_view = True`` is asked ``act(observation, view)`` with its seat's
:class:`~cardenvs.core.views.PublicView`. The policies of ``agents`` qualify, and so does :class:`RandomOpponent`
here, so the wrapper needs nothing outside ``cardenvs``. An :class:`OpponentSampler` chooses a policy for every
other seat at each deal; :class:`OpponentPool` mixes fixed policies (random, rule bots) with frozen snapshots of
the learner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Opponent(Protocol):
    """A policy that plays one seat: a legal action id for an observation dict."""

    def act(self, observation: Mapping[str, np.ndarray]) -> int: ...


OpponentFactory = Callable[[int], Opponent]
"""``factory(seed) -> Opponent``: builds a fresh opponent (one instance per seat, since bots keep plans)."""


class RandomOpponent:
    """Uniformly random legal play."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self.rng.integers(len(legal))])


class OpponentSampler(Protocol):
    """Chooses the opponents of one deal."""

    def sample(self, seats: Sequence[int], rng: np.random.Generator) -> dict[int, Opponent]:
        """An opponent for every seat in ``seats``."""
        ...


class FixedOpponents:
    """The same kind of opponent at every seat, or one factory per seat (``{seat: factory}``)."""

    def __init__(self, factory: OpponentFactory | Mapping[int, OpponentFactory] = RandomOpponent, seed: int = 0):
        self.factory = factory
        self.seed = seed
        self._built: dict[int, Opponent] = {}

    def sample(self, seats: Sequence[int], rng: np.random.Generator) -> dict[int, Opponent]:
        for seat in seats:
            if seat not in self._built:
                factory = self.factory[seat] if isinstance(self.factory, Mapping) else self.factory
                self._built[seat] = factory(self.seed + seat)
        return {seat: self._built[seat] for seat in seats}


class OpponentPool:
    """Fixed opponents (weighted) mixed with frozen snapshots of the learner.

    For every opponent seat of a deal, a snapshot is drawn with probability ``snapshot_share`` (once any
    exists; the ``recent`` newest are drawn uniformly), else a fixed entry by weight. Each entry is built once
    per seat and reused across deals (the wrapper resets it at every deal)."""

    def __init__(
        self,
        fixed: Mapping[str, tuple[OpponentFactory, float]] | None = None,
        *,
        snapshot_share: float = 0.5,
        recent: int = 10,
        seed: int = 0,
    ):
        self.fixed = dict(fixed) if fixed else {"random": (RandomOpponent, 1.0)}
        if not 0.0 <= snapshot_share <= 1.0:
            raise ValueError(f"snapshot_share must lie in [0, 1], got {snapshot_share}")
        if recent < 1:
            raise ValueError(f"recent must be at least 1, got {recent}")
        weights = np.array([w for _, w in self.fixed.values()], dtype=float)
        if (weights < 0).any() or weights.sum() <= 0:
            raise ValueError(f"fixed opponent weights must be non-negative with a positive sum, got {weights}")
        self._names = list(self.fixed)
        self._probs = weights / weights.sum()
        self.snapshot_share = snapshot_share
        self.recent = recent
        self.seed = seed
        self.snapshots: list[tuple[str, OpponentFactory]] = []
        self._built: dict[tuple[str, int], Opponent] = {}
        self.last_names: dict[int, str] = {}
        """Name of the entry that played each seat in the latest deal (for logging)."""

    def add_snapshot(self, name: str, factory: OpponentFactory) -> None:
        """Add a frozen learner (``factory(seed)`` builds a player from its weights)."""
        self.snapshots.append((name, factory))
        keep = {n for n, _ in self.snapshots[-self.recent :]}
        self._built = {k: v for k, v in self._built.items() if k[0] in self.fixed or k[0] in keep}

    def _entry(self, rng: np.random.Generator) -> tuple[str, OpponentFactory]:
        if self.snapshots and rng.random() < self.snapshot_share:
            recent = self.snapshots[-self.recent :]
            return recent[int(rng.integers(len(recent)))]
        name = self._names[int(rng.choice(len(self._names), p=self._probs))]
        return name, self.fixed[name][0]

    def sample(self, seats: Sequence[int], rng: np.random.Generator) -> dict[int, Opponent]:
        chosen: dict[int, Opponent] = {}
        for seat in seats:
            name, factory = self._entry(rng)
            key = (name, seat)
            if key not in self._built:
                self._built[key] = factory(self.seed + 1000 * len(self._built) + seat)
            chosen[seat] = self._built[key]
            self.last_names[seat] = name
        return chosen
