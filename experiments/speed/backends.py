"""What each backend of :func:`cardenvs.vector.batched_games` costs per decision, by batch size, and what one game
stepped alone costs on each (the single env: ``SeatEnv``'s case), on one CPU core. Every backend side by side;
:mod:`.jax_batches` measures the JAX backend alone, up to GPU batch sizes and beside the peers.

    python -m cardenvs.experiments.speed.backends --game yukushi-v0 --json runs/backends_yukushi.json

Random legal play through the batch interface (``reset`` / ``step`` with NumPy arrays, one ``sample_legal`` draw
per batch step, finished games re-dealt in place): the Python engines (``backend="python"``) against the JAX fast
path (``backend="jax"``, one jitted step per call, its arrays copied back to NumPy). The single game: the reference
AEC raw env (``env.last()``, a draw, ``env.step``) against one jitted un-batched JAX step per decision with its
observation and mask read back, which is the least a JAX ``SeatEnv`` would pay per decision. The figures are
decisions per CPU second (the process's CPU time), medians of interleaved repetitions; set-up (compiling) apart.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.experiments.speed.jax_batches import GAMES, configure
from cardenvs.registry import definition


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(GAMES), default="yukushi-v0")
    parser.add_argument("--batch", type=int, nargs="*", default=[1, 4, 16, 64, 256])
    parser.add_argument("--seconds", type=float, default=1.5, help="seconds per run")
    parser.add_argument("--reps", type=int, default=3, help="interleaved repetitions (median reported)")
    parser.add_argument("--json", type=Path, help="write the results here")
    return parser.parse_args(argv)


def timed(seconds: float, advance: Any) -> float:
    """Decisions per CPU second of ``advance()`` (which returns the decisions it made) run for ``seconds``."""
    decisions, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        decisions += advance()
    return decisions / max(time.process_time() - cpu, 1e-9)


def batch_runner(game: str, players: int, num_games: int, backend: str) -> tuple[Any, float]:
    """A function that makes one batch step of random legal play, and the seconds its set-up took."""
    from cardenvs.vector import batched_games, sample_legal

    began = time.perf_counter()
    batch = batched_games(game, num_games, seed=0, backend=backend, num_players=players)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    current = [batch.reset()]

    def advance() -> int:
        current[0] = batch.step(sample_legal(current[0].masks, rng))
        return num_games

    advance()  # the first call compiles nothing more, but warms the caches
    return advance, time.perf_counter() - began


def single_jax_runner(game: str, players: int) -> tuple[Any, float]:
    """One JAX game stepped alone: a jitted step per decision, the observation and mask read back to NumPy."""
    import jax

    began = time.perf_counter()
    env = definition(game).part("fast")(num_players=players)
    init, step = jax.jit(env.init), jax.jit(env.step)
    rng = np.random.default_rng(0)
    keys = iter(jax.random.split(jax.random.PRNGKey(0), 100_000))
    state = [init(next(keys))]

    def advance() -> int:
        s = state[0]
        mask, _ = np.asarray(s.legal_action_mask), np.asarray(s.observation)
        s = step(s, int(rng.choice(np.flatnonzero(mask))))
        state[0] = init(next(keys)) if bool(s.terminated | s.truncated) else s
        return 1

    advance()
    return advance, time.perf_counter() - began


def single_python_runner(game: str, players: int) -> tuple[Any, float]:
    """The reference AEC raw env, random legal play, seeded once."""
    import cardenvs
    from cardenvs.experiments.speed.loops import aec_loop

    loop = aec_loop(partial(cardenvs.make_raw, f"cardenvs/{game}", num_players=players))
    return (lambda: loop(0.05, 0).decisions), 0.0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    configure(argparse.Namespace(device="cpu", core=0))
    players = GAMES[args.game][1]
    runners: dict[str, tuple[Any, float]] = {
        "single game, Python AEC raw env": single_python_runner(args.game, players),
        "single game, JAX (jitted step per decision)": single_jax_runner(args.game, players),
    }
    for size in args.batch:
        for backend in ("python", "jax"):
            runners[f"batch {size}, {backend}"] = batch_runner(args.game, players, size, backend)
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.reps):  # interleaved: drifting load hits every runner alike
        for name, (advance, _) in runners.items():
            rates[name].append(timed(args.seconds, advance))
    report = {
        "game": args.game,
        "players": players,
        "rows": {
            name: {"decisions_per_cpu_s": statistics.median(rates[name]), "setup_s": runners[name][1]}
            for name in runners
        },
    }
    for name, row in report["rows"].items():
        print(f"{name:<48} {row['decisions_per_cpu_s']:>12,.0f} per CPU s (set-up {row['setup_s']:.1f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
