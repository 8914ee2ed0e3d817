"""Do the intervals cover the truth, tournament by tournament? (:mod:`experiments.research.stats_study.designs`)

For every design, ``replications`` tournaments of 40 deals; the first ``d`` deals of each (whole lineup cycles)
are analysed as the report would (default settings), with fixed-size t intervals and with confidence sequences.
Each tournament counts once per row: its share of a kind's statistics (every entrant's score or win rate, every
pair's difference) whose interval holds the truth is averaged over tournaments, with ``±2·SE`` from the spread of
those shares (so mirror-image intervals of a two-entrant zero-sum game are not counted as two). Also measured:
intervals of width 0 (every printed interval of the report), the width over the estimate's spread, false verdicts
in A/A designs (any pair "better", unadjusted and Holm-adjusted), coverage under peeking (every look at 10, 20
and 40 deals at once) and the games-needed forecast made at 10 deals for the width reached at 40.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.agents.tournament.intervals import Estimate, Method
from cardenvs.agents.tournament.planning import needed_range, units_needed
from cardenvs.agents.tournament.stats import TournamentStats, analyse
from cardenvs.agents.tournament.worker import GameRecord
from cardenvs.experiments.research.stats_study.designs import Design, tournaments, truth, whole_cycles

SIZES = (10, 40)
LOOKS = (10, 20, 40)
METHODS: tuple[Method, ...] = ("t", "sequence")
KINDS = ("score", "win", "difference")


@dataclass
class Look:
    """What one analysis of one tournament at one size shows."""

    estimates: dict[tuple[str, str], Estimate]
    zero_width: int
    boundary: int
    separated_raw: bool
    separated_holm: bool
    stats: TournamentStats | None = field(default=None, repr=False)


def _look(stats: TournamentStats) -> Look:
    found = {("score", x): stats.entrant_stats[x].score for x in stats.entrants}
    found |= {("win", x): stats.entrant_stats[x].win_rate for x in stats.entrants}
    found |= {("difference", f"{a} − {b}"): e for (a, b), e in stats.differences.items()}
    printed = [*found.values(), *(s.place for s in stats.entrant_stats.values()), *stats.head_to_head.values()]
    pairs = list(stats.differences)
    return Look(
        found,
        sum(e.has_interval and e.width == 0 for e in printed),
        sum(e.boundary for e in printed),
        any(e.excludes_zero for e in stats.differences.values()),
        any(stats.separated(a, b) for a, b in pairs),
        stats,
    )


def study_design(
    design: Design,
    replications: int,
    cache: Path,
    workers: int = 1,
    sizes: Sequence[int] = SIZES,
    peeks: Sequence[int] = LOOKS,
) -> dict[str, Any]:
    """Every measurement of one design (see the module docstring); ``peeks``: the looks of the peeking check."""
    looks = sorted({whole_cycles(design, d) for d in (*sizes, *peeks)})
    runs = tournaments(design, replications, max(looks), cache, workers)
    truths = truth(design, cache, workers)
    cycle = design.tournament(0).schedule.cycle_length()
    labels = [f"e{i}" for i in range(len(design.policies))]
    seen: dict[tuple[Method, int], list[Look]] = {}
    analysed = partial(_analyse, looks=looks, labels=labels, cycle=cycle, sides=design.tournament(0).sides)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            per_tournament = list(pool.map(analysed, runs, chunksize=8))
    else:
        per_tournament = list(map(analysed, runs))
    for found in per_tournament:
        for key, look in found.items():
            seen.setdefault(key, []).append(look)
    rows = [
        _row(method, deals, kind, seen[(method, deals)], truths)
        for method in METHODS
        for deals in sorted({whole_cycles(design, d) for d in sizes})
        for kind in KINDS
    ]
    peeked = sorted({whole_cycles(design, d) for d in peeks})
    peeking = {method: _peeking([seen[(method, d)] for d in peeked], truths) for method in METHODS}
    first, last = whole_cycles(design, min(sizes)), whole_cycles(design, max(sizes))
    return {
        "design": asdict(design),
        "replications": replications,
        "cycle_length": cycle,
        "looks": peeked,
        "truth": {f"{k} {n}": v for (k, n), v in truths.items()},
        "rows": rows,
        "peeking": peeking,
        "verdicts": _verdicts(seen, peeked, METHODS) if design.copies and len(labels) > 2 else {},
        "forecast": _forecast(seen[("t", first)], seen[("t", last)]),
    }


def _analyse(
    records: list[GameRecord], looks: Sequence[int], labels: list[str], cycle: int, sides: list[tuple[int, ...]]
) -> dict[tuple[Method, int], Look]:
    """One tournament analysed as the report would, at every look and with every method."""
    found = {}
    for deals in looks:
        chosen = [r for r in records if r.deal < deals]
        for method in METHODS:
            stats = analyse(chosen, labels, cycle_length=cycle, sides=sides, method=method)
            found[(method, deals)] = _look(stats)
    return found


def _row(method: str, deals: int, kind: str, looks: list[Look], truths: dict[Any, float]) -> dict[str, Any]:
    """Coverage of one kind of statistic: per tournament the share covered, then mean ± 2·SE over tournaments."""
    shares: list[float] = []
    per_name: dict[tuple[str, str], list[bool]] = {}
    missing = 0
    for look in looks:
        hits = []
        for key, e in look.estimates.items():
            if key[0] != kind:
                continue
            if not e.has_interval:
                missing += 1
                continue
            hit = bool(e.low <= truths[key] <= e.high)
            hits.append(hit)
            per_name.setdefault(key, []).append(hit)
        if hits:
            shares.append(float(np.mean(hits)))
    widths, spreads = [], []
    for key in per_name:
        values = [look.estimates[key].value for look in looks]
        width = [look.estimates[key].width for look in looks if look.estimates[key].has_interval]
        if len(values) > 1 and np.std(values) > 0:
            widths.append(float(np.mean(width)))
            spreads.append(2 * 1.96 * float(np.std(values, ddof=1)))
    return {
        "method": method,
        "deals": deals,
        "statistic": kind,
        "coverage": float(np.mean(shares)) if shares else math.nan,
        "two_se": 2 * float(np.std(shares, ddof=1)) / math.sqrt(len(shares)) if len(shares) > 1 else math.nan,
        "worst_name": min((float(np.mean(h)) for h in per_name.values()), default=math.nan),
        "tournaments": len(shares),
        "no_interval": missing,
        "zero_width": sum(look.zero_width for look in looks),
        "boundary": sum(look.boundary for look in looks),
        "width_over_spread": float(np.mean(np.array(widths) / np.array(spreads))) if widths else math.nan,
    }


def _peeking(by_look: list[list[Look]], truths: dict[Any, float]) -> dict[str, float]:
    """Per kind: the share of a tournament's statistics whose interval holds the truth at every look at once,
    averaged over tournaments."""
    found = {}
    for kind in ("score", "difference"):
        shares = []
        for looks in zip(*by_look, strict=True):
            keys = [key for key in looks[0].estimates if key[0] == kind]
            held = [
                all(x.estimates[key].low <= truths[key] <= x.estimates[key].high for x in looks)
                for key in keys
                if all(x.estimates[key].has_interval for x in looks)
            ]
            if held:
                shares.append(float(np.mean(held)))
        found[kind] = float(np.mean(shares)) if shares else math.nan
        found[f"{kind} two_se"] = 2 * float(np.std(shares, ddof=1)) / math.sqrt(len(shares)) if shares else math.nan
    return found


def _verdicts(seen: dict[tuple[Method, int], list[Look]], looks: list[int], methods: Iterable[Method]) -> dict:
    """A/A: share of tournaments with any pair declared different, at each size and at any look."""
    found: dict[str, float] = {}
    for method in methods:
        for deals in looks:
            at = seen[(method, deals)]
            found[f"{method} {deals} unadjusted"] = float(np.mean([x.separated_raw for x in at]))
            found[f"{method} {deals} Holm"] = float(np.mean([x.separated_holm for x in at]))
        every = list(zip(*(seen[(method, d)] for d in looks), strict=True))
        found[f"{method} any look unadjusted"] = float(np.mean([any(x.separated_raw for x in t) for t in every]))
        found[f"{method} any look Holm"] = float(np.mean([any(x.separated_holm for x in t) for t in every]))
    return found


def _forecast(small: list[Look], large: list[Look]) -> dict[str, float]:
    """Deals forecast at the first size for the width reached at the last, over the deals it took; and how often
    the printed 80% range held them."""
    ratios, held = [], []
    for now_look, then_look in zip(small, large, strict=True):
        assert now_look.stats is not None and then_look.stats is not None
        for label in now_look.stats.entrants:
            now, then = now_look.stats.entrant_stats[label].score, then_look.stats.entrant_stats[label].score
            needed = units_needed(now, then.width, now_look.stats.confidence)
            if needed is None or not then.has_interval:
                continue
            ratios.append(needed / then.units)
            low, high = needed_range(now, then.width, now_look.stats.confidence)
            held.append(low <= then.units <= high)
    if not ratios:
        return {}
    p10, p50, p90 = np.percentile(ratios, [10, 50, 90])
    return {"p10": float(p10), "median": float(p50), "p90": float(p90), "range_held": float(np.mean(held))}


def markdown(results: Iterable[dict[str, Any]]) -> str:
    """The tables of docs/statistics.md."""
    results = list(results)
    lines = [
        "| design | deals | interval | statistic | coverage ± 2·SE | worst entrant or pair | width ÷ 3.92·sd | "
        "width 0 | boundary |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for row in r["rows"]:
            lines.append(
                f"| {r['design']['name']} | {row['deals']} | {row['method']} | {row['statistic']} | "
                f"{row['coverage']:.1%} ± {row['two_se']:.1%} | {row['worst_name']:.1%} | "
                f"{row['width_over_spread']:.2f} | {row['zero_width']} | {row['boundary']} |"
            )
    peek = ["| design | looks | t: score, difference | sequence: score, difference |", "|---|---|---|---|"]
    for r in results:
        t, s = r["peeking"]["t"], r["peeking"]["sequence"]
        peek.append(
            f"| {r['design']['name']} | {', '.join(map(str, r['looks']))} | {t['score']:.1%}, "
            f"{t['difference']:.1%} | {s['score']:.1%} ± {s['score two_se']:.1%}, "
            f"{s['difference']:.1%} ± {s['difference two_se']:.1%} |"
        )
    verdict = ["| design | statistic | share of tournaments |", "|---|---|---|"]
    for r in results:
        verdict += [f"| {r['design']['name']} | {k} | {v:.1%} |" for k, v in r["verdicts"].items()]
    forecast = [
        "| design | forecast ÷ deals needed: 10th, 50th, 90th percentile | printed 80% range held it |",
        "|---|---|---|",
    ]
    for r in results:
        f = r["forecast"]
        if f:
            forecast.append(
                f"| {r['design']['name']} | {f['p10']:.2f}, {f['median']:.2f}, {f['p90']:.2f} | {f['range_held']:.1%} |"
            )
    seconds = ["| design | seconds |", "|---|---|"] + [f"| {r['design']['name']} | {r['seconds']} |" for r in results]
    return "\n\n".join("\n".join(t) for t in (lines, peek, verdict, forecast, seconds)) + "\n"


def summary(results: Iterable[dict[str, Any]]) -> str:
    """The compact tables of docs/statistics.md (:func:`summary_tables`), one after the other."""
    return "\n\n".join(summary_tables(results).values()) + "\n"


def summary_tables(results: Iterable[dict[str, Any]]) -> dict[str, str]:
    """The compact tables of docs/statistics.md: t coverage per design and size (score, win rate, difference, each
    ± 2·SE), the confidence sequences under peeking, false verdicts in A/A designs and the forecast."""
    results = list(results)
    cell = "{coverage:.1%} ± {two_se:.1%}"
    lines = [
        "| design | deals | score | win rate | difference | worst | width ÷ 3.92·sd | width 0 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for deals in sorted({row["deals"] for row in r["rows"]}):
            rows = {row["statistic"]: row for row in r["rows"] if row["method"] == "t" and row["deals"] == deals}
            lines.append(
                f"| {r['design']['name']} | {deals} | "
                + " | ".join(cell.format(**rows[k]) for k in KINDS)
                + f" | {min(rows[k]['worst_name'] for k in KINDS):.1%} | {rows['score']['width_over_spread']:.2f} | "
                f"{rows['score']['zero_width']} |"
            )
    peek = [
        "| design | looks | t: score, difference | sequence: score | sequence: difference | sequence width ÷ t |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        t, s = r["peeking"]["t"], r["peeking"]["sequence"]
        ratio = _width_ratio(r["rows"])
        peek.append(
            f"| {r['design']['name']} | {', '.join(map(str, r['looks']))} | {t['score']:.1%}, {t['difference']:.1%} | "
            f"{s['score']:.1%} ± {s['score two_se']:.1%} | {s['difference']:.1%} ± {s['difference two_se']:.1%} | "
            f"{ratio} |"
        )
    verdict = ["| design | looks | t, unadjusted | t, Holm | sequence, Holm |", "|---|---|---|---|---|"]
    for r in results:
        v = r["verdicts"]
        for look in [*map(str, r["looks"]), "any look"] if v else []:
            verdict.append(
                f"| {r['design']['name']} | {look} | {v[f't {look} unadjusted']:.1%} | {v[f't {look} Holm']:.1%} | "
                f"{v[f'sequence {look} Holm']:.1%} |"
            )
    forecast = ["| design | forecast ÷ deals needed: 10th, 50th, 90th percentile | 80% range held |", "|---|---|---|"]
    for r in results:
        f = r["forecast"]
        forecast.append(
            f"| {r['design']['name']} | {f['p10']:.2f}, {f['median']:.2f}, {f['p90']:.2f} | {f['range_held']:.1%} |"
        )
    tables = {"t": lines, "peek": peek, "verdicts": verdict, "forecast": forecast}
    return {name: "\n".join(rows) for name, rows in tables.items()}


def _width_ratio(rows: list[dict[str, Any]]) -> str:
    """Mean width of the sequence's score intervals over the t intervals', at each size."""
    found = []
    for deals in sorted({row["deals"] for row in rows}):
        by = {row["method"]: row for row in rows if row["statistic"] == "score" and row["deals"] == deals}
        found.append(f"{by['sequence']['width_over_spread'] / by['t']['width_over_spread']:.2f}")
    return ", ".join(found)
