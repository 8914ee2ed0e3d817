"""Speed measurements (how fast, never how well: for a strategy's strength see :mod:`cardenvs.experiments.benchmark`).

This module is the one command that writes docs/benchmarks.md: throughput of every cardenvs game beside the peer
toolkits, measured in one run. Beside it: :mod:`.backends` and :mod:`.jax_batches` (batched stepping),
:mod:`.fast_bots` (array-program bots), :mod:`.sb3_training` and :mod:`.fast_training` (training throughput).

    python -m cardenvs.experiments.speed [--seconds 2] [--reps 5] [--only kyuuri] [--peers leduc] [--batch 16 256]
                                [--tournament-games 480] [--write docs/benchmarks.md]
    python3 run.py bench …     (the same, after setting up .venv)

Measured, with random legal play and the observation and mask built at every step (see :mod:`.loops`):

* every registered game (``cardenvs.ENV_IDS``, each at its ``GameDefinition.benchmark_options``) through
  its raw env seeded once and seeded every reset, through ``env()`` (PettingZoo's wrappers: their cost), as the
  rules engine alone (the bound on what batching can save) and through :class:`~cardenvs.vector.BatchedGames`
  (its gain over the raw loop), and the ``clone()`` and ``resample_hidden()`` calls per second of mid-game
  states (what a search agent pays per simulation), beside the 20k/s target;
* the peers of :mod:`.peers` that are installed (the ``bench`` extra), each game's ratio to its reference
  peer's seeded-once loop and whether it meets its target (:data:`.peers.TARGETS`: one line per game);
* a rule-bot tournament on 1 and 2 worker processes (:mod:`.tournament`).

Repetitions of all loops are interleaved so that drifting machine load hits them alike, and medians are
reported: on a shared machine only the ratios of one run are meaningful. ``--write`` replaces the section
between the bench markers of a Markdown file with the tables.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import cardenvs
from cardenvs.experiments.speed.loops import (
    Count,
    Loop,
    aec_loop,
    batched_loop,
    decisions_per_move,
    engine_loop,
    search_loop,
)
from cardenvs.experiments.speed.peers import DEFAULT_PEER, TARGETS, available_peers
from cardenvs.experiments.speed.tournament import Scaling, measure_tournament

KINDS = ("raw", "raw seeded every reset", "env()", "engine", "batched", "clone", "resample_hidden")
SEARCH_TARGET = 20_000.0
"""Clones (and re-deals) per second that let a search agent afford hundreds of simulations per decision."""


@dataclass
class Rates:
    """Per-repetition rates of one loop."""

    runs: list[Count] = field(default_factory=list)

    def median(self, what: str) -> float:
        return statistics.median(getattr(c, what) / c.seconds for c in self.runs)


@dataclass
class Game:
    """One registered game at its benchmark options, with its loops."""

    env_id: str
    name: str
    options: dict[str, Any]
    loops: dict[str, Loop]
    per_move: float = 1.0

    @property
    def label(self) -> str:
        extra = " ".join(f"{k}={v}" for k, v in self.options.items())
        return f"`{self.env_id}`" + (f" {extra}" if extra else "")

    def key(self, kind: str) -> str:
        return f"{self.env_id} {kind}"


def registered_games(only: list[str] | None, kinds: list[str], batches: list[int]) -> list[Game]:
    """Every registered id (those containing one of ``only``), with a loop per kind (and per batch size)."""
    games = []
    for env_id in cardenvs.ENV_IDS:
        if only and not any(o in env_id for o in only):
            continue
        definition = cardenvs.definition(env_id)
        options = dict(definition.benchmark_options)
        loops: dict[str, Loop] = {}
        if "raw" in kinds:
            loops["raw"] = aec_loop(partial(cardenvs.make_raw, env_id, **options), "seeded once")
        if "raw seeded every reset" in kinds:
            loops["raw seeded every reset"] = aec_loop(
                partial(cardenvs.make_raw, env_id, **options), "seeded every reset"
            )
        if "env()" in kinds:
            loops["env()"] = aec_loop(partial(cardenvs.make, env_id, **options))
        if "engine" in kinds:
            loops["engine"] = engine_loop(env_id, options)
        if "batched" in kinds:
            loops |= {f"batched {b}": batched_loop(env_id, options, b) for b in batches}
        for operation in ("clone", "resample_hidden"):
            if operation in kinds:
                loops[operation] = search_loop(env_id, options, operation)
        games.append(Game(env_id, definition.name, options, loops, decisions_per_move(env_id, options)))
    return games


def measure(loops: dict[str, Loop], seconds: float, reps: int) -> dict[str, Rates]:
    """Interleaved repetitions of every loop (repetition ``r`` of all before ``r + 1`` of any)."""
    results = {name: Rates() for name in loops}
    for rep in range(reps):
        for name, loop in loops.items():
            results[name].runs.append(loop(seconds, rep))
    return results


def games_table(games: list[Game], rates: dict[str, Rates], batches: list[int]) -> str:
    """Every game's raw rates, the wrappers' cost, and the decisions/s of the engine alone and of batched stepping
    with their gain over the raw loop's decisions/s."""
    head = ["game", "steps/s, seeded once", "decisions/s, seeded once", "games/s", "steps/s, seeded every reset"]
    head += ["decisions per move", "`env()` steps/s", "wrapper cost", "engine alone: decisions/s (gain)"]
    head += [f"batched ×{b}: decisions/s (gain)" for b in batches]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for g in games:
        raw = rates.get(g.key("raw"))
        cells = [g.label, "", "", "", "", f"{g.per_move:.2f}", "", ""] + [""] * (1 + len(batches))
        if raw:
            cells[1:4] = [f"{raw.median(what):,.0f}" for what in ("steps", "decisions")] + [
                f"{raw.median('games'):,.1f}"
            ]
        every = rates.get(g.key("raw seeded every reset"))
        if every:
            cells[4] = f"{every.median('steps'):,.0f}"
        wrapped = rates.get(g.key("env()"))
        if wrapped:
            cells[6] = f"{wrapped.median('steps'):,.0f}"
            if raw:
                cells[7] = f"{1 - wrapped.median('steps') / raw.median('steps'):.0%}"
        for k, kind in enumerate(["engine", *(f"batched {b}" for b in batches)]):
            fast = rates.get(g.key(kind))
            if fast:
                gain = f" ({fast.median('decisions') / raw.median('decisions'):.2f}×)" if raw else ""
                cells[8 + k] = f"{fast.median('decisions'):,.0f}{gain}"
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def search_table(games: list[Game], rates: dict[str, Rates]) -> str:
    """Each game's ``clone()`` and ``resample_hidden()`` calls per second against :data:`SEARCH_TARGET`."""
    rows = [
        "| game | `clone()`/s | `resample_hidden()`/s | target | met |",
        "|---|---|---|---|---|",
    ]
    for g in games:
        found = [rates.get(g.key(op)) for op in ("clone", "resample_hidden")]
        measured = [r.median("steps") for r in found if r]
        if not measured:
            continue
        cells = [f"{r.median('steps'):,.0f}" if r else "" for r in found]
        met = "yes" if min(measured) >= SEARCH_TARGET else "**no**"
        rows.append(f"| {g.label} | {cells[0]} | {cells[1]} | {SEARCH_TARGET:,.0f}/s | {met} |")
    return "\n".join(rows)


