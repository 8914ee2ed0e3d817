"""The policy protocol.

A policy sees only what its seat may see: the observation dict (``observation`` vector and
``action_mask``) plus the public description of the game in a :class:`PolicyContext` (options, the named
observation layout, the action table). It never touches the engine, so a policy cannot cheat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.layout import ActionTable, ObservationLayout


@dataclass(frozen=True)
class PolicyContext:
    """What a policy may know about the game it plays, whatever its seat."""

    env_id: str
    options: Any
    """The game's validated options dataclass."""
    layout: ObservationLayout
    actions: ActionTable
    num_players: int

    @classmethod
    def from_env(cls, env: Any) -> PolicyContext:
        """The context of a cardenvs env (wrapped or raw)."""
        raw = env.unwrapped
        return cls(raw.definition.env_id, raw.options, raw.layout, raw.action_table, len(raw.possible_agents))


class Policy(ABC):
    """Chooses an action id from an observation dict; one instance may play any seat."""

    name: str = "policy"

    def __init__(self, context: PolicyContext, seed: int | None = None):
        self.context = context
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (and reseed, if ``seed`` is given)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        """A legal action id for this observation."""

    def view(self, observation: Mapping[str, np.ndarray], feature: str) -> np.ndarray:
        """One named feature group of the observation vector."""
        return observation["observation"][self.context.layout[feature]]


class PlanningPolicy(Policy):
    """A policy that chooses a whole composite move at once (``plan`` holds its remaining action ids) and plays
    it out over the sub-steps; a plan the mask no longer allows is dropped."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed)
        self.plan: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.plan = []

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        if self.plan and observation["action_mask"][self.plan[0]]:
            return self.plan.pop(0)
        self.plan = []
        return self.decide(observation)

    @abstractmethod
    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        """A legal action id at a decision the plan does not cover (it may set ``plan`` for what follows)."""
