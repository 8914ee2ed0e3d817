"""A batch of JAX games behind :class:`cardenvs.vector.BatchedGames`'s interface: ``reset()`` and ``step(actions)``
return a :class:`~cardenvs.vector.BatchStep` of NumPy arrays, and finished games are re-dealt in place.

This is what ``cardenvs.vector`` can hand out when a game has a fast path (``docs/fast.md``); it is built here so
that the vector module needs no JAX."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.core.errors import InvalidOptionError
from cardenvs.fast.arrays import GameState
from cardenvs.fast.verish import State, VerishFast
from cardenvs.vector import BatchStep

Dealt = TypeVar("Dealt", covariant=True)


class FastGame(Protocol[Dealt]):
    """What re-dealing needs of a fast game (``VerishFast``, ``KyuuriFast``): a random deal from a key."""

    def init(self, key: jax.Array) -> Dealt: ...


def redeal_finished(env: FastGame[GameState], state: GameState, key: jax.Array, pool: int) -> GameState:
    """Put fresh deals in place of the finished games, ``pool`` deals at a time until none is left finished.

    Dealing is the costly part (a shuffle per game), and only a few games end at any step: a pool of a fraction
    of the batch, repeated in the rare step where more games end, re-deals them all for a fraction of the cost."""

    def finished(carry: tuple[GameState, jax.Array]) -> jax.Array:
        return (carry[0].terminated | carry[0].truncated).any()

    def deal(carry: tuple[GameState, jax.Array]) -> tuple[GameState, jax.Array]:
        state, key = carry
        key, now = jax.random.split(key)
        fresh = jax.vmap(env.init)(jax.random.split(now, pool))
        done = state.terminated | state.truncated
        slot = jnp.cumsum(done) - 1  # the k-th finished game takes the k-th fresh deal
        refill = done & (slot < pool)
        taken = jnp.clip(slot, 0, pool - 1)
        state = jax.tree.map(
            lambda old, new: jnp.where(refill.reshape((-1,) + (1,) * (old.ndim - 1)), new[taken], old), state, fresh
        )
        return state, key

    return jax.lax.while_loop(finished, deal, (state, key))[0]


class FastBatchedGames:
    """``num_games`` JAX Verish' ne verish' games stepped together (options as ``VerishFast`` takes them)."""

    def __init__(self, num_games: int, seed: int = 0, compiler_options: dict[str, Any] | None = None, **options: Any):
        """``compiler_options``: XLA's, for the two programs compiled here (tests turn the optimiser off)."""
        if num_games < 1:
            raise InvalidOptionError(f"num_games must be at least 1, got {num_games}")
        self.env = VerishFast(**options)
        self.num_games = num_games
        self.num_players = self.env.num_players
        pool = max(1, num_games // 16)
        env = self.env

        def step(state: State, actions: jax.Array, key: jax.Array) -> tuple[State, State]:
            after = jax.vmap(env.step)(state, actions)
            return redeal_finished(env, after, key, pool), after

        self._key = jax.random.PRNGKey(seed)
        keys = jax.random.split(self._key, num_games)
        self._init = jax.jit(jax.vmap(env.init)).lower(keys).compile(compiler_options)
        self.state = self.reset_state()
        actions = jnp.zeros(num_games, jnp.int32)
        self._step = jax.jit(step).lower(self.state, actions, self._key).compile(compiler_options)

    def reset_state(self) -> State:
        self._key, deal = jax.random.split(self._key)
        return self._init(jax.random.split(deal, self.num_games))

    def reset(self) -> BatchStep:
        """Deal every game afresh and return the first decision of each."""
        self.state = self.reset_state()
        zeros = np.zeros(self.num_games, dtype=bool)
        return self._batch(self.state, np.zeros((self.num_games, self.num_players)), zeros, zeros)

    def step(self, actions: np.ndarray) -> BatchStep:
        """Apply one action in every game (for its player to act); finished games are re-dealt in place."""
        if len(actions) != self.num_games:
            raise InvalidOptionError(f"need {self.num_games} actions (one per game), got {len(actions)}")
        self._key, key = jax.random.split(self._key)
        self.state, after = self._step(self.state, jnp.asarray(actions, jnp.int32), key)
        rewards = np.asarray(after.rewards, dtype=np.float64)
        return self._batch(self.state, rewards, np.asarray(after.terminated), np.asarray(after.truncated))

    def _batch(self, state: State, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray) -> BatchStep:
        return BatchStep(
            observations=np.asarray(state.observation),
            masks=np.asarray(state.legal_action_mask, dtype=np.int8),
            players=np.asarray(state.current_player, dtype=np.int64),
            rewards=rewards,
            terminated=terminated,
            truncated=truncated,
        )
