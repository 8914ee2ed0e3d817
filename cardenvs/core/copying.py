"""Cheap copies for hand-written ``clone()`` methods (search agents clone at every simulation).

Making a NumPy generator costs tens of microseconds (``copy.deepcopy`` pickles it; a fresh bit generator
seeds itself), more than the rest of a clone. :class:`ChanceGenerator` puts that off: a clone keeps only the
state of its original's generator and builds its own the first time it draws, which most clones never do (a
search simulation rarely reaches the next deal).
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

_LIVE, _STATE = "_rng_live", "_rng_state"


def shallow_copy(instance: T) -> T:
    """A new instance sharing ``instance``'s attribute values (``copy.copy`` without its generic protocol, a few
    times faster for a plain object with a ``__dict__``)."""
    twin = object.__new__(type(instance))
    twin.__dict__.update(instance.__dict__)
    return twin


class ChanceGenerator:
    """A class attribute (``rng = ChanceGenerator()``) holding an engine's generator, copied lazily by
    :func:`share_generator`. The live generator lies in the instance's ``_rng_live`` (where
    :func:`cardenvs.core.worlds.reseed_chance` finds and replaces it), a clone's pending state in ``_rng_state``."""

    def __get__(self, engine: Any, owner: type | None = None) -> np.random.Generator:
        if engine is None:
            raise AttributeError("rng is an engine's own generator")
        values = engine.__dict__
        live = values.get(_LIVE)
        if live is None:
            state = values[_STATE]
            bits = getattr(np.random, state["bit_generator"])()
            bits.state = state
            live = values[_LIVE] = np.random.Generator(bits)
        return live

    def __set__(self, engine: Any, rng: np.random.Generator) -> None:
        engine.__dict__[_LIVE] = rng


def share_generator(original: Any, twin: Any) -> None:
    """Give ``twin`` (a fresh copy of ``original``) ``original``'s generator state, to be built when first used:
    the same draws as ``original`` from here, independently of it."""
    live = original.__dict__.get(_LIVE)
    twin.__dict__[_STATE] = original.__dict__[_STATE] if live is None else live.bit_generator.state
    twin.__dict__[_LIVE] = None


def materialise_generator(engine: Any) -> None:
    """Build ``engine``'s pending generator now, for code that looks for generators among its attributes (as
    ``reseed_chance`` does)."""
    engine.__dict__[_LIVE] = engine.rng
