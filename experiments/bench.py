"""Throughput of every cardenvs game beside peer toolkits, measured in the same run.

    python -m experiments.bench [--seconds 2] [--reps 5] [--only verish] [--write docs/benchmarks.md]

Each target plays random legal moves in the standard AEC loop — ``env.last()`` (which builds the
observation and the action mask), a uniform draw from the mask, ``env.step`` — for ``--seconds`` per
repetition; repetitions of all targets are interleaved so that drifting machine load hits them alike, and the
median is reported. A *step* is one ``env.step`` call (the final ``None`` steps of finished agents included,
as every AEC loop must make them); a *game* is one completed episode. Ratios are cardenvs ÷ peer in this run.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs

Loop = Callable[[float, int], tuple[int, int, float]]
"""Runs for about the given seconds with the given seed; returns (steps, games, elapsed seconds)."""


def aec_loop(make_env: Callable[[], Any]) -> Loop:
    """A timed random-legal-play loop over any PettingZoo AEC env with ``action_mask`` observations."""

    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        env = make_env()
        rng = np.random.default_rng(seed)
        steps = games = 0
        start = time.perf_counter()
        while True:
            env.reset(seed=int(rng.integers(2**31)))
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                env.step(action)
                steps += 1
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return steps, games, elapsed

    return run


def _pettingzoo_classic(module: str, raw: bool) -> Loop:
    def make() -> Any:
        import importlib

        mod = importlib.import_module(f"pettingzoo.classic.{module}")
        return mod.raw_env() if raw else mod.env()

    return aec_loop(make)


PEERS: dict[str, Callable[[], Loop]] = {
    "pettingzoo leduc_holdem_v4 raw_env": lambda: _pettingzoo_classic("leduc_holdem_v4", raw=True),
    "pettingzoo leduc_holdem_v4 env": lambda: _pettingzoo_classic("leduc_holdem_v4", raw=False),
}
"""Peer toolkits (installed by the ``bench`` extra); a peer that fails to import is reported as missing."""


def cardenvs_targets(only: list[str] | None) -> dict[str, Loop]:
    """The raw env of every registered game at its benchmark options (largest player count)."""
    targets: dict[str, Loop] = {}
    for env_id in cardenvs.ENV_IDS:
        if only and not any(o in env_id for o in only):
            continue
        options = dict(cardenvs.definition(env_id).benchmark_options)
        label = env_id + (" " + " ".join(f"{k}={v}" for k, v in options.items()) if options else "")
        targets[label] = aec_loop(lambda env_id=env_id, options=options: cardenvs.make_raw(env_id, **options))
    return targets


@dataclass
class Measurement:
    """Per-repetition rates of one target."""

    steps_per_s: list[float] = field(default_factory=list)
    games_per_s: list[float] = field(default_factory=list)

    @property
    def steps(self) -> float:
        return statistics.median(self.steps_per_s)

    @property
    def games(self) -> float:
        return statistics.median(self.games_per_s)


def measure(targets: dict[str, Loop], seconds: float, reps: int) -> dict[str, Measurement]:
    """Interleaved repetitions of every target; returns the rates of each."""
    results = {name: Measurement() for name in targets}
    for rep in range(reps):
        for name, loop in targets.items():
            steps, games, elapsed = loop(seconds, rep)
            results[name].steps_per_s.append(steps / elapsed)
            results[name].games_per_s.append(games / elapsed)
    return results


def table(ours: dict[str, Measurement], peers: dict[str, Measurement]) -> str:
    """Markdown table: each cardenvs game with its rates and its ratio to each peer."""
    peer_names = list(peers)
    head = "| target | steps/s | games/s | " + " | ".join(f"× {p}" for p in peer_names) + " |"
    rows = [head, "|" + "---|" * (3 + len(peer_names))]
    for name, m in ours.items():
        ratios = " | ".join(f"{m.steps / peers[p].steps:.2f}" for p in peer_names)
        rows.append(f"| `{name}` | {m.steps:,.0f} | {m.games:,.1f} | {ratios} |")
    for name, m in peers.items():
        rows.append(f"| {name} (peer) | {m.steps:,.0f} | {m.games:,.1f} | " + " | ".join("" for _ in peer_names) + " |")
    return "\n".join(rows)


def machine() -> str:
    cpu = platform.processor() or "cpu"
    return f"{platform.machine()}, {cpu}, Python {platform.python_version()}, {platform.system()}"


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per target and repetition")
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions (the median is reported)")
    parser.add_argument("--only", nargs="*", help="substrings of the cardenvs ids to measure (default: all)")
    parser.add_argument("--write", type=Path, help="write the table (with machine and date) into this Markdown file")
    args = parser.parse_args(argv)

    peers: dict[str, Loop] = {}
    for name, factory in PEERS.items():
        try:
            peers[name] = factory()
            peers[name](0.0, 0)  # import and one game, so that a missing peer is reported now
        except ImportError as error:
            print(f"peer {name!r} unavailable ({error}); install the bench extra")
    ours = cardenvs_targets(args.only)
    results = measure({**ours, **peers}, args.seconds, args.reps)
    text = table({k: results[k] for k in ours}, {k: results[k] for k in peers})
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    header = f"Measured {stamp} on {machine()}; {args.reps} interleaved repetitions of {args.seconds:g} s, median."
    print(header + "\n\n" + text)
    if args.write:
        write_section(args.write, f"{header}\n\n{text}\n")
    return text


START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def write_section(path: Path, body: str) -> None:
    """Replace the text between the bench markers of ``path`` (appending the markers if absent)."""
    text = path.read_text() if path.exists() else ""
    if START in text and END in text:
        before, _, rest = text.partition(START)
        _, _, after = rest.partition(END)
    else:
        before, after = text + ("\n" if text else ""), "\n"
    path.write_text(f"{before}{START}\n{body}{END}{after}")


if __name__ == "__main__":
    main()
