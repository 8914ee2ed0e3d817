"""How many deals a tournament needs: for an interval of a given width, with the forecast's own uncertainty, and
for a paired difference of a given size to be detected (power).

A forecast scales the standard error measured now as ``1/√deals``; the degrees of freedom grow with the deals
(as many are lost to strata as now). The standard error itself is uncertain: its square, with ``df`` degrees of
freedom, is off by the factor ``χ²_df / df``, so the deals needed are too (Wilson–Hilferty's χ² quantiles).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist

from cardenvs.agents.tournament.intervals import Estimate, Method, multiplier, t_quantile, whole_df

FORECAST_RANGE = 0.8
"""Share of the forecast's uncertainty its printed range covers (10th to 90th percentile)."""
POWER = 0.8
"""Chance of detecting the difference in :func:`deals_to_detect`."""


def _standard_error(estimate: Estimate, confidence: float, method: Method) -> float:
    """The estimate's standard error (from its width where it does not carry one)."""
    if math.isfinite(estimate.se):
        return estimate.se
    return estimate.width / (2 * multiplier(method, confidence, estimate.df, estimate.units))


def _first_deals(fits: Callable[[int], bool], start: int) -> int:
    """The least ``n ≥ start`` with ``fits(n)`` (false up to some ``n``, true from there on)."""
    low, high = start - 1, start
    while not fits(high):
        low, high = high, high * 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if fits(mid) else (mid, high)
    return high


def units_needed(
    estimate: Estimate, target_width: float, confidence: float, method: Method = "t", variance_scale: float = 1.0
) -> int | None:
    """Deals for an estimate's interval to shrink to ``target_width`` (``variance_scale``: the true variance over
    the one measured, for the forecast's range)."""
    units, df = estimate.units, estimate.df
    if df < 1 or not math.isfinite(estimate.width) or estimate.width <= 0 or target_width <= 0:
        return None
    se = _standard_error(estimate, confidence, method) * math.sqrt(units * variance_scale)  # se · √deals
    lost = units - df

    def fits(n: int) -> bool:
        return 2 * multiplier(method, confidence, n - lost, n) * se / math.sqrt(n) <= target_width

    return _first_deals(fits, max(2, math.ceil(lost) + 1))


def chi2_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of χ² with ``df`` degrees of freedom (Wilson–Hilferty: within 1% from 3 df on)."""
    z = NormalDist().inv_cdf(p)
    c = 2 / (9 * df)
    return df * max(1 - c + z * math.sqrt(c), 0.0) ** 3


def needed_range(estimate: Estimate, target_width: float, confidence: float, method: Method = "t") -> tuple[int, int]:
    """The :data:`FORECAST_RANGE` range of :func:`units_needed`: the measured variance's own uncertainty
    (``df / χ²_df`` at the two quantiles). ``(0, 0)`` where there is no forecast."""
    if estimate.df < 1 or units_needed(estimate, target_width, confidence, method) is None:
        return 0, 0
    tail = (1 - FORECAST_RANGE) / 2
    df = float(whole_df(estimate.df))
    low = units_needed(estimate, target_width, confidence, method, df / chi2_quantile(1 - tail, df))
    high = units_needed(estimate, target_width, confidence, method, df / max(chi2_quantile(tail, df), 1e-9))
    return low or 0, high or 0


def deals_to_detect(
    estimate: Estimate, difference: float, confidence: float, method: Method = "t", power: float = POWER
) -> int | None:
    """Deals for a paired difference of size ``difference`` to be found (its interval excluding 0) with chance
    ``power``: ``se(n) · (q + t_power) ≤ |difference|``, ``q`` the interval's multiplier (the standard power
    calculation of a two-sided test, with Student's t)."""
    if estimate.df < 1 or not estimate.has_interval or difference == 0:
        return None
    se = _standard_error(estimate, confidence, method) * math.sqrt(estimate.units)
    if se <= 0:
        return None
    lost = estimate.units - estimate.df

    def fits(n: int) -> bool:
        df = n - lost
        beta = t_quantile(2 * power - 1, whole_df(df))  # one-sided: P(T ≤ t) = power
        return (multiplier(method, confidence, df, n) + beta) * se / math.sqrt(n) <= abs(difference)

    return _first_deals(fits, max(2, math.ceil(lost) + 1))
