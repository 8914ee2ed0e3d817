"""Tournament throughput: games per second of a rule-bot tournament on 1, 2, … local worker processes.

    python -m experiments.bench_tournament [--games 960] [--workers 1 2] [--players 4]

Every run plays the same games (same seeds) into a fresh database; the script checks that they agree and prints
games/s (wall clock, storing every game included) and the speed-up over one process, plus the CPU time per game
summed over all processes (main and workers): on a machine other jobs share, wall-clock speed-up shows only the
cores that were free, while an unchanged CPU time per game shows that the work itself scales.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from agents.tournament import Tournament

GAME = "verish_ne_verish-v0"
POLICIES = ["verish_ne_verish/rule", "rule2=verish_ne_verish/rule", "rule3=verish_ne_verish/rule", "random"]


def cpu_seconds() -> float:
    """User + system CPU time of this process and of its finished children (the worker processes)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=960)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    tournament = Tournament(GAME, POLICIES, games=args.games, options={"num_players": args.players}, resamples=100)
    print(f"{GAME}, {args.players} players, {len(tournament.jobs())} games of {', '.join(POLICIES)}")
    print(f"{'workers':>8} {'seconds':>8} {'games/s':>8} {'speed-up':>8} {'CPU ms/game':>12} {'decisions/s':>12}")
    baseline, reference = 0.0, None
    with tempfile.TemporaryDirectory() as folder:
        for workers in args.workers:
            cpu_start = cpu_seconds()
            start = time.perf_counter()
            result = tournament.run(Path(folder) / f"w{workers}.sqlite", workers=workers)
            seconds = time.perf_counter() - start
            cpu = cpu_seconds() - cpu_start
            outcomes = [r.outcome() for r in result.records]
            if reference is None:
                reference = outcomes
            elif outcomes != reference:
                raise SystemExit(f"{workers} workers gave other games than {args.workers[0]}: a determinism bug")
            rate = len(outcomes) / seconds
            baseline = baseline or rate
            decisions = sum(r.decisions for r in result.records) / seconds
            cpu_ms = 1000 * cpu / len(outcomes)
            print(f"{workers:8d} {seconds:8.2f} {rate:8.1f} {rate / baseline:8.2f} {cpu_ms:12.1f} {decisions:12,.0f}")


if __name__ == "__main__":
    main()
