"""Decisions per second of a JAX game (``cardenvs.fast``: the games of ``cardenvs.vector.fast_game_ids()``) over batch
sizes, on a CPU core or a GPU: the JAX backend alone, up to 2^20 games; :mod:`.backends` puts every backend side
by side on one core.

    python -m cardenvs.experiments.speed.jax_batches --device cpu --json runs/fast_cpu.json     # one core, with peers
    python -m cardenvs.experiments.speed.jax_batches --game kyuuri-v0 --json runs/fast_kyuuri.json  # Kyuuri, 7 seats
    python -m cardenvs.experiments.speed.jax_batches --device gpu --json runs/fast_gpu.json        # 2^10 … 2^20 games

Each batch runs random legal play as one jitted program: per decision, a uniform legal draw from the mask, the
step (which builds the next player's observation and mask) and fresh deals in place of the games that ended
(:func:`cardenvs.fast.batched.redeal_finished`). Every ``--steps`` decisions the batch comes back to Python. A
*decision* is one game's step that acts. On the CPU the process is pinned to one core and XLA to one thread, and the
reference engine's AEC loop, its batched stepping and PettingZoo's leduc raw env (seeded once, the issue's
reference) run in the same process, interleaved with the JAX runs; ``decisions per CPU second`` divides by the
process's CPU time, which is the honest figure on a shared machine. On the GPU the sweep stops once a doubling
of the batch gains less than 10% twice, or when ``--budget`` seconds are spent.

The JAX part needs only JAX and NumPy (plus what ``import cardenvs`` needs: PettingZoo and Gymnasium, pure
Python wheels); the peers are skipped when PettingZoo's classic games are missing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from cardenvs.registry import definition
from cardenvs.vector import fast_game_ids

CPU_BATCHES = [1, 4, 16, 64, 256, 1024, 4096]


def benchmark_players(env_id: str) -> int:
    """The benchmark's player count of a game: its ``benchmark_options``, else its default options' count."""
    game = definition(env_id)
    players = game.benchmark_options.get("num_players")
    return int(players) if players is not None else game.num_players(game.options_type())


GAMES = {env.removeprefix("cardenvs/"): (definition(env).fast, benchmark_players(env)) for env in fast_game_ids()}
"""The fast games (:func:`cardenvs.vector.fast_game_ids`): the reference to the class in ``cardenvs.fast`` and the
benchmark's player count."""
GPU_BATCHES = [2**k for k in range(10, 21, 2)]


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--batch", type=int, nargs="*", help="batch sizes (default: 1…4096 on cpu, 2^10…2^20 on gpu)")
    parser.add_argument("--game", choices=sorted(GAMES), default="verish_ne_verish-v0")
    parser.add_argument("--players", type=int, help="players (default: the game's benchmark count)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per run")
    parser.add_argument("--reps", type=int, default=3, help="interleaved repetitions (median reported)")
    parser.add_argument("--steps", type=int, default=0, help="decisions per jitted call (default: 2^16 / batch, 4…256)")
    parser.add_argument("--core", type=int, default=0, help="(cpu) the core to pin the process to")
    parser.add_argument(
        "--budget", type=float, help="stop starting new batch sizes after this many seconds (default: 240 on gpu)"
    )
    parser.add_argument("--no-peers", action="store_true", help="(cpu) skip the reference engine and leduc")
    parser.add_argument("--json", type=Path, help="write the results here")
    return parser.parse_args(argv)


def configure(args: argparse.Namespace) -> None:
    """Before JAX is imported: its platform, and on the CPU one core and one XLA thread."""
    if args.device == "cpu":
        os.environ["JAX_PLATFORMS"] = "cpu"
        os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {args.core})
    else:
        os.environ["JAX_PLATFORMS"] = "cuda"


def jax_runner(game: str, players: int, batch: int, steps: int) -> Any:
    """A function that plays ``steps`` decisions in every game of the batch and returns the decisions made."""
    import jax
    import jax.numpy as jnp

    from cardenvs.fast.batched import redeal_finished

    env = definition(game).part("fast")(num_players=players)
    pool = max(1, batch // 16)
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)

    def decide(carry: Any, _: Any) -> Any:
        state, key = carry
        key, draw, deal = jax.random.split(key, 3)
        mask = state.legal_action_mask
        actions = jnp.argmax(jax.random.uniform(draw, mask.shape) * mask, axis=1)
        live = ~(state.terminated | state.truncated)
        state = redeal_finished(env, step(state, actions), deal, pool)
        return (state, key), live.sum()

    @jax.jit
    def play(state: Any, key: Any) -> Any:
        (state, key), decided = jax.lax.scan(decide, (state, key), None, length=steps)
        return state, key, decided.sum()

    start = jax.jit(init)(jax.random.split(jax.random.PRNGKey(0), batch))
    return play, start, jax.random.PRNGKey(1)


