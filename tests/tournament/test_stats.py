"""Statistics: exact values on hand-made records; the intervals' coverage, units, strata and pairing."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.agents.tournament.intervals import (
    MIN_UNITS,
    Estimate,
    ratio_difference,
    ratio_intervals,
    t_quantile,
)
from cardenvs.agents.tournament.metrics import Ratio
from cardenvs.agents.tournament.planning import units_needed
from cardenvs.agents.tournament.stats import analyse, win_shares
from cardenvs.agents.tournament.worker import GameRecord


def record(deal: int, seating: int, seats: list[str], returns: list[float], **counters: list[float]) -> GameRecord:
    metrics = [{"games": 1.0, **{k: v[i] for k, v in counters.items()}} for i in range(len(seats))]
    places = [1.0 + sum(r > mine for r in returns) + (sum(r == mine for r in returns) - 1) / 2 for mine in returns]
    return GameRecord(deal, seating, 0, seats, returns, places, False, 10, metrics)


def test_win_shares_split_ties() -> None:
    assert win_shares([1.0, 0.0, 1.0]) == [0.5, 0.0, 0.5]
    assert win_shares([-1.0, 1 / 3, 1 / 3, 1 / 3]) == [0.0, 1 / 3, 1 / 3, 1 / 3]
    assert win_shares([0.0, 0.0]) == [0.5, 0.5]


def test_exact_statistics_of_a_small_tournament() -> None:
    records = [
        record(0, 0, ["A", "B", "C"], [2.0, -1.0, -1.0], bluffs=[1, 2, 0], plays=[4, 4, 2]),
        record(0, 1, ["B", "C", "A"], [1.0, 1.0, -2.0], bluffs=[0, 1, 1], plays=[2, 2, 2]),
        record(1, 0, ["C", "A", "B"], [0.0, 3.0, -3.0], bluffs=[0, 0, 2], plays=[1, 1, 2]),
    ]
    ratio = Ratio("bluff_rate", "bluffs", "plays", "")
    stats = analyse(records, ["A", "B", "C"], [ratio])
    a, b, c = (stats.entrant_stats[x] for x in "ABC")
    assert a.score.value == pytest.approx(1.0) and b.score.value == pytest.approx(-1.0) and c.score.value == 0.0
    assert a.win_rate.value == pytest.approx(2 / 3) and b.win_rate.value == pytest.approx(1 / 6)
    assert a.place.value == pytest.approx((1 + 3 + 1) / 3)
    assert a.metrics["bluff_rate"].value == pytest.approx(2 / 7)
    assert b.metrics["bluff_rate"].value == pytest.approx(4 / 8)
    assert stats.head_to_head[("A", "B")].value == pytest.approx(2 / 3)
    assert stats.head_to_head[("B", "C")].value == pytest.approx((0.5 + 0.5 + 0) / 3)  # tie, tie, loss
    assert stats.head_to_head[("B", "C")].value + stats.head_to_head[("C", "B")].value == pytest.approx(1)
    assert [s.score.value for s in stats.seats] == pytest.approx([1.0, 1.0, -2.0])
    assert (stats.num_games, stats.num_deals, a.seat_games) == (3, 2, 3)
    assert not a.score.has_interval and a.score.text() == "1.000 [n/a (2 deals)]"  # two deals: too few


def test_the_t_interval_covers_the_true_mean_from_few_deals() -> None:
    """Normal deal totals: the t interval is exact, so 10 deals cover 95% (the percentile bootstrap: ~89%)."""
    rng = np.random.default_rng(0)
    trials = 2000
    values = rng.normal(0.3, 1.0, size=(trials, 10, 1))
    hits = sum(_covers(ratio_intervals(v, np.ones_like(v))[0], 0.3) for v in values)
    boot = sum(
        _covers(ratio_intervals(v, np.ones_like(v), method="bootstrap", rng=rng, resamples=400)[0], 0.3)
        for v in values[:300]
    )
    assert 0.935 <= hits / trials <= 0.965
    assert boot / 300 < 0.93  # why the t interval is the default


def _covers(e: Estimate, truth: float) -> bool:
    return bool(e.low <= truth <= e.high)


def test_intervals_treat_deals_not_games_as_units() -> None:
    """Four perfectly correlated games per deal carry the information of one: the interval must be twice as wide
    as that of 4× as many independent games."""
    rng = np.random.default_rng(1)
    per_deal = rng.normal(0.0, 1.0, size=400)
    clustered = (4 * per_deal)[:, None]  # sums of 4 identical games per deal
    independent = np.repeat(per_deal, 4)[:, None]  # the same 1600 values, wrongly treated as 1600 deals
    c = ratio_intervals(clustered, np.full_like(clustered, 4.0))[0]
    i = ratio_intervals(independent, np.ones_like(independent))[0]
    assert c.width / i.width == pytest.approx(2.0, rel=0.05)


def test_a_difference_pairs_the_two_columns_deal_by_deal() -> None:
    """Deals that move both players' scores together (the cards) must cancel out of the difference's interval."""
    rng = np.random.default_rng(2)
    deal_luck = rng.normal(0.0, 3.0, size=300)
    scores = np.stack([deal_luck + 0.1 + rng.normal(0.0, 0.2, 300), deal_luck + rng.normal(0.0, 0.2, 300)], axis=1)
    margin = ratio_difference(scores, np.ones_like(scores))
    alone = ratio_intervals(scores, np.ones_like(scores))[0]
    assert margin.value == pytest.approx(scores[:, 0].mean() - scores[:, 1].mean())
    assert margin.low < 0.1 < margin.high and margin.low > 0.0  # the 0.1 edge is found, and only it
    assert margin.width < 0.1 * alone.width  # an unpaired interval would be as wide as the luck


def test_lineup_strata_keep_the_designs_mix_out_of_the_interval() -> None:
    """Deals alternate between two lineups whose means differ by 4: that difference is the design, not luck. The
    stratified interval matches the spread of the estimate over repeated tournaments; the plain one is far wider."""
    rng = np.random.default_rng(3)
    strata = np.arange(40) % 2
    estimates, widths, plain = [], [], []
    for _ in range(400):
        num = (np.where(strata == 0, 2.0, -2.0) + rng.normal(0.0, 1.0, 40))[:, None]
        estimates.append(num.mean())
        widths.append(ratio_intervals(num, np.ones_like(num), strata=strata)[0].width)
        plain.append(ratio_intervals(num, np.ones_like(num))[0].width)
    spread = 2 * 1.96 * float(np.std(estimates))
    assert np.mean(widths) / spread == pytest.approx(1.0, abs=0.1)
    assert np.mean(plain) / spread > 2.0


def test_no_interval_from_too_few_appearances() -> None:
    """An entrant or a pair seen in one deal of many gets "n/a (1 deal)", not a zero-width interval."""
    records = [record(d, 0, ["A", "B", "C"], [1.0, 0.0, -1.0]) for d in range(12)]
    records.append(record(12, 0, ["A", "B", "D"], [-1.0, 0.5, 0.5]))
    stats = analyse(records, ["A", "B", "C", "D"])
    d = stats.entrant_stats["D"].score
    assert d.value == 0.5 and not d.has_interval and d.text() == "0.500 [n/a (1 deal)]"
    assert not stats.head_to_head[("A", "D")].has_interval and not stats.difference("A", "D").has_interval
    assert stats.entrant_stats["A"].score.has_interval and stats.entrant_stats["A"].score.units == 13
    assert stats.entrant_stats["D"].games_needed is None
    few = analyse(records[: MIN_UNITS - 1], ["A", "B", "C"]).entrant_stats["A"].score
    assert not few.has_interval and few.text() == f"1.000 [n/a ({MIN_UNITS - 1} deals)]"


def test_paired_differences_for_every_pair() -> None:
    records = [
        record(d, s, seats, returns)
        for d in range(8)
        for s, (seats, returns) in enumerate(
            [(["A", "B"], [1.0 + d % 3, -1.0 - d % 3]), (["B", "A"], [0.5 * (d % 2), -0.5 * (d % 2)])]
        )
    ]
    stats = analyse(records, ["A", "B"])
    a, b = stats.entrant_stats["A"].score.value, stats.entrant_stats["B"].score.value
    assert stats.difference("A", "B").value == pytest.approx(a - b)
    assert stats.difference("B", "A").value == pytest.approx(b - a)
    assert stats.difference("A", "B").low == pytest.approx(-stats.difference("B", "A").high)
    assert stats.difference("A", "B").excludes_zero


def test_degenerate_inputs() -> None:
    constant = np.full((10, 1), 0.5)
    e = ratio_intervals(constant, np.ones_like(constant))[0]
    assert (e.value, e.low, e.high) == (0.5, 0.5, 0.5)  # ten deals that agree: a true zero width
    e = ratio_intervals(np.ones((1, 1)), np.ones((1, 1)))[0]
    assert e.value == 1.0 and np.isnan(e.low)  # one deal: no interval
    e = ratio_intervals(np.zeros((5, 1)), np.zeros((5, 1)))[0]
    assert np.isnan(e.value) and np.isnan(e.low)  # nothing counted: no rate


def test_t_quantiles_are_exact() -> None:
    assert t_quantile(0.95, 1) == pytest.approx(12.7062047, rel=1e-7)
    assert t_quantile(0.95, 9) == pytest.approx(2.2621572, rel=1e-7)
    assert t_quantile(0.90, 30) == pytest.approx(1.6972609, rel=1e-7)
    assert t_quantile(0.95, 2000) == pytest.approx(1.9611509, rel=1e-6)


def test_units_needed_follows_the_square_root_law_and_the_t_quantile() -> None:
    def estimate(units: int, df: int, width: float) -> Estimate:
        return Estimate(0.0, -width / 2, width / 2, units, units, df)

    assert units_needed(estimate(1000, 999, 0.2), 0.1, 0.95) == pytest.approx(4000, rel=0.002)  # the square-root law
    # small: 10 deals use t with 9 degrees of freedom, the answer t with its own
    needed = units_needed(estimate(10, 9, 0.2), 0.1, 0.95)
    assert needed is not None and needed < 40
    se = 0.2 / (2 * t_quantile(0.95, 9)) * np.sqrt(10)
    assert 2 * t_quantile(0.95, needed - 1) * se / np.sqrt(needed) <= 0.1
    assert 2 * t_quantile(0.95, needed - 2) * se / np.sqrt(needed - 1) > 0.1
    # 4 lineup strata: 8 deals have 4 degrees of freedom, and so 4 fewer than deals at any size
    stratified = units_needed(estimate(8, 4, 0.2), 0.1, 0.95)
    assert stratified is not None and stratified < units_needed(estimate(8, 7, 0.2), 0.1, 0.95)  # type: ignore[operator]
    assert units_needed(estimate(100, 99, float("nan")), 0.1, 0.95) is None


def test_the_winning_side_of_a_team_game_wins_whole() -> None:
    sides = [(0, 2), (1, 3)]
    assert win_shares([1.0, -1.0, 1.0, -1.0], sides) == [1.0, 0.0, 1.0, 0.0]
    assert win_shares([0.0, 0.0, 0.0, 0.0], sides) == [0.5, 0.5, 0.5, 0.5]
    records = [record(0, 0, ["A", "B", "A", "B"], [1.0, -1.0, 1.0, -1.0])]
    assert analyse(records, ["A", "B"], sides=sides).entrant_stats["A"].win_rate.value == 1.0
    one_deal = ratio_difference(np.ones((1, 2)), np.ones((1, 2)))
    assert one_deal.value == 0.0 and np.isnan(one_deal.low)
