"""The coverage study's stochastic rule bot: copies must differ by chance, and only by ε of their moves."""

from __future__ import annotations

import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.specs import resolve_policy
from cardenvs.experiments.research.stats_study.noisy import NoisyBot


def _moves(policy_seed: int, epsilon: float, steps: int = 60) -> list[tuple[int, int]]:
    """(planned by the rule bot, played) over the first decisions of a fixed Kyuuri deal, the noisy bot in every
    seat."""
    env = cardenvs.make("kyuuri-v0", num_players=3)
    env.reset(seed=11)
    context = PolicyContext.from_env(env)
    noisy = NoisyBot(context, policy_seed, base="kyuuri/rule", epsilon=epsilon)
    rule = resolve_policy("kyuuri/rule", context, policy_seed)
    found = []
    for _agent in env.agent_iter(max_iter=steps):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        planned, played = rule.act(observation), noisy.act(observation)
        found.append((planned, played))
        env.step(played)
    return found


def test_without_noise_it_is_the_rule_bot_and_with_noise_it_departs_sometimes() -> None:
    assert all(planned == played for planned, played in _moves(0, 0.0))
    departures = [planned != played for planned, played in _moves(0, 0.5)]
    assert 0 < sum(departures) < len(departures)


def test_epsilon_must_be_a_probability() -> None:
    env = cardenvs.make("kyuuri-v0", num_players=3)
    with pytest.raises(ValueError, match="between 0 and 1"):
        NoisyBot(PolicyContext.from_env(env), 0, base="kyuuri/rule", epsilon=1.5)
