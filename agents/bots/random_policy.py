"""Uniformly random legal play."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardenvs.agents.base import Policy


class RandomPolicy(Policy):
    """Picks a legal action id uniformly at random (sub-steps of composite moves included)."""

    name = "random"

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            raise ValueError("no legal action in this observation: the agent is not the one to act")
        return int(legal[self.rng.integers(len(legal))])
