"""Confidence intervals for ratios of sums over independent units.

A tournament's unit is the deal: its seatings share the cards, so they are one unit; deals are independent.
Where lineups rotate from deal to deal (see :meth:`agents.tournament.schedule.Schedule.cycle_length`), which
lineup a deal has is fixed by the design, not drawn: deals with the same place in the lineup cycle form a
**stratum**, and variances are taken within strata (as a stratified sample's are). Treating the lineup as luck
would count the difference between lineups as noise (2–3× too wide, measured).

Every statistic is a ratio of sums over units, ``R = Σ num / Σ den`` (a mean score is scores over seats played).
Its interval (the default, ``"t"``) linearises the ratio: each unit's influence is ``(num − R·den) / Σ den``;
their variance within each stratum, with the ``k/(k−1)`` small-sample factor, gives the standard error, and
Student's t with ``Σ (k − 1)`` degrees of freedom the half-width (``k`` = deals of a stratum). A paired difference
of two ratios uses the difference of the two influences unit by unit, so what the units share (the cards)
cancels. ``"bootstrap"`` resamples deals within strata instead (percentile interval); it is kept for comparison: its
coverage at 5–10 units is lower (see ``docs/statistics.md``).

A statistic that occurs in fewer than :data:`MIN_UNITS` deals gets no interval (NaN), never a tight one from
too little data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

Method = Literal["t", "bootstrap"]
METHODS: tuple[Method, ...] = ("t", "bootstrap")
MIN_UNITS = 5
"""Fewest units behind a reported interval: from 5 on, the measured coverage of the t interval is at least 93%
in every scheme (``docs/statistics.md``)."""
BOOTSTRAP_BLOCK = 256
"""Resamples computed at once (bounds memory to a block × units weight matrix)."""


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
    df: int = 0
    """Degrees of freedom of the interval (deals less lineup strata; 0 without an interval)."""

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

    def text(self, digits: int = 3) -> str:
        if math.isnan(self.value):
            return "—"
        if not self.has_interval:
            return f"{self.value:.{digits}f} [n/a ({self.units} deal{'s' if self.units != 1 else ''})]"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


@lru_cache(maxsize=512)
def t_quantile(confidence: float, df: int) -> float:
    """``t`` with ``P(|T| ≤ t) = confidence`` for Student's t with ``df`` degrees of freedom (exact for integer
    ``df``: the closed-form CDF of Abramowitz & Stegun 26.7.3–4, inverted by bisection)."""
    if df < 1 or not 0 < confidence < 1:
        raise ValueError(f"t_quantile needs df ≥ 1 and 0 < confidence < 1, got df={df}, confidence={confidence}")
    low, high = 0.0, 1.0
    while _t_central(high, df) < confidence:
        high *= 2
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if _t_central(mid, df) < confidence else (low, mid)
    return (low + high) / 2


def _t_central(t: float, df: int) -> float:
    """``P(|T| ≤ t)`` for Student's t with integer ``df``."""
    theta = math.atan(t / math.sqrt(df))
    s, c2 = math.sin(theta), math.cos(theta) ** 2
    term, total = 1.0, 1.0
    if df % 2 == 0:
        for j in range(1, df // 2):  # 1 + ½c² + (1·3)/(2·4)c⁴ + …
            term *= c2 * (2 * j - 1) / (2 * j)
            total += term
        return s * total
    if df == 1:
        return 2 * theta / math.pi
    for j in range(1, (df - 1) // 2):  # c (1 + ⅔c² + (2·4)/(3·5)c⁴ + …)
        term *= c2 * (2 * j) / (2 * j + 1)
        total += term
    return 2 / math.pi * (theta + s * math.sqrt(c2) * total)


def ratios(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``Σ num / Σ den`` per column of ``(units, columns)`` arrays (NaN where the denominator is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(num.sum(axis=0) / den.sum(axis=0))


def influences(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Each unit's linearised contribution to each column's ratio: ``(num − R·den) / Σ den``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray((num - ratios(num, den) * den) / den.sum(axis=0))


def t_interval(
    value: float,
    influence: np.ndarray,
    occurs: np.ndarray,
    confidence: float,
    strata: np.ndarray | None = None,
    n: float = 0.0,
    appearances: int | None = None,
    min_units: int = MIN_UNITS,
) -> Estimate:
    """The t interval of a statistic from its units' influences (zero where it does not occur).

    ``strata`` (one label per unit) marks units of one design stratum (deals with the same lineup): the variance
    is then taken within strata, because which lineup a deal had is fixed by the design, not drawn.
    ``appearances`` (default: the units where it occurs) is what must reach ``min_units``."""
    appearances = int(occurs.sum()) if appearances is None else appearances
    if appearances < max(min_units, 2) or math.isnan(value):
        return Estimate(value, math.nan, math.nan, n, appearances)
    labels = np.zeros(len(influence), dtype=np.int64) if strata is None else strata
    variance, df = 0.0, 0
    for label in np.unique(labels[occurs]):
        z = influence[labels == label]
        if len(z) > 1:
            variance += len(z) / (len(z) - 1) * float(np.sum((z - z.mean()) ** 2))
            df += len(z) - 1
    if df < 1:
        return Estimate(value, math.nan, math.nan, n, appearances)
    half = t_quantile(confidence, df) * math.sqrt(variance)
    return Estimate(value, value - half, value + half, n, appearances, df)


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
) -> list[Estimate]:
    """An :class:`Estimate` per column of ``(units, columns)`` numerator and denominator sums."""
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
    return [
        t_interval(float(values[j]), spread[:, j], occurs[:, j], confidence, strata, float(totals[j]), None, min_units)
        for j in range(num.shape[1])
    ]


def ratio_difference(
    num: np.ndarray,
    den: np.ndarray,
    confidence: float = 0.95,
    *,
    strata: np.ndarray | None = None,
    min_units: int = MIN_UNITS,
) -> Estimate:
    """``ratio(column 0) − ratio(column 1)`` of ``(units, 2)`` arrays, paired unit by unit (the same units for
    both), so a duplicate tournament's shared deals cancel out of the interval. Each column must occur in
    :data:`MIN_UNITS` deals: one seen once has no variance to pair."""
    values = ratios(num, den)
    spread = influences(num, den)
    occurs = (den != 0) | (num != 0)
    difference = float(values[0] - values[1])
    fewest = int(occurs.sum(axis=0).min())
    return t_interval(
        difference,
        spread[:, 0] - spread[:, 1],
        occurs.any(axis=1),
        confidence,
        strata,
        float(den.sum()),
        fewest,
        min_units,
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


def units_needed(estimate: Estimate, target_width: float, confidence: float) -> int | None:
    """Deals for an estimate's t interval to shrink to ``target_width``: the standard error falls as
    ``1/√deals`` and the t quantile rises with the degrees of freedom (deals less the same number of strata)."""
    units, df, width = estimate.units, estimate.df, estimate.width
    if df < 1 or not math.isfinite(width) or width <= 0 or target_width <= 0:
        return None
    strata = units - df
    scale = width / t_quantile(confidence, df) * math.sqrt(units)  # 2·se·√units, the width's constant

    def wide(n: int) -> bool:
        return t_quantile(confidence, n - strata) * scale / math.sqrt(n) > target_width

    low, high = strata, strata + 1  # wide(low) or low has no degrees of freedom; find the first narrow n
    while wide(high):
        low, high = high, high * 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if wide(mid) else (low, mid)
    return high
