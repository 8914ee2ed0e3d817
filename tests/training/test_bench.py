"""The training benchmark runs (a smoke test on a tiny budget, not a timing)."""

from __future__ import annotations

from cardenvs.experiments import bench_training


def test_bench_training_reports_the_tutorial_setup_and_ours() -> None:
    text = bench_training.main(
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
    assert "PettingZoo SB3 tutorial style" in text and "experiments.train, random opponents" in text
