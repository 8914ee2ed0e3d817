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


def check_cap(state: Any, step: Any, actions: Any, live: list[bool]) -> None:
    """At the step cap: every game still going is truncated, and stepping again changes nothing and pays nothing."""
    assert np.asarray(state.truncated).tolist() == live
    state, _ = step(state, actions)
    assert np.asarray(state.truncated).tolist() == live and not np.asarray(state.rewards).any()


def random_legal(refs: list[RulesEngine[Any]], live: list[bool], rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action of each live reference game (0 for the finished ones)."""
    chosen = np.zeros(len(refs), dtype=np.int32)
    for i, game in enumerate(refs):
        if live[i]:
            chosen[i] = rng.choice(np.flatnonzero(game.legal_mask()))
    return chosen


def apply_all(refs: list[RulesEngine[Any]], live: list[bool], chosen: np.ndarray) -> list[np.ndarray]:
    """Apply ``chosen`` to each live reference game; return every game's rewards of that step."""
    rewards = []
    for i, game in enumerate(refs):
        earned = None
        if live[i]:
            game.apply(int(chosen[i]))
            earned = game.take_rewards()
        rewards.append(np.zeros(game.num_players) if earned is None else np.asarray(earned))
    return rewards
