"""The intervals, checked by simulation at a small budget (the full tables: docs/statistics.md).

A/A: three copies of ``random``, each drawing its own random numbers, in Kyuuri deal episodes (zero-sum), so every
true mean score and paired difference is 0. Lopsided: Kyuuri whole games, thrifty against random at three seats,
where random almost never wins: no interval may have width 0. Every tournament here has a fixed seed, so the checks
are deterministic.
"""

from __future__ import annotations

from pathlib import Path

from cardenvs.experiments.research.stats_study.coverage import study_design
from cardenvs.experiments.research.stats_study.designs import KYUURI_DEAL, KYUURI_GAME, Design


def _rows(result: dict, method: str) -> dict[str, dict]:
    return {r["statistic"]: r for r in result["rows"] if r["method"] == method}


def test_a_a_intervals_cover_the_truth_from_10_deals(tmp_path: Path) -> None:
    design = Design("A/A", "kyuuri-v0", KYUURI_DEAL, ("random",) * 3)
    result = study_design(design, replications=60, cache=tmp_path, sizes=(10,), peeks=(10,))
    for statistic, row in _rows(result, "t").items():
        assert row["tournaments"] == 60 and row["zero_width"] == 0
        assert row["coverage"] >= 0.88, (statistic, row)  # 95% intervals; 60 tournaments
    assert 0.8 <= _rows(result, "t")["score"]["width_over_spread"] <= 1.45


def test_lopsided_pairs_print_no_zero_width_interval(tmp_path: Path) -> None:
    design = Design("lopsided", "kyuuri-v0", KYUURI_GAME, ("kyuuri/thrifty", "random"), truth_deals=500)
    result = study_design(design, replications=20, cache=tmp_path, sizes=(10,), peeks=(10,))
    rows = _rows(result, "t")
    assert all(row["zero_width"] == 0 for row in rows.values())  # before: 44% of tournaments printed [0.5, 0.5]
    assert rows["score"]["boundary"] > 0  # the floor is what kept them open
    assert rows["score"]["coverage"] >= 0.85
