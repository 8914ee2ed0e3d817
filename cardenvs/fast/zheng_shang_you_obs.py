"""The observation vector of Zheng Shang You from the JAX state: the reference encoder's layout
(:func:`cardenvs.zheng_shang_you.encoding.encode`), seat-relative with the observer first."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.fast.arrays import rotate, take
from cardenvs.fast.zheng_shang_you_exchange import givers
from cardenvs.fast.zheng_shang_you_masks import NUM_SHAPES, SHAPES
from cardenvs.zheng_shang_you.actions import NUM_TOPS
from cardenvs.zheng_shang_you.combos import SEQUENCE
from cardenvs.zheng_shang_you.encoding import MAX_DEALS, PHASES
from cardenvs.zheng_shang_you.exchange import STAGES
from cardenvs.zheng_shang_you.ranks import NUM_CARDS, NUM_VALUES
from cardenvs.zheng_shang_you.tables import MAX_TOTAL_RATIO

if TYPE_CHECKING:
    from cardenvs.fast.zheng_shang_you_state import State, ZhengShangYouSetup

Array = jax.Array
F32 = jnp.float32


def observe(env: ZhengShangYouSetup, s: State, me: Array) -> Array:
    """``me``'s observation vector."""
    n, opts = env.num_players, env.options
    seats = (me + jnp.arange(n)) % n  # relative seat k is absolute seat seats[k]

    def relative_hot(seat: Array) -> Array:
        return jax.nn.one_hot(jnp.where(seat >= 0, (seat - me) % n, -1), n)

    unit_totals = s.totals[env.units]
    cap = int(MAX_TOTAL_RATIO * opts.target)
    leading = s.top_shape < 0
    on_table = ~leading
    kind = jnp.asarray(SHAPES)[jnp.maximum(s.build_shape, 0), 0]
    my_turn = s.current_player == me
    exchanging = s.stage >= 0
    building = my_turn & ~exchanging
    started = (leading & (s.build_shape >= 0)) | (s.build_top >= 0) | s.build_picks.any()
    needs_top = (s.build_shape >= 0) & (kind >= SEQUENCE) & (s.build_top < 0)
    phase = jnp.where(
        exchanging, 4 + s.stage, jnp.where(s.build_shape < 0, 0, jnp.where(~started, 1, jnp.where(needs_top, 2, 3)))
    )
    table_seen = (s.table >= 0) & (s.revealed | (givers(s) == me))
    table = jax.nn.one_hot(jnp.where(table_seen, s.table, -1), NUM_CARDS).ravel()
    groups = [
        take(s.hands, me),
        rotate(s.hands.sum(axis=1), me),
        rotate(s.passed, me),
        _fraction(rotate(s.places, me), n),
        relative_hot(s.dealer),
        _fraction(rotate(jnp.minimum(unit_totals, cap), me), opts.target),
        _fraction(rotate(s.prev_places, me), n),
        env.units[seats] == take(env.units, me),
        rotate(s.played, me).ravel(),
        rotate(take(s.known, me), me)[1:].ravel(),
        s.top_cards & on_table,
        jax.nn.one_hot(jnp.where(on_table, s.top_shape, -1), NUM_SHAPES),
        jax.nn.one_hot(jnp.where(on_table, s.top_rank, -1), NUM_VALUES),
        jnp.stack([s.top_wild, s.top_suited]) & on_table,
        relative_hot(jnp.where(on_table, s.top_seat, -1)),
        jnp.minimum(s.deals_played, MAX_DEALS)[None],
        jax.nn.one_hot(jnp.where(my_turn, phase, -1), len(PHASES)),
        jax.nn.one_hot(jnp.where(building & leading & started, s.build_shape, -1), NUM_SHAPES),
        jax.nn.one_hot(jnp.where(building & (kind >= SEQUENCE), s.build_top, -1), NUM_TOPS),
        s.build_picks & building,
        jax.nn.one_hot(s.stage, len(STAGES)),  # -1 (no exchange) is all zero
        table,
    ]
    obs = jnp.concatenate([jnp.asarray(g).astype(F32).ravel() for g in groups])
    assert obs.shape == (env.layout.size,), "the groups must follow the reference layout"
    return obs


def _fraction(numerators: Array, denominator: int) -> Array:
    """``numerators / denominator`` in float32 rounded as NumPy rounds the float64 quotient (the reference's): XLA
    may multiply by the reciprocal instead, one unit in the last place away. A one-hot lookup of the quotients."""
    top = int(MAX_TOTAL_RATIO * denominator) + 1
    quotients = jnp.asarray(np.arange(top + 1) / denominator, F32)
    hot = jnp.minimum(numerators, top)[..., None] == jnp.arange(top + 1)
    return jnp.where(hot, quotients, 0.0).sum(-1)
