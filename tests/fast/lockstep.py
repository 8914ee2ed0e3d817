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
