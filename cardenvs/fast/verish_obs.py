"""The observation vector of the JAX Verish' ne verish', group for group as
:func:`cardenvs.verish_ne_verish.encoding.encode` writes it (seat-relative: the observer first, then clockwise)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import rotate
from cardenvs.fast.claims import claim_groups, match_groups

if TYPE_CHECKING:
    from cardenvs.fast.verish_state import State, VerishSetup


def observe(env: VerishSetup, s: State, me: jax.Array) -> jax.Array:
    """``me``'s view of ``s`` as one float32 vector of the reference layout's size."""
    f32 = jnp.float32
    my_turn = s.current_player == me
    picking = jnp.where(~s.leading & (s.building_count == 0), 2, 3)
    building_phase = jnp.where(s.leading & (s.building_rank < 0), 1, picking)
    if env.options.quad_discard_optional:
        building_phase = jnp.where(s.quad_queue.any(), 0, building_phase)
    groups = [
        *claim_groups(s, me, 4 * s.discarded),
        s.discarded,
        rotate(s.out, me),
        jax.nn.one_hot(jnp.where(my_turn, building_phase, -1), 4),
        *match_groups(s, me, env.options.n_games),
    ]
    obs = jnp.concatenate([g.astype(f32) for g in groups])
    assert obs.shape == (env.layout.size,), "the groups must follow the reference layout"
    return obs
