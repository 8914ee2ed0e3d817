"""Python bots and their array programs on the same observations: the exact distribution of the Python bot's
action at each of its decisions in random games, and what the array program plays there.

The Python bot's random draws are walked exhaustively (:class:`BranchingRng`), each branch weighted by its chance,
and its plan is tracked as a distribution over the plans it may hold given the actions taken so far in the move:
so at every decision, the first of a move or one in the middle of a plan, the chance of each action is known."""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.specs import make_policy
from tests.fast.lockstep import QUICK_COMPILE

UNIFORM_STEPS = 20
"""``random()`` answers the midpoints of 20 equal slices of [0, 1): exact for every chance the bots compare with
(multiples of 0.05)."""

Plan = tuple[int, ...]


class BranchingRng:
    """Stands in for a policy's generator: answers each draw from ``script`` (0 past its end) and records how many
    equally likely answers each draw had, so that every branch of a decision can be walked and weighted."""

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
        return (self._answer(UNIFORM_STEPS) + 0.5) / UNIFORM_STEPS


def fresh_outcomes(policy: Any, observation: dict[str, np.ndarray]) -> dict[tuple[int, Plan], float]:
    """Chance of each (action, plan left) of a fresh decision (no plan held), over the policy's draws."""
    found: dict[tuple[int, Plan], float] = defaultdict(float)
    scripts: list[list[int]] = [[]]
    while scripts:
        script = scripts.pop()
        clone = copy.copy(policy)
        clone.plan = []
        clone.rng = rng = BranchingRng(script)
        action = clone.act(observation)
        found[int(action), tuple(clone.plan)] += float(np.prod([1.0 / w for w in rng.widths]))
        for depth in range(len(script), len(rng.widths)):
            for answer in range(1, rng.widths[depth]):
                scripts.append(script + [0] * (depth - len(script)) + [answer])
    return found


def next_outcomes(
    policy: Any, observation: dict[str, np.ndarray], beliefs: dict[Plan, float]
) -> dict[tuple[int, Plan], float]:
    """Chance of each (action, plan left) given the chance of each plan the policy may hold (a held plan is
    followed while its next action is legal, as :class:`agents.base.PlanningPolicy` does)."""
    found: dict[tuple[int, Plan], float] = defaultdict(float)
    fresh: dict[tuple[int, Plan], float] | None = None
    for plan, weight in beliefs.items():
        if plan and observation["action_mask"][plan[0]]:
            found[plan[0], plan[1:]] += weight
            continue
        fresh = fresh_outcomes(policy, observation) if fresh is None else fresh
        for outcome, chance in fresh.items():
            found[outcome] += weight * chance
    return found


@dataclass
class Decisions:
    """The Python bot's decisions: observation, mask, its action, the chance of each action it could take there,
    and whether its move follows a plan left over from an earlier move (see :func:`collect`)."""

    observations: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    chances: list[dict[int, float]] = field(default_factory=list)
    stale_plan: list[bool] = field(default_factory=list)


def collect(name: str, env_id: str, options: dict[str, Any], games: int, seed: int) -> Decisions:
    """Play ``games`` games of the Python bot ``name`` (a random player in one seat of every other game) and
    record each of the bot's decisions. A seat's run of consecutive decisions is one move.

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
        beliefs: dict[Plan, float] = {}
        stale = False
        last_seat = -1
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.unwrapped.player_index(agent)
            bot = seats[seat]
            action = bot.act(observation) if seat == random_seat else None
            if seat != random_seat:
                if seat != last_seat:  # a new move: the Python bot should hold no plan
                    stale = bool(getattr(bot, "plan", []))
                    beliefs = {(): 1.0}
                outcomes = next_outcomes(bot, observation, beliefs)
                action = int(bot.act(observation))
                chances: dict[int, float] = defaultdict(float)
                for (a, _), chance in outcomes.items():
                    chances[a] += chance
                kept = {plan: chance for (a, plan), chance in outcomes.items() if a == action}
                if not kept:  # only a stale plan leads the Python bot off its own distribution
                    assert stale, f"the Python bot played {action}, which its draws never give ({dict(chances)})"
                    kept = {tuple(bot.plan): 1.0}
                beliefs = {plan: chance / sum(kept.values()) for plan, chance in kept.items()}
                out.observations.append(observation["observation"].astype(np.float32))
                out.masks.append(observation["action_mask"].astype(bool))
                out.actions.append(action)
                out.chances.append(dict(chances))
                out.stale_plan.append(stale)
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
