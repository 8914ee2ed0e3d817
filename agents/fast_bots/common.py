"""What every array-program bot shares: the :class:`FastBot` protocol, named views of a batch of observations and
random choices among allowed entries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import jax
import jax.numpy as jnp

from cardenvs.agents.base import PolicyContext


class FastBot(Protocol):
    """A policy as a pure, jittable function of a batch: ``act(obs f32[B,D], mask bool[B,A], key) -> int32[B]``,
    reading only the observation vector and the mask (what the Python bots read)."""

    name: str

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array: ...


def game_context(env_id: str, options: Mapping[str, Any]) -> PolicyContext:
    """The public description of ``env_id`` with ``options`` (layout, action table): built once from the
    reference env, so the bots read the same offsets as the Python bots."""
    import cardenvs

    return PolicyContext.from_env(cardenvs.make(env_id, **dict(options)))


class Features:
    """Named feature groups of a batch of observation vectors (``view(obs, "hand")`` is ``f32[B, size]``)."""

    def __init__(self, context: PolicyContext):
        self.layout = context.layout

    def __call__(self, obs: jax.Array, name: str) -> jax.Array:
        return obs[:, self.layout[name]]

    def ints(self, obs: jax.Array, name: str) -> jax.Array:
        """The group as int32 counts."""
        return self(obs, name).astype(jnp.int32)

    def index(self, obs: jax.Array, name: str) -> jax.Array:
        """The index of a one-hot group (0 when it is all zero)."""
        return jnp.argmax(self(obs, name), axis=1).astype(jnp.int32)

    def scalar(self, obs: jax.Array, name: str) -> jax.Array:
        """A one-float group as int32."""
        return self(obs, name)[:, 0].astype(jnp.int32)


def uniform_choice(key: jax.Array, allowed: jax.Array) -> jax.Array:
    """Per row, an index drawn uniformly among the ``True`` entries of ``allowed`` (0 for a row with none)."""
    logits = jnp.where(allowed, 0.0, -jnp.inf)
    drawn = jax.random.categorical(key, logits, axis=-1)
    return jnp.where(allowed.any(axis=-1), drawn, 0).astype(jnp.int32)


def first_true(allowed: jax.Array) -> jax.Array:
    """Per row, the lowest index of a ``True`` entry (0 for a row with none)."""
    return jnp.argmax(allowed, axis=-1).astype(jnp.int32)


def take(values: jax.Array, index: jax.Array) -> jax.Array:
    """``values[b, index[b]]`` for every row ``b``."""
    return jnp.take_along_axis(values, index[:, None], axis=1)[:, 0]


def fewest_held(hand: jax.Array, avoid: jax.Array | None = None) -> jax.Array:
    """Per row, the ranks held (other than ``avoid``) of which the hand holds fewest copies: the junk the bluffing
    bots give away."""
    held = hand > 0
    if avoid is not None:
        held &= jnp.arange(hand.shape[1])[None, :] != avoid[:, None]
    fewest = jnp.min(jnp.where(held, hand, jnp.iinfo(jnp.int32).max), axis=1, keepdims=True)
    return held & (hand == fewest)


class RandomFastBot:
    """Uniformly random legal play (``random``), every game."""

    name = "random"

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        return uniform_choice(key, mask)
