"""What a tournament report says about its intervals: the method, when they hold, and the marks on them."""

from __future__ import annotations

from cardenvs.agents.tournament.intervals import MIN_UNITS, Estimate
from cardenvs.agents.tournament.stats import TournamentStats

FLOOR_MARK = " †"
"""Marks an interval whose width the boundary floor set (the deals showed no or almost no variance)."""


def marked(estimate: Estimate, digits: int = 3) -> str:
    return estimate.text(digits) + (FLOOR_MARK if estimate.boundary and estimate.has_interval else "")


def interval_notes(stats: TournamentStats, policy_seeds: str, docs: str) -> list[str]:
    """What the intervals are, and the notes that apply to this tournament's."""
    pct = round(stats.confidence * 100)
    method = {
        "t": "fixed-size t intervals on the deals' linearised influences (Welch–Satterthwaite degrees of freedom)",
        "sequence": "anytime-valid confidence sequences (normal mixture) on the deals' linearised influences",
        "bootstrap": "percentile bootstrap over deals (paired differences: t intervals)",
    }[stats.method]
    strata = f", variance within the {stats.cycle_length} strata of the lineup cycle" if stats.cycle_length > 1 else ""
    seeds = (
        "policies draw common random numbers per deal and seat"
        if policy_seeds == "common"
        else "each entrant draws its own random numbers"
    )
    notes = [
        f"Intervals: {pct}% {method}{strata}; none from fewer than {MIN_UNITS} deals (`n/a (k deals)`); "
        f"{seeds}. Methods: see `{docs}`."
    ]
    if stats.method == "sequence":
        notes.append(
            "These intervals hold at every number of games at once: they stay valid if the tournament is stopped or "
            "extended because of what it showed (wider than fixed-size intervals: about 1.6× at 10 deals)."
        )
    else:
        notes.append(
            "These intervals are for a number of games fixed in advance. If this tournament was extended (or will "
            "be stopped) because of what it showed, use `--interval sequence` (anytime-valid) instead."
        )
    estimates = every_estimate(stats)
    if any(e.boundary and e.has_interval for e in estimates):
        notes.append(
            f"`{FLOOR_MARK.strip()}`: the deals showed (almost) no variance, so the width is the boundary floor "
            "(a plus-four sample at the ends of the outcome's range), clipped to that range: a finite sample never "
            "proves that an outcome cannot happen."
        )
    if any(e.pooled for e in estimates):
        notes.append("Some lineup strata hold a single deal: their variances are pooled over all deals.")
    return notes


def every_estimate(stats: TournamentStats) -> list[Estimate]:
    found = [*stats.differences.values(), *stats.head_to_head.values()]
    for s in stats.entrant_stats.values():
        found += [s.score, s.win_rate, s.place, *s.metrics.values()]
    return found + [e for seat in stats.seats for e in (seat.score, seat.win_rate)]


def extension_notice(stored_games: int, games: int, method: str) -> str:
    """What to tell the user who extends a finished tournament: which kind of interval the report prints."""
    if method == "sequence":
        kind = "anytime-valid confidence sequences, which stay valid when a tournament is extended"
    else:
        kind = (
            "fixed-size intervals, valid only if the number of games was not chosen after looking at the results; "
            "for intervals that are, rerun with --interval sequence"
        )
    return f"extended a finished tournament of {stored_games} games to {games}: the report prints {kind}"
