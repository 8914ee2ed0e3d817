"""Small, quiet training runs for the tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardenvs.experiments.train import TrainArgs


def small_run(out: Path, **fields: Any) -> TrainArgs:
    """``TrainArgs`` writing to ``out`` with 2 envs, no progress bar and no TensorBoard, plus ``fields``."""
    return TrainArgs(**{"n_envs": 2, "out": str(out), "progress": False, "tensorboard": False, **fields})
