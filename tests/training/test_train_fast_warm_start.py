"""``init_from``: a fast-path run starts its actor from a trained one (an exported ``.npz`` or a zoo agent) of the
same shape, and refuses one of another shape in one line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.experiments.train_fast.__main__ import main
from cardenvs.experiments.train_fast.config import FastTrainArgs
from cardenvs.experiments.train_fast.trainer import setup, train
from tests.training.test_train_fast import BOTS, QUICK_COMPILE, tiny


def layers(weights: ActorWeights) -> list[np.ndarray]:
    return [np.asarray(a, np.float32) for pair in (*weights.hidden, weights.action) for a in pair]


def test_a_run_started_from_an_exported_actor_trains_on_from_its_weights(tmp_path: Path) -> None:
    first = train(tiny(tmp_path / "first", total_steps=300), QUICK_COMPILE, BOTS)
    start = ActorWeights.load(first.final)
    # at learning rate 0 the actor stays what it started as: the exported one, not a fresh draw of seed 1
    frozen = tiny(tmp_path / "frozen", total_steps=300, seed=1, learning_rate=0.0, init_from=str(first.final))
    kept = ActorWeights.load(train(frozen, QUICK_COMPILE, BOTS).final)
    assert all(np.array_equal(a, b) for a, b in zip(layers(kept), layers(start), strict=True))
    drawn = setup(replace(frozen, init_from=""), BOTS).fresh.model.actor.weights[0]
    assert not np.array_equal(np.asarray(drawn), layers(start)[0])


def test_the_zoo_agent_of_zheng_shang_you_is_the_actor_its_config_can_start_from() -> None:
    from cardenvs.agents.zoo import zoo_card, zoo_weights
    from cardenvs.experiments.train_fast.config import default_config

    args = FastTrainArgs(**{**default_config("zheng_shang_you-v0"), "init_from": "zoo:zheng_shang_you/ppo"})
    actor = setup(args).fresh.model.actor
    zoo = layers(zoo_weights(zoo_card("zheng_shang_you/ppo")))
    started = [np.asarray(a) for pair in zip(actor.weights, actor.biases, strict=True) for a in pair]
    assert all(np.array_equal(a, b) for a, b in zip(started, zoo, strict=True))


def test_an_actor_of_another_shape_is_a_one_line_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    zoo = "init_from='zoo:zheng_shang_you/ppo'"
    out = ["--out", str(tmp_path / "x"), "--total-steps", "10"]
    assert main(["--game", "zheng_shang_you-v0", "--set", zoo, "--set", "net_arch=[64, 64]", *out]) == 2
    assert main(["--game", "zheng_shang_you-v0", "--set", zoo, "--set", "activation='relu'", *out]) == 2
    assert main(["--game", "zheng_shang_you-v0", "--set", "init_from='weights.pt'", *out]) == 2
    assert main(["--game", "verish_ne_verish-v0", "--set", zoo, *out]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 4 and all(line.startswith("error: ") for line in lines)
    assert "[256, 256]" in lines[0] and "[64, 64]" in lines[0] and "'relu'" in lines[1] and "weights.pt" in lines[2]
