"""Simulated tournaments: do the intervals cover the truth, and are they as wide as the spread?

In an A/A design every entrant is a copy of ``random`` drawing its own random numbers
(``policy_seeds="independent"``), so every mean score and every paired difference has a known true value: 0 in
a zero-sum game. Designs with unequal entrants check the width against the spread (the truth there is the mean
over all replications). A replication is one
tournament of ``max(deals)`` deals; its first ``d`` deals (rounded up to whole lineup cycles) give the row for
``d``. Over the replications we count how often the interval holds the truth (coverage), compare the mean
width with ``2 · 1.96 ·`` the spread of the estimate between replications, and check the "games needed"
forecast made at 10 deals against the width reached at the largest size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from cardenvs.agents.tournament.intervals import Estimate, Method, units_needed
from cardenvs.agents.tournament.runner import Tournament
from cardenvs.agents.tournament.stats import TournamentStats, analyse
from cardenvs.agents.tournament.worker import GamePlayer, GameRecord


@dataclass(frozen=True)
class Design:
    """A tournament design: its game, its entrants (policy specs) and whether partners are one entrant."""

    name: str
    env_id: str
    options: dict[str, Any]
    policies: tuple[str, ...]
    teams: bool = False

    @property
    def copies(self) -> bool:
        """An A/A design: every entrant the same policy, so every true score and difference is known."""
        return len(set(self.policies)) == 1

    def tournament(self, seed: int) -> Tournament:
        labels = [f"e{i}={spec}" for i, spec in enumerate(self.policies)]
        return Tournament(
            self.env_id, labels, options=self.options, seed=seed, teams=self.teams, policy_seeds="independent"
        )


KYUURI_DEAL = {"num_players": 3, "episode": "deal"}
DESIGNS = (
    Design("all at the table (3 entrants, 3 seats)", "kyuuri-v0", KYUURI_DEAL, ("random",) * 3),
    Design("rotating lineups (2 entrants, 3 seats)", "kyuuri-v0", KYUURI_DEAL, ("random",) * 2),
    Design("more entrants than seats (4 entrants, 3 seats)", "kyuuri-v0", KYUURI_DEAL, ("random",) * 4),
    Design(
        "teams (2 entrants, 2 v 2)",
        "zheng_shang_you-v0",
        {"num_players": 4, "team_mode": "partners", "episode": "deal"},
        ("random",) * 2,
        teams=True,
    ),
    Design(
        "rotating lineups, unequal (thrifty vs random, 3 seats)",
        "kyuuri-v0",
        {"num_players": 3},
        ("kyuuri/thrifty", "random"),
    ),
    Design(
        "all at the table, Verish (3 entrants, 3 seats)", "verish_ne_verish-v0", {"num_players": 3}, ("random",) * 3
    ),
)
SIZES = (5, 10, 20, 40)
METHODS: dict[str, tuple[Method, bool]] = {
    "t, strata (default)": ("t", True),
    "percentile bootstrap, deals (before)": ("bootstrap", False),
}


def play_replication(design: Design, seed: int, deals: int) -> list[GameRecord]:
    """The games of one tournament of ``deals`` deals (whole lineup cycles)."""
    tournament = design.tournament(seed)
    cycle = tournament.schedule.cycle_length()
    deals = math.ceil(deals / cycle) * cycle
    player = GamePlayer(tournament.setup())
    return [player.play(job) for deal in range(deals) for job in tournament.schedule.deal_jobs(deal)]


def _estimates(stats: TournamentStats) -> dict[tuple[str, str], Estimate]:
    """(kind, name) → estimate, for every entrant's score and every pair's paired difference."""
    found = {("score", label): stats.entrant_stats[label].score for label in stats.entrants}
    found |= {("difference", f"{a} − {b}"): e for (a, b), e in stats.differences.items()}
    return found


def study_design(
    design: Design,
    replications: int,
    workers: int = 2,
    sizes: Sequence[int] = SIZES,
    methods: Sequence[str] = tuple(METHODS),
) -> dict[str, Any]:
    """Coverage, width over spread and the games-needed forecast of one design over replications.

    The truth is 0 in an A/A design (a zero-sum game); otherwise the mean of the estimates at the largest size
    over all replications stands in for it."""
    arguments = ([design] * replications, range(replications), [max(sizes)] * replications)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            runs = list(pool.map(play_replication, *arguments))
    else:
        runs = list(map(play_replication, *arguments))
    tournament = design.tournament(0)
    cycle = tournament.schedule.cycle_length()
    labels = [e.label for e in tournament.entrants]
    found: dict[tuple[str, str, int], dict[tuple[str, str], list[Estimate]]] = {}
    forecasts = []
    for records in runs:
        by_size = {}
        for size in sizes:
            deals = math.ceil(size / cycle) * cycle
            chosen = [r for r in records if r.deal < deals]
            for method in methods:
                how, stratified = METHODS[method]
                stats = analyse(
                    chosen, labels, cycle_length=cycle if stratified else 1, method=how, resamples=500, min_units=2
                )
                for (kind, name), e in _estimates(stats).items():
                    if kind == "difference" and how != "t":
                        continue  # paired differences are always t intervals
                    found.setdefault((method, kind, deals), {}).setdefault((kind, name), []).append(e)
                if how == "t":
                    by_size[size] = stats
        forecasts.append(_forecast(by_size, sizes))
    largest = math.ceil(max(sizes) / cycle) * cycle
    first = methods[0]
    at_largest = found[(first, "score", largest)] | found[(first, "difference", largest)]
    truth = {
        key: 0.0 if design.copies else float(np.mean([e.value for e in estimates]))
        for key, estimates in at_largest.items()
    }
    rows = [_row(method, kind, deals, per_name, truth) for (method, kind, deals), per_name in sorted(found.items())]
    ratios = [f for f in forecasts if f is not None]
    return {
        "design": asdict(design),
        "replications": replications,
        "cycle_length": cycle,
        "rows": rows,
        "games_needed": {
            "forecast_over_actual_mean": float(np.mean(ratios)),
            "forecast_over_actual_median": float(np.median(ratios)),
        },
    }


def _row(
    method: str, kind: str, deals: int, per_name: dict[tuple[str, str], list[Estimate]], truth: dict[Any, float]
) -> dict[str, Any]:
    """Coverage over every name's replications; width over spread averaged over names."""
    covered = intervals = 0
    ratios = []
    for key, estimates in per_name.items():
        with_interval = [e for e in estimates if e.has_interval]
        intervals += len(with_interval)
        covered += sum(e.low <= truth[key] <= e.high for e in with_interval)
        spread = 2 * 1.96 * float(np.std([e.value for e in estimates], ddof=1))
        if with_interval and spread > 0:
            ratios.append(float(np.mean([e.width for e in with_interval])) / spread)
    return {
        "method": method,
        "statistic": kind,
        "deals": deals,
        "coverage": covered / intervals if intervals else math.nan,
        "intervals": intervals,
        "width_over_spread": float(np.mean(ratios)) if ratios else math.nan,
    }


