"""The GPU throughput bench of ``experiments.train_fast`` (``experiments/speed/fast_training_gpu.py``), run on the
CPU at a tiny batch: what it times and writes, and its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")

from cardenvs.experiments.speed.fast_training_gpu import main

GAME = "verish_ne_verish-v0"


def test_it_times_whole_iterations_and_writes_each_row(tmp_path: Path) -> None:
    out, lock = tmp_path / "bench.json", tmp_path / "gpu.lock"
    argv = ["--games", GAME, "--num-games", "8", "--seconds", "0.01", "--lock", str(lock), "--json", str(out)]
    assert main(argv) == 0
    (row,) = json.loads(out.read_text())["rows"]
    assert row["game"] == "cardenvs/" + GAME and row["num_games"] == 8 and lock.exists()
    assert row["minibatch_size"] == 8 * row["rollout_steps"] // 4  # four minibatches an epoch, as the configs
    assert row["iterations"] >= 2
    env_steps = row["iterations"] * 8 * row["rollout_steps"]
    assert row["env_steps_per_s"] == pytest.approx(env_steps / row["seconds"])
    assert 0 < row["learner_decisions_per_s"] < row["env_steps_per_s"]  # 4 players with a population: a share
    assert row["device"].startswith("cpu")


def test_bad_arguments_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--games", "nope-v0"], ["--games", GAME, "--num-games", "2"]):
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)
    assert "--num-games must each be at least 4" in lines[1]
