"""The rule-based bots: legal in every variant, and clearly better than random play."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import make_policy
from cardenvs.agents.play import play_episode
from cardenvs.agents.registry import policy_names
from cardenvs.zheng_shang_you.env import DEFINITION

BOTS = ("zheng_shang_you/rule", "zheng_shang_you/greedy")


def test_the_bots_are_registered() -> None:
    assert set(BOTS) <= set(policy_names("cardenvs/zheng_shang_you-v0"))


@pytest.mark.parametrize("options", [{}, *DEFINITION.variants], ids=str)
def test_bots_play_every_variant_legally(options: dict[str, Any]) -> None:
    env = cardenvs.make("zheng_shang_you-v0", **options)  # raises on any illegal action
    n = len(env.unwrapped.possible_agents)
    policies = [make_policy(BOTS[i % 2] if i < n - 1 else "random", env, seed=i) for i in range(n)]
    result = play_episode(env, policies, seed=11)
    assert not result.truncated and result.decisions > 0


@pytest.mark.parametrize("bot", BOTS)
def test_a_bot_beats_random_players(bot: str) -> None:
    env = cardenvs.make("zheng_shang_you-v0", episode="deal")
    returns = []
    for game in range(60):
        seat = game % 4  # every seat in turn
        policies = [make_policy(bot if i == seat else "random", env, seed=game * 4 + i) for i in range(4)]
        returns.append(play_episode(env, policies, seed=game).returns[seat])
    assert np.mean(returns) > 0.3  # random play averages 0; the bot usually finishes first or second
