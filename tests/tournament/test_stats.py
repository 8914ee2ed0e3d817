"""Statistics: exact values on hand-made records, and the bootstrap's coverage and clustering."""

from __future__ import annotations

import numpy as np
import pytest

from agents.tournament.metrics import Ratio
from agents.tournament.stats import analyse, cluster_bootstrap, games_needed, ratio_difference, win_shares
from agents.tournament.worker import GameRecord


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
    stats = analyse(records, ["A", "B", "C"], [ratio], resamples=200)
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
    assert a.score.low <= a.score.value <= a.score.high


def test_bootstrap_interval_covers_the_true_mean() -> None:
    rng = np.random.default_rng(0)
    hits = 0
    trials = 200
    for _ in range(trials):
        values = rng.normal(0.3, 1.0, size=(60, 1))
        _, low, high = cluster_bootstrap(values, np.ones_like(values), rng, 400, 0.9)
        hits += bool(low[0] <= 0.3 <= high[0])
    assert 0.84 <= hits / trials <= 0.96  # a 90% interval


def test_bootstrap_resamples_deals_not_games() -> None:
    """Four perfectly correlated games per deal carry the information of one: the interval must be twice as wide
    as that of 4× as many independent games."""
    rng = np.random.default_rng(1)
    per_deal = rng.normal(0.0, 1.0, size=400)
    clustered = (4 * per_deal)[:, None]  # sums of 4 identical games per deal
    independent = np.repeat(per_deal, 4)[:, None]  # the same 1600 values, wrongly treated as 1600 clusters
    _, lo_c, hi_c = cluster_bootstrap(clustered, np.full_like(clustered, 4.0), rng, 1000, 0.95)
    _, lo_i, hi_i = cluster_bootstrap(independent, np.ones_like(independent), rng, 1000, 0.95)
    assert (hi_c - lo_c)[0] / (hi_i - lo_i)[0] == pytest.approx(2.0, rel=0.15)


def test_a_difference_resamples_both_columns_from_the_same_deals() -> None:
    """Deals that move both players' scores together (the cards) must cancel out of the difference's interval."""
    rng = np.random.default_rng(2)
    deal_luck = rng.normal(0.0, 3.0, size=300)
    scores = np.stack([deal_luck + 0.1 + rng.normal(0.0, 0.2, 300), deal_luck + rng.normal(0.0, 0.2, 300)], axis=1)
    margin = ratio_difference(scores, np.ones_like(scores), rng, 1000, 0.95)
    _, low, high = cluster_bootstrap(scores, np.ones_like(scores), rng, 1000, 0.95)
    assert margin.value == pytest.approx(scores[:, 0].mean() - scores[:, 1].mean())
    assert margin.low < 0.1 < margin.high and margin.low > 0.0  # the 0.1 edge is found, and only it
    assert margin.width < 0.1 * (high[0] - low[0])  # an unpaired interval would be as wide as the luck


def test_degenerate_inputs() -> None:
    constant = np.full((10, 1), 0.5)
    value, low, high = cluster_bootstrap(constant, np.ones_like(constant), np.random.default_rng(0), 100, 0.95)
    assert (value[0], low[0], high[0]) == (0.5, 0.5, 0.5)
    value, low, _ = cluster_bootstrap(np.ones((1, 1)), np.ones((1, 1)), np.random.default_rng(0), 100, 0.95)
    assert value[0] == 1.0 and np.isnan(low[0])  # one deal: no interval
    value, low, _ = cluster_bootstrap(np.zeros((5, 1)), np.zeros((5, 1)), np.random.default_rng(0), 100, 0.95)
    assert np.isnan(value[0]) and np.isnan(low[0])  # nothing counted: no rate


def test_games_needed_follows_the_square_root_law() -> None:
    assert games_needed(100, 0.2, 0.1) == 400
    assert games_needed(1000, 0.05, 0.1) == 250
    assert games_needed(100, float("nan"), 0.1) is None


def test_the_winning_side_of_a_team_game_wins_whole() -> None:
    sides = [(0, 2), (1, 3)]
    assert win_shares([1.0, -1.0, 1.0, -1.0], sides) == [1.0, 0.0, 1.0, 0.0]
    assert win_shares([0.0, 0.0, 0.0, 0.0], sides) == [0.5, 0.5, 0.5, 0.5]
    records = [record(0, 0, ["A", "B", "A", "B"], [1.0, -1.0, 1.0, -1.0])]
    assert analyse(records, ["A", "B"], sides=sides, resamples=10).entrant_stats["A"].win_rate.value == 1.0
    one_deal = ratio_difference(np.ones((1, 2)), np.ones((1, 2)), np.random.default_rng(0), 100, 0.95)
    assert one_deal.value == 0.0 and np.isnan(one_deal.low)
