"""Training throughput of ``experiments.train_fast`` on a GPU, over batch sizes (issue 34, item 3).

    python -m cardenvs.experiments.speed.fast_training_gpu --games zheng_shang_you-v0 --num-games 1024 16384 \\
        --json runs/train_fast_gpu.json
    # one process per game, compiling side by side; the timed iterations take turns (--lock):
    for g in verish_ne_verish-v0 kyuuri-v0; do
        python -m cardenvs.experiments.speed.fast_training_gpu --games $g --lock /tmp/gpu.lock --json $g.json &
    done; wait

For each game and batch size (``num_games``): the game's config (``experiments/train_fast/configs``) with that many
games stepped together and minibatches of a quarter of the rollout (so an iteration makes as many gradient steps
as the config's: 4 minibatches × its epochs, each on 4× … 256× the samples), compiled, one call to warm up, then
iterations timed for at least ``--seconds``. Env steps per second count every game's step, whoever moves (the
bots' and snapshots' turns included), and include the update: it is the whole PPO iteration, rollout, advantages
and 4 epochs of minibatch updates, each iteration waited for. Learner decisions per second are the steps trained on.

With ``--lock FILE`` the timed iterations run under an exclusive lock of that file, so processes that share one
GPU compile side by side (on the host's CPU) but are timed one at a time.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import platform
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cardenvs.experiments.speed.fast_training import compiled_run, fast_env_ids
from cardenvs.registry import game_name
from cardenvs.vector import fast_game_ids

GPU_NUM_GAMES = [2**12, 2**14]
MINIBATCHES_PER_EPOCH = 4


@dataclass
class BatchFigures:
    game: str
    options: dict[str, Any]
    num_games: int
    rollout_steps: int
    minibatch_size: int
    iterations: int
    seconds: float
    env_steps_per_s: float
    learner_decisions_per_s: float
    compile_s: float
    device: str


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` of ``path`` (created if missing) for the block."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def gpu_settings(game: str, num_games: int) -> dict[str, Any]:
    """The game's config at ``num_games`` games, minibatches a quarter of the rollout."""
    from cardenvs.experiments.train_fast.config import default_config

    settings = default_config(game)
    rollout = int(settings.get("rollout_steps", 64))
    return {
        **settings,
        "game": game,
        "num_games": num_games,
        "minibatch_size": num_games * rollout // MINIBATCHES_PER_EPOCH,
    }


def measure(game: str, num_games: int, seconds: float, lock: Path | None) -> BatchFigures:
    """Compile the iteration of ``game`` at ``num_games`` games and time it (under ``lock`` if given)."""
    import jax

    run = compiled_run(gpu_settings(game, num_games))
    args = run.args
    with exclusive(lock) if lock else nullcontext():
        run.step()  # one more untimed call, after any neighbour's timed run
        decisions, iterations, start = 0, 0, time.perf_counter()
        while iterations < 2 or time.perf_counter() - start < seconds:
            decisions += run.step()
            iterations += 1
        elapsed = time.perf_counter() - start
    env_steps = iterations * args.num_games * args.rollout_steps
    device = jax.devices()[0]
    return BatchFigures(
        game, args.options, num_games, args.rollout_steps, args.minibatch_size, iterations, elapsed,
        env_steps / elapsed, decisions / elapsed, run.compile_s, f"{device.platform}: {device.device_kind}",
    )


def table(rows: Sequence[BatchFigures]) -> str:
    lines = [
        "| game (options) | games | minibatch | env steps/s, update included | learner decisions/s | compile s "
        "| device |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {game_name(r.game)} {r.options} | {r.num_games:,} | {r.minibatch_size:,} | {r.env_steps_per_s:,.0f} | "
            f"{r.learner_decisions_per_s:,.0f} | {r.compile_s:.0f} | {r.device} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", nargs="+", default=sorted(fast_game_ids()), help="env ids (default: every fast game)")
    p.add_argument("--num-games", type=int, nargs="+", default=GPU_NUM_GAMES, help="batch sizes (games)")
    p.add_argument("--seconds", type=float, default=3.0, help="timed seconds per batch size (at least 2 iterations)")
    p.add_argument("--lock", type=Path, help="time under an exclusive lock of this file (processes sharing a GPU)")
    p.add_argument("--json", type=Path, help="write the figures here")
    ns = p.parse_args(argv)
    games = fast_env_ids(p, ns.games)
    bad = [n for n in ns.num_games if n < MINIBATCHES_PER_EPOCH]
    if bad:
        p.exit(2, f"error: --num-games must each be at least {MINIBATCHES_PER_EPOCH}, got {bad}\n")
    rows: list[BatchFigures] = []
    for game in games:
        for num_games in ns.num_games:
            rows.append(measure(game, num_games, ns.seconds, ns.lock))
            print(table(rows[-1:]).splitlines()[-1], flush=True)
            if ns.json:  # written after every row, so a run stopped by a time limit keeps what it measured
                ns.json.parent.mkdir(parents=True, exist_ok=True)
                record = {"host": platform.node(), "rows": [asdict(r) for r in rows]}
                ns.json.write_text(json.dumps(record, indent=2) + "\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
