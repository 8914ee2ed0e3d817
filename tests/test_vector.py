"""Batched stepping: reproducible, exact masks per game, rewards and re-deals like the single env."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs import InvalidOptionError
from cardenvs.vector import BatchedGames, sample_legal

ID = "verish_ne_verish-v0"


def run(seed: int, steps: int) -> list[np.ndarray]:
    batch = BatchedGames(ID, num_games=8, seed=seed, num_players=3)
    rng = np.random.default_rng(seed)
    step = batch.reset()
    trace = []
    for _ in range(steps):
        actions = sample_legal(step.masks, rng)
        assert step.masks[np.arange(8), actions].all(), "sample_legal drew a masked action"
        step = batch.step(actions)
        trace.append(np.concatenate([step.observations.ravel(), step.rewards.ravel()]))
    return trace


def test_same_seed_same_batch_and_different_seeds_differ() -> None:
    a, b, c = run(1, 50), run(1, 50), run(2, 50)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_finished_games_pay_zero_sum_rewards_and_are_dealt_again() -> None:
    batch = BatchedGames(ID, num_games=16, seed=0, num_players=4)
    rng = np.random.default_rng(0)
    step = batch.reset()
    finished = 0
    for _ in range(3000):
        step = batch.step(sample_legal(step.masks, rng))
        for i in np.flatnonzero(step.terminated):
            finished += 1
            assert abs(step.rewards[i].sum()) < 1e-9 and sorted(step.rewards[i])[0] == -1.0
            assert batch.steps_in_game[i] == 0 and not batch.games[i].is_terminal
        assert not step.rewards[~step.done].any()
        assert (step.masks.sum(axis=1) > 0).all()
    assert finished > 50


def test_step_cap_truncates_and_bad_batches_are_refused() -> None:
    batch = BatchedGames(ID, num_games=2, seed=0, max_steps=3)
    rng = np.random.default_rng(0)
    step = batch.reset()
    for _ in range(3):
        step = batch.step(sample_legal(step.masks, rng))
    assert step.truncated.all() and not step.rewards.any()
    with pytest.raises(InvalidOptionError, match="need 2 actions"):
        batch.step(np.zeros(3, dtype=int))
    with pytest.raises(InvalidOptionError, match="num_games"):
        BatchedGames(ID, num_games=0)


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_batched_rows_are_each_games_own_observation_and_mask(env_id: str) -> None:
    options = cardenvs.definition(env_id).benchmark_options
    batch = BatchedGames(env_id, num_games=3, seed=5, **options)
    rng = np.random.default_rng(5)
    step = batch.reset()
    for _ in range(120):
        for i, game in enumerate(batch.games):
            assert step.players[i] == game.current_player
            assert np.array_equal(step.observations[i], game.observation(game.current_player))
            assert np.array_equal(step.masks[i], game.legal_mask())
        step = batch.step(sample_legal(step.masks, rng))
