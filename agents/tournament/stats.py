"""Tournament statistics with honest uncertainty.

Every reported number is a **ratio of sums** over games (a mean score is the sum of an entrant's scores over
the number of seats it played), and every interval treats the **deal** as the independent unit (its seatings
share the cards), within the strata of the design's lineup cycle where lineups rotate from deal to deal. See
:mod:`agents.tournament.intervals` for the interval (a t interval on the deals' linearised influences) and
``docs/statistics.md`` for its measured coverage.

* mean score: the env's return (the game's own objective), per seat played;
* paired difference: for two entrants, mean score of one minus the other, each mean over every deal it played;
  their deal-by-deal contributions are differenced, so the luck of the deals both played cancels (deals only one
  played add their own variance). Verdicts ("A better") are Holm-adjusted over all pairs;
* win rate: share of games with the best return at the table; a ``k``-way tie for best counts ``1/k`` each,
  so an entrant no better than the others wins ``1/n`` (in a team game the unit is the side: every seat of
  the winning side wins);
* mean place: the game's finishing place (1 = best; ties share the mean place);
* head-to-head: for two entrants at the same table (different sides), the share of games in which the row
  entrant scored more than the column entrant, ties counting ½;
* seat bias: mean score and win rate per seat over all entrants (with duplicate deals every entrant sits in
  every seat equally often, so the seat effect is not confounded with who sat there);
* game metrics: per entrant, the ratios of summed event counters (bluff rate, challenge precision, …);
* games needed: the number of games for the interval of a mean score to shrink to a requested width (the
  standard error falls as ``1/√deals``, the t quantile with the degrees of freedom), with the 80% range that the
  measured variance's own uncertainty leaves; and per pair, the games to detect a difference of a given size
  (:mod:`agents.tournament.planning`).

A statistic that occurs in fewer than :data:`~agents.tournament.intervals.MIN_UNITS` deals gets no interval:
the report prints ``n/a (k deals)``. Every interval knows its outcome's range (scores: the returns seen in the
tournament; win rates and head-to-head shares: 0 to 1; places: 1 to the seats), which sets the boundary
adjustment (a floor for deals that all agree, an inflation near the ends of the range) and clips the interval.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardenvs.agents.tournament.intervals import (
    MIN_UNITS,
    Estimate,
    Method,
    Outcome,
    boundary_inflation,
    p_value,
    ratio_difference,
    ratio_intervals,
)
from cardenvs.agents.tournament.metrics import Ratio
from cardenvs.agents.tournament.planning import deals_to_detect, needed_range, units_needed
from cardenvs.agents.tournament.worker import GameRecord

Key = tuple[Any, ...]


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
    games_needed_range: tuple[int, int] = (0, 0)
    """Its 80% range from the uncertainty of the measured variance ((0, 0): none)."""


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
    differences: dict[tuple[str, str], Estimate]
    """(a, b) → mean score of a minus mean score of b, each over every deal it played, paired deal by deal; one
    key per unordered pair, ``a`` before ``b`` in entrant order."""
    seats: list[SeatStats]
    metric_ratios: list[Ratio]
    target_width: float
    confidence: float
    method: Method
    cycle_length: int
    """Deals per lineup cycle: the strata of the intervals (1: no strata)."""
    adjusted_p: dict[tuple[str, str], float] = field(default_factory=dict)
    """Per key of ``differences``: Holm-adjusted p-value of "no difference" over all pairs with an interval."""
    detect_difference: float = 0.0
    """The difference :attr:`games_to_detect` is for."""
    games_to_detect: dict[tuple[str, str], int | None] = field(default_factory=dict)
    """Per key of ``differences``: games (whole tournament) to detect a difference of ``detect_difference``."""

    def ranked(self) -> list[str]:
        """Entrants by mean score, best first (entrants without games last)."""

        def key(label: str) -> float:
            value = self.entrant_stats[label].score.value
            return -value if not math.isnan(value) else math.inf

        return sorted(self.entrants, key=key)

    def difference(self, a: str, b: str) -> Estimate:
        """Mean score of ``a`` minus ``b`` (either order)."""
        if (a, b) in self.differences:
            return self.differences[(a, b)]
        return self.differences[(b, a)].negated()

    def separated(self, a: str, b: str) -> bool:
        """``a`` and ``b`` differ at the tournament's confidence after Holm's adjustment over all pairs."""
        p = self.adjusted_p.get((a, b), self.adjusted_p.get((b, a), math.nan))
        return p < 1 - self.confidence


def holm(p_values: dict[Any, float]) -> dict[Any, float]:
    """Holm's step-down adjusted p-values (NaN ones are left out of the family and stay NaN): the ``i``-th
    smallest of ``m`` becomes ``max_{j ≤ i} min(1, (m − j + 1) p_(j))``, so "adjusted p < α" keeps the chance of
    any false verdict at most α."""
    tested = sorted((p, key) for key, p in p_values.items() if not math.isnan(p))
    adjusted = {key: math.nan for key in p_values}
    running = 0.0
    for i, (p, key) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - i) * p))
        adjusted[key] = running
    return adjusted


class _Columns:
    """Accumulates, per deal, numerator and denominator columns of named ratios."""

    def __init__(self, deals: Sequence[int], cycle_length: int):
        self.row_of = {d: i for i, d in enumerate(deals)}
        self.strata = np.array([d % cycle_length for d in deals], dtype=np.int64) if cycle_length > 1 else None
        self.num: dict[Key, np.ndarray] = {}
        self.den: dict[Key, np.ndarray] = {}
        self.outcomes: dict[Key, Outcome] = {}
        """Each key's seat-game outcome (for the boundary floor)."""
        self.seen: dict[Key, list[float]] = {}
        """Seat-game values per kind (``key[0]``, or a metric's key without the entrant)."""

    def add(self, key: Key, deal: int, numerator: float, denominator: float) -> None:
        if key not in self.num:
            self.num[key] = np.zeros(len(self.row_of))
            self.den[key] = np.zeros(len(self.row_of))
        i = self.row_of[deal]
        self.num[key][i] += numerator
        self.den[key][i] += denominator
        if denominator:
            self.seen.setdefault(_kind(key), []).append(numerator / denominator)

    def arrays(self, keys: Sequence[Key]) -> tuple[np.ndarray, np.ndarray]:
        """``(units, len(keys))`` numerator and denominator sums."""
        return np.stack([self.num[k] for k in keys], axis=1), np.stack([self.den[k] for k in keys], axis=1)

    def estimates(
        self, confidence: float, method: Method, rng: np.random.Generator, resamples: int, min_units: int
    ) -> dict[Key, Estimate]:
        keys = list(self.num)
        if not keys:
            return {}
        num, den = self.arrays(keys)
        outcomes = [self.outcomes[k] for k in keys]
        found = ratio_intervals(
            num,
            den,
            confidence,
            strata=self.strata,
            method=method,
            rng=rng,
            resamples=resamples,
            min_units=min_units,
            outcomes=outcomes,
            groups=[_kind(k) for k in keys],
        )
        return dict(zip(keys, found, strict=True))


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


