"""Deep Monte-Carlo with move features (Zha et al., DouZero, ICML 2021) for Zheng Shang You.

Produced: the Deep Monte-Carlo row of Zheng Shang You (no zoo agent: not above the rule bot yet); reported in
docs/training.md, section "Beyond PPO: Deep Monte-Carlo with move features (Zheng Shang You)".

    python -m cardenvs.experiments.research.dmc --episodes 20000 --out runs/dmc/zsy
    python -m cardenvs.experiments.research.dmc --episodes 200 --set net_arch=[64,64] --out runs/dmc/tiny
    python -m cardenvs.experiments.training_results --game zheng_shang_you-v0 --checkpoint runs/dmc/zsy/final.npz

A network Q(observation, move) scores every legal move of a decision (the move's features come from
:func:`cardenvs.zheng_shang_you.features.move_layout`); the agent plays the best (:mod:`agents.learned.move_values`).
Training plays deals with the learner at two opposite seats and the ``opponent`` at the others, as the duplicate
tournaments of ``experiments.training_results`` seat them (agent minus the bot is the measure, so the learner may
be trained against the bot); it picks an ε-greedy move and, with a share that falls from ``teacher_share`` to 0
over ``teacher_episodes``, the rule bot's move instead, and regresses Q of each chosen move on the return of its
deal (no bootstrapping: the Monte-Carlo target of DouZero). Every ``train_every`` deals, ``updates`` minibatches
are drawn from a buffer of the newest ``buffer`` moves.

Outputs in ``--out``: ``args.json``, ``log.jsonl`` (one line per logged window), ``checkpoints/episode_N.npz``
and ``final.npz``, all pickle-free (:class:`agents.learned.weights.ActorWeights` with ``meta.kind = "move-values"``);
``ckpt:`` and ``zoo:`` specs play them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.learned.move_values import MOVE_VALUES, ZsyMoveValuePolicy
from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import make_policy
from cardenvs.experiments.research.mlp import mlp
from cardenvs.experiments.train import parse_value
from cardenvs.registry import make_raw
from cardenvs.wrappers import observation_scale
from cardenvs.zheng_shang_you.features import move_layout


@dataclass
class DmcArgs:
    """A Deep Monte-Carlo run; ``--set key=value`` overrides any field."""

    game: str = "zheng_shang_you-v0"
    options: dict[str, Any] = field(default_factory=lambda: {"num_players": 4, "episode": "deal"})
    opponent: str = "zheng_shang_you/rule"
    episodes: int = 20_000
    """Deals to play (each gives the learner's two seats their moves)."""
    max_minutes: float = 0.0
    """Stop after this much wall time as well (0: no limit)."""
    seed: int = 0
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    activation: str = "relu"
    learning_rate: float = 3e-4
    batch_size: int = 512
    buffer: int = 100_000
    train_every: int = 16
    updates: int = 4
    epsilon: float = 0.05
    teacher_share: float = 1.0
    """Share of the non-random moves that are the rule bot's at the start; falls linearly to 0."""
    teacher_episodes: int = 5_000
    log_every: int = 500
    checkpoint_every: int = 5_000
    torch_threads: int = 1
    out: str = "runs/dmc/zheng_shang_you"


class MoveValueNet:
    """The trainable Q network (torch) and its export to :class:`ActorWeights`."""

    def __init__(self, inputs: int, args: DmcArgs, obs_scale: np.ndarray, meta: dict[str, Any]):
        import torch

        self.module = mlp(inputs, args.net_arch, args.activation, args.seed)
        self.optimizer = torch.optim.Adam(self.module.parameters(), lr=args.learning_rate)
        self.scale = torch.as_tensor(obs_scale, dtype=torch.float32)
        self.obs_scale = obs_scale
        self.activation = args.activation
        self.meta = meta

    def update(self, inputs: np.ndarray, targets: np.ndarray) -> float:
        """One Adam step on the squared error of Q(inputs) against ``targets``; returns the loss."""
        import torch

        x = torch.as_tensor(inputs.astype(np.float32)) * self.scale
        loss = torch.nn.functional.mse_loss(self.module(x)[:, 0], torch.as_tensor(targets, dtype=torch.float32))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return float(loss.item())

    def weights(self, **meta: Any) -> ActorWeights:
        """The network as pickle-free weights (``meta.kind = "move-values"``)."""
        return ActorWeights.from_torch(self.module, self.activation, self.obs_scale, {**self.meta, **meta})


class Buffer:
    """The newest ``capacity`` (input row, return) pairs, overwritten in a ring."""

    def __init__(self, capacity: int, width: int):
        self.inputs = np.zeros((capacity, width), dtype=np.float16)
        self.targets = np.zeros(capacity, dtype=np.float32)
        self.size = self.next = 0

    def add(self, rows: Sequence[np.ndarray], target: float) -> None:
        for row in rows:
            self.inputs[self.next], self.targets[self.next] = row, target
            self.next = (self.next + 1) % len(self.targets)
            self.size = min(self.size + 1, len(self.targets))

    def sample(self, batch: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        rows = rng.integers(self.size, size=min(batch, self.size))
        return self.inputs[rows], self.targets[rows]


def train(args: DmcArgs) -> Path:
    """Run Deep Monte-Carlo as ``args`` say; returns the final checkpoint (``final.npz``)."""
    import torch

    torch.set_num_threads(args.torch_threads)
    out = Path(args.out)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(asdict(args), indent=2) + "\n")
    env = make_raw(args.game, **args.options)
    context = PolicyContext.from_env(env)
    moves = move_layout().size
    scale = np.concatenate([observation_scale(env.layout), np.ones(moves, dtype=np.float32)])
    meta = {"kind": MOVE_VALUES, "env_id": context.env_id, "options": args.options}
    net = MoveValueNet(env.layout.size + moves, args, scale, meta)
    buffer = Buffer(args.buffer, env.layout.size + moves)
    rng = np.random.default_rng(args.seed)
    learners = [ZsyMoveValuePolicy(context, net.weights(), epsilon=args.epsilon) for _ in range(2)]
    opponents = [make_policy(args.opponent, context, seed=args.seed + i) for i in range(2)]
    log = (out / "log.jsonl").open("a")
    start, window, losses = time.perf_counter(), [], []
    episode = 0
    for episode in range(1, args.episodes + 1):
        weights = net.weights()
        share = args.teacher_share * max(0.0, 1.0 - (episode - 1) / max(args.teacher_episodes, 1))
        for learner in learners:
            learner.weights, learner.teacher_share, learner.chosen = weights, share, []
        returns = play_episode(env, _seating(learners, opponents, episode), seed=int(rng.integers(2**31))).returns
        for learner, seat in zip(learners, _learner_seats(episode), strict=True):
            buffer.add(learner.chosen, returns[seat])
            window.append(returns[seat])
        if episode % args.train_every == 0 and buffer.size >= args.batch_size:
            losses += [net.update(*buffer.sample(args.batch_size, rng)) for _ in range(args.updates)]
        minutes = (time.perf_counter() - start) / 60
        if episode % args.log_every == 0:
            line: dict[str, Any] = {"episode": episode, "minutes": round(minutes, 2), "teacher_share": round(share, 3)}
            line |= {"mean_return": float(np.mean(window)), "loss": float(np.mean(losses)) if losses else None}
            log.write(json.dumps(line) + "\n")
            log.flush()
            print(json.dumps(line), flush=True)
            window, losses = [], []
        if episode % args.checkpoint_every == 0:
            net.weights(episodes=episode).save(out / "checkpoints" / f"episode_{episode}.npz")
        if args.max_minutes and minutes >= args.max_minutes:
            break
    final = net.weights(episodes=episode).save(out / "final.npz")
    print(f"{episode} deals in {(time.perf_counter() - start) / 60:.1f} min; final checkpoint {final}")
    return final


def _learner_seats(episode: int) -> tuple[int, int]:
    """Seats 0 and 2 on odd deals, 1 and 3 on even ones: both seatings of the duplicate tournaments."""
    first = episode % 2
    return first, first + 2


def _seating(learners: list[ZsyMoveValuePolicy], opponents: list[Policy], episode: int) -> list[Policy]:
    a, b = _learner_seats(episode)
    seats: list[Policy] = [opponents[0], opponents[0], opponents[1], opponents[1]]  # the opponents' two seats ...
    seats[a], seats[b] = learners  # ... once the learners take theirs: seat (a + 1) % 4 and (b + 1) % 4
    return seats


def build_args(argv: list[str] | None = None) -> DmcArgs:
    """Defaults < ``--field value`` flags < ``--set key=value``; an unknown key is refused, naming the valid ones."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="any field (TOML value)")
    names = [f.name for f in fields(DmcArgs)]
    for name in ("episodes", "max_minutes", "seed", "out", "opponent"):
        p.add_argument("--" + name.replace("_", "-"), default=None, type=parse_value)
    ns = p.parse_args(argv)
    values = {k: v for k, v in vars(ns).items() if v is not None and k in names}
    for item in ns.set:
        key, _, value = item.partition("=")
        if key not in names:
            raise SystemExit(f"unknown DMC setting {key!r}; valid: {names}")
        values[key] = parse_value(value)
    return DmcArgs(**values)


if __name__ == "__main__":
    train(build_args())
    sys.exit(0)
