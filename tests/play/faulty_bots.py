"""Opponent policies that fail in each way a table must survive (specs ``tests.play.faulty_bots:Name``)."""

from __future__ import annotations

import threading
from collections.abc import Mapping

import numpy as np

from cardenvs.agents.base import Policy

ENTERED = threading.Event()
"""Set when :class:`Hanging` starts to think."""
RELEASE = threading.Event()
"""Set by the tests when they are done, so that :class:`Hanging`'s threads end."""


class Raising(Policy):
    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        raise RuntimeError("boom at the table")


class Illegal(Policy):
    """Chooses the first action the mask refuses."""

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"] == 0)[0])


class Fractional(Policy):
    """A legal action id plus 0.5: not an action id at all."""

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        return float(np.flatnonzero(observation["action_mask"])[0]) + 0.5  # type: ignore[return-value]


class Hanging(Policy):
    """Thinks until the tests release it."""

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        ENTERED.set()
        RELEASE.wait()
        return int(np.flatnonzero(observation["action_mask"])[0])
