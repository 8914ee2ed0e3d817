"""The observation vector of the JAX Yukushi, group for group as :func:`cardenvs.yukushi.encoding.encode` writes it
(seat-relative: the observer first, then clockwise), for one game per episode with public counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import rotate, take
from cardenvs.fast.claims import claim_groups

if TYPE_CHECKING:
    from cardenvs.fast.yukushi import State, YukushiFast

DECLARE_PHASE, WINDOW_PHASE, TURN_PHASE, PICKING_PHASE = 0, 2, 3, 4
"""Indices into ``cardenvs.yukushi.encoding.PHASES`` (``declare_count`` is never a phase here)."""


def observe(env: YukushiFast, s: State, me: jax.Array) -> jax.Array:
    """``me``'s view of ``s`` as one float32 vector of the reference layout's size."""
    n = env.num_players
    decider = s.current_player
    has_pile = s.claim_rank >= 0
    answering = s.window_open & s.queue.any()
    phase = jnp.where(
        answering,
        WINDOW_PHASE,
        jnp.where(
            s.leading & (s.building_rank < 0),
            DECLARE_PHASE,
            jnp.where(~s.leading & (s.building_count == 0), TURN_PHASE, PICKING_PHASE),
        ),
    )
    mine = take(s.flushed, me).sum()
    declined = rotate(s.decided, me) * s.window_open if env.options.challenge_model == "B" else jnp.zeros(n)
    groups = [
        *claim_groups(s, me, take(s.flushed, me)),
        (s.last_count * has_pile)[None],  # declared count: the cards placed, counts being public
        (s.pile_size * has_pile)[None],  # declared on the pile, likewise
        jnp.zeros(env.max_play),  # building_count: only with allow_count_mismatch
        jax.nn.one_hot(jnp.where(decider >= 0, (s.turn - me) % n, -1), n),
        s.passes[None],
        rotate(s.eligible, me) * s.window_open,
        declined,
        (s.flushed.sum() - mine)[None],
        mine[None],
        rotate(s.out, me),
        jax.nn.one_hot(jnp.where(decider == me, phase, -1), 5),
        jnp.zeros(n),  # match points: one game per episode
        (~s.terminated)[None],  # share of the match's games left
    ]
    obs = jnp.concatenate([g.astype(jnp.float32) for g in groups])
    assert obs.shape == (env.layout.size,), "the groups must follow the reference layout"
    return obs
