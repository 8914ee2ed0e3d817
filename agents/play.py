"""Playing whole episodes with one policy per seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardenvs.agents.base import Policy, PolicyContext, as_policy
from cardenvs.agents.search.information import InformationSets, NeedsInformationSets
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
    policy_seeds: Sequence[int] | None = None,
) -> EpisodeResult:
    """Reset ``env`` with ``seed`` and play it out; ``policies[i]`` plays ``player_i`` (a :class:`Policy`, or
    anything with ``act(observation)``, or a function, see :class:`~agents.base.ForeignPolicy`).

    Each policy is reset with ``policy_seeds[i]``, by default ``seed * 1000 + i``: the deal and the seat alone
    decide a policy's random numbers (common random numbers across the policies that sit there).
    ``on_decision(agent, action)`` is called after each decision (for printing or logging). A policy with
    ``wants_public_view = True`` is asked ``act(observation, view)`` with its seat's
    :class:`~cardenvs.core.views.PublicView`."""
    env.reset(seed=seed)
    raw = env.unwrapped
    if not all(isinstance(p, Policy) for p in policies):
        context = PolicyContext.from_env(env)
        policies = [as_policy(p, context) for p in policies]
    views = {i: PublicView(raw.events, i) for i, p in enumerate(policies) if wants_public_view(p)}
    seeds = list(policy_seeds) if policy_seeds is not None else [seed * 1_000 + i for i in range(len(policies))]
    if len(seeds) != len(policies):
        raise ValueError(f"policy_seeds has {len(seeds)} seeds for {len(policies)} policies")
    tables = InformationSets(raw)
    for policy, policy_seed in zip(policies, seeds, strict=True):
        policy.reset(seed=policy_seed)
        if isinstance(policy, NeedsInformationSets):  # a search agent: determinizations, never the true deal
            policy.sit(tables)
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
