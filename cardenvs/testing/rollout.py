"""Seeded random rollouts of an env, with a hook at every decision (the kit's workhorse)."""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.engine import GameDefinition
from cardenvs.registry import make_raw

EnvSpec = str | GameDefinition[Any]
"""A registered id (``"verish_ne_verish-v0"``), a ``"package.module:NAME"`` path to a :class:`GameDefinition`
(for games outside the registry), or a :class:`GameDefinition` object (not usable across processes)."""


def build_env(spec: EnvSpec, options: Mapping[str, Any]) -> CardGameEnv:
    """The unwrapped env for any :data:`EnvSpec`."""
    if isinstance(spec, GameDefinition):
        return CardGameEnv(spec, **options)
    if ":" in spec:
        module, _, name = spec.partition(":")
        definition = getattr(importlib.import_module(module), name)
        if not isinstance(definition, GameDefinition):
            raise TypeError(f"{spec} is not a GameDefinition")
        return CardGameEnv(definition, **options)
    return make_raw(spec, **options)


def random_legal_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action id."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@dataclass
class Decision:
    """One decision point met during a rollout."""

    env: CardGameEnv
    agent: str
    observation: dict[str, np.ndarray]
    step: int


def decisions(env_id: EnvSpec, options: Mapping[str, Any], seed: int) -> Iterator[Decision]:
    """Play one seeded game with random legal actions, yielding every decision before its action is taken.

    The action is drawn after the consumer has handled the decision, from an RNG of its own, so a consumer
    may inspect (but not step) the env."""
    env = build_env(env_id, options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed + 1_000_003)
    step = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield Decision(env, agent, obs, step)
        env.step(random_legal_action(obs["action_mask"], rng))
        step += 1


def spaced_decisions(env_id: EnvSpec, options: Mapping[str, Any], seed: int, growth: float) -> Iterator[Decision]:
    """The decisions of :func:`decisions` at steps spaced geometrically (0, 1, 2, 3, 4, 6, 8, … by ``growth``):
    a long game costs a check little more than a short one while its whole length is covered."""
    next_step = 0.0
    for d in decisions(env_id, options, seed):
        if d.step >= next_step:
            next_step = max(next_step * growth, d.step + 1.0)
            yield d


def trace_digest(env_id: EnvSpec, options: Mapping[str, Any], seed: int) -> str:
    """SHA-256 of everything a seeded random game produces (observations, masks, rewards, flags, events)."""
    env = build_env(env_id, options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed + 1_000_003)
    h = hashlib.sha256()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        h.update(agent.encode())
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        h.update(np.float64(reward).tobytes())
        h.update(bytes([terminated, truncated]))
        env.step(None if terminated or truncated else random_legal_action(obs["action_mask"], rng))
    h.update(env.events.to_json().encode())
    return h.hexdigest()
