"""The observation vector of the JAX Verish' ne verish', group for group as
:func:`cardenvs.verish_ne_verish.encoding.encode` writes it (seat-relative: the observer first, then clockwise)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import rotate, take

if TYPE_CHECKING:
    from cardenvs.fast.verish import State, VerishFast


def observe(env: VerishFast, s: State, me: jax.Array) -> jax.Array:
    """``me``'s view of ``s`` as one float32 vector of the reference layout's size."""
    n, r = env.num_players, env.num_ranks
    f32 = jnp.float32
    to_act = s.current_player
    has_pile = s.claim_rank >= 0
    my_turn = to_act == me
    hand = take(s.hands, me)
    mine_in_pile = take(s.pile_by_seat, me)
    building_phase = jnp.where(
        s.leading & (s.building_rank < 0), 1, jnp.where(~s.leading & (s.building_count == 0), 2, 3)
    )
    groups = [
        hand,
        4 - hand - mine_in_pile - 4 * s.discarded,
        jax.nn.one_hot(s.claim_rank, r),  # all zero for -1
        (s.pile_size * has_pile)[None],
        (s.pile_plays * has_pile)[None],
        mine_in_pile * has_pile,
        (s.last_count * has_pile)[None],
        jax.nn.one_hot((s.last_seat - me) % n, n) * has_pile,
        rotate(s.pile_count, me) * has_pile,
        rotate(s.hands.sum(axis=1), me),
        rotate(take(s.known_held, me), me)[1:].ravel(),
        jax.nn.one_hot(jnp.where(to_act >= 0, (to_act - me) % n, -1), n),
        jax.nn.one_hot(jnp.where(my_turn, s.building_rank, -1), r),
        s.building * my_turn,
        s.discarded,
        rotate(s.out, me),
        jax.nn.one_hot(jnp.where(my_turn, building_phase, -1), 4),
        jnp.zeros(n),  # match points: one game per episode
        (~s.terminated)[None],  # share of the match's games left
    ]
    obs = jnp.concatenate([g.astype(f32) for g in groups])
    assert obs.shape == (env.layout.size,), "the groups must follow the reference layout"
    return obs
