"""Playing an episode out with bots at every seat, for the rollouts of :mod:`experiments.research.rollout_improvement`
and :mod:`experiments.research.move_rollouts`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardenvs.agents.base import Policy
from cardenvs.core.engine import RulesEngine

ROLLOUT_CAP = 10_000
"""A rollout longer than this many decisions is an error (the rules end every Goninkan round and Zheng Shang You deal
far sooner; the engines have no turn limit of their own, the env's truncation lives in its AEC wrapper)."""


def seated(movers: Sequence[Policy], others: Sequence[Policy], seat: int) -> list[Policy]:
    """The players of a rollout from ``seat``'s decision: ``seat`` plays on as ``movers[seat]``, every other seat as
    ``others``'s."""
    return [movers[s] if s == seat else others[s] for s in range(len(others))]


def play_out(world: RulesEngine[Any], bots: Sequence[Policy]) -> np.ndarray:
    """Every seat's rewards from now to the end of the episode, the bots playing every seat (``world`` is used up)."""
    returns = np.zeros(world.num_players)
    for _ in range(ROLLOUT_CAP):
        if world.is_terminal:
            return returns
        seat = world.current_player
        world.apply(bots[seat].act({"observation": world.observation(seat), "action_mask": world.legal_mask()}))
        paid = world.take_rewards()
        if paid is not None:
            returns += np.asarray(paid, dtype=float)
    raise RuntimeError(f"a rollout did not end within {ROLLOUT_CAP} decisions")
