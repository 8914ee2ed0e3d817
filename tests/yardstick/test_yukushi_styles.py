"""Yukushi's challenge extremes call every claim they may, or none."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.play import play_episode
from cardenvs.agents.yardstick.yukushi import AlwaysCall, NeverCall


class Counted(Policy):
    """Plays ``inner``; counts the decisions where a call was allowed, and the calls made."""

    def __init__(self, inner: Policy):
        super().__init__(inner.context)
        self.inner, self.allowed, self.calls = inner, 0, 0

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        action = self.inner.act(observation)
        call = self.context.actions["challenge"].offset
        self.allowed += int(observation["action_mask"][call])
        self.calls += int(action == call)
        return action


@pytest.mark.parametrize(("style", "calls_all"), [(AlwaysCall, True), (NeverCall, False)])
def test_the_extremes_call_always_or_never(style: type[Policy], calls_all: bool) -> None:
    env = cardenvs.make("yukushi-v0", num_players=4)
    context = PolicyContext.from_env(env)
    seats = [Counted(style(context, seed)) for seed in range(4)]
    for seed in range(8):
        play_episode(env, seats, seed=seed)
    allowed, calls = sum(s.allowed for s in seats), sum(s.calls for s in seats)
    assert allowed > 30
    assert calls == (allowed if calls_all else 0)
