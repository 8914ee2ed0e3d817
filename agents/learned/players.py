"""Trained networks as players: the player that plays loaded weights, by what the network scores.

A network of actions plays as :class:`~agents.learned.weights.MlpPolicy`; a Zheng Shang You network of whole moves as
the move-value agent of :mod:`agents.learned.move_values`; a network of move advantages as the improved rule bot of
:mod:`agents.learned.goninkan_advantage` (Goninkan, Yoninkan) or :mod:`agents.learned.zsy_advantage` (Zheng Shang
You). The ``ckpt:`` / ``ckpt-greedy:`` specs and the zoo load their players here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.learned.goninkan_advantage import BASE_KEY, ImprovedKankeiPlayer, is_move_advantage_network
from cardenvs.agents.learned.move_values import is_move_value_network, move_value_policy
from cardenvs.agents.learned.weights import ActorWeights, MlpPolicy, load_weights
from cardenvs.agents.learned.zsy_advantage import ImprovedZsyPlayer
from cardenvs.agents.zoo import PREFIX, checked_zoo_weights
from cardenvs.registry import game_name


def checkpoint_policy(
    path: str, context: PolicyContext, seed: int | None = None, greedy: bool = False, trust: bool | None = None
) -> Policy:
    """The policy of a checkpoint (``.npz``; a ``.zip`` only if trusted, see
    :func:`~agents.learned.weights.load_weights`)."""
    return weights_policy(load_weights(path, context.layout, trust), context, seed, greedy)


def weights_policy(
    weights: ActorWeights, context: PolicyContext, seed: int | None, greedy: bool, root: Path | None = None
) -> Policy:
    """The player of loaded weights: an :class:`MlpPolicy` for an actor, the move-value agent (always greedy) for
    a network that scores whole moves, the improved rule bot (deterministic too) for a network of move advantages,
    whose earlier steps are read from the zoo (``root``: another zoo folder)."""
    if is_move_value_network(weights):
        return move_value_policy(context, weights, seed)
    if is_move_advantage_network(weights) and game_name(context.env_id) == "zheng_shang_you":
        return ImprovedZsyPlayer(context, weights, seed, earlier=earlier_steps(weights.meta, context, root))
    if is_move_advantage_network(weights):
        return ImprovedKankeiPlayer(context, weights, seed, earlier=earlier_steps(weights.meta, context, root))
    return MlpPolicy(context, weights, seed, greedy=greedy)


MAX_STEPS = 8
"""Steps of policy iteration a move-advantage agent may chain (a guard against a zoo agent naming itself)."""


def zoo_policy(argument: str, context: PolicyContext, seed: int | None = None, root: Path | None = None) -> Policy:
    """The policy of ``zoo:<argument>`` for ``context``'s game, after the layout check (``root``: another zoo)."""
    card, weights = checked_zoo_weights(argument, context, root)
    policy = weights_policy(weights, context, seed, card.greedy, root)
    policy.name = card.spec
    return policy


def earlier_steps(meta: Mapping[str, Any], context: PolicyContext, root: Path | None = None) -> list[ActorWeights]:
    """The networks of the steps a move-advantage checkpoint improves on, first step first: its ``meta["base"]``
    names a ``zoo:`` agent, whose own checkpoint may name another (no base: the rule bot). Only shipped agents
    can be named, so a checkpoint from elsewhere cannot make this read any other file."""
    steps: list[ActorWeights] = []
    while BASE_KEY in meta:
        base = meta[BASE_KEY]
        if not isinstance(base, str) or not base.startswith(PREFIX):
            raise ValueError(f"meta[{BASE_KEY!r}] of a move-advantage checkpoint names a zoo: agent, not {base!r}")
        if len(steps) + 1 >= MAX_STEPS:
            raise ValueError(f"a move-advantage agent chains at most {MAX_STEPS} steps; {base} goes past that")
        _, earlier = checked_zoo_weights(base.removeprefix(PREFIX), context, root)
        if not is_move_advantage_network(earlier):
            raise ValueError(f"{base}, the base of this move-advantage checkpoint, is not a move-advantage agent")
        steps.insert(0, earlier)
        meta = earlier.meta
    return steps
