"""Run the statistics study and write its tables (JSON and Markdown) under ``--out``.

nice -n 10 python -m cardenvs.experiments.research.stats_study coverage --replications 200 --out docs/statistics
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from cardenvs.experiments.research.stats_study import coverage, variance
from cardenvs.experiments.research.stats_study.designs import DESIGNS


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("study", choices=["coverage", "variance", "combine"])
    p.add_argument("--replications", type=int, default=200)
    p.add_argument("--designs", nargs="*", type=int, help="coverage: indices into designs.DESIGNS (default: all)")
    p.add_argument("--cases", nargs="*", type=int, help="variance: indices into variance.CASES (default: all)")
    p.add_argument("--games", type=int, default=480, help="variance: games per tournament")
    p.add_argument("--mean-deals", type=int, default=400, help="variance: deals behind the baseline's seat means")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default="runs/stats_study")
    p.add_argument("--cache", default="runs/stats_study/games", help="coverage: where the played games are kept")
    p.add_argument("--inputs", nargs="*", default=[], help="combine: coverage JSON files, into one table")
    args = p.parse_args(argv)
    if args.designs and not all(0 <= i < len(DESIGNS) for i in args.designs):
        p.error(f"--designs takes indices from 0 to {len(DESIGNS) - 1}, got {args.designs}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.study == "variance":
        cases = [variance.CASES[i] for i in args.cases] if args.cases else list(variance.CASES)
        jobs = [
            (
                f"{c.env_id} {c.num_players}p",
                lambda c=c: variance.measure(c, args.games, args.replications, args.mean_deals),
            )
            for c in cases
        ]
        return _run(jobs, out / "variance", variance.markdown)
    if args.study == "combine":
        return _combine([Path(x) for x in args.inputs], out / "coverage")
    chosen = [DESIGNS[i] for i in args.designs] if args.designs else list(DESIGNS)
    cache = Path(args.cache)
    jobs = [(d.name, partial(coverage.study_design, d, args.replications, cache, args.workers)) for d in chosen]
    return _run(jobs, out / "coverage", coverage.markdown)


def _run(
    jobs: Sequence[tuple[str, Callable[[], dict[str, Any]]]],
    stem: Path,
    markdown: Callable[[list[dict[str, Any]]], str],
) -> int:
    """Run each measurement, rewriting ``stem.json`` and ``stem.md`` after each one (a long study shows
    progress and keeps what it has)."""
    results = []
    for name, measure in jobs:
        start = time.perf_counter()
        result = measure()
        result["seconds"] = round(time.perf_counter() - start, 1)
        results.append(result)
        print(f"{name}: {result['seconds']} s", flush=True)
        stem.with_suffix(".json").write_text(json.dumps(results, indent=1))
        stem.with_suffix(".md").write_text(markdown(results))
    print(markdown(results))
    return 0


def _combine(inputs: Sequence[Path], stem: Path) -> int:
    """One coverage table from several runs' JSON, in the order of ``designs.DESIGNS`` (the last run of a design
    wins)."""
    found = {r["design"]["name"]: r for path in inputs for r in json.loads(path.read_text())}
    order = [d.name for d in DESIGNS]
    results = sorted(
        found.values(), key=lambda r: order.index(r["design"]["name"]) if r["design"]["name"] in order else len(order)
    )
    stem.with_suffix(".json").write_text(json.dumps(results, indent=1))
    stem.with_suffix(".md").write_text(coverage.markdown(results))
    print(coverage.summary(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
