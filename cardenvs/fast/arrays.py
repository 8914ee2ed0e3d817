"""Index helpers written as one-hot selections instead of gathers and scatters.

Under ``vmap`` an index that differs per game (``hands[seat]``) becomes an XLA gather or scatter, which on a
CPU runs element by element; with at most six seats and thirteen ranks a one-hot mask and a sum are
elementwise work that fuses with its neighbours (a batch step of 4,096 games went from 53 to 32–38 ms on one
loaded core, ``docs/fast.md``)."""

from __future__ import annotations

from typing import Any, TypeVar

import jax
import jax.numpy as jnp

Array = jax.Array
GameState = TypeVar("GameState", bound=Any)


def one_hot(index: Array, size: int) -> Array:
    """Boolean ``(size,)`` mask of ``index`` (all false for an index out of range, e.g. -1)."""
    return jnp.arange(size) == index


def _expand(mask: Array, ndim: int) -> Array:
    return mask.reshape(mask.shape + (1,) * (ndim - mask.ndim))


def take(x: Array, index: Array) -> Array:
    """``x[index]`` along the first axis (zeros / false for an index out of range)."""
    hot = _expand(one_hot(index, x.shape[0]), x.ndim)
    if x.dtype == jnp.bool_:
        return (hot & x).any(axis=0)
    return jnp.where(hot, x, 0).sum(axis=0, dtype=x.dtype)


def put(x: Array, index: Array, value: Array) -> Array:
    """``x`` with ``x[index] = value`` along the first axis."""
    return jnp.where(_expand(one_hot(index, x.shape[0]), x.ndim), value, x)


def rotate(x: Array, start: Array) -> Array:
    """``x[(start + k) % n for k in range(n)]`` along the first axis: a seat-relative view from ``start``."""
    n = x.shape[0]
    seats = jnp.arange(n)
    moves = (seats[None, :] - seats[:, None] - start) % n == 0  # moves[k, j]: seat j is k places after start
    if x.dtype == jnp.bool_:
        return (_expand(moves, x.ndim + 1) & x[None]).any(axis=1)
    return jnp.where(_expand(moves, x.ndim + 1), x[None], 0).sum(axis=1, dtype=x.dtype)


def next_seat(seat: Array, active: Array) -> Array:
    """The first seat after ``seat`` in play order that is ``active`` (-1 if none)."""
    n = active.shape[0]
    distance = (jnp.arange(n) - seat - 1) % n
    nearest = jnp.argmin(jnp.where(active, distance, n))
    return jnp.where(active.any(), nearest, -1)


def keep_finished(before: GameState, after: GameState) -> GameState:
    """``after``, except that a game already over ``before`` (terminated or truncated) stays as it was, with zero
    rewards: Pgx's convention for stepping a finished game."""
    finished = before.terminated | before.truncated
    unchanged = before._replace(rewards=jnp.zeros_like(before.rewards))
    return jax.tree.map(lambda old, new: jnp.where(finished, old, new), unchanged, after)


def step_end(over: Array, rewards: Array, step_count: Array, max_steps: int) -> dict[str, Array]:
    """The fields every game's step sets alike: over by the rules, else truncated at the step cap; the rewards
    earned; the decisions taken."""
    return {
        "terminated": over,
        "truncated": ~over & (step_count >= max_steps),
        "rewards": rewards,
        "step_count": step_count,
    }


def shuffled_places(key: Array, size: int) -> Array:
    """Where each of ``size`` items lands in a random order: a uniform permutation, ``(size,)`` ints.

    Each item draws 32 random bits and its place is the number of items that drew less (ties to the lower index:
    a chance of about ``size² / 2³³`` that two draws meet, which then leans to index order). That is ``size²``
    elementwise comparisons that fuse, where ``jax.random.permutation`` sorts: under ``vmap`` on a CPU the sort
    cost Kyuuri's step (which deals in every step) 2.4× its speed (``docs/fast.md``)."""
    draws = jax.random.bits(key, (size,), jnp.uint32)
    index = jnp.arange(size)
    lower = (draws[None, :] < draws[:, None]) | ((draws[None, :] == draws[:, None]) & (index[None, :] < index[:, None]))
    return lower.sum(axis=1)


def choose(condition: Array, if_true: GameState, if_false: GameState) -> GameState:
    """Field by field, ``if_true`` where ``condition`` holds, else ``if_false`` (two outcomes of a branch of the rules,
    both computed: under ``vmap`` there is no cheaper branch)."""
    return jax.tree.map(lambda new, old: jnp.where(condition, new, old), if_true, if_false)


def with_mask_and_view(state: GameState, legal_mask: Any, observe: Any) -> GameState:
    """``state`` with ``legal_mask(state)`` and ``observe(state, player)`` of the player to act filled in (player
    0's view once the game is over), as Pgx's ``State`` carries them."""
    current = jnp.maximum(state.current_player, 0)
    return state._replace(legal_action_mask=legal_mask(state), observation=observe(state, current))
