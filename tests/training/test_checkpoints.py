"""Checkpoints play like any other policy: the NumPy actor matches SB3's, specs resolve, resume continues."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import ActorWeights, MlpPolicy, UntrustedCheckpointError, load_weights
from cardenvs.agents.specs import make_policy
from cardenvs.agents.tournament import Tournament
from cardenvs.experiments.train import TrainArgs, build_args, train
from cardenvs.registry import make_raw
from cardenvs.wrappers import SeatEnv
from tests.tournament.whole_games import assert_whole_games
from tests.training.small_runs import small_run

GAME = "verish_ne_verish-v0"
OPTIONS = {"num_players": 3}


def tiny(out: Path, **changes: object) -> TrainArgs:
    return small_run(
        out,
        **{
            "game": GAME,
            "options": OPTIONS,
            "total_steps": 1024,
            "n_steps": 256,
            "batch_size": 256,
            "n_epochs": 1,
            "net_arch": [32, 32],
            "opponents": {"random": 1.0, "verish_ne_verish/rule": 1.0},
            "snapshot_every": 512,
            "checkpoint_every": 512,
            **changes,
        },
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return train(tiny(tmp_path_factory.mktemp("run")))


def test_a_run_writes_checkpoints_snapshots_and_its_arguments(run: Path) -> None:
    out = run.parent
    assert run.name == "final.zip" and (out / "final.npz").exists()
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == [
        "step_1024.npz",
        "step_1024.zip",
        "step_512.npz",
        "step_512.zip",
    ]
    assert sorted(p.name for p in (out / "snapshots").iterdir()) == ["step_1024.npz", "step_512.npz"]
    assert json.loads((out / "args.json").read_text())["options"] == OPTIONS


def test_the_numpy_actor_computes_the_sb3_actor(run: Path) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(run, device="cpu")
    weights = load_weights(run)
    env = SeatEnv(make_raw(GAME, **OPTIONS))
    for seed in range(5):
        scaled, _ = env.reset(seed=seed)
        raw = env.env.game.observation(env.seat)  # type: ignore[union-attr]
        with torch.no_grad():
            expected = model.policy.get_distribution(torch.as_tensor(scaled[None])).distribution.logits.numpy()[0]
        logits = weights.logits(raw)
        np.testing.assert_allclose(
            logits - np.log(np.exp(logits - logits.max()).sum()) - logits.max(), expected, atol=1e-4
        )


def test_specs_build_sampling_and_greedy_policies_that_play_legally(run: Path) -> None:
    env = make_raw(GAME, **OPTIONS)
    sampling = make_policy(f"ckpt:{run}", env, seed=1)
    greedy = make_policy(f"ckpt-greedy:{run.with_suffix('.npz')}", env, seed=1)
    assert isinstance(sampling, MlpPolicy) and not sampling.greedy and isinstance(greedy, MlpPolicy) and greedy.greedy
    env.reset(seed=3)
    for _ in range(300):  # a tiny greedy net may stall a game until the step cap: a few hundred moves suffice
        if env.game.is_terminal:  # type: ignore[union-attr]
            break
        observation = env.observe(env.agent_selection)
        for policy in (sampling, greedy):
            assert observation["action_mask"][policy.act(observation)]
        env.step(greedy.act(observation))
    again = make_policy(f"ckpt-greedy:{run}", env, seed=2)
    env.reset(seed=4)
    observation = env.observe(env.agent_selection)
    assert again.act(observation) == greedy.act(observation)  # greedy play does not depend on the seed


def test_a_checkpoint_enters_a_tournament(run: Path, tmp_path: Path) -> None:
    result = Tournament(GAME, [f"agent=ckpt:{run}", "random"], games=12, options=OPTIONS).run(tmp_path / "t.sqlite")
    assert_whole_games(result, ["agent", "random"], games=12)


def test_a_zip_without_its_npz_is_converted_and_wrong_games_are_refused(run: Path, tmp_path: Path) -> None:
    lone = tmp_path / "lone.zip"
    lone.write_bytes(run.read_bytes())
    context = PolicyContext.from_env(make_raw(GAME, **OPTIONS))
    with pytest.raises(UntrustedCheckpointError, match="--trust-checkpoint"):
        load_weights(lone, context.layout)
    converted = load_weights(lone, context.layout, trust=True)
    original = ActorWeights.load(run.with_suffix(".npz"))
    np.testing.assert_allclose(converted.action[0], original.action[0])
    np.testing.assert_allclose(converted.obs_scale, original.obs_scale)
    with pytest.raises(ValueError, match="checkpoint expects observations"):
        make_policy(f"ckpt:{run}", make_raw("kyuuri-v0"))
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        make_policy(f"ckpt:{tmp_path / 'missing.zip'}", make_raw(GAME, **OPTIONS))


def test_a_trusted_zip_converts_to_the_npz_training_wrote(run: Path, tmp_path: Path) -> None:
    from cardenvs.experiments.convert_checkpoint import main

    lone = tmp_path / "checkpoints" / "final.zip"  # a copy of the run folder, without the .npz
    lone.parent.mkdir()
    lone.write_bytes(run.read_bytes())
    (tmp_path / "args.json").write_bytes((run.parent / "args.json").read_bytes())
    assert main([str(lone), "--trust"]) == 0
    converted, original = ActorWeights.load(lone.with_suffix(".npz")), ActorWeights.load(run.with_suffix(".npz"))
    for (w, b), (w0, b0) in zip(
        (*converted.hidden, converted.action), (*original.hidden, original.action), strict=True
    ):
        np.testing.assert_array_equal(w, w0)
        np.testing.assert_array_equal(b, b0)
    np.testing.assert_array_equal(converted.obs_scale, original.obs_scale)
    assert converted.meta["env_id"] == original.meta["env_id"] and converted.meta["options"] == OPTIONS
    make_policy(f"ckpt:{lone}", make_raw(GAME, **OPTIONS))  # now loads without trust: the .npz is beside it


def test_loading_a_checkpoint_for_play_does_not_import_torch(run: Path) -> None:
    code = (
        "import sys; from cardenvs.agents.specs import make_policy; from cardenvs.registry import make_raw; "
        f"make_policy('ckpt:{run}', make_raw('{GAME}', num_players=3)); print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_resume_continues_from_a_checkpoint(run: Path) -> None:
    from sb3_contrib import MaskablePPO

    out = run.parent
    resumed = train(
        replace(tiny(out), total_steps=1536, resume=str(out / "checkpoints" / "step_1024.zip")), trust_checkpoint=True
    )
    assert MaskablePPO.load(resumed, device="cpu").num_timesteps == 1536
    assert (out / "checkpoints" / "step_1536.zip").exists()


def test_command_line_layers_config_flags_and_overrides() -> None:
    args = build_args(
        [
            "--game",
            "kyuuri-v0",
            "--total-steps",
            "5000",
            "--set",
            "net_arch=[16, 16]",
            "--option",
            "num_players=3",
            "--opponent",
            "random=2",
            "--no-tensorboard",
        ]
    )
    assert args.game == "kyuuri-v0" and args.total_steps == 5000 and args.net_arch == [16, 16]
    assert args.options == {"num_players": 3} and args.opponents == {"random": 2.0} and not args.tensorboard
    with pytest.raises(SystemExit, match="unknown training settings"):
        build_args(["--set", "learning_rat=0.1"])
    with pytest.raises(ValueError, match="policy 'verish_ne_verish/rule' plays verish_ne_verish, not"):
        train(TrainArgs(game="kyuuri-v0", opponents={"verish_ne_verish/rule": 1.0}))


def test_a_policy_file_with_parameters_is_a_training_opponent(tmp_path: Path) -> None:
    from cardenvs.experiments.train import build_args, make_env
    from tests.user_policies import write_policy

    spec = f"{write_policy(tmp_path)}:PBluffer?p=0.5"
    args = build_args(["--game", "verish_ne_verish-v0", "--opponent", f"{spec}=2", "--set", "snapshot_share=0"])
    assert args.opponents == {spec: 2.0}
    env = make_env(args, rank=0)
    env.reset(seed=0)
    for _ in range(300):
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated or truncated:
            break
    assert set(env.pool.last_names.values()) == {spec}
    assert all(type(p).__name__ == "ForeignPolicy" for p in env.seated.values())
    with pytest.raises(SystemExit, match="SPEC=WEIGHT"):
        build_args(["--opponent", "random"])


def test_results_rows_come_from_a_two_entrant_tournament(run: Path, tmp_path: Path) -> None:
    from cardenvs.experiments.training_results import evaluate

    row = evaluate(GAME, f"ckpt-greedy:{run}", "random", 6, OPTIONS, tmp_path)
    assert row.startswith("| `random` | ") and row.count("|") == 7
    assert (tmp_path / "tournament-report.md").exists()


def test_results_can_be_limited_to_named_opponents() -> None:
    from cardenvs.experiments.training_results import select_opponents

    assert select_opponents("kyuuri-v0") == ["random", "kyuuri/rule", "kyuuri/thrifty"]
    assert select_opponents("kyuuri-v0", ["kyuuri/thrifty"]) == ["kyuuri/thrifty"]
    with pytest.raises(SystemExit, match=r"unknown opponents \['nobody'\]"):
        select_opponents("kyuuri-v0", ["nobody"])


def test_resuming_from_the_command_line_reads_the_runs_own_settings(run: Path) -> None:
    args = build_args(["--resume", str(run), "--total-steps", "4096"])
    assert (args.game, args.options, args.net_arch, args.total_steps) == (GAME, OPTIONS, [32, 32], 4096)
    assert args.run_dir() == run.parent
    args = build_args(["--resume", str(run.parent / "checkpoints" / "step_512.zip")])
    assert args.run_dir() == run.parent and args.options == OPTIONS


def test_a_moved_run_resumes_in_its_new_folder(run: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    shutil.copytree(run.parent, moved)
    assert json.loads((moved / "args.json").read_text())["out"] == str(run.parent)  # the folder it was trained in
    args = build_args(["--resume", str(moved / "final.zip")])
    assert args.run_dir() == moved and args.out == ""
    assert build_args(["--resume", str(moved / "final.zip"), "--out", str(tmp_path / "x")]).run_dir() == tmp_path / "x"
