"""Fine-tuning from a pickle-free actor (``init_from``): exact actor copy, critic fit, and the refusals."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import ActorWeights, UntrustedCheckpointError
from cardenvs.experiments.ppo_settings import PPOSettings
from cardenvs.experiments.train import TrainArgs, build_args, check_args, make_env, train
from cardenvs.registry import make_raw
from cardenvs.wrappers import observation_scale
from tests.training.test_warm_start import OPTIONS
from tests.training.test_warm_start import kyuuri as small_kyuuri

ARCH = [32, 16]


def kyuuri(out: Path, **changes: object) -> TrainArgs:
    """The warm-start tests' tiny Kyuuri run, with the default network (so the file's is taken) and a short critic
    fit."""
    defaults = {"net_arch": PPOSettings().net_arch, "init_value_decisions": 3000, "init_value_epochs": 4}
    return small_kyuuri(out, **{**defaults, **changes})


def random_actor(path: Path, scale_factor: float = 1.0, activation: str = "relu") -> Path:
    """An ``.npz`` actor for 2-player Kyuuri with random weights of a shape the run would not default to (32-16)."""
    env = make_raw("kyuuri-v0", **OPTIONS)
    rng = np.random.default_rng(7)
    sizes = [env.layout.size, *ARCH]
    hidden = tuple(
        (rng.normal(0, 0.3, (n, m)).astype(np.float32), rng.normal(0, 0.1, n).astype(np.float32))
        for m, n in pairwise(sizes)
    )
    actions = PolicyContext.from_env(env).actions.size
    action = (rng.normal(0, 0.5, (actions, ARCH[-1])).astype(np.float32), np.zeros(actions, np.float32))
    scale = observation_scale(env.layout) * scale_factor
    return ActorWeights(hidden, action, activation, scale, {"env_id": "cardenvs/kyuuri-v0"}).save(path)


def test_ppo_starts_from_the_files_actor_with_a_fitted_critic(tmp_path: Path) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    actor = random_actor(tmp_path / "actor.npz")
    args = kyuuri(tmp_path / "run", init_from=f"ckpt:{actor}")
    final = train(args)
    saved = json.loads((final.parent / "args.json").read_text())
    assert saved["net_arch"] == ARCH and saved["activation"] == "relu"  # the shape came from the file
    assert (final.parent / "checkpoints" / "step_0.zip").exists()

    # the SB3 actor's log-probabilities equal the NumPy actor's on the env's observations
    model = MaskablePPO.load(final, device="cpu")
    weights = ActorWeights.load(actor)
    env = make_env(args, 0)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(50):
        mask = env.action_masks()
        raw = env.env.observe(env.agent)["observation"]
        logits = np.where(mask, weights.logits(raw), -np.inf)
        expected = logits - logits.max() - np.log(np.exp(logits - logits.max()).sum())
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
            got = dist.distribution.logits.numpy()[0]
        np.testing.assert_allclose(got[mask], expected[mask], atol=1e-4)
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, _ = env.reset()

    # the fresh critic's error on the actor's own play falls over its fit
    record = json.loads((final.parent / "init.json").read_text())
    errors = [epoch["value_rmse"] for epoch in record["epochs"]]
    assert record["init_from"] == f"ckpt:{actor}" and len(errors) == 5 and record["decisions"] > 2800
    assert errors[-1] < 0.9 * errors[0], errors

    # resuming the run continues from its checkpoint, not from the actor it started with
    resumed = build_args(["--resume", str(final), "--total-steps", "8192"])
    assert resumed.init_from == "" and resumed.net_arch == list(ARCH) and resumed.run_dir() == final.parent
    check_args(resumed)


def test_a_zoo_agent_of_another_player_count_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"zoo:kyuuri/ppo was trained on .*num_players.*4.*2 players"):
        train(kyuuri(tmp_path, init_from="zoo:kyuuri/ppo"))


def test_init_from_cannot_be_combined_with_imitation_or_resume(tmp_path: Path) -> None:
    actor = str(random_actor(tmp_path / "actor.npz"))
    with pytest.raises(ValueError, match=r"cannot be combined with imitate 'kyuuri/thrifty'"):
        check_args(kyuuri(tmp_path, init_from=actor, imitate="kyuuri/thrifty"))
    with pytest.raises(ValueError, match=r"cannot be combined with resume"):
        check_args(kyuuri(tmp_path, init_from=actor, resume=str(tmp_path / "final.zip")))


def test_the_command_line_refuses_in_one_line_before_building_anything(tmp_path: Path) -> None:
    from cardenvs.experiments.train import main

    actor = str(random_actor(tmp_path / "actor.npz"))
    base = [
        "--game",
        "kyuuri-v0",
        "--option",
        "num_players=2",
        "--option",
        'episode="deal"',
        "--out",
        str(tmp_path / "run"),
        "--no-progress",
    ]
    with pytest.raises(SystemExit, match=r"^error: init_from .* cannot be combined with imitate 'kyuuri/thrifty'"):
        main([*base, "--init-from", actor, "--imitate", "kyuuri/thrifty"])
    with pytest.raises(SystemExit, match=r"^error: net_arch \[64, 64\] conflicts with .*\[32, 16\]"):
        main([*base, "--init-from", actor, "--imitate", "", "--set", "net_arch=[64, 64]"])
    with pytest.raises(SystemExit, match=r"^error: vec_env must be 'dummy' or 'subproc', got 'fork'"):
        main([*base, "--vec-env", "fork"])
    assert not (tmp_path / "run").exists()


def test_a_zip_is_not_unpickled_without_trust(tmp_path: Path) -> None:
    crafted = tmp_path / "evil.zip"
    crafted.write_bytes(b"PK\x05\x06" + bytes(18))  # never opened: refused before anything reads it
    with pytest.raises(UntrustedCheckpointError, match="unpickles Python objects"):
        train(kyuuri(tmp_path / "run", init_from=f"ckpt:{crafted}"))
    assert not (tmp_path / "run").exists()


def test_a_conflicting_network_or_scale_is_refused(tmp_path: Path) -> None:
    actor = random_actor(tmp_path / "actor.npz")
    with pytest.raises(ValueError, match=r"net_arch \[64, 64\] conflicts with .*\[32, 16\]"):
        train(kyuuri(tmp_path, init_from=str(actor), net_arch=[64, 64]))
    tanh = random_actor(tmp_path / "tanh.npz", activation="tanh")
    with pytest.raises(ValueError, match=r"activation 'relu' conflicts with .*'tanh'"):
        train(kyuuri(tmp_path, init_from=str(tanh), activation="relu"))
    rescaled = random_actor(tmp_path / "rescaled.npz", scale_factor=2.0)
    with pytest.raises(ValueError, match="scales observations differently"):
        train(kyuuri(tmp_path, init_from=str(rescaled)))
