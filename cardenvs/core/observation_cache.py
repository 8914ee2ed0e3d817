"""Observations kept between steps: each seat's vector of the *slow* groups, the ones that change only when a
counter the encoder names moves on.

Most decisions change little of what a seat sees. In Verish' ne verish' a composite move takes several decisions of one
player (declare, pick, pick, done) and only its last one logs an event: the steps between change nothing but the
play under construction. An encoder split in two, the slow groups and the *fast* ones (everything else), writes the
slow part once per seat and counter value and writes the fast part into a copy at every call. Each group is still
written by one function: the from-scratch encoding is the same two calls without the cache
(:func:`encode_from_scratch`), which the tests compare with the cached one at every decision.

The counter (the event log's length in Verish' ne verish') must move on whenever ``apply`` could change a slow group.
A copy of an engine starts with an empty cache (:meth:`ObservationCache.clone`, ``copy.deepcopy``): a copy whose
state is changed outside ``apply`` (a re-deal of hidden cards) must never read its parent's vectors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Writer = Callable[[Any, int, np.ndarray], None]
"""``write(engine, seat, obs)``: writes some groups of ``seat``'s observation into ``obs`` (zero there before)."""


class ObservationCache:
    """Each seat's slow observation groups, valid while the counter stays what it was when they were written."""

    __slots__ = ("_key", "_vectors")

    def __init__(self) -> None:
        self._key = -1
        self._vectors: dict[int, np.ndarray] = {}

    def clone(self) -> ObservationCache:
        """An empty cache: a copy of an engine never shares its parent's vectors."""
        return ObservationCache()

    def __deepcopy__(self, memo: dict[int, Any]) -> ObservationCache:
        return ObservationCache()

    def slow_part(self, engine: Any, seat: int, key: int, size: int, write_slow: Writer) -> np.ndarray:
        """``seat``'s slow groups at counter value ``key`` (read-only: callers copy it), written by ``write_slow``
        when not kept."""
        if key != self._key:
            self._key = key
            self._vectors = {}
        vector = self._vectors.get(seat)
        if vector is None:
            vector = np.zeros(size, dtype=np.float32)
            write_slow(engine, seat, vector)
            vector.flags.writeable = False
            self._vectors[seat] = vector
        return vector


def encode_cached(
    engine: Any, seat: int, out: np.ndarray | None, key: int, write_slow: Writer, write_fast: Writer
) -> np.ndarray:
    """``seat``'s observation (into ``out`` when given): the slow groups kept for counter value ``key``, then the
    fast ones written anew."""
    cache = engine.__dict__.get("observation_cache")
    if cache is None:
        cache = engine.observation_cache = ObservationCache()
    slow = cache.slow_part(engine, seat, key, engine.layout.size, write_slow)
    if out is None:
        obs = slow.copy()
    else:
        out[:] = slow
        obs = out
    write_fast(engine, seat, obs)
    return obs


def encode_from_scratch(
    engine: Any, seat: int, out: np.ndarray | None, write_slow: Writer, write_fast: Writer
) -> np.ndarray:
    """The same observation as :func:`encode_cached`, every group written now (the reference the tests use)."""
    obs = np.zeros(engine.layout.size, dtype=np.float32) if out is None else out
    if out is not None:
        out.fill(0.0)
    write_slow(engine, seat, obs)
    write_fast(engine, seat, obs)
    return obs