def analyse(
    records: Sequence[GameRecord],
    entrants: Sequence[str],
    metric_ratios: Sequence[Ratio] = (),
    *,
    cycle_length: int = 1,
    confidence: float = 0.95,
    target_width: float = 0.1,
    sides: Sequence[Sequence[int]] | None = None,
    method: Method = "t",
    resamples: int = 1000,
    seed: int = 0,
    min_units: int = MIN_UNITS,
    detect_difference: float | None = None,
) -> TournamentStats:
    """All statistics of a tournament's games (ordered as stored, so results never depend on finishing order).

    ``cycle_length``: deals per lineup cycle (``Schedule.cycle_length``); deal ``d`` is in stratum ``d % cycle``.
    ``sides``: the partner groups of a team game (a win is shared by the seats of the winning side).
    ``method``: ``"t"`` (default), ``"sequence"`` (anytime-valid) or ``"bootstrap"`` (percentile, ``resamples``
    draws seeded by ``seed``; paired differences stay t intervals).
    ``min_units``: fewest deals behind an interval (lowered only to study the intervals themselves).
    ``detect_difference``: the difference whose games to detect are forecast (default: ``target_width``)."""
    if cycle_length < 1:
        raise ValueError(f"cycle_length counts the deals of a lineup cycle, at least 1; got {cycle_length}")
    deals = sorted({r.deal for r in records})
    cols = _Columns(deals, cycle_length)
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
                counted = counters.get(ratio.numerator, 0.0), counters.get(ratio.denominator, 0.0)  # 0/0: not counted
                cols.add(("metric", label, ratio.name), r.deal, *counted)
            for other, other_label in enumerate(r.seats):
                if other_label != label:
                    a, b = r.returns[seat], r.returns[other]
                    cols.add(("h2h", label, other_label), r.deal, 1.0 if a > b else 0.5 if a == b else 0.0, 1)
    seats = max((len(r.seats) for r in records), default=1)
    kinds = {kind: _outcome(kind, values, seats) for kind, values in cols.seen.items()}
    cols.outcomes = {key: kinds.get(_kind(key), Outcome(0.0, 0.0)) for key in cols.num}
    rng = np.random.default_rng([seed, 0xB007])
    est = cols.estimates(confidence, method, rng, resamples, min_units)
    missing = Estimate(math.nan, math.nan, math.nan, 0, 0)
    paired: Method = "t" if method == "bootstrap" else method

    def games(needed: int | None, units: int) -> int | None:
        """Games of the whole tournament for a statistic seen in ``units`` of its deals to have ``needed``."""
        return None if needed is None or not units else math.ceil(needed / units * len(records))

    per_entrant = {}
    for label in entrants:
        score = est.get(("score", label), missing)
        low, high = needed_range(score, target_width, confidence, paired)
        per_entrant[label] = EntrantStats(
            label=label,
            seat_games=int(score.n),
            score=score,
            win_rate=est.get(("win", label), missing),
            place=est.get(("place", label), missing),
            metrics={m.name: est.get(("metric", label, m.name), missing) for m in metric_ratios},
            games_needed=games(units_needed(score, target_width, confidence, paired), score.units),
            games_needed_range=(games(low, score.units) or 0, games(high, score.units) or 0),
        )
    score_inflation = _largest_inflation(cols, ("score",), kinds.get(("score",)))
    differences = {}
    for first, second in itertools.combinations(entrants, 2):
        if ("score", first) in cols.num and ("score", second) in cols.num:
            num, den = cols.arrays([("score", first), ("score", second)])
            differences[(first, second)] = ratio_difference(
                num,
                den,
                confidence,
                strata=cols.strata,
                min_units=min_units,
                outcome=kinds.get(("score",)),
                method=paired,
                inflation=score_inflation,
            )
    detect = target_width if detect_difference is None else detect_difference
    num_seats = len(records[0].seats) if records else 0
    return TournamentStats(
        entrants=list(entrants),
        num_games=len(records),
        num_deals=len(deals),
        truncated=sum(r.truncated for r in records),
        entrant_stats=per_entrant,
        head_to_head={(k[1], k[2]): v for k, v in est.items() if k[0] == "h2h"},
        differences=differences,
        seats=[
            SeatStats(s, est.get(("seat_score", s), missing), est.get(("seat_win", s), missing))
            for s in range(num_seats)
        ],
        metric_ratios=list(metric_ratios),
        target_width=target_width,
        confidence=confidence,
        method=method,
        cycle_length=cycle_length,
        adjusted_p=holm({pair: p_value(e, paired) for pair, e in differences.items()}),
        detect_difference=detect,
        games_to_detect={
            pair: games(deals_to_detect(e, detect, confidence, paired), e.units) for pair, e in differences.items()
        },
    )


