"""What the differential tests of every fast game share: quick compiling and the comparison with the reference."""

from __future__ import annotations

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
