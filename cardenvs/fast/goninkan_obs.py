"""The observation vector of :mod:`cardenvs.fast.goninkan`: the reference encoder's layout
(:mod:`cardenvs.goninkan.encoding`), seat-relative in the current seating (me first, then in play order from my
right, the dealer who sits out included)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import one_hot, take
from cardenvs.fast.goninkan_rules import NO_CHOICE
from cardenvs.fast.yoninkan_rules import declaring, team_view
from cardenvs.goninkan.encoding import DECISIONS, POINT_SCALE
from cardenvs.goninkan.table import DECLARE

if TYPE_CHECKING:
    from cardenvs.fast.goninkan_setup import KankeiSetup
    from cardenvs.fast.goninkan_state import State

Array = jax.Array


def observe(env: KankeiSetup, s: State, me: Array) -> Array:
    """``me``'s observation of the episode ``s``."""
    n, d = s.known.shape
    hands = s.holder[None, :] == jnp.arange(n)[:, None]
    kankei_view, mukan_view, knows_all = team_view(env, s, me)
    order = take(s.order, me)  # everybody in play order from me
    # every per-player table in one block, its rows put in play order from me by one gather: under vmap a
    # gather of whole rows stays cheap, where a one-hot selection multiplies the work by the player count
    # (175,000 against 132,000 decisions per CPU second in one measurement, docs/fast.md)
    rows = jnp.concatenate(
        [
            s.played_by[None, :] == jnp.arange(n)[:, None],
            s.trick_cards[:, None] == jnp.arange(d),
            hands,
            s.known.astype(jnp.float32),
            s.voids,
            hands.sum(axis=1, keepdims=True),
            kankei_view[:, None],
            mukan_view[:, None],
            s.honours[:, None],
            s.round_points[:, None] / POINT_SCALE,
            s.match_points[:, None] / POINT_SCALE,
        ],
        axis=1,
        dtype=jnp.float32,
    )
    view = jnp.take(rows, order, axis=0)
    played, in_trick, hands, known = (view[:, k * d : (k + 1) * d] for k in range(4))
    rest = view[:, 4 * d :]
    voids, sizes, kankei, mukan, honours, round_points, match_points = (
        rest[:, :4],
        *(rest[:, k] for k in range(4, 10)),
    )

    def seat_hot(player: Array) -> Array:
        return order == player  # all false for -1

    mine = s.current_player == me
    t = env.targets_of(s.deal)
    asked, _ = declaring(env, s)
    groups = [
        hands[0],
        played.ravel(),
        in_trick.ravel(),
        (known[0][None, :] == order[1:, None]).ravel(),
        sizes,
        voids.ravel(),
        one_hot(jnp.where(s.trick_count > 0, s.led_suit, -1), 4),
        one_hot(jnp.minimum(s.trick_no, 10) - 1, 10),
        seat_hot(s.trick_leader),
        seat_hot(s.trick_winner),
        kankei,
        mukan,
        knows_all[None],
        honours,
        s.side_honours * knows_all,
        one_hot(jnp.where(mine, jnp.where(asked, DECLARE, s.phase), -1), len(DECISIONS)),
        one_hot(jnp.where(mine, s.pending_show, -1), d),
        one_hot(jnp.where(mine & (s.decl_choice != NO_CHOICE), s.decl_choice + 1, -1), 5),
        one_hot(s.trump, 4),
        one_hot(s.deal1_trump, 4),
        one_hot(s.deal - 1, 3),
        seat_hot(s.dealer),
        jnp.stack([t.target, t.fail, t.skunk]),
        jnp.take(s.decls, order, axis=0).ravel(),
        round_points,
        match_points,
        jnp.stack([s.rounds_played / env.options.n_rounds, s.round_number == env.options.n_rounds]),
    ]
    obs = jnp.concatenate([g.astype(jnp.float32) for g in groups])
    assert obs.shape == (env.layout.size,), "the groups must follow the reference layout"
    return obs
