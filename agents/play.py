"""Playing whole episodes with one policy per seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.base import Policy, PolicyContext, as_policy
from cardenvs.core.views import PublicView, policy_action, wants_public_view


@dataclass
class EpisodeResult:
    """Returns per seat, the number of decisions, and whether the step cap cut the game."""

    returns: list[float]
    decisions: int
    truncated: bool
    events: list[dict[str, Any]]


def play_episode(
    env: Any,
    policies: Sequence[Policy | Any],
    seed: int,
    on_decision: Callable[[str, int], None] | None = None,
) -> EpisodeResult:
    """Reset ``env`` with ``seed`` and play it out; ``policies[i]`` plays ``player_i`` (a :class:`Policy`, or
    anything with ``act(observation)``, or a function, see :class:`~agents.base.ForeignPolicy`).

    ``on_decision(agent, action)`` is called after each decision (for printing or logging). A policy with
    ``wants_public_view = True`` is asked ``act(observation, view)`` with its seat's
    :class:`~cardenvs.core.views.PublicView`."""
    env.reset(seed=seed)
    raw = env.unwrapped
    if not all(isinstance(p, Policy) for p in policies):
        context = PolicyContext.from_env(env)
        policies = [as_policy(p, context) for p in policies]
    views = {i: PublicView(raw.events, i) for i, p in enumerate(policies) if wants_public_view(p)}
    for i, policy in enumerate(policies):
        policy.reset(seed=seed * 1_000 + i)
    returns = dict.fromkeys(raw.possible_agents, 0.0)
    decisions = 0
    truncated = False
    for agent in env.agent_iter():
        obs, reward, terminated, trunc, _ = env.last()
        returns[agent] += reward
        if terminated or trunc:
            truncated = truncated or trunc
            env.step(None)
            continue
        player = raw.player_index(agent)
        action = policy_action(policies[player], obs, views.get(player))
        env.step(action)
        decisions += 1
        if on_decision is not None:
            on_decision(agent, action)
    return EpisodeResult([returns[a] for a in raw.possible_agents], decisions, truncated, raw.events.events)
