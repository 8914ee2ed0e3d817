"""Damaged or mistyped checkpoint files and specs get clear errors (no training needed)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardenvs.agents.learned.weights import load_weights
from cardenvs.agents.specs import make_policy
from cardenvs.registry import make_raw

ID = "kyuuri-v0"


def _write(path: Path, activation: str = "relu", bias: float = 0.0) -> Path:
    """A one-hidden-layer checkpoint of the right shapes for ``ID``, written without ActorWeights' checks."""
    env = make_raw(ID)
    n_obs, n_act = env.layout.size, env.action_table.size
    header = {"activation": activation, "layers": 1, "meta": {"env_id": ID}}
    np.savez(
        path,
        obs_scale=np.ones(n_obs, np.float32),
        hidden0_w=np.zeros((4, n_obs), np.float32),
        hidden0_b=np.full(4, bias, np.float32),
        action_w=np.zeros((n_act, 4), np.float32),
        action_b=np.zeros(n_act, np.float32),
        header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
    )
    return path


def test_a_good_file_loads(tmp_path: Path) -> None:
    assert load_weights(_write(tmp_path / "ok.npz")).activation == "relu"


@pytest.mark.parametrize("spec", ["ckpt:", "ckpt-greedy:", "ckpt:  "])
def test_an_empty_checkpoint_path_is_named(spec: str) -> None:
    with pytest.raises(ValueError, match=r"the checkpoint path is empty; write ckpt:PATH"):
        make_policy(spec, make_raw(ID))
