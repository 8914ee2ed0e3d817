"""Many comparisons, looking more than once, and how many games a tournament needs.

Synthetic A/A data with fixed seeds: three entrants with no true difference (pairs share a deal effect, so the
pairing matters); per-deal values are normal, as the t interval assumes, so what is measured is the multiplicity
and the peeking, not the shape of the outcomes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cardenvs.agents.tournament.intervals import (
    Estimate,
    p_value,
    ratio_difference,
    ratio_intervals,
    sequence_multiplier,
    t_quantile,
)
from cardenvs.agents.tournament.planning import chi2_quantile, deals_to_detect, needed_range, units_needed
from cardenvs.agents.tournament.stats import holm

PAIRS = ((0, 1), (0, 2), (1, 2))


def _a_a(rng: np.random.Generator, deals: int) -> np.ndarray:
    """(deals, 3) per-deal scores of three copies: a shared deal effect plus each one's own noise."""
    return rng.normal(0.0, 1.0, (deals, 1)) + rng.normal(0.0, 1.0, (deals, 3))


def test_holm_adjusts_step_down_and_keeps_missing_pairs_out() -> None:
    adjusted = holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": math.nan})
    assert adjusted["a"] == pytest.approx(0.03)  # 3 × 0.01
    assert adjusted["c"] == pytest.approx(0.06)  # 2 × 0.03
    assert adjusted["b"] == pytest.approx(0.06)  # max(1 × 0.04, the step before)
    assert math.isnan(adjusted["d"])


def test_holm_keeps_false_verdicts_among_three_pairs_below_5_percent() -> None:
    rng = np.random.default_rng(3)
    raw = adjusted = 0
    trials = 1500
    for _ in range(trials):
        scores = _a_a(rng, 10)
        ones = np.ones((10, 2))
        estimates = {pair: ratio_difference(scores[:, list(pair)], ones) for pair in PAIRS}
        raw += any(e.excludes_zero for e in estimates.values())
        adjusted += any(p < 0.05 for p in holm({k: p_value(e) for k, e in estimates.items()}).values())
    assert raw / trials > 0.09  # unadjusted: about 12% of A/A tournaments call some pair "better"
    assert adjusted / trials <= 0.055


def test_p_values_match_the_intervals() -> None:
    rng = np.random.default_rng(4)
    for _ in range(50):
        scores = _a_a(rng, 12)[:, :2] + rng.normal(0, 0.5)
        for method in ("t", "sequence"):
            e = ratio_difference(scores, np.ones_like(scores), method=method)
            assert (p_value(e, method) < 0.05) == e.excludes_zero


def test_confidence_sequences_hold_under_peeking() -> None:
    """Look at 10, 20 and 40 deals and stop at the first look that separates: fixed-size t intervals are fooled
    in about 10% of A/A tournaments, the confidence sequence in under 5%."""
    rng = np.random.default_rng(8)
    trials = 1500
    fooled = {"t": 0, "sequence": 0}
    for _ in range(trials):
        scores = _a_a(rng, 40)[:, :2]
        for method in fooled:
            looks = [ratio_difference(scores[:n], np.ones((n, 2)), method=method) for n in (10, 20, 40)]
            fooled[method] += any(e.excludes_zero for e in looks)
    assert fooled["t"] / trials > 0.08
    assert fooled["sequence"] / trials < 0.03


def test_the_sequence_multiplier_is_wider_than_t_and_grows_slowly() -> None:
    assert sequence_multiplier(0.95, 10) > t_quantile(0.95, 9)
    assert sequence_multiplier(0.95, 10) == pytest.approx(math.sqrt(2 * math.log(2 / 0.05**2)))
    assert sequence_multiplier(0.95, 40) < sequence_multiplier(0.95, 10)
    assert sequence_multiplier(0.95, 10_000) < 4.5  # log-log growth: still a usable interval
    one = np.random.default_rng(0).normal(size=(20, 1))
    t, s = (ratio_intervals(one, np.ones_like(one), method=m)[0] for m in ("t", "sequence"))
    assert s.width / t.width == pytest.approx(sequence_multiplier(0.95, 20) / t_quantile(0.95, 19))


def _estimate(units: int, df: float, se: float) -> Estimate:
    half = t_quantile(0.95, int(df)) * se
    return Estimate(0.0, -half, half, units, units, df, se)


def test_the_forecast_range_reflects_the_degrees_of_freedom() -> None:
    few, many = _estimate(10, 9, 0.1), _estimate(1000, 999, 0.01)
    needed = units_needed(few, 0.1, 0.95)
    low, high = needed_range(few, 0.1, 0.95)
    assert needed is not None and low < 0.75 * needed and high > 1.4 * needed  # 9 df: a rough forecast
    low, high = needed_range(many, 0.01, 0.95)
    assert units_needed(many, 0.01, 0.95) == pytest.approx((low + high) / 2, rel=0.1) and high < 1.15 * low
    assert chi2_quantile(0.9, 9) == pytest.approx(14.684, rel=0.01)
    assert chi2_quantile(0.1, 9) == pytest.approx(4.168, rel=0.01)


def test_deals_to_detect_a_difference_follow_the_power_formula() -> None:
    """With many degrees of freedom: n = (z_{0.975} + z_{0.8})² σ² / d², σ = se·√units."""
    e = _estimate(1000, 999, 0.01)
    sigma = 0.01 * math.sqrt(1000)
    assert deals_to_detect(e, 0.05, 0.95) == pytest.approx((1.95996 + 0.84162) ** 2 * sigma**2 / 0.05**2, rel=0.01)
    small = _estimate(10, 9, 0.1)
    found = deals_to_detect(small, 0.3, 0.95)
    assert found is not None and found > (1.95996 + 0.84162) ** 2 * (0.1 * math.sqrt(10)) ** 2 / 0.3**2
    assert deals_to_detect(e, 0.0, 0.95) is None
