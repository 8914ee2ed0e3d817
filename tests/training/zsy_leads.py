"""Zheng Shang You deals in which seat 0 plays ``player`` among rule bots, stopping at each of its fresh leads."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from cardenvs.agents.base import Policy
from cardenvs.agents.bots.zheng_shang_you import LEAD, ZsyRuleBot


def seat_zero_leads(
    env: Any, player: ZsyRuleBot, others: Sequence[Policy], deals: range
) -> Iterator[tuple[Mapping[str, np.ndarray], list[int]]]:
    """Plays ``deals`` (their seeds) of ``env``; yields the observation and hand of each lead ``player`` (seat 0)
    starts, before it moves, and then plays every seat."""
    for deal in deals:
        env.reset(seed=deal)
        for agent in env.agent_iter():
            observation, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            seat = env.agents.index(agent)
            if seat == 0 and not player.plan and int(np.argmax(player.view(observation, "phase"))) == LEAD:
                yield observation, [int(p) for p in np.flatnonzero(player.view(observation, "hand"))]
            env.step((player if seat == 0 else others[seat - 1]).act(observation))
