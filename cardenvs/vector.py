"""Batched stepping: many games of one id at once, with stacked observations and masks.

For training and tournaments that act for whoever is to move in each game::

    batch = BatchedGames("verish_ne_verish-v0", num_games=256, seed=0, num_players=4)
    step = batch.reset()
    for _ in range(1000):
        actions = sample_legal(step.masks, rng)          # or a policy over step.observations
        step = batch.step(actions)
        # step.rewards[i, p]: reward of player p of game i earned by this step (terminal rewards)
        # step.done[i]: game i ended (terminated or truncated) and was re-dealt in place

The engines are driven directly (no PettingZoo bookkeeping), observations and masks are written into
preallocated buffers (engines' ``observe_into``), and finished games are re-dealt from per-game random streams,
so a batch is reproducible from its seed. The returned arrays are reused by the next call: copy what you keep.

Speed: each game is still a Python rules engine stepped one at a time, so the gain over the AEC loop is only the
bookkeeping the loop skips (about 1.1-1.3x, see docs/benchmarks.md); batches of 16-64 games are fastest, larger
ones slow down as the games' state no longer fits in the CPU caches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.engine import RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.registry import definition


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


def sample_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``, in a single vectorised draw."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


class BatchedGames:
    """``num_games`` independent games of one env id, stepped together."""

    def __init__(self, env_id: str, num_games: int, seed: int = 0, max_steps: int | None = None, **options: Any):
        if num_games < 1:
            raise InvalidOptionError(f"num_games must be at least 1, got {num_games}")
        self.definition = definition(env_id)
        self.options = build_options(self.definition.options_type, options, game=self.definition.env_id)
        self.max_steps = max_steps if max_steps is not None else self.definition.default_max_steps(self.options)
        self.num_games = num_games
        self.num_players = self.definition.num_players(self.options)
        streams = np.random.SeedSequence(seed).spawn(num_games)
        self.rngs = [np.random.default_rng(s) for s in streams]
        self.games: list[RulesEngine[Any]] = [self._new_game(i) for i in range(num_games)]
        probe = self.games[0]
        self.steps_in_game = np.zeros(num_games, dtype=np.int64)
        self.buffers = BatchStep(
            observations=np.zeros((num_games, probe.layout.size), dtype=np.float32),
            masks=np.zeros((num_games, probe.num_actions), dtype=np.int8),
            players=np.zeros(num_games, dtype=np.int64),
            rewards=np.zeros((num_games, self.num_players), dtype=np.float64),
            terminated=np.zeros(num_games, dtype=bool),
            truncated=np.zeros(num_games, dtype=bool),
        )

    def _new_game(self, i: int) -> RulesEngine[Any]:
        game = self.definition.new_game(self.options, self.rngs[i])
        while game.is_terminal:  # a deal that decides the game before any decision is dealt again
            game = self.definition.new_game(self.options, self.rngs[i])
        return game

    def reset(self) -> BatchStep:
        """Deal every game afresh and return the first decision of each."""
        self.games = [self._new_game(i) for i in range(self.num_games)]
        self.steps_in_game[:] = 0
        b = self.buffers
        b.rewards[:] = 0.0
        b.terminated[:] = False
        b.truncated[:] = False
        for i in range(self.num_games):
            self._write(i)
        return b

    def step(self, actions: np.ndarray) -> BatchStep:
        """Apply one action in every game (for its player to act); finished games are re-dealt in place."""
        if len(actions) != self.num_games:
            raise InvalidOptionError(f"need {self.num_games} actions (one per game), got {len(actions)}")
        b = self.buffers
        b.rewards[:] = 0.0
        b.terminated[:] = False
        b.truncated[:] = False
        steps = self.steps_in_game
        steps += 1
        capped = (steps >= self.max_steps).tolist()
        rewards, games = b.rewards, self.games
        for i, action in enumerate(actions.tolist() if isinstance(actions, np.ndarray) else actions):
            game = games[i]
            game.apply(int(action))
            earned = game.take_rewards()
            if earned is not None:
                rewards[i] = earned
            terminal = game.is_terminal
            if terminal or capped[i]:
                b.terminated[i] = terminal
                b.truncated[i] = not terminal
                games[i] = self._new_game(i)
                steps[i] = 0
            self._write(i)
        return b

    def _write(self, i: int) -> None:
        game = self.games[i]
        player = game.current_player
        b = self.buffers
        b.players[i] = player
        game.observe_into(player, b.observations[i])
        b.masks[i] = game.legal_mask()
