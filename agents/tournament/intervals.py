"""Confidence intervals for ratios of sums over independent units.

A tournament's unit is the deal: its seatings share the cards, so they are one unit; deals are independent.
Where lineups rotate from deal to deal (see :meth:`agents.tournament.schedule.Schedule.cycle_length`), which
lineup a deal has is fixed by the design, not drawn: deals with the same place in the lineup cycle form a
**stratum**, and variances are taken within strata (as a stratified sample's are). Treating the lineup as luck
would count the difference between lineups as noise (2–3× too wide, measured).

Every statistic is a ratio of sums over units, ``R = Σ num / Σ den`` (a mean score is scores over seats played).
Its interval (the default, ``"t"``) linearises the ratio: each unit's influence is ``(num − R·den) / Σ den``;
their variance within each stratum, with the ``k/(k−1)`` small-sample factor, gives the standard error, and
Student's t with the Welch–Satterthwaite degrees of freedom (strata of unequal variance count for less than
``Σ (k − 1)``) the half-width. Where a stratum holds a single deal (many lineups, few deals) the strata are
pooled: one variance over all deals, ``k − 1`` degrees of freedom (conservative where lineups differ).

**Boundaries.** Deals that all agree (a policy that never wins) have no sample variance, yet a finite sample never
proves a rate of 0. Given the outcome (:class:`Outcome`), the variance is never below that of a plus-four sample:
the deals, all alike, with two pseudo-deals like them and two that differ by one seat-game's spread
(:func:`boundary_floor`). Near a boundary a sample that did see the rare outcome still sees too little of it,
so the variance is also inflated by Agresti and Coull's factor (:func:`boundary_inflation`). The interval is
clipped to the outcome's range, and the estimate says where these adjustments widened it (``boundary``).

A paired difference of two ratios uses the difference of the two influences unit by unit, so what the units share
(the cards) cancels. ``"sequence"`` gives anytime-valid confidence sequences (:func:`sequence_multiplier`): they
hold however often a tournament is looked at and extended. ``"bootstrap"`` resamples deals within strata
(percentile interval); it is kept for comparison: its coverage at 5–10 units is lower (``docs/statistics.md``).

A statistic that occurs in fewer than :data:`MIN_UNITS` deals gets no interval (NaN), never a tight one from
too little data.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from cardenvs.agents.tournament.student import t_central, t_quantile, whole_df

Method = Literal["t", "bootstrap", "sequence"]
METHODS: tuple[Method, ...] = ("t", "bootstrap", "sequence")
MIN_UNITS = 5
"""Fewest units behind a reported interval: from 5 on, the measured coverage of the t interval is at least 93%
in every scheme (``docs/statistics.md``)."""
BOOTSTRAP_BLOCK = 256
"""Resamples computed at once (bounds memory to a block × units weight matrix)."""
SEQUENCE_SCALE = 10.0
"""Deals at which the confidence sequence's normal mixture is centred (``ρ = SEQUENCE_SCALE · σ²``): its
multiplier is 3.7 at 10 deals, 3.3 at 20, 3.1 at 40 and stays near 3 up to a few hundred deals."""
BOUNDARY_MARK = 1.1
"""Variance over the sample's from which an estimate counts as set by the boundary adjustment (5% wider)."""


@dataclass(frozen=True)
class Outcome:
    """What one seat-game's value (a score, a win share, …) can be: its range, and the spread seen."""

    low: float
    high: float
    sd: float = math.inf
    """Standard deviation of the seat-game values seen in the tournament (all entrants; ``inf``: unknown)."""

    @property
    def step(self) -> float:
        """One seat-game's spread: the range, or twice the standard deviation seen (the range of an even
        two-valued outcome with that spread) where that is less, as it is for outcomes spread over a wide range."""
        return min(self.high - self.low, 2 * self.sd)


