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

Speed: each game of a :class:`BatchedGames` is still a Python rules engine stepped one at a time, so the gain over
the AEC loop is only the bookkeeping the loop skips (about 1.1-1.3x, see docs/benchmarks.md). :func:`batched_games`
hands out the JAX fast path instead (the class the game's definition names as ``fast``: the same interface,
observations, masks and rewards) where it is installed, plays the game and its options, and is faster:
``backend="auto"``, see docs/fast.md.
"""

from __future__ import annotations

import importlib.util
from typing import Any, Literal

import numpy as np

from cardenvs.core.batch import Batch, BatchStep
from cardenvs.core.engine import GameDefinition, RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.games import definition, definitions

__all__ = [
    "BACKENDS",
    "JAX_FROM_GAMES",
    "Backend",
    "Batch",
    "BatchStep",
    "BatchedGames",
    "batched_games",
    "fast_game_ids",
    "sample_legal",
]


Backend = Literal["auto", "python", "jax"]
BACKENDS: tuple[Backend, ...] = ("auto", "python", "jax")
JAX_FROM_GAMES = 64
"""``backend="auto"`` takes the JAX path from this many games on: below it the per-call cost of a jitted step loses
to the Python engines (Yukushi, 8 players, per CPU second: 12k against 20k at 16 games, 37k against 19k at 64,
94k against 21k at 256; docs/fast.md, "Backends")."""


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


def batched_games(
    env_id: str, num_games: int, seed: int = 0, max_steps: int | None = None, backend: Backend = "auto", **options: Any
) -> Batch:
    """``num_games`` games of ``env_id`` stepped together, on the Python engines (:class:`BatchedGames`) or the JAX
    fast path (``cardenvs.fast.batched.FastBatchedGames``): the same observations, masks and rewards, the same
    re-dealing of finished games; the random deals differ (each backend has its own generator).

    ``backend="python"`` always takes the engines; ``"jax"`` the fast path, and fails with an error that says why
    where it cannot (JAX not installed, a game or an option it does not play); ``"auto"`` takes the fast path where
    it can and ``num_games`` is at least :data:`JAX_FROM_GAMES`, else the engines, silently. The fast path compiles
    its step first (seconds to a minute on a CPU), which pays off over long runs only."""
    if backend not in BACKENDS:
        raise InvalidOptionError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    game = definition(env_id)
    checked = build_options(game.options_type, options, game=game.env_id)  # bad options fail alike on both
    steps = max_steps if max_steps is not None else game.default_max_steps(checked)
    if backend == "python" or (backend == "auto" and num_games < JAX_FROM_GAMES):
        return BatchedGames(env_id, num_games, seed, steps, **options)
    why_not = _no_fast_path(game)
    if why_not is None:
        from cardenvs.fast.batched import FastBatchedGames

        try:
            return FastBatchedGames(num_games, seed, game=game.env_id, max_steps=steps, **options)
        except InvalidOptionError as refused:  # an option the fast path does not play (its message names it)
            why_not = str(refused)
    if backend == "jax":
        raise InvalidOptionError(f"backend='jax' is not possible for {game.env_id}: {why_not}")
    return BatchedGames(env_id, num_games, seed, steps, **options)


def fast_game_ids() -> tuple[str, ...]:
    """The ids whose definition declares a JAX fast path (``cardenvs.fast``); imports every game, not JAX."""
    return tuple(d.env_id for d in definitions() if d.fast)


def _no_fast_path(game: GameDefinition[Any]) -> str | None:
    """Why ``game`` has no JAX fast path here, or ``None`` if it has one."""
    if not game.fast:
        return f"it has no fast path (those with one: {', '.join(sorted(fast_game_ids()))})"
    if importlib.util.find_spec("jax") is None:
        return "JAX is not installed (pip install -e '.[fast]')"
    return None
