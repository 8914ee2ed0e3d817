"""Zheng Shang You env speed beside RLCard's Dou Dizhu, measured in the same run.

Both loops play uniformly random legal moves and produce every observation and mask a learner would see:
ours through the PettingZoo AEC loop (``agent_iter`` / ``last`` / ``step``, observation and mask at every
step), RLCard's through its manual ``env.step`` loop (which encodes the next player's state at every step).
Rounds alternate between the two so that load on a shared machine hits both alike; medians are reported.

A cardenvs *step* is one sub-step (a shape, a top rank, one card or a pass), so steps per complete move are
reported too, with complete moves per second and deals per second: RLCard's steps are whole moves.

python -m experiments.bench_zheng_shang_you [--seconds 4] [--rounds 3] [--players 4]
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field

import numpy as np

import cardenvs


@dataclass
class BenchArgs:
    seconds: float = 4.0
    """Wall time of each measuring round."""
    rounds: int = 3
    players: int = 4
    episode: str = "deal"
    seed: int = 0


@dataclass
class Rate:
    steps: int = 0
    moves: int = 0
    episodes: int = 0
    seconds: float = 0.0

    def per_second(self) -> dict[str, float]:
        return {k: getattr(self, k) / self.seconds for k in ("steps", "moves", "episodes")}


@dataclass
class Results:
    ours: list[Rate] = field(default_factory=list)
    rlcard: list[Rate] = field(default_factory=list)


def measure_cardenvs(args: BenchArgs, round_index: int) -> Rate:
    env = cardenvs.make_raw("zheng_shang_you-v0", num_players=args.players, episode=args.episode)
    rng = np.random.default_rng(args.seed + round_index)
    rate = Rate()
    start = time.perf_counter()
    episode = 0
    while time.perf_counter() - start < args.seconds:
        env.reset(seed=args.seed * 100_000 + round_index * 10_000 + episode)
        episode += 1
        game = env.game
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            rate.steps += 1
            game = env.game
            assert game is not None
            rate.moves += not game.move_in_progress()
        rate.episodes += 1
    rate.seconds = time.perf_counter() - start
    return rate


def measure_rlcard(args: BenchArgs, round_index: int) -> Rate | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": args.seed + round_index})
    rng = np.random.default_rng(args.seed + round_index)
    rate = Rate()
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[rng.integers(len(legal))])
            rate.steps += 1
        rate.episodes += 1
    rate.moves = rate.steps
    rate.seconds = time.perf_counter() - start
    return rate


def median(rates: list[Rate], key: str) -> float:
    return statistics.median(r.per_second()[key] for r in rates)


def main(args: BenchArgs) -> Results:
    results = Results()
    for k in range(args.rounds):
        results.ours.append(measure_cardenvs(args, k))
        theirs = measure_rlcard(args, k)
        if theirs is not None:
            results.rlcard.append(theirs)
    ours = results.ours
    steps_per_move = sum(r.steps for r in ours) / max(1, sum(r.moves for r in ours))
    print(f"Zheng Shang You ({args.players} players, episode={args.episode}), random legal play, obs + mask:")
    print(
        f"  cardenvs  {median(ours, 'steps'):9,.0f} steps/s  {median(ours, 'moves'):9,.0f} moves/s  "
        f"{median(ours, 'episodes'):7,.1f} episodes/s  ({steps_per_move:.2f} steps per move)"
    )
    if results.rlcard:
        theirs = results.rlcard
        print(
            f"  RLCard Dou Dizhu {median(theirs, 'steps'):9,.0f} steps/s (= moves/s)  "
            f"{median(theirs, 'episodes'):7,.1f} games/s"
        )
        print(
            f"  ratio steps/s {median(ours, 'steps') / median(theirs, 'steps'):.2f}x, "
            f"moves/s {median(ours, 'moves') / median(theirs, 'moves'):.2f}x"
        )
    else:
        print("  RLCard is not installed: no comparison")
    return results


def parse_args() -> BenchArgs:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = BenchArgs()
    parser.add_argument("--seconds", type=float, default=defaults.seconds)
    parser.add_argument("--rounds", type=int, default=defaults.rounds)
    parser.add_argument("--players", type=int, default=defaults.players)
    parser.add_argument("--episode", choices=("deal", "match"), default=defaults.episode)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    return BenchArgs(**vars(parser.parse_args()))


if __name__ == "__main__":
    main(parse_args())