def _forecast(by_size: dict[int, TournamentStats], sizes: Sequence[int]) -> float | None:
    """Deals forecast at 10 deals for the width the largest size reached, over the deals it took (averaged over
    entrants)."""
    small, large = by_size[10], by_size[max(sizes)]
    ratios = []
    for label in small.entrants:
        now, then = small.entrant_stats[label].score, large.entrant_stats[label].score
        needed = units_needed(now, then.width, small.confidence)
        if needed is not None:
            ratios.append(needed / then.units)
    return float(np.mean(ratios)) if ratios else None


def markdown(results: Iterable[dict[str, Any]]) -> str:
    """The coverage table and the width and forecast checks, as Markdown."""
    lines = [
        "| design | interval | statistic | deals | coverage | width ÷ (3.92·sd) |",
        "|---|---|---|---|---|---|",
    ]
    forecast_lines = ["| design | forecast at 10 deals ÷ deals that reached the width (mean, median) |", "|---|---|"]
    for result in results:
        name = result["design"]["name"]
        for row in result["rows"]:
            lines.append(
                f"| {name} | {row['method']} | {row['statistic']} | {row['deals']} | "
                f"{row['coverage']:.1%} ({row['intervals']}) | {row['width_over_spread']:.2f} |"
            )
        g = result["games_needed"]
        forecast_lines.append(
            f"| {name} | {g['forecast_over_actual_mean']:.2f}, {g['forecast_over_actual_median']:.2f} |"
        )
    return "\n".join(lines) + "\n\n" + "\n".join(forecast_lines) + "\n"
