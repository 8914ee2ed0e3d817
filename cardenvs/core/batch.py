"""What a batch of games hands back at each step, and what every batch offers (the Python engines'
:class:`cardenvs.vector.BatchedGames` and the JAX path's ``cardenvs.fast.batched.FastBatchedGames``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass
class BatchStep:
    """State of every game after a reset or a step (buffers reused by the next call)."""

    observations: np.ndarray
    """(num_games, observation size) float32: the observation of the player to act in each game."""
    masks: np.ndarray
    """(num_games, actions) int8: that player's legal actions."""
    players: np.ndarray
    """(num_games,) int: the player to act in each game."""
    rewards: np.ndarray
    """(num_games, num_players) float: rewards earned by the last step (all players, terminal ones included)."""
    terminated: np.ndarray
    """(num_games,) bool: the game ended by the rules at the last step (and was re-dealt)."""
    truncated: np.ndarray
    """(num_games,) bool: the game reached the step cap at the last step (and was re-dealt)."""

    @property
    def done(self) -> np.ndarray:
        return self.terminated | self.truncated


class Batch(Protocol):
    """What either backend offers (:class:`BatchedGames`, ``cardenvs.fast.batched.FastBatchedGames``)."""

    num_games: int
    num_players: int

    def reset(self) -> BatchStep: ...

    def step(self, actions: np.ndarray) -> BatchStep: ...
