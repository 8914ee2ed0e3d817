"""Tournament statistics with honest uncertainty.

Every reported number is a **ratio of sums** over games (a mean score is the sum of an entrant's scores over
the number of seats it played), and every interval is a **cluster bootstrap over deals**: the games of one
deal share their cards, so they are not independent, and the deal is the unit that is resampled. Percentile
intervals; ``resamples`` and ``confidence`` are parameters.

* mean score: the env's return (the game's own objective), per seat played;
* win rate: share of games with the best return at the table; a ``k``-way tie for best counts ``1/k`` each,
  so an entrant no better than the others wins ``1/n`` (in a team game the unit is the side: every seat of
  the winning side wins);
* mean place: the game's finishing place (1 = best; ties share the mean place);
* head-to-head: for two entrants at the same table (different sides), the share of games in which the row
  entrant scored more than the column entrant, ties counting ½;
* seat bias: mean score and win rate per seat over all entrants (with duplicate deals every entrant sits in
  every seat equally often, so the seat effect is not confounded with who sat there);
* game metrics: per entrant, the ratios of summed event counters (bluff rate, challenge precision, …);
* games needed: the number of games for the interval of a mean score to shrink to a requested width,
  from the ``1/sqrt(games)`` law applied to the measured interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.tournament.metrics import Ratio
from agents.tournament.worker import GameRecord

Key = tuple[Any, ...]
BOOTSTRAP_BLOCK = 256
"""Resamples computed at once (bounds memory to a block × deals weight matrix)."""


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its bootstrap interval and the number of observations behind it."""

    value: float
    low: float
    high: float
    n: float

    @property
    def width(self) -> float:
        return self.high - self.low

    def text(self, digits: int = 3) -> str:
        if math.isnan(self.value):
            return "—"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


@dataclass
class EntrantStats:
    """The main statistics of one entrant."""

    label: str
    seat_games: int
    """Seats played (an entrant in two seats of one game counts twice)."""
    score: Estimate
    win_rate: Estimate
    place: Estimate
    metrics: dict[str, Estimate] = field(default_factory=dict)
    games_needed: int | None = None
    """Games (whole tournament) for the score interval to reach the target width."""


@dataclass
class SeatStats:
    seat: int
    score: Estimate
    win_rate: Estimate


@dataclass
class TournamentStats:
    """Everything the report shows, computed from the stored games."""

    entrants: list[str]
    num_games: int
    num_deals: int
    truncated: int
    entrant_stats: dict[str, EntrantStats]
    head_to_head: dict[tuple[str, str], Estimate]
    """(row, column) → share of games in which row outscored column (absent if they never met)."""
    seats: list[SeatStats]
    metric_ratios: list[Ratio]
    target_width: float
    confidence: float
    resamples: int


class _Columns:
    """Accumulates, per deal, numerator and denominator columns of named ratios."""

    def __init__(self, deals: Sequence[int]):
        self.row_of = {d: i for i, d in enumerate(deals)}
        self.num: dict[Key, np.ndarray] = {}
        self.den: dict[Key, np.ndarray] = {}

    def add(self, key: Key, deal: int, numerator: float, denominator: float) -> None:
        if key not in self.num:
            self.num[key] = np.zeros(len(self.row_of))
            self.den[key] = np.zeros(len(self.row_of))
        i = self.row_of[deal]
        self.num[key][i] += numerator
        self.den[key][i] += denominator

    def estimates(self, rng: np.random.Generator, resamples: int, confidence: float) -> dict[Key, Estimate]:
        keys = list(self.num)
        if not keys:
            return {}
        num = np.stack([self.num[k] for k in keys], axis=1)
        den = np.stack([self.den[k] for k in keys], axis=1)
        values, lows, highs = cluster_bootstrap(num, den, rng, resamples, confidence)
        totals = den.sum(axis=0)
        return {k: Estimate(values[j], lows[j], highs[j], float(totals[j])) for j, k in enumerate(keys)}


