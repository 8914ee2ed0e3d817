"""Timed random-legal-play loops: the AEC loop over any env, batched stepping, and the move-size count.

A loop runs for about the given seconds from a seed and returns a :class:`Count`. A *step* is one
``env.step`` call (the final ``None`` steps of finished agents included, as every AEC loop must make them);
a *decision* is a step that acts (dead steps excluded); a *game* is one completed episode.

Seeding: a loop ``"seeded once"`` calls ``reset(seed=…)`` for its first game and plain ``reset()`` after (how
training runs); ``"seeded every reset"`` passes a fresh seed to every ``reset``, which for some peers (RLCard's
games under PettingZoo) costs more than the game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

import cardenvs
from cardenvs.testing.rollout import decisions as rollout_decisions
from cardenvs.vector import BatchedGames, sample_legal


@dataclass(frozen=True)
class Count:
    """What one timed run did."""

    steps: int
    decisions: int
    games: int
    seconds: float


Loop = Callable[[float, int], Count]
"""Runs for about the given seconds with the given seed."""

Seeding = Literal["seeded once", "seeded every reset"]
SEEDINGS: tuple[Seeding, ...] = ("seeded once", "seeded every reset")


def play_for(seconds: float, play_game: Callable[[], tuple[int, int]]) -> Count:
    """Play whole games with ``play_game`` (which returns its steps and decisions) until ``seconds`` have passed."""
    steps = decisions = games = 0
    start = time.perf_counter()
    while True:
        game_steps, game_decisions = play_game()
        steps += game_steps
        decisions += game_decisions
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Count(steps, decisions, games, elapsed)


def aec_loop(make_env: Callable[[], Any], seeding: Seeding = "seeded once") -> Loop:
    """Random legal play over any PettingZoo AEC env with ``action_mask`` observations: ``env.last()`` (which
    builds the observation and the mask), a uniform draw from the mask, ``env.step``."""

    def run(seconds: float, seed: int) -> Count:
        env = make_env()
        rng = np.random.default_rng(seed)
        first = [True]

        def play_game() -> tuple[int, int]:
            steps = dead = 0
            if first[0] or seeding == "seeded every reset":
                env.reset(seed=int(rng.integers(2**31)))
                first[0] = False
            else:
                env.reset()
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    action = None
                    dead += 1
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                env.step(action)
                steps += 1
            return steps, steps - dead

        return play_for(seconds, play_game)

    return run


def engine_loop(env_id: str, options: dict[str, Any]) -> Loop:
    """The rules engine alone, with the AEC loop's work per decision (observation, a copy of the mask, a uniform
    draw from it, the action, the rewards) and none of the adapter's bookkeeping: the most any batching that
    keeps one engine per game can save. Every step is a decision."""
    definition = cardenvs.definition(env_id)

    def run(seconds: float, seed: int) -> Count:
        game_options = cardenvs.make_raw(env_id, **options).options
        rng = np.random.default_rng(seed)

        def play_game() -> tuple[int, int]:
            steps = 0
            game = definition.new_game(game_options, rng)
            while not game.is_terminal:
                game.observation(game.current_player)
                legal = np.flatnonzero(game.legal_mask().copy())
                game.apply(int(legal[rng.integers(len(legal))]))
                game.take_rewards()
                steps += 1
            return steps, steps

        return play_for(seconds, play_game)

    return run


def batched_loop(env_id: str, options: dict[str, Any], num_games: int) -> Loop:
    """:class:`~cardenvs.vector.BatchedGames` with one vectorised legal draw per batch step (every step is a
    decision of some game; finished games are re-dealt in place)."""

    def run(seconds: float, seed: int) -> Count:
        batch = BatchedGames(env_id, num_games=num_games, seed=seed, **options)
        rng = np.random.default_rng(seed)
        step = batch.reset()
        steps = games = 0
        start = time.perf_counter()
        while True:
            for _ in range(8):
                step = batch.step(sample_legal(step.masks, rng))
                games += int(np.count_nonzero(step.terminated | step.truncated))
            steps += 8 * num_games
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return Count(steps, steps, games, elapsed)

    return run


def mid_game_states(env_id: str, options: dict[str, Any], count: int, seed: int, per_game: int = 4) -> list[Any]:
    """``count`` engines stopped at uniformly drawn decisions of random legal games (never terminal), up to
    ``per_game`` from each game: each game is played to its end once, then replayed from the same deal, cloned at
    the drawn decisions (cheaper than cloning at every one)."""
    definition = cardenvs.definition(env_id)
    game_options = cardenvs.make_raw(env_id, **options).options
    rng = np.random.default_rng(seed)
    states: list[Any] = []
    while len(states) < count:
        deal_seed = int(rng.integers(2**63))
        game = definition.new_game(game_options, np.random.default_rng(deal_seed))
        actions = []
        while not game.is_terminal:
            legal = np.flatnonzero(game.legal_mask())
            actions.append(int(legal[rng.integers(len(legal))]))
            game.apply(actions[-1])
        wanted = min(per_game, count - len(states), len(actions))
        stops = set(rng.choice(len(actions), size=wanted, replace=False).tolist())
        game = definition.new_game(game_options, np.random.default_rng(deal_seed))
        for played, action in enumerate(actions):
            if played in stops:
                states.append(game.clone())
            game.apply(action)
    return states


_STATES: dict[tuple[str, str, int], list[Any]] = {}


def search_loop(env_id: str, options: dict[str, Any], operation: Literal["clone", "resample_hidden"]) -> Loop:
    """``clone()`` or ``resample_hidden(acting player)`` called round-robin over 8 mid-game states (drawn once per
    game and seed, before the clock starts, and shared by both operations, which leave them unchanged): what a
    search agent pays per simulation before it plays one. Every call counts as a step and a decision."""

    def run(seconds: float, seed: int) -> Count:
        key = (env_id, repr(sorted(options.items())), seed)
        if key not in _STATES:
            _STATES[key] = mid_game_states(env_id, options, 8, seed)
        states = _STATES[key]
        rng = np.random.default_rng(seed)
        calls = 0
        start = time.perf_counter()
        while True:
            for game in states:
                if operation == "clone":
                    game.clone()
                else:
                    game.resample_hidden(game.current_player, rng)
            calls += len(states)
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return Count(calls, calls, 0, elapsed)

    return run


def decisions_per_move(env_id: str, options: dict[str, Any], games: int = 3, seed: int = 0) -> float:
    """Mean number of decisions that make one complete move (1 unless the game splits moves into sub-steps,
    like Zheng Shang You's shape, top rank and cards): peers count whole moves, so rates are compared per move
    too. Counted over the conformance kit's random rollouts, outside the timed loops."""
    decisions = moves = 0
    for g in range(games):
        for decision in rollout_decisions(env_id, options, seed + g):
            decisions += 1
            game = decision.env.game
            moves += game is None or not game.move_in_progress()  # the decision that starts a move
    return decisions / max(1, moves)
