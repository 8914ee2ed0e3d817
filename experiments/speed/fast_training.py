"""Training throughput on the fast path against SB3 and against the physical limit (issue 34, item 3).

    python -m cardenvs.experiments.speed.fast_training                                  # every game with a fast path
    python -m cardenvs.experiments.speed.fast_training --games verish_ne_verish-v0 --iterations 4 \\
        --json runs/bench.json
    python -m cardenvs.experiments.speed.fast_training --games kyuuri-v0 --sb3-steps 0 --config other.toml  # another

Per game, in one process: ``experiments.train_fast``'s learner decisions per second (its config, timed over
``--iterations`` iterations after the compiling one), ``experiments.train``'s (SB3, the same network, epochs,
minibatch and learning rate, its config's opponents, one torch thread) and the limit: the network's FLOPs per
training step (a forward pass to act, then forward and backward, counted as 3 forward passes, per epoch) against
the float32 GEMM rate measured at the network's shapes and minibatch (torch on one thread, and XLA).

Every figure is given per wall second and per CPU second of the process. On a machine that other processes share,
the wall clock measures the neighbours; the CPU-second figures measure the work, and the fraction of the limit is
taken from them (steps per CPU second against the limit of one core; on two idle cores both double). The load
average is recorded beside each row.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from cardenvs.registry import definition, game_name
from cardenvs.vector import fast_game_ids


@dataclass
class GameFigures:
    game: str
    options: dict[str, Any]
    sizes: list[int]
    """Actor layer sizes, input first."""
    flops_per_step: float
    fast_steps_per_s: float
    fast_steps_per_cpu_s: float
    """Per CPU second of the process (its threads' time added): what the run gets out of the CPU it had."""
    fast_compile_s: float
    learner_share: float
    """Learner decisions per env step in the fast run."""
    sb3_steps_per_s: float
    """SB3's own figure: decisions over the time of ``learn``."""
    sb3_steps_per_cpu_s: float
    """Over the whole call (building the envs and the model included), one torch thread."""
    torch_gflops_per_cpu_s: float
    """float32 GEMM at the network's shapes, torch on one thread."""
    xla_gflops_per_cpu_s: float
    """The same products jitted by XLA (JAX's default threads), as ``train_fast``'s program runs them."""
    xla_gflops_wall: float
    load: list[float]
    """1-minute load average at the start and the end of this game's measurements."""

    @property
    def limit_per_cpu_s(self) -> float:
        """Training steps per CPU second at the best GEMM rate measured: the physical limit of one core."""
        return max(self.torch_gflops_per_cpu_s, self.xla_gflops_per_cpu_s) * 1e9 / self.flops_per_step

    @property
    def of_limit(self) -> float:
        return self.fast_steps_per_cpu_s / self.limit_per_cpu_s


def flops_per_step(inputs: int, actions: int, hidden: Sequence[int], epochs: int) -> float:
    """Actor and critic: one forward pass to act, then 3 forward passes' worth (forward and backward) an epoch."""
    from cardenvs.experiments.train_fast.networks import forward_flops

    forward = forward_flops([inputs, *hidden, actions]) + forward_flops([inputs, *hidden, 1])
    return float(forward * (1 + 3 * epochs))


def rates(run: Callable[[], Any], flops: float, seconds: float = 2.0) -> tuple[float, float]:
    """GFLOP per wall second (best of 10-call rounds) and per CPU second of the process (over all rounds) of
    ``run``, a call that does ``flops`` and waits for its result."""
    run()
    best, cpu, calls = float("inf"), time.process_time(), 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        for _ in range(10):
            run()
        best, calls = min(best, (time.perf_counter() - start) / 10), calls + 10
    cpu = time.process_time() - cpu
    return flops / best / 1e9, flops * calls / max(cpu, 1e-9) / 1e9


def gemm_flops(rows: int, sizes: Sequence[int]) -> float:
    return float(sum(2 * rows * a * b for a, b in pairwise(sizes)))


def torch_gemm(rows: int, sizes: Sequence[int]) -> float:
    """GFLOP per CPU second of float32 products ``(rows, a) @ (a, b)`` over the layers of ``sizes``, torch on one
    thread."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        xs = [torch.randn(rows, a) for a in sizes[:-1]]
        ws = [torch.randn(a, b) for a, b in pairwise(sizes)]
        return rates(lambda: [torch.mm(x, w) for x, w in zip(xs, ws, strict=True)], gemm_flops(rows, sizes))[1]
    finally:
        torch.set_num_threads(before)


def xla_gemm(rows: int, sizes: Sequence[int]) -> tuple[float, float]:
    """The same products jitted by XLA: GFLOP per wall second and per CPU second."""
    import jax

    key = jax.random.PRNGKey(0)
    xs = [jax.random.normal(key, (rows, a)) for a in sizes[:-1]]
    ws = [jax.random.normal(key, (a, b)) for a, b in pairwise(sizes)]
    products = jax.jit(lambda xs, ws: [x @ w for x, w in zip(xs, ws, strict=True)])
    return rates(lambda: jax.block_until_ready(products(xs, ws)), gemm_flops(rows, sizes))


@dataclass
class CompiledRun:
    """A train_fast iteration compiled and called once (its warm-up), ready to time."""

    args: Any
    iterate: Callable[[Any, Any], tuple[Any, dict[str, Any]]]
    state: Any
    rate: Any
    compile_s: float
    """Building the program, compiling it and its first call, in seconds."""

    def step(self) -> int:
        """One more iteration; the learner decisions it made (reading them waits for it)."""
        self.state, stats = self.iterate(self.state, self.rate)
        return int(stats["learner_decisions"])


def compiled_run(settings: dict[str, Any]) -> CompiledRun:
    """Build ``experiments.train_fast``'s program of ``settings`` (no logs), compile its iteration and call it once."""
    import jax
    import jax.numpy as jnp

    from cardenvs.experiments.train_fast.config import make_args
    from cardenvs.experiments.train_fast.rollout import compile_iteration
    from cardenvs.experiments.train_fast.trainer import setup

    args = make_args({**settings, "progress": False, "tensorboard": False})
    built = setup(args)
    state = built.program.start(built.fresh)
    rate = jnp.asarray(args.learning_rate, jnp.float32)
    start = time.perf_counter()
    iterate = compile_iteration(built.program.iteration, state, args, None)
    state, stats = iterate(state, rate)
    jax.block_until_ready(stats)
    return CompiledRun(args, iterate, state, rate, time.perf_counter() - start)


def fast_throughput(game: str, iterations: int, config: Path | None = None) -> tuple[float, float, float, float, Any]:
    """``experiments.train_fast``'s learner decisions per second (wall clock, and per CPU second of the process)
    over ``iterations`` iterations after the first, its compile time, the learner's share of env steps, and the
    settings (the game's config, or the TOML file ``config``)."""
    from cardenvs.experiments.train_fast.config import default_config, load_toml

    settings = load_toml(config) if config else default_config(game)
    run = compiled_run({**settings, "game": game})
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    for _ in range(iterations):
        steps += run.step()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    share = steps / (iterations * run.args.num_games * run.args.rollout_steps)
    return steps / seconds, steps / cpu, run.compile_s, share, run.args


def sb3_throughput(fast_args: Any, steps: int) -> tuple[float, float]:
    """SB3's (``experiments.train``) learner decisions per second of ``learn`` (its own printed figure) and per CPU
    second of the whole call, at the fast run's network and PPO settings, with its config's opponents."""
    from cardenvs.experiments.train import TrainArgs, load_config
    from cardenvs.experiments.train import train as sb3_train

    sb3 = load_config(fast_args.game)
    with tempfile.TemporaryDirectory() as out:
        args = TrainArgs(
            game=fast_args.game,
            options=fast_args.options,
            total_steps=steps,
            n_envs=8,
            n_steps=256,
            batch_size=min(fast_args.minibatch_size, 2048),
            n_epochs=fast_args.n_epochs,
            net_arch=list(fast_args.net_arch),
            activation=fast_args.activation,
            learning_rate=fast_args.learning_rate,
            opponents=sb3.get("opponents", {"random": 1.0}),
            snapshot_every=0,
            checkpoint_every=10**9,
            out=out,
            progress=False,
            tensorboard=False,
            torch_threads=1,
        )
        printed, cpu = io.StringIO(), time.process_time()
        with contextlib.redirect_stdout(printed):
            sb3_train(args)
        cpu = time.process_time() - cpu
    found = re.search(r"\(([\d.]+) steps/s\)", printed.getvalue())
    if found is None:
        raise RuntimeError(f"experiments.train printed no steps/s figure: {printed.getvalue()!r}")
    return float(found.group(1)), steps / cpu


def measure(game: str, iterations: int, sb3_steps: int, config: Path | None = None) -> GameFigures:
    from cardenvs.agents.base import PolicyContext
    from cardenvs.registry import make_raw

    load_start = os.getloadavg()[0]
    fast, fast_cpu, compile_s, share, args = fast_throughput(game, iterations, config)
    context = PolicyContext.from_env(make_raw(game, **args.options))
    sizes = [context.layout.size, *args.net_arch, context.actions.size]
    torch_rate = torch_gemm(args.minibatch_size, sizes)
    xla_wall, xla_cpu = xla_gemm(args.minibatch_size, sizes)
    sb3, sb3_cpu = sb3_throughput(args, sb3_steps) if sb3_steps else (float("nan"), float("nan"))
    flops = flops_per_step(context.layout.size, context.actions.size, args.net_arch, args.n_epochs)
    load = [load_start, os.getloadavg()[0]]
    return GameFigures(
        game, args.options, sizes, flops, fast, fast_cpu, compile_s, share, sb3, sb3_cpu, torch_rate, xla_cpu,
        xla_wall, load,
    )


def table(rows: Sequence[GameFigures]) -> str:
    head = (
        "| game (options) | train_fast steps/s (per CPU s) | SB3 steps/s (per CPU s) | MFLOP a step | "
        "GEMM GFLOP per CPU s: torch 1 thread / XLA | limit, steps per CPU s | train_fast / limit | load |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for r in rows:
        lines.append(
            f"| {game_name(r.game)} {r.options} | {r.fast_steps_per_s:,.0f} ({r.fast_steps_per_cpu_s:,.0f}) | "
            f"{r.sb3_steps_per_s:,.0f} ({r.sb3_steps_per_cpu_s:,.0f}) | {r.flops_per_step / 1e6:.2f} | "
            f"{r.torch_gflops_per_cpu_s:.0f} / {r.xla_gflops_per_cpu_s:.0f} | {r.limit_per_cpu_s:,.0f} | "
            f"**{r.of_limit:.0%}** | {r.load[0]:.1f}–{r.load[1]:.1f} |"
        )
    return "\n".join(lines)


def fast_env_ids(parser: argparse.ArgumentParser, names: Sequence[str]) -> list[str]:
    """The env ids of ``names``, each with a fast path; else the parser exits with one ``error:`` line."""
    try:
        games = [definition(game).env_id for game in names]
    except ValueError as error:
        parser.exit(2, f"error: {error}\n")
    missing = [game for game in games if game not in fast_game_ids()]
    if missing:
        parser.exit(2, f"error: {missing} have no fast path; those that do: {sorted(fast_game_ids())}\n")
    return games


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", nargs="+", default=sorted(fast_game_ids()), help="env ids (default: every fast game)")
    p.add_argument("--iterations", type=int, default=3, help="timed train_fast iterations (after the first)")
    p.add_argument("--sb3-steps", type=int, default=4096, help="SB3 decisions to time (0: skip SB3)")
    p.add_argument("--json", type=Path, help="write the figures here")
    p.add_argument("--config", type=Path, help="train_fast TOML config to run instead of the game's (one game only)")
    ns = p.parse_args(argv)
    games = fast_env_ids(p, ns.games)
    if ns.config and len(games) != 1:
        p.exit(2, f"error: --config is one game's settings; name one game with --games, not {len(games)}\n")
    rows = []
    for game in games:
        try:  # a refused config (unreadable, bad TOML, a bad setting) is one line
            rows.append(measure(game, ns.iterations, ns.sb3_steps, ns.config))
        except ValueError as error:
            p.exit(2, f"error: {error}\n")
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    print(table(rows))
    if ns.json:
        ns.json.parent.mkdir(parents=True, exist_ok=True)
        ns.json.write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