def cluster_bootstrap(
    num: np.ndarray, den: np.ndarray, rng: np.random.Generator, resamples: int, confidence: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratios ``sum(num) / sum(den)`` per column with percentile intervals from resampling rows (clusters).

    ``num`` and ``den`` are ``(clusters, columns)``; returns (estimates, lows, highs). A column whose
    denominator is zero in a resample ignores that resample; one that is zero overall is NaN."""
    estimate = _ratios(num, den)
    if num.shape[0] < 2:
        return estimate, np.full_like(estimate, np.nan), np.full_like(estimate, np.nan)
    low, high = _percentiles(_resampled_ratios(num, den, rng, resamples), confidence)
    return estimate, low, high


def ratio_difference(
    num: np.ndarray, den: np.ndarray, rng: np.random.Generator, resamples: int, confidence: float
) -> Estimate:
    """``ratio(column 0) − ratio(column 1)`` of ``(clusters, 2)`` arrays, resampled in pairs (the same clusters
    for both), so a duplicate tournament's shared deals cancel out of the interval."""
    ratios = _ratios(num, den)
    value = float(ratios[0] - ratios[1])
    if num.shape[0] < 2:
        return Estimate(value, math.nan, math.nan, float(den.sum()))
    draws = _resampled_ratios(num, den, rng, resamples)
    low, high = _percentiles(draws[:, :1] - draws[:, 1:], confidence)
    return Estimate(value, float(low[0]), float(high[0]), float(den.sum()))


def _ratios(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``sum(num) / sum(den)`` per column (NaN where the denominator is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(num.sum(axis=0) / den.sum(axis=0))


def _resampled_ratios(num: np.ndarray, den: np.ndarray, rng: np.random.Generator, resamples: int) -> np.ndarray:
    """``(resamples, columns)`` ratios, each from the clusters (rows) drawn with replacement."""
    clusters = num.shape[0]
    draws = []
    for start in range(0, resamples, BOOTSTRAP_BLOCK):
        block = min(BOOTSTRAP_BLOCK, resamples - start)
        weights = rng.multinomial(clusters, np.full(clusters, 1.0 / clusters), size=block).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            draws.append((weights @ num) / (weights @ den))
    return np.concatenate(draws)


def _percentiles(sample: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The two-sided percentile interval per column; NaN where every draw is NaN."""
    tail = (1.0 - confidence) / 2 * 100
    all_nan = np.all(np.isnan(sample), axis=0)
    sample[:, all_nan] = 0.0  # keeps nanpercentile quiet; those columns are reported as NaN below
    low, high = np.nanpercentile(sample, [tail, 100 - tail], axis=0)
    low[all_nan] = high[all_nan] = np.nan
    return low, high


def win_shares(returns: Sequence[float], sides: Sequence[Sequence[int]] | None = None) -> list[float]:
    """1/k for each seat of the k sides with the best return, 0 for the others.

    ``sides`` groups partners (a side's return is its seats' mean); by default every seat is a side."""
    groups = sides if sides is not None else [(seat,) for seat in range(len(returns))]
    results = [sum(returns[s] for s in side) / len(side) for side in groups]
    best = max(results)
    winners = sum(r == best for r in results)
    shares = [0.0] * len(returns)
    for side, result in zip(groups, results, strict=True):
        for seat in side:
            shares[seat] = 1.0 / winners if result == best else 0.0
    return shares


def games_needed(current_games: int, current_width: float, target_width: float) -> int | None:
    """Games for an interval of ``current_width`` (measured on ``current_games``) to shrink to ``target_width``."""
    if not current_games or not math.isfinite(current_width) or current_width <= 0 or target_width <= 0:
        return None
    return math.ceil(current_games * (current_width / target_width) ** 2)


def analyse(
    records: Sequence[GameRecord],
    entrants: Sequence[str],
    metric_ratios: Sequence[Ratio] = (),
    *,
    seed: int = 0,
    resamples: int = 1000,
    confidence: float = 0.95,
    target_width: float = 0.1,
    sides: Sequence[Sequence[int]] | None = None,
) -> TournamentStats:
    """All statistics of a tournament's games (ordered as stored, so results never depend on finishing order).

    ``sides``: the partner groups of a team game (a win is shared by the seats of the winning side)."""
    deals = sorted({r.deal for r in records})
    cols = _Columns(deals)
    for r in records:
        wins = win_shares(r.returns, sides)
        for seat, label in enumerate(r.seats):
            cols.add(("score", label), r.deal, r.returns[seat], 1)
            cols.add(("win", label), r.deal, wins[seat], 1)
            cols.add(("place", label), r.deal, r.places[seat], 1)
            cols.add(("seat_score", seat), r.deal, r.returns[seat], 1)
            cols.add(("seat_win", seat), r.deal, wins[seat], 1)
            for ratio in metric_ratios:
                counters = r.metrics[seat]
                cols.add(("metric", label, ratio.name), r.deal, counters[ratio.numerator], counters[ratio.denominator])
            for other, other_label in enumerate(r.seats):
                if other_label != label:
                    a, b = r.returns[seat], r.returns[other]
                    cols.add(("h2h", label, other_label), r.deal, 1.0 if a > b else 0.5 if a == b else 0.0, 1)
    est = cols.estimates(np.random.default_rng([seed, 0xB007]), resamples, confidence)
    missing = Estimate(math.nan, math.nan, math.nan, 0)
    num_games = len(records)
    per_entrant = {}
    for label in entrants:
        score = est.get(("score", label), missing)
        per_entrant[label] = EntrantStats(
            label=label,
            seat_games=int(score.n),
            score=score,
            win_rate=est.get(("win", label), missing),
            place=est.get(("place", label), missing),
            metrics={m.name: est.get(("metric", label, m.name), missing) for m in metric_ratios},
            games_needed=games_needed(num_games, score.width, target_width),
        )
    num_seats = len(records[0].seats) if records else 0
    return TournamentStats(
        entrants=list(entrants),
        num_games=num_games,
        num_deals=len(deals),
        truncated=sum(r.truncated for r in records),
        entrant_stats=per_entrant,
        head_to_head={(k[1], k[2]): v for k, v in est.items() if k[0] == "h2h"},
        seats=[
            SeatStats(s, est.get(("seat_score", s), missing), est.get(("seat_win", s), missing))
            for s in range(num_seats)
        ],
        metric_ratios=list(metric_ratios),
        target_width=target_width,
        confidence=confidence,
        resamples=resamples,
    )
