"""A stochastic copy of a deterministic bot, for A/A checks: ``epsilon`` of its moves are uniformly random.

Copies of a deterministic rule bot play identical games under common random numbers and, with their own numbers,
still identical ones; an A/A check of the intervals with rule-bot play needs copies that differ by chance. Spec:
``cardenvs.experiments.research.stats_study.noisy:NoisyBot?base='kyuuri/rule'&epsilon=0.1``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.specs import resolve_policy


class NoisyBot(Policy):
    """``base`` (any policy spec), replaced by a uniformly random legal move with chance ``epsilon``."""

    def __init__(self, context: PolicyContext, seed: int | None = None, base: str = "random", epsilon: float = 0.1):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon is a probability, between 0 and 1; got {epsilon}")
        super().__init__(context, seed)
        self.base = resolve_policy(base, context, seed)
        self.epsilon = epsilon
        self.name = f"{self.base.name}+ε{epsilon:g}"

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.base.reset(seed)

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        planned = self.base.act(observation)  # always asked, so a bot that tracks the game stays in step
        if self.rng.random() >= self.epsilon:
            return planned
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self.rng.integers(len(legal))])
