"""The observation: layout, bounds, seat-relative order, and the per-observer cache of slowly-changing features."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.goninkan.encoding import encode
from tests.goninkan.deals import DEAL1
from tests.goninkan.helpers import act, goninkan, play


@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        ("goninkan-v0", {}),
        ("goninkan-v0", {"num_players": 6, "episode": "match", "n_rounds": 3}),
        ("yoninkan-v0", {}),
        ("yoninkan-v0", {"yoninkan_double": "one_vs_three", "episode": "match", "n_rounds": 2}),
    ],
)
def test_cached_observation_equals_a_fresh_one(env_id: str, options: dict[str, Any]) -> None:
    env = cardenvs.make_raw(env_id, **options)
    space = env.observation_space(env.possible_agents[0])["observation"]
    rng = np.random.default_rng(0)
    for seed in range(4):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            game = env.game
            assert game is not None
            for p in range(game.num_players):
                cached = game.observation(p)
                assert np.array_equal(cached, encode(game, p, cached=False)), f"stale cache for player {p}"
                assert space.contains(cached)
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_observation_is_seat_relative() -> None:
    g = goninkan(DEAL1, round_number=2)
    act(g, "lead_choice", "いく")
    play(g, "p1:3♥ A♥")
    layout = g.layout
    for me in range(5):
        played = layout.view(g.observation(me), "played").reshape(5, -1)
        # relative seat of player 1 (who played 3♥) and player 2 (A♥), seen from ``me``
        assert played[(1 - me) % 5].sum() == 1 and played[(2 - me) % 5].sum() == 1
        assert layout.view(g.observation(me), "kankei").tolist() == [float((p + me) % 5 in (1, 3)) for p in range(5)]
        assert layout.view(g.observation(me), "dealer")[(0 - me) % 5] == 1
