"""What the differential tests of every fast game share: quick compiling and the comparison with the reference."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cardenvs.core.engine import RulesEngine

QUICK_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
"""XLA's CPU back end spends most of a test's time optimising code that runs for a second: skip that."""


def compiled(function: Any, *args: Any) -> Any:
    """``function`` jitted and compiled for ``args`` with the optimiser off."""
    import jax

    return jax.jit(function).lower(*args).compile(QUICK_COMPILE)


def with_views(state: Any, observe_all: Any, players: Any) -> tuple[Any, Any]:
    """The batch's state and every seat's observation of it."""
    return state, observe_all(state, players)


def compare(refs: list[RulesEngine[Any]], state: Any, views: Any, rewards: list[np.ndarray]) -> None:
    """Each reference game and its JAX twin agree: the player to act, the end, the mask, every seat's
    observation, the observation of the player to act and the rewards of the last step."""
    current = np.asarray(state.current_player)
    masks = np.asarray(state.legal_action_mask)
    observations = np.asarray(state.observation)
    views = np.asarray(views)
    got_rewards = np.asarray(state.rewards)
    terminated = np.asarray(state.terminated)
    for i, game in enumerate(refs):
        seats = range(game.num_players)
        same = (
            current[i] == game.current_player
            and bool(terminated[i]) == game.is_terminal
            and np.array_equal(masks[i], game.legal_mask().astype(bool))
            and all(np.array_equal(views[i, p], game.observation(p)) for p in seats)
            and np.array_equal(observations[i], game.observation(max(game.current_player, 0)))
            and np.array_equal(got_rewards[i], rewards[i].astype(np.float32))
        )
        if not same:  # name what differs, with the whole reference state
            where = f"game {i}: {game.privileged_state()}"
            assert current[i] == game.current_player, where
            assert bool(terminated[i]) == game.is_terminal, where
            np.testing.assert_array_equal(masks[i], game.legal_mask().astype(bool), err_msg=where)
            for p in seats:
                np.testing.assert_array_equal(views[i, p], game.observation(p), err_msg=f"seat {p}, {where}")
            np.testing.assert_array_equal(observations[i], game.observation(max(game.current_player, 0)), where)
            np.testing.assert_array_equal(got_rewards[i], rewards[i].astype(np.float32), err_msg=where)


def play_in_lockstep(
    refs: list[RulesEngine[Any]],
    state: Any,
    views: Any,
    step: Any,
    choose: Any,
    max_steps: int,
    before_apply: Any = None,
) -> int:
    """Play the reference games and their JAX twins (``state``, every seat's ``views``) side by side until all
    are over or the step cap, comparing them at every decision: ``choose(game)`` picks each live reference game's
    action and ``step(state, actions)`` returns the JAX batch's next state and views; ``before_apply(i, game,
    before, after)`` may prepare reference game ``i`` from the JAX states around the step (Kyuuri's next deal).
    Games still going at the cap must be truncated, and stay so with zero rewards. Returns the decisions
    compared."""
    import jax.numpy as jnp

    n = refs[0].num_players
    rewards = [np.zeros(n) for _ in refs]
    actions = jnp.zeros(len(refs), dtype=jnp.int32)
    compared = 0
    for decision in range(max_steps + 1):
        live = [not g.is_terminal for g in refs]
        if decision == max_steps:
            assert np.asarray(state.truncated).tolist() == live
            state, _ = step(state, actions)
            assert np.asarray(state.truncated).tolist() == live and not np.asarray(state.rewards).any()
            return compared
        compare(refs, state, views, rewards)
        if not any(live):
            return compared
        chosen = np.zeros(len(refs), dtype=np.int32)
        for i, game in enumerate(refs):
            if live[i]:
                chosen[i] = choose(game)
        before = state
        state, views = step(state, jnp.asarray(chosen))
        for i, game in enumerate(refs):
            rewards[i] = np.zeros(n)
            if live[i]:
                if before_apply is not None:
                    before_apply(i, game, before, state)
                game.apply(int(chosen[i]))
                earned = game.take_rewards()
                rewards[i] = np.zeros(n) if earned is None else np.asarray(earned)
                compared += 1
    raise AssertionError("unreachable: the loop returns at the step cap")


def random_legal(rng: np.random.Generator) -> Callable[[RulesEngine[Any]], int]:
    """A ``choose`` for :func:`play_in_lockstep`: a uniform draw from the reference game's legal actions."""

    def choose(game: RulesEngine[Any]) -> int:
        return int(rng.choice(np.flatnonzero(game.legal_mask())))

    return choose


def random_batch(env: Any, num_games: int, seed: int) -> tuple[Any, Any, Any]:
    """The JAX side of a lockstep test of random deals: ``num_games`` games from ``init`` (keys from ``seed``),
    every seat's observation of them, and the batch's step with its views, all compiled quickly. Returns
    ``(state, views, step)``."""
    import jax
    import jax.numpy as jnp

    players = jnp.arange(env.num_players)
    observe_all = jax.vmap(jax.vmap(env.observe, in_axes=(None, 0)), in_axes=(0, None))
    keys = jax.random.split(jax.random.PRNGKey(seed), num_games)
    state, views = compiled(lambda k: with_views(jax.vmap(env.init)(k), observe_all, players), keys)(keys)
    step = compiled(
        lambda s, a: with_views(jax.vmap(env.step)(s, a), observe_all, players), state, jnp.zeros(num_games, jnp.int32)
    )
    return state, views, step