def _largest_inflation(cols: _Columns, kind: Key, outcome: Outcome | None) -> float:
    """The largest :func:`boundary_inflation` among the columns of one kind (1 without an outcome)."""
    if outcome is None:
        return 1.0
    found = [
        boundary_inflation(float(cols.num[k].sum() / cols.den[k].sum()), float(cols.den[k].sum()), outcome)
        for k in cols.num
        if _kind(k) == kind and cols.den[k].sum()
    ]
    return max(found, default=1.0)


def _kind(key: Key) -> Key:
    """The kind of statistic a key counts (a metric by its name), whatever the entrant."""
    return ("metric", key[2]) if key[0] == "metric" else key[:1]


def _outcome(kind: Key, values: list[float], seats: int) -> Outcome:
    """A kind's seat-game outcome: scores span the values seen; shares 0 to 1; places 1 to the seats; a metric
    the values seen and 0 to 1; with the standard deviation of the values seen."""
    low, high = min(values), max(values)
    if kind[0] in ("win", "seat_win", "h2h"):
        low, high = 0.0, 1.0
    elif kind[0] == "place":
        low, high = 1.0, float(seats)
    elif kind[0] == "metric":
        low, high = min(low, 0.0), max(high, 1.0)
    return Outcome(low, high, float(np.std(values)))