@dataclass(frozen=True)
class Estimate:
    """A point estimate, its interval (NaN where there is none) and what stands behind it."""

    value: float
    low: float
    high: float
    n: float
    """The summed denominator (seats played, games met, …)."""
    units: int = 0
    """Deals (independent units) in which the statistic occurs."""
    df: float = 0.0
    """Degrees of freedom of the interval (Welch–Satterthwaite over strata; 0 without an interval)."""
    se: float = math.nan
    """Standard error behind the interval (after the boundary floor)."""
    boundary: bool = False
    """The boundary adjustment (floor or inflation, see the module docstring) widened the interval by over 5%."""
    pooled: bool = False
    """A lineup stratum held a single deal, so the variance was taken over all deals."""

    @property
    def width(self) -> float:
        return self.high - self.low

    @property
    def has_interval(self) -> bool:
        return not math.isnan(self.low)

    @property
    def excludes_zero(self) -> bool:
        """The interval lies entirely above or below 0."""
        return self.has_interval and (self.low > 0 or self.high < 0)

    def negated(self) -> Estimate:
        """The estimate of minus the statistic."""
        return Estimate(
            -self.value, -self.high, -self.low, self.n, self.units, self.df, self.se, self.boundary, self.pooled
        )

    def text(self, digits: int = 3) -> str:
        if math.isnan(self.value):
            return "—"
        if not self.has_interval:
            return f"{self.value:.{digits}f} [n/a ({self.units} deal{'s' if self.units != 1 else ''})]"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def sequence_multiplier(confidence: float, units: float) -> float:
    """Half-width over standard error of the two-sided normal-mixture confidence sequence (Howard, Ramdas,
    McAuliffe & Sekhon 2021, with the running variance estimate as in Waudby-Smith et al. 2021): with
    ``r = units / SEQUENCE_SCALE``, ``√((1 + 1/r) · log((1 + r) / α²))``. It covers the truth at every deal count
    at once with probability ``confidence`` (asymptotically), so stopping or extending on the result is fine."""
    r = units / SEQUENCE_SCALE
    return math.sqrt((1 + 1 / r) * math.log((1 + r) / (1 - confidence) ** 2))


def multiplier(method: Method, confidence: float, df: float, units: float) -> float:
    """Half-width over standard error: Student's t (fixed size) or the confidence sequence's (anytime)."""
    if method == "sequence":
        return sequence_multiplier(confidence, units)
    return t_quantile(confidence, whole_df(df))


def p_value(estimate: Estimate, method: Method = "t") -> float:
    """Two-sided p-value of "the statistic is 0" that matches the interval: ``P(|T| ≥ |value| / se)`` for t, the
    reciprocal of the normal-mixture martingale for a confidence sequence (valid at any stopping time)."""
    if not estimate.has_interval or math.isnan(estimate.se):
        return math.nan
    if estimate.se == 0:
        return 1.0 if estimate.value == 0 else 0.0
    z = abs(estimate.value) / estimate.se
    if method == "sequence":
        r = estimate.units / SEQUENCE_SCALE
        return min(1.0, math.sqrt(1 + r) * math.exp(-z * z * r / (2 * (1 + r))))
    return 1.0 - t_central(z, whole_df(estimate.df))


