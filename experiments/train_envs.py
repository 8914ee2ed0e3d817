"""The training envs of :mod:`experiments.train`: a :class:`~cardenvs.wrappers.SeatEnv` per vector-env slot over
an opponent pool of the run's fixed entries and the learner's frozen snapshots. Everything here pickles, so
subprocess vector envs and the imitation's collecting processes can build their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.learned.weights import ActorWeights, MlpPolicy
from cardenvs.agents.specs import make_policy
from cardenvs.registry import make_raw
from cardenvs.wrappers import OpponentPool, SeatEnv

if TYPE_CHECKING:
    from cardenvs.experiments.train_args import TrainArgs


@dataclass(frozen=True)
class FromSpec:
    """Builds the policy of a spec (``random``, ``kyuuri/rule``, ``mine.py:Bot?p=0.3`` …) for one seat."""

    spec: str
    context: PolicyContext

    def __call__(self, seed: int) -> Policy:
        return make_policy(self.spec, self.context, seed)


@dataclass(frozen=True)
class Snapshot:
    """Builds a frozen copy of the learner from exported weights."""

    weights: ActorWeights
    context: PolicyContext

    def __call__(self, seed: int) -> Policy:
        return MlpPolicy(self.context, self.weights, seed)


class PoolSeatEnv(SeatEnv):
    """A :class:`SeatEnv` over an :class:`OpponentPool` that accepts snapshots (through ``env_method``)."""

    pool: OpponentPool

    def add_snapshot(self, name: str, factory: Snapshot) -> None:
        self.pool.add_snapshot(name, factory)


def make_env(args: TrainArgs, rank: int) -> PoolSeatEnv:
    raw = make_raw(args.game, **args.options)
    context = PolicyContext.from_env(raw)
    fixed = {spec: (FromSpec(spec, context), float(w)) for spec, w in args.opponents.items()}
    pool = OpponentPool(
        fixed, snapshot_share=args.snapshot_share, recent=args.snapshot_recent, seed=args.seed * 10_007 + rank
    )
    env = PoolSeatEnv(raw, pool, seat=args.seat, reward_scale=args.reward_scale)
    env.pool = pool
    return env


class EnvFactory:
    """``make_env(args, rank)`` as a picklable callable, for subprocess vector envs and parallel collection."""

    def __init__(self, args: TrainArgs, rank: int):
        self.args, self.rank = args, rank

    def __call__(self) -> PoolSeatEnv:
        return make_env(self.args, self.rank)