def time_jax(runner: Any, seconds: float) -> dict[str, float]:
    play, state, key = runner
    decisions, wall, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        state, key, decided = play(state, key)
        decisions += int(decided)  # int() waits for the device
        elapsed = time.perf_counter() - wall
        if elapsed >= seconds:
            runner[1:] = [state, key]
            return {"decisions": decisions, "seconds": elapsed, "cpu_seconds": time.process_time() - cpu}


def peer_loops(game: str, players: int) -> dict[str, Any]:
    """The reference engine (AEC loop, batched ×256) and PettingZoo's leduc raw env, seeded once."""
    from functools import partial

    import cardenvs
    from cardenvs.experiments.speed.loops import aec_loop, batched_loop
    from cardenvs.experiments.speed.peers import LEDUC_RAW, available_peers

    env_id = f"cardenvs/{game}"
    loops: dict[str, Any] = {
        f"reference engine, AEC raw loop, {players}p": aec_loop(
            partial(cardenvs.make_raw, env_id, num_players=players)
        ),
        f"reference engine, BatchedGames x256, {players}p": batched_loop(env_id, {"num_players": players}, 256),
    }
    loops.update(available_peers([LEDUC_RAW], say=print))
    return loops


def time_peer(loop: Any, seconds: float, rep: int) -> dict[str, float]:
    cpu = time.process_time()
    count = loop(seconds, rep)
    return {"decisions": count.decisions, "seconds": count.seconds, "cpu_seconds": time.process_time() - cpu}


def summary(runs: list[dict[str, float]]) -> dict[str, Any]:
    return {
        "decisions_per_s": statistics.median(r["decisions"] / r["seconds"] for r in runs),
        "decisions_per_cpu_s": statistics.median(r["decisions"] / max(r["cpu_seconds"], 1e-9) for r in runs),
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    if args.players is None:
        args.players = GAMES[args.game][1]
    configure(args)
    import jax

    batches = args.batch or (CPU_BATCHES if args.device == "cpu" else GPU_BATCHES)
    began = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    report: dict[str, Any] = {
        "device": str(jax.devices()[0].device_kind),
        "platform": f"{platform.processor() or platform.machine()}, Python {platform.python_version()}",
        "jax": jax.__version__,
        "game": args.game,
        "players": args.players,
        "load_average_start": load,
        "jax_batches": {},
        "peers": {},
    }
    peers = peer_loops(args.game, args.players) if args.device == "cpu" and not args.no_peers else {}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in peers}
    flat = 0
    previous = 0.0
    for batch in batches:
        budget = args.budget if args.budget is not None else (240.0 if args.device == "gpu" else float("inf"))
        if time.perf_counter() - began > budget:
            print(f"batch {batch} and larger skipped: the {budget:.0f} s budget is spent", flush=True)
            break
        steps = args.steps or min(256, max(4, 2**16 // batch))
        compile_start = time.perf_counter()
        runner = list(jax_runner(args.game, args.players, batch, steps))
        time_jax(runner, 0.0)  # compiles and warms up
        compile_s = time.perf_counter() - compile_start
        runs = []
        for rep in range(args.reps):
            runs.append(time_jax(runner, args.seconds))
            for name, loop in peers.items():  # interleaved with the JAX runs: drifting load hits all alike
                if len(results[name]) < args.reps:
                    results[name].append(time_peer(loop, args.seconds, rep))
        row = summary(runs) | {"steps_per_call": steps, "compile_and_first_call_s": compile_s}
        report["jax_batches"][batch] = row
        print(
            f"batch {batch:>8}: {row['decisions_per_s']:>12,.0f} decisions/s, "
            f"{row['decisions_per_cpu_s']:>12,.0f} per CPU s (compile {compile_s:.1f} s)",
            flush=True,
        )
        rate = row["decisions_per_s"]
        flat = flat + 1 if previous and rate < 1.1 * previous else 0
        previous = max(previous, rate)
        if args.device == "gpu" and flat >= 2:
            print("throughput stopped scaling: sweep ends", flush=True)
            break
    for name, runs in results.items():
        if runs:
            report["peers"][name] = summary(runs)
    report["load_average_end"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    report["wall_s"] = time.perf_counter() - began
    print(table(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    return report


def table(report: dict[str, Any]) -> str:
    rows = ["| loop | decisions/s | decisions per CPU second |", "|---|---|---|"]
    for batch, row in report["jax_batches"].items():
        rates = f"{row['decisions_per_s']:,.0f} | {row['decisions_per_cpu_s']:,.0f}"
        rows.append(f"| JAX {report['device']}, batch {batch} | {rates} |")
    for name, row in report["peers"].items():
        rows.append(f"| {name} | {row['decisions_per_s']:,.0f} | {row['decisions_per_cpu_s']:,.0f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    main(sys.argv[1:])
