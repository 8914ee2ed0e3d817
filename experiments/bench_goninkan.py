"""Random-legal-play speed of Goninkan and Yoninkan next to PettingZoo's hanabi and leduc, in one run.

python -m experiments.bench_goninkan [--seconds 8]

The loop is the PettingZoo AEC one: ``agent_iter()``, ``last()`` (observation and mask), a uniformly random
legal action, ``step()``. The envs take turns in short bursts so that they share the machine's load; absolute
speeds still depend on it, so compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import cardenvs


@dataclass
class BenchArgs:
    seconds: float = 8.0
    """Time spent on each env, in all."""
    turns: int = 8
    """The envs take turns this many times."""


class RandomPlay:
    """Random legal play on one env, resumable so that several envs can take turns."""

    def __init__(self, make: Callable[[], Any]):
        self.env = make()
        self.rng = np.random.default_rng(0)
        self.episode = 0
        self.steps = 0
        self.elapsed = 0.0

    def run(self, seconds: float) -> None:
        """Play whole episodes for about ``seconds``, counting decisions."""
        env, rng = self.env, self.rng
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.reset(seed=self.episode)
            self.episode += 1
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                self.steps += 1
        self.elapsed += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.steps / self.elapsed


def cases() -> list[tuple[str, Callable[[], Any]]]:
    from pettingzoo.classic import hanabi_v5, leduc_holdem_v4

    return [
        ("pettingzoo hanabi_v5 (raw)", hanabi_v5.raw_env),
        ("pettingzoo leduc_holdem_v4 (raw)", leduc_holdem_v4.raw_env),
        ("goninkan-v0 raw, 5 players", lambda: cardenvs.make_raw("goninkan-v0")),
        ("goninkan-v0 raw, 6 players", lambda: cardenvs.make_raw("goninkan-v0", num_players=6)),
        ("goninkan-v0 raw, match", lambda: cardenvs.make_raw("goninkan-v0", episode="match")),
        ("goninkan-v0 (wrapped)", lambda: cardenvs.make("goninkan-v0")),
        ("yoninkan-v0 raw", lambda: cardenvs.make_raw("yoninkan-v0")),
        ("yoninkan-v0 (wrapped)", lambda: cardenvs.make("yoninkan-v0")),
    ]


def main(args: BenchArgs) -> None:
    players = {name: RandomPlay(make) for name, make in cases()}
    for _ in range(args.turns):  # take turns, so that every env sees the same machine load
        for player in players.values():
            player.run(args.seconds / args.turns)
    hanabi = players["pettingzoo hanabi_v5 (raw)"].rate
    print(f"{'env':36s} {'steps/s':>9s} {'× hanabi':>9s}")
    for name, player in players.items():
        print(f"{name:36s} {player.rate:9.0f} {player.rate / hanabi:9.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=BenchArgs.seconds)
    parser.add_argument("--turns", type=int, default=BenchArgs.turns)
    main(BenchArgs(**vars(parser.parse_args())))
