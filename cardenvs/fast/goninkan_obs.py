"""The observation vector of :mod:`cardenvs.fast.goninkan`: the reference encoder's layout
(:mod:`cardenvs.goninkan.encoding`), seat-relative in the current seating (me first, then in play order from my
right, the dealer who sits out included)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import one_hot, take
from cardenvs.goninkan.encoding import DECISIONS, POINT_SCALE

if TYPE_CHECKING:
    from cardenvs.fast.goninkan import GoninkanFast
    from cardenvs.fast.goninkan_state import State

Array = jax.Array


def observe(env: GoninkanFast, s: State, me: Array) -> Array:
    """``me``'s observation of the round ``s`` (Goninkan: the teams are public from the first decision)."""
    n = env.num_players
    order = take(s.order, me)  # everybody in play order from me
    seat_of = order[:, None] == jnp.arange(n)[None, :]  # seat_of[k, p]: player p sits k places after me

    def relative(x: Array) -> Array:
        """Per-player rows ``x`` in play order from me, flattened."""
        hot = seat_of.reshape(seat_of.shape + (1,) * (x.ndim - 1))
        if x.dtype == jnp.bool_:
            return (hot & x[None]).any(axis=1).ravel()
        return jnp.where(hot, x[None], 0).sum(axis=1).ravel()

    def seat_hot(player: Array) -> Array:
        return order == player  # all false for -1

    mine = s.current_player == me
    t = env.targets_of(s.deal)
    decl = s.declared[None, :] & (order[:, None] == s.declarer[None, :])  # (n, 2): じゅうろく, 逆じゅうろく by seat
    zero = jnp.zeros((n, 1), bool)
    groups = [
        take(s.hands, me),
        relative(s.played),
        relative(s.in_trick),
        (take(s.known, me)[None, :] == order[1:, None]).ravel(),
        relative(s.hands.sum(axis=1)),
        relative(s.voids),
        one_hot(jnp.where(s.trick_count > 0, s.led_suit, -1), 4),
        one_hot(jnp.minimum(s.trick_no, 10) - 1, 10),
        seat_hot(s.trick_leader),
        seat_hot(s.trick_winner),
        relative(s.kankei),
        relative(s.active & ~s.kankei),
        jnp.ones(1),
        relative(s.honours),
        s.side_honours,
        one_hot(jnp.where(mine, s.phase, -1), len(DECISIONS)),
        one_hot(jnp.where(mine, s.pending_show, -1), s.hands.shape[1]),
        jnp.zeros(5),  # declaration_pick: Yoninkan's
        one_hot(s.trump, 4),
        one_hot(s.deal1_trump, 4),
        one_hot(s.deal - 1, 3),
        seat_hot(s.dealer),
        jnp.stack([t.target, t.fail, t.skunk]),
        jnp.concatenate([zero, decl[:, :1], zero, decl[:, 1:]], axis=1).ravel(),  # kinds 1 and 3
        relative(s.round_points) / POINT_SCALE,
        relative(s.match_points) / POINT_SCALE,
        jnp.stack([s.rounds_played / env.options.n_rounds, s.round_number == env.options.n_rounds]),
    ]
    obs = jnp.concatenate([g.astype(jnp.float32) for g in groups])
    assert obs.shape == (env.layout.size,), "the groups must follow the reference layout"
    return obs
