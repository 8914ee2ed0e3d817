"""The runnable recipes run (on tiny budgets: these are smoke tests, not timings)."""

from __future__ import annotations

import subprocess
import sys

from experiments import bench


def test_benchmark_runs_and_reports_every_game_beside_the_peer() -> None:
    text = bench.main(["--seconds", "0.01", "--reps", "1"])
    assert "`cardenvs/verish_ne_verish-v0 num_players=6`" in text
    assert "pettingzoo leduc_holdem_v4 raw_env (peer)" in text


def test_demo_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "experiments.demo", "--games", "12", "--players", "3"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "One game of verish_ne_verish-v0" in out and "12 games, 3 players" in out