def peers_table(peers: dict[str, Rates]) -> str:
    rows = ["| peer | steps/s | decisions (moves)/s | games/s |", "|---|---|---|---|"]
    for name, r in peers.items():
        rows.append(f"| {name} | {r.median('steps'):,.0f} | {r.median('decisions'):,.0f} | {r.median('games'):,.1f} |")
    return "\n".join(rows)


def targets_table(games: list[Game], rates: dict[str, Rates], peers: dict[str, Rates]) -> str:
    """Each game against its reference peer per decision (an ``env.step`` that acts: the target's measure, issue
    22 item 2), and for reading per ``env.step`` call (dead steps included) and per complete move (sub-steps of a
    composite move counted as one). A target is met when the decisions/s ratio reaches it."""
    rows = [
        "| game | reference peer | ratio, decisions/s | ratio, steps/s | ratio, moves/s | target | met |",
        "|---|---|---|---|---|---|---|",
    ]
    for g in games:
        raw = rates.get(g.key("raw"))
        peer, target = TARGETS.get(g.name, (DEFAULT_PEER, 0.0))
        if raw is None or peer not in peers:
            continue
        by_decision = raw.median("decisions") / peers[peer].median("decisions")
        by_step = raw.median("steps") / peers[peer].median("steps")
        by_move = by_decision / g.per_move
        met = ("yes" if by_decision >= target else "**no**") if target else "no target set"
        goal = f"{target:g}×" if target else "–"
        rows.append(f"| {g.label} | {peer} | {by_decision:.2f}× | {by_step:.2f}× | {by_move:.2f}× | {goal} | {met} |")
    return "\n".join(rows)


def machine() -> str:
    """CPU model, cores, Python and the load average (the machine may be shared)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return f"{model}, {os.cpu_count()} logical cores, Python {platform.python_version()}, {platform.system()}; {load}"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per loop and repetition")
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions (the median is reported)")
    parser.add_argument("--only", nargs="*", help="substrings of the cardenvs ids to measure (default: all)")
    parser.add_argument("--kinds", nargs="*", choices=KINDS, default=list(KINDS), help="how to step the games")
    parser.add_argument("--peers", nargs="*", help="substrings of the peer names to measure (default: all)")
    parser.add_argument("--batch", type=int, nargs="+", default=[16, 256], help="games per BatchedGames (sizes)")
    parser.add_argument("--tournament-games", type=int, default=480, help="games per tournament run (0: skip)")
    parser.add_argument("--tournament-workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--tournament-reps", type=int, default=2, help="tournament runs per worker count")
    parser.add_argument("--write", type=Path, help="write the tables (with machine and date) into this Markdown file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> str:
    args = parse(argv)
    skipped: list[str] = []

    def say(note: str) -> None:
        print(note)
        skipped.append(note)

    peer_loops = available_peers(args.peers, say=say)
    games = registered_games(args.only, args.kinds, args.batch)
    started = machine()
    loops = {g.key(kind): loop for g in games for kind, loop in g.loops.items()} | peer_loops
    rates = measure(loops, args.seconds, args.reps)
    peers = {name: rates[name] for name in peer_loops}
    parts = [games_table(games, rates, args.batch)]
    if {"clone", "resample_hidden"} & set(args.kinds):
        parts.append(search_table(games, rates))
    if peers:
        parts += [peers_table(peers), targets_table(games, rates, peers)]
    else:
        parts.append(
            "No peer measured (none selected, or the bench extra is not installed: `pip install -e '.[bench]'`)."
        )
    parts += [f"Note: {note}." for note in skipped]
    scaling: Scaling | None = None
    if args.tournament_games > 0:
        scaling = measure_tournament(args.tournament_games, args.tournament_workers, args.tournament_reps)
        parts.append(scaling.markdown())
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    header = (
        f"Measured {stamp} on {started} at the start, {machine().rsplit('; ', 1)[-1]} at the end; "
        f"{args.reps} interleaved repetitions of {args.seconds:g} s per loop, median."
    )
    text = "\n\n".join([header, *parts])
    print(text)
    if args.write:
        write_section(args.write, text + "\n")
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
