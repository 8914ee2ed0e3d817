"""A batch of JAX games behind :class:`cardenvs.vector.BatchedGames`'s interface: ``reset()`` and ``step(actions)``
return a :class:`~cardenvs.vector.BatchStep` of NumPy arrays, and finished games are re-dealt in place.

This is what ``cardenvs.vector`` can hand out when a game has a fast path (``docs/fast.md``); it is built here so
that the vector module needs no JAX."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.core.batch import BatchStep
from cardenvs.core.errors import InvalidOptionError
from cardenvs.fast.arrays import GameState
from cardenvs.games import definition

Dealt = TypeVar("Dealt", covariant=True)


class FastGame(Protocol[Dealt]):
    """What re-dealing needs of a fast game (``VerishFast``, ``KyuuriFast``, ``YukushiFast``): a random deal from a
    key."""

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
    """``num_games`` JAX games of ``game`` (an env id whose definition names a ``fast`` class) stepped together,
    options as its fast class takes them (``max_steps`` included)."""

    def __init__(
        self,
        num_games: int,
        seed: int = 0,
        compiler_options: dict[str, Any] | None = None,
        *,
        game: str = "verish_ne_verish-v0",
        **options: Any,
    ):
        """``compiler_options``: XLA's, for the two programs compiled here (tests turn the optimiser off)."""
        if num_games < 1:
            raise InvalidOptionError(f"num_games must be at least 1, got {num_games}")
        manifest = definition(game)
        if not manifest.fast:
            raise InvalidOptionError(f"{manifest.env_id} has no JAX fast path; its definition names no fast class")
        self.env = manifest.part("fast")(**options)
        self.num_games = num_games
        self.num_players = self.env.num_players
        pool = max(1, num_games // 16)
        env = self.env

        def step(state: Any, actions: jax.Array, key: jax.Array) -> tuple[Any, jax.Array, Outputs]:
            # The key is split and the outputs gathered inside the program: every dispatch from Python costs more
            # than a small batch's step (docs/fast.md, "Backends").
            key, deal = jax.random.split(key)
            after = jax.vmap(env.step)(state, actions)
            state = redeal_finished(env, after, deal, pool)
            return state, key, _outputs(state, after.rewards, after.terminated, after.truncated)

        self._key = jax.random.PRNGKey(seed)
        keys = jax.random.split(self._key, num_games)
        self._init = jax.jit(jax.vmap(env.init)).lower(keys).compile(compiler_options)
        self.state = self.reset_state()
        actions = jnp.zeros(num_games, jnp.int32)
        self._step = jax.jit(step).lower(self.state, actions, self._key).compile(compiler_options)

    def reset_state(self) -> Any:
        self._key, deal = jax.random.split(self._key)
        return self._init(jax.random.split(deal, self.num_games))

    def reset(self) -> BatchStep:
        """Deal every game afresh and return the first decision of each."""
        self.state = self.reset_state()
        s = self.state
        return _batch(jax.device_get(_outputs(s, jnp.zeros_like(s.rewards), s.terminated, s.truncated)))

    def step(self, actions: np.ndarray) -> BatchStep:
        """Apply one action in every game (for its player to act); finished games are re-dealt in place."""
        if len(actions) != self.num_games:
            raise InvalidOptionError(f"need {self.num_games} actions (one per game), got {len(actions)}")
        self.state, self._key, outputs = self._step(self.state, np.asarray(actions, np.int32), self._key)
        return _batch(jax.device_get(outputs))


Outputs = tuple[jax.Array, jax.Array, jax.Array, jax.Array, jax.Array, jax.Array]


def _outputs(state: Any, rewards: jax.Array, terminated: jax.Array, truncated: jax.Array) -> Outputs:
    """What a :class:`BatchStep` holds, as arrays fetched in one transfer."""
    return state.observation, state.legal_action_mask, state.current_player, rewards, terminated, truncated


def _batch(outputs: tuple[np.ndarray, ...]) -> BatchStep:
    observations, masks, players, rewards, terminated, truncated = outputs
    return BatchStep(
        observations=observations,
        masks=masks.astype(np.int8),
        players=players.astype(np.int64),
        rewards=rewards.astype(np.float64),
        terminated=terminated,
        truncated=truncated,
    )
