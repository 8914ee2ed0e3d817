"""Worlds a seat cannot tell from the true one: the determinizations that search and resampling play out.

:func:`sample_world` re-deals every card the seat cannot see (the engine's ``resample_hidden``) and reseeds the
chance still to come (later deals of a match, rules that decide at random): the engine's own generators would
otherwise replay the true future in every sample, which the seat cannot know.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.engine import RulesEngine


def reseed_chance(world: Any, rng: np.random.Generator) -> None:
    """Give ``world`` fresh generators, drawn from ``rng``, for its chance events still to come."""
    for name, value in vars(world).items():
        if isinstance(value, np.random.Generator):
            setattr(world, name, np.random.default_rng(int(rng.integers(2**63))))
        elif name == "_rng" and isinstance(world, RulesEngine) and world._rng_state is not None:
            world.rng = np.random.default_rng(int(rng.integers(2**63)))  # a clone's generator not built yet


def sample_world(game: RulesEngine[Any], seat: int, rng: np.random.Generator) -> RulesEngine[Any]:
    """A copy of ``game`` with every card ``seat`` cannot see re-dealt and its future chance reseeded, both
    drawn with ``rng``; rewards already earned belong to the true game and are dropped from the copy."""
    world = game.resample_hidden(seat, rng)
    reseed_chance(world, rng)
    world.take_rewards()
    return world
