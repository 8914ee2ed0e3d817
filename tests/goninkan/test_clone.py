"""Fast clones of Goninkan, Yoninkan and Zheng Shang You: independent of their original and deterministic (a clone
given the same actions has the same future, later deals included), whatever the original does after cloning."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.engine import RulesEngine
from cardenvs.core.worlds import sample_world
from cardenvs.goninkan import table

MATCHES = [
    ("goninkan-v1", {"num_players": 6, "episode": "match", "n_rounds": 2}),
    ("yoninkan-v1", {"episode": "match", "n_rounds": 2}),
    ("zheng_shang_you-v0", {"num_players": 4, "target_points": 10}),
]


def _new_game(env_id: str, options: dict[str, Any], seed: int) -> RulesEngine[Any]:
    game_options = cardenvs.make_raw(env_id, **options).options
    return cardenvs.definition(env_id).new_game(game_options, np.random.default_rng(seed))


def _trajectory(game: RulesEngine[Any], actions: list[int] | None, rng: np.random.Generator) -> tuple[list[int], list]:
    """Plays ``actions`` (random legal ones where ``None``) to the end; every step's views and rewards."""
    played, seen = [], []
    while not game.is_terminal:
        if actions is not None:
            action = actions[len(played)]
        else:
            legal = np.flatnonzero(game.legal_mask())
            action = int(legal[rng.integers(len(legal))])
        game.apply(action)
        played.append(action)
        rewards = game.take_rewards()
        views = [game.observation(p).tobytes() for p in range(game.num_players)]
        seen.append((views, game.legal_mask().tobytes(), None if rewards is None else list(rewards)))
    return played, seen


@pytest.mark.parametrize(("env_id", "options"), MATCHES, ids=[m[0] for m in MATCHES])
def test_a_clone_is_independent_and_has_the_same_future(env_id: str, options: dict[str, Any]) -> None:
    game = _new_game(env_id, options, seed=3)
    rng = np.random.default_rng(4)
    for _ in range(25):  # a few tricks into the first deal
        legal = np.flatnonzero(game.legal_mask())
        game.apply(int(legal[rng.integers(len(legal))]))
    reference = copy.deepcopy(game)
    twin = game.clone()
    grandchild = twin.clone()  # cloned before its generator was ever used
    actions, future = _trajectory(game, None, rng)
    assert len({step[2] is not None for step in future}) == 2  # the future crosses a deal or round that scores
    assert twin.privileged_state() == reference.privileged_state()  # the original's play left the clone alone
    for copy_ in (twin, grandchild, reference):
        assert _trajectory(copy_, actions, rng) == (actions, future)


def test_a_sampled_world_does_not_replay_the_true_future() -> None:
    game = _new_game("goninkan-v1", {"episode": "match", "n_rounds": 2}, seed=5).clone()
    world = sample_world(game, game.current_player, np.random.default_rng(0))
    assert world.rng.bit_generator.state != game.rng.bit_generator.state


def test_goninkan_clone_copies_every_mutable_member() -> None:
    game = _new_game("goninkan-v1", {"num_players": 6}, seed=1)
    handled = {*table._COPIED_ARRAYS, *table._COPIED_LISTS, "_rewards", "hands", "_scripted_deals", "swap_slots"}
    handled |= {"trick", "played", "in_trick", "pair_cache", "events", "_rng", "_rng_state"}
    shared = {"orders", "order_index", "relative"}  # rebuilt whole by _refresh_orders, never changed in place
    mutable = {name for name, value in vars(game).items() if isinstance(value, list | dict | set | np.ndarray)}
    assert mutable - handled - shared == set()
