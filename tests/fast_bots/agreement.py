"""Python bots and their array programs on the same observations: what the Python bot could play at each of its
decisions in random games, and what the array program plays there."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.registry import make_policy
from tests.fast.lockstep import QUICK_COMPILE


class BranchingRng:
    """Stands in for a policy's generator: answers each draw from ``script`` (0 past its end) and records how many
    answers each draw had, so that every branch of a decision can be walked."""

    def __init__(self, script: list[int]):
        self.script = script
        self.widths: list[int] = []

    def _answer(self, width: int) -> int:
        answer = self.script[len(self.widths)] if len(self.widths) < len(self.script) else 0
        self.widths.append(width)
        return answer

    def integers(self, high: int) -> int:
        return self._answer(int(high))

    def random(self) -> float:
        return (0.0, 1.0 - 1e-12)[self._answer(2)]  # below and above every chance a bot compares with


def outcomes(policy: Any, observation: dict[str, np.ndarray]) -> set[tuple[int, tuple[int, ...]]]:
    """Every (action, plan left) the policy can reach from this observation, whatever its generator draws."""
    found: set[tuple[int, tuple[int, ...]]] = set()
    scripts: list[list[int]] = [[]]
    while scripts:
        script = scripts.pop()
        clone = copy.copy(policy)
        clone.plan = list(getattr(policy, "plan", []))
        clone.rng = rng = BranchingRng(script)
        action = clone.act(observation)
        found.add((int(action), tuple(clone.plan)))
        for depth in range(len(script), len(rng.widths)):
            for answer in range(1, rng.widths[depth]):
                scripts.append(script + [0] * (depth - len(script)) + [answer])
    return found


@dataclass
class Decisions:
    """The Python bot's decisions: observation, mask and its action; whether it was bound to that action (no
    random draw so far in the move, the seat's run of consecutive decisions); whether the decision starts a move;
    whether its move follows a plan left over from an earlier move (see :func:`collect`); and every action it could
    have taken there."""

    observations: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    bound: list[bool] = field(default_factory=list)
    starts_move: list[bool] = field(default_factory=list)
    stale_plan: list[bool] = field(default_factory=list)
    possible: list[set[int]] = field(default_factory=list)


def collect(name: str, env_id: str, options: dict[str, Any], games: int, seed: int) -> Decisions:
    """Play ``games`` games of the Python bot ``name`` (a random player in one seat of every other game) and
    record each of the bot's decisions.

    A Yukushi turn voided by another player's call leaves the Python bot's plan in place, and the bot follows it
    at its next decision if that action is legal again there; such moves (``stale_plan``) are the Python bot's
    own and the array program, which keeps nothing, does not copy them."""
    env = cardenvs.make(env_id, **options)
    context = PolicyContext.from_env(env)
    n = context.num_players
    out = Decisions()
    for game in range(games):
        env.reset(seed=seed + game)
        random_seat = game % n if game % 2 else -1
        seats = [
            make_policy("random" if s == random_seat else name, context, seed=1000 * (seed + game) + s)
            for s in range(n)
        ]
        move_was_random = move_is_stale = False
        last_seat = -1
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.unwrapped.player_index(agent)
            bot = seats[seat]
            if seat != random_seat:
                plan = getattr(bot, "plan", [])
                follows_plan = bool(plan) and bool(observation["action_mask"][plan[0]])
                starts_move = seat != last_seat
                reachable = outcomes(bot, observation)
                move_was_random = (move_was_random and not starts_move) or len(reachable) > 1
                move_is_stale = (move_is_stale and not starts_move) or (starts_move and follows_plan)
                out.observations.append(observation["observation"].astype(np.float32))
                out.masks.append(observation["action_mask"].astype(bool))
                out.bound.append(not move_was_random)
                out.starts_move.append(starts_move)
                out.stale_plan.append(move_is_stale)
                out.possible.append({a for a, _ in reachable})
            action = bot.act(observation)
            if seat != random_seat:
                out.actions.append(int(action))
            last_seat = seat
            env.step(action)
    return out


def jax_choices(bot: Any, observations: np.ndarray, masks: np.ndarray, draws: int, seed: int = 0) -> np.ndarray:
    """``int[N, draws]``: the array program's action on each observation under ``draws`` different keys."""
    import jax

    chunk = 4096
    rows = len(observations) * draws
    obs = np.repeat(observations, draws, axis=0)
    mask = np.repeat(masks, draws, axis=0)
    padded = -rows % chunk
    obs = np.concatenate([obs, np.repeat(obs[:1], padded, axis=0)])
    mask = np.concatenate([mask, np.repeat(mask[:1], padded, axis=0)])
    key = jax.random.PRNGKey(seed)
    act = jax.jit(bot.act).lower(obs[:chunk], mask[:chunk], key).compile(QUICK_COMPILE)
    parts = []
    for start in range(0, len(obs), chunk):
        key, now = jax.random.split(key)
        parts.append(np.asarray(act(obs[start : start + chunk], mask[start : start + chunk], now)))
    return np.concatenate(parts)[:rows].reshape(-1, draws)
