"""The Goninkan / Yoninkan rule bot: legal in every variant, and better than random play."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import make_policy
from cardenvs.agents.play import play_episode
from cardenvs.agents.registry import policy_names


@pytest.mark.parametrize(
    ("env_id", "options"),
    [(env_id, v) for env_id in ("goninkan-v1", "yoninkan-v1") for v in cardenvs.definition(env_id).variants],
)
def test_bots_play_every_variant(env_id: str, options: dict[str, Any]) -> None:
    env = cardenvs.make(env_id, **options)
    name = env_id.split("-")[0] + "/rule"
    assert name in policy_names(env_id)
    for seed in range(3):
        bots = [make_policy(name, env, seed=seed) for _ in env.unwrapped.possible_agents]
        result = play_episode(env, bots, seed=seed)
        assert not result.truncated and result.decisions > 0


@pytest.mark.parametrize(("env_id", "options"), [("goninkan-v1", {}), ("yoninkan-v1", {})])
def test_bot_outscores_random_players(env_id: str, options: dict[str, Any]) -> None:
    env = cardenvs.make(env_id, **options)
    n = len(env.unwrapped.possible_agents)
    bot, others = [], []
    for seed in range(150):
        seat = seed % n
        policies = [make_policy(env_id.split("-")[0] + "/rule" if i == seat else "random", env, seed) for i in range(n)]
        returns = play_episode(env, policies, seed=seed).returns
        bot.append(returns[seat])
        others.append(np.mean([r for i, r in enumerate(returns) if i != seat]))
    assert np.mean(bot) > np.mean(others) + 0.2
