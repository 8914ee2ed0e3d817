"""The training benchmark runs (a smoke test on a tiny budget, not a timing)."""

from __future__ import annotations

import re

from cardenvs.experiments.speed import sb3_training

SETUPS = (
    "PettingZoo SB3 tutorial style",
    "experiments.train, the config's opponents",
    "experiments.train, random opponents",
)


def test_sb3_training_reports_the_tutorial_setup_and_ours() -> None:
    text = sb3_training.main(
        [
            "--game",
            "kyuuri-v0",
            "--steps",
            "256",
            "--reps",
            "1",
            "--n-envs",
            "2",
            "--n-steps",
            "128",
            "--batch-size",
            "128",
            "--tutorial-threads",  # torch's default of 2 threads crawls on a busy 2-core machine (docs/training.md)
            "1",
        ]
    )
    assert text.startswith("`kyuuri-v0` ") and "256 timesteps per run, 1 runs each" in text
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| ") and "steps/s" not in line]
    assert [row[0][2 : 2 + len(setup)] for row, setup in zip(rows, SETUPS, strict=True)] == list(SETUPS)
    assert "1 torch threads" in rows[0][0]
    speeds = [float(row[1]) for row in rows]
    assert all(speed > 0 for speed in speeds)
    assert [row[2] for row in rows] == [f"{speed:.0f}" for speed in speeds]  # one run each: the median is the run
    ratios = [row[3].removesuffix(" |") for row in rows]
    assert ratios[0] == "1×" and all(re.fullmatch(r"\d+\.\d\d×", ratio) for ratio in ratios[1:])
    for speed, ratio in zip(speeds[1:], ratios[1:], strict=True):
        assert abs(float(ratio[:-1]) - speed / speeds[0]) <= 0.005 + speed / speeds[0] * 0.01
