"""The kept observations (:mod:`cardenvs.core.observation_cache`) equal a from-scratch encoding at every decision,
for every seat, in copies and in positions read from notation, and a copy never shares its parent's cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from cardenvs.core.aec import CardGameEnv
from cardenvs.registry import make_raw
from cardenvs.testing.rollout import random_legal_action
from cardenvs.verish_ne_verish.encoding import encode_uncached as verish_uncached

Uncached = Callable[[Any, int, np.ndarray | None], np.ndarray]

CASES: list[tuple[str, dict[str, Any], Uncached]] = [
    ("verish_ne_verish-v0", {"num_players": 6}, verish_uncached),
    ("verish_ne_verish-v0", {"num_players": 3, "deck_size": 36, "quad_discard_optional": True}, verish_uncached),
    ("verish_ne_verish-v0", {"num_players": 4, "forbid_discarded_rank": True, "n_games": 2}, verish_uncached),
]


def _game(env: CardGameEnv) -> Any:
    """The env's engine (any game's: the encoders are duck-typed)."""
    assert env.game is not None
    return env.game


def _assert_fresh(game: Any, uncached: Uncached, seats: list[int]) -> None:
    for seat in seats:
        kept = game.observation(seat)
        assert kept.flags.writeable and kept.flags.owndata, "the caller owns the array it is given"
        np.testing.assert_array_equal(kept, uncached(game, seat, None), err_msg=f"seat {seat}")


def _play(env: CardGameEnv, uncached: Uncached, seed: int, limit: int = 400) -> int:
    """Random legal play from the env's state (to its end, or ``limit`` decisions), checking the kept observations
    against fresh ones; returns the decisions made."""
    rng = np.random.default_rng(seed)
    made = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        game = _game(env)
        every_seat = list(range(len(env.possible_agents)))
        seats = every_seat
        if rng.random() < 0.5:
            # some decisions observe only the actor, so that kept vectors of other seats outlive several steps
            seats = [int(rng.choice(every_seat))]
        _assert_fresh(game, uncached, seats)
        if rng.random() < 0.1:
            twin = game.clone()
            _assert_fresh(twin, uncached, seats)
            world = game.resample_hidden(env.possible_agents.index(agent), rng)
            _assert_fresh(world, uncached, every_seat)
        env.step(random_legal_action(obs["action_mask"], rng))
        made += 1
        if made == limit:
            break
    return made


@pytest.mark.parametrize(("env_id", "options", "uncached"), CASES)
def test_kept_observations_equal_fresh_ones(env_id: str, options: dict[str, Any], uncached: Uncached) -> None:
    env = make_raw(env_id, **options)
    for seed in range(3):
        env.reset(seed=seed)
        assert _play(env, uncached, seed) > 0


@pytest.mark.parametrize(("env_id", "options", "uncached"), CASES)
def test_positions_read_from_notation(env_id: str, options: dict[str, Any], uncached: Uncached) -> None:
    env = make_raw(env_id, **options)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(40):  # part-way into the game, a play possibly under construction
        obs, _, terminated, _, _ = env.last()
        if terminated:
            break
        env.step(random_legal_action(obs["action_mask"], rng))
    text = env.position()
    before = [_game(env).observation(s) for s in range(len(env.possible_agents))]
    env.reset(options={"position": text})
    after = [_game(env).observation(s) for s in range(len(env.possible_agents))]
    for seat, (a, b) in enumerate(zip(before, after, strict=True)):
        np.testing.assert_array_equal(a, b, err_msg=f"seat {seat}")
    assert _play(env, uncached, 8) > 0


@pytest.mark.parametrize(("env_id", "options", "uncached"), CASES[:1])
def test_a_copy_never_reads_its_parents_cache(env_id: str, options: dict[str, Any], uncached: Uncached) -> None:
    env = make_raw(env_id, **options)
    env.reset(seed=3)
    game = _game(env)
    seats = range(len(env.possible_agents))
    kept = [game.observation(s) for s in seats]  # the parent's cache now holds every seat
    world = game.resample_hidden(0, np.random.default_rng(5))  # the copy's hidden cards change outside apply()
    assert world.observation_cache is not game.observation_cache
    _assert_fresh(world, uncached, list(seats))
    assert any(not np.array_equal(kept[s], world.observation(s)) for s in seats[1:]), "the re-deal changed nothing"
    for s in seats:
        np.testing.assert_array_equal(game.observation(s), kept[s])
