"""The intervals, checked by simulation at a small budget (the full tables: docs/statistics.md).

A/A: three copies of ``random``, each drawing its own random numbers, in Kyuuri deal episodes (zero-sum), so every
true mean score and paired difference is 0. Unequal entrants in rotating lineups (two at three seats): the
interval must be as wide as the estimate's spread between tournaments, which the old deal-level resampling
(no lineup strata) overstated. Every tournament here has a fixed seed, so the checks are deterministic.
"""

from __future__ import annotations

from cardenvs.experiments.stats_study.coverage import KYUURI_DEAL, Design, study_design

T, BEFORE = "t, strata (default)", "percentile bootstrap, deals (before)"


def _rows(result: dict, deals: int) -> dict[tuple[str, str], dict]:
    return {(r["method"], r["statistic"]): r for r in result["rows"] if r["deals"] == deals}


def test_a_a_intervals_cover_the_truth_from_10_deals() -> None:
    design = Design("A/A", "kyuuri-v0", KYUURI_DEAL, ("random",) * 3)
    rows = _rows(study_design(design, replications=60, workers=1, sizes=(10,), methods=(T,)), 10)
    for statistic in ("score", "difference"):
        row = rows[(T, statistic)]
        assert row["intervals"] == 180
        assert row["coverage"] >= 0.88, row  # 95% intervals; 180 correlated draws


def test_rotating_lineups_get_intervals_as_wide_as_the_spread() -> None:
    """Kyuuri whole games, thrifty against random at three seats: lineups (T R T) and (R T R) alternate."""
    design = Design("unequal", "kyuuri-v0", {"num_players": 3}, ("kyuuri/thrifty", "random"))
    rows = _rows(study_design(design, replications=20, workers=1, sizes=(10,)), 10)
    now, before = rows[(T, "score")]["width_over_spread"], rows[(BEFORE, "score")]["width_over_spread"]
    assert 0.6 <= now <= 1.45  # 0.94 measured; 20 tournaments pin the spread to about ±16%
    assert 0.6 <= rows[(T, "difference")]["width_over_spread"] <= 1.45
    assert before / now > 1.4  # the same tournaments without lineup strata: 1.73 / 0.94
