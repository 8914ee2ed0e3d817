"""The observation vector of the JAX Yukushi, group for group as :func:`cardenvs.yukushi.encoding.encode` writes it
(seat-relative: the observer first, then clockwise)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import rotate, take
from cardenvs.fast.claims import claim_groups, match_groups

if TYPE_CHECKING:
    from cardenvs.fast.yukushi_state import State, YukushiSetup

DECLARE_PHASE, DECLARE_COUNT_PHASE, WINDOW_PHASE, TURN_PHASE, PICKING_PHASE = range(5)
"""Indices into ``cardenvs.yukushi.encoding.PHASES``."""


def observe(env: YukushiSetup, s: State, me: jax.Array) -> jax.Array:
    """``me``'s view of ``s`` as one float32 vector of the reference layout's size."""
    n = env.num_players
    decider = s.current_player
    has_pile = s.claim_rank >= 0
    answering = s.window_open & s.queue.any()
    undeclared = s.building_declared < 0  # (allow_count_mismatch) a lead's count comes after its rank
    counting_lead = s.leading & undeclared & (s.building_rank >= 0) & env.hidden_count
    phase = jnp.where(
        ~s.leading & (s.building_count == 0) & undeclared,
        TURN_PHASE,
        jnp.where(counting_lead, DECLARE_COUNT_PHASE, PICKING_PHASE),
    )
    phase = jnp.where(answering, WINDOW_PHASE, jnp.where(s.leading & (s.building_rank < 0), DECLARE_PHASE, phase))
    mine = take(s.flushed, me).sum()
    declined = rotate(s.decided, me) * s.window_open if env.options.challenge_model == "B" else jnp.zeros(n)
    public = not env.hidden_count
    groups = [
        *claim_groups(s, me, take(s.flushed, me), counts_public=public),
        (s.last_declared * has_pile)[None],
        s.pile_declared[None],
        jax.nn.one_hot(jnp.where(decider == me, s.building_declared - 1, -1), env.max_play),
        jax.nn.one_hot(jnp.where(decider >= 0, (s.turn - me) % n, -1), n),
        s.passes[None],
        rotate(s.eligible, me) * s.window_open,
        declined,
        (s.flushed.sum() - mine)[None] * public,  # the others' flushed cards: their number is hidden with the counts
        mine[None],
        rotate(s.out, me),
        jax.nn.one_hot(jnp.where(decider == me, phase, -1), 5),
        *match_groups(s, me, env.options.n_games),
    ]
    obs = jnp.concatenate([g.astype(jnp.float32) for g in groups])
    assert obs.shape == (env.layout.size,), "the groups must follow the reference layout"
    return obs