def ratios(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``Σ num / Σ den`` per column of ``(units, columns)`` arrays (NaN where the denominator is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(num.sum(axis=0) / den.sum(axis=0))


def influences(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Each unit's linearised contribution to each column's ratio: ``(num − R·den) / Σ den``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray((num - ratios(num, den) * den) / den.sum(axis=0))


@dataclass(frozen=True)
class Spread:
    """The variance of a statistic's influences summed over strata, and its degrees of freedom."""

    variance: float
    df: float
    pooled: bool


def stratified_spread(influence: np.ndarray, occurs: np.ndarray, strata: np.ndarray | None = None) -> Spread:
    """Variance within the strata where the statistic occurs (every unit of such a stratum counts), with
    Welch–Satterthwaite degrees of freedom ``(Σ v)² / Σ v²/(k−1)``; pooled over those strata where one of them
    holds a single unit (it has no variance of its own)."""
    labels = np.zeros(len(influence), dtype=np.int64) if strata is None else strata
    present = np.unique(labels[occurs])
    groups = [influence[labels == label] for label in present]
    pooled = len(groups) > 1 and min(len(z) for z in groups) < 2
    if pooled:
        groups = [influence[np.isin(labels, present)]]
    parts = [(len(z), len(z) / (len(z) - 1) * float(np.sum((z - z.mean()) ** 2))) for z in groups if len(z) > 1]
    variance = sum(v for _, v in parts)
    plain_df = float(sum(k - 1 for k, _ in parts))
    return Spread(variance, variance**2 / sum(v * v / (k - 1) for k, v in parts) if variance > 0 else plain_df, pooled)


def boundary_floor(units: int, seat_games: float, step: float) -> float:
    """Least variance of a ratio over ``units`` deals of ``seat_games`` in all, one seat-game spreading ``step``.

    Plus four, as Agresti and Coull add two successes and two failures: the deals, all alike, two pseudo-deals
    like them and two that differ from them by one seat-game's step (``δ = step · units / seat_games`` on a deal's
    mean). The variance of their mean, ``2 δ² (n + 2) / ((n + 4)(n + 3) n)``, is what a sample that showed no
    variance still leaves open (about ``1.4 δ / n`` as a standard error)."""
    if units < 1 or seat_games <= 0 or not step > 0:
        return 0.0
    delta = step * units / seat_games
    return 2 * delta * delta * (units + 2) / ((units + 4) * (units + 3) * units)


def interval(
    value: float,
    influence: np.ndarray,
    occurs: np.ndarray,
    confidence: float,
    *,
    strata: np.ndarray | None = None,
    n: float = 0.0,
    appearances: int | None = None,
    min_units: int = MIN_UNITS,
    floor: float = 0.0,
    inflation: float = 1.0,
    bounds: tuple[float, float] | None = None,
    method: Method = "t",
) -> Estimate:
    """The interval of a statistic from its units' influences (zero where it does not occur).

    ``strata`` (one label per unit) marks units of one design stratum (deals with the same lineup): the variance
    is then taken within strata. ``appearances`` (default: the units where it occurs) is what must reach
    ``min_units``. ``floor``: the least variance (:func:`boundary_floor`); ``inflation``: the sample variance's
    factor (:func:`boundary_inflation`); ``bounds``: the statistic's range, which the interval is clipped to.
    ``method``: ``"t"`` or ``"sequence"``."""
    appearances = int(occurs.sum()) if appearances is None else appearances
    missing = Estimate(value, math.nan, math.nan, n, appearances)
    if appearances < max(min_units, 2) or math.isnan(value):
        return missing
    spread = stratified_spread(influence, occurs, strata)
    variance, df = spread.variance * inflation, spread.df
    if floor > variance:
        variance, df = floor, float(occurs.sum() - 1)
    boundary = variance > BOUNDARY_MARK * spread.variance
    if df < 1:
        return missing
    se = math.sqrt(variance)
    half = multiplier(method, confidence, df, appearances) * se
    low, high = value - half, value + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Estimate(value, low, high, n, appearances, df, se, boundary, spread.pooled)


def boundary_inflation(value: float, seat_games: float, outcome: Outcome) -> float:
    """Agresti and Coull's factor for a variance near a boundary: ``p̃(1 − p̃) / p̂(1 − p̂)``, where ``p̂`` is the
    value's place in the outcome's range and ``p̃ = (N p̂ + 2) / (N + 4)`` over ``N`` seat-games. It is 1 in the
    middle of the range and grows towards its ends, where a sample sees too little of the rarer outcome (1 at the
    very end: there the sample variance is 0 and the floor decides)."""
    width = outcome.high - outcome.low
    if not width > 0 or seat_games <= 0 or math.isnan(value):
        return 1.0
    p = min(max((value - outcome.low) / width, 0.0), 1.0)
    if p in (0.0, 1.0):
        return 1.0
    shrunk = (seat_games * p + 2) / (seat_games + 4)
    return shrunk * (1 - shrunk) / (p * (1 - p))


def _boundary(num: np.ndarray, den: np.ndarray, outcome: Outcome | None) -> tuple[float, float]:
    """:func:`boundary_floor` and :func:`boundary_inflation` of one column."""
    if outcome is None:
        return 0.0, 1.0
    units, seat_games = int(((den != 0) | (num != 0)).sum()), float(den.sum())
    value = float(num.sum() / seat_games) if seat_games else math.nan
    return boundary_floor(units, seat_games, outcome.step), boundary_inflation(value, seat_games, outcome)


def ratio_intervals(
    num: np.ndarray,
    den: np.ndarray,
    confidence: float = 0.95,
    *,
    strata: np.ndarray | None = None,
    method: Method = "t",
    rng: np.random.Generator | None = None,
    resamples: int = 1000,
    min_units: int = MIN_UNITS,
    outcomes: list[Outcome] | None = None,
    groups: list[Hashable] | None = None,
) -> list[Estimate]:
    """An :class:`Estimate` per column of ``(units, columns)`` numerator and denominator sums. ``outcomes``: each
    column's seat-game outcome (for the boundary adjustment and clipping; none: neither). ``groups``: columns of
    one label share the largest :func:`boundary_inflation` among them (the entrants of one table: where one of
    them almost never wins, the others' results hinge on the same rare games)."""
    values = ratios(num, den)
    occurs = (den != 0) | (num != 0)
    totals = den.sum(axis=0)
    if method == "bootstrap":
        lows, highs = _bootstrap(num, den, strata, rng or np.random.default_rng(0), resamples, confidence)
        found = []
        for j in range(num.shape[1]):
            k = int(occurs[:, j].sum())
            low, high = (lows[j], highs[j]) if k >= max(min_units, 2) else (math.nan, math.nan)
            found.append(Estimate(float(values[j]), float(low), float(high), float(totals[j]), k, k - 1))
        return found
    spread = influences(num, den)
    adjustments = [
        _boundary(num[:, j], den[:, j], None if outcomes is None else outcomes[j]) for j in range(num.shape[1])
    ]
    if groups is not None:
        largest: dict[Hashable, float] = {}
        for group, (_, inflation) in zip(groups, adjustments, strict=True):
            largest[group] = max(largest.get(group, 1.0), inflation)
        adjustments = [(floor, largest[group]) for group, (floor, _) in zip(groups, adjustments, strict=True)]
    return [
        interval(
            float(values[j]),
            spread[:, j],
            occurs[:, j],
            confidence,
            strata=strata,
            n=float(totals[j]),
            min_units=min_units,
            floor=adjustments[j][0],
            inflation=adjustments[j][1],
            bounds=None if outcomes is None else (outcomes[j].low, outcomes[j].high),
            method=method,
        )
        for j in range(num.shape[1])
    ]


def ratio_difference(
    num: np.ndarray,
    den: np.ndarray,
    confidence: float = 0.95,
    *,
    strata: np.ndarray | None = None,
    min_units: int = MIN_UNITS,
    outcome: Outcome | None = None,
    method: Method = "t",
    inflation: float | None = None,
) -> Estimate:
    """``ratio(column 0) − ratio(column 1)`` of ``(units, 2)`` arrays: each ratio over every unit it occurs in,
    their influences differenced unit by unit, so the luck of the units both occur in (a duplicate tournament's
    shared deals) cancels out of the interval. Each column must occur in :data:`MIN_UNITS` deals: one seen once
    has no variance to pair. ``outcome``: that of both (their floors add up; the clip is ± its range's width);
    ``inflation``: the :func:`boundary_inflation` to use (default: the larger of the two columns')."""
    values = ratios(num, den)
    spread = influences(num, den)
    occurs = (den != 0) | (num != 0)
    sides = [_boundary(num[:, j], den[:, j], outcome) for j in range(2)]
    width = None if outcome is None else outcome.high - outcome.low
    return interval(
        float(values[0] - values[1]),
        spread[:, 0] - spread[:, 1],
        occurs.any(axis=1),
        confidence,
        strata=strata,
        n=float(den.sum()),
        appearances=int(occurs.sum(axis=0).min()),
        min_units=min_units,
        floor=sides[0][0] + sides[1][0],
        inflation=max(sides[0][1], sides[1][1]) if inflation is None else inflation,
        bounds=None if width is None else (-width, width),
        method=method,
    )


def _bootstrap(
    num: np.ndarray,
    den: np.ndarray,
    strata: np.ndarray | None,
    rng: np.random.Generator,
    resamples: int,
    confidence: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals per column from resampling units (rows) with replacement, within each stratum."""
    labels = np.zeros(num.shape[0], dtype=np.int64) if strata is None else strata
    groups = [np.flatnonzero(labels == label) for label in np.unique(labels)]
    draws = []
    for start in range(0, resamples, BOOTSTRAP_BLOCK):
        block = min(BOOTSTRAP_BLOCK, resamples - start)
        weights = np.zeros((block, num.shape[0]))
        for rows in groups:
            weights[:, rows] = rng.multinomial(len(rows), np.full(len(rows), 1.0 / len(rows)), size=block)
        with np.errstate(invalid="ignore", divide="ignore"):
            draws.append((weights @ num) / (weights @ den))
    sample = np.concatenate(draws)
    tail = (1.0 - confidence) / 2 * 100
    all_nan = np.all(np.isnan(sample), axis=0)
    sample[:, all_nan] = 0.0  # keeps nanpercentile quiet; those columns are NaN below
    low, high = np.nanpercentile(sample, [tail, 100 - tail], axis=0)
    low[all_nan] = high[all_nan] = np.nan
    return low, high
