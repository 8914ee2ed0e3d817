"""A short RLlib run on a local Ray: the docs example, team modules, their NumPy actors, and a tournament."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.agents.tournament import Tournament
from cardenvs.registry import make_raw

pytest.importorskip("ray.rllib", reason="the cluster extra (ray[rllib]) is not installed")

from cardenvs.experiments.train_rllib import (
    RLlibArgs,
    build_args,
    check_args,
    module_of_seat,
    start_ray,
    train,
    write_actors,
)
from cardenvs.wrappers.rllib import RLlibEnv

GAME = "zheng_shang_you-v0"
OPTIONS = {"num_players": 4, "team_mode": "partners", "episode": "deal"}


def tiny(out: Path) -> RLlibArgs:
    return RLlibArgs(
        game=GAME,
        options=OPTIONS,
        policies="team",
        iterations=2,
        num_env_runners=1,
        train_batch_size=256,
        minibatch_size=128,
        num_epochs=1,
        net_arch=[32, 32],
        checkpoint_every=1,
        out=str(out),
    )


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One small local Ray for the module (starting it is most of the module's time)."""
    import ray

    start_ray(RLlibArgs())
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def final(local_ray: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return train(tiny(tmp_path_factory.mktemp("rllib")))


@pytest.mark.slow
def test_the_docs_example_trains_with_no_glue(local_ray: None) -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "rllib.md"
    (block,) = re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.DOTALL)
    namespace: dict[str, Any] = {}
    exec(compile(block, str(page), "exec"), namespace)
    assert namespace["result"]["env_runners"]["num_env_steps_sampled_lifetime"] >= 256
    namespace["algo"].stop()


@pytest.mark.slow
def test_a_run_writes_rllib_checkpoints_numpy_actors_and_its_progress(final: Path) -> None:
    run = final.parent
    assert json.loads((run / "args.json").read_text())["policies"] == "team"
    rows = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1, 2] and rows[-1]["env_steps"] >= 512
    assert sorted(p.name for p in final.glob("*.npz")) == ["team_0.npz", "team_1.npz"]
    assert (run / "checkpoints" / "iter_1" / "team_0.npz").exists() and (final / "rllib_checkpoint.json").exists()


@pytest.mark.slow
def test_the_numpy_actor_computes_the_rllib_modules_logits(final: Path) -> None:
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule

    module = RLModule.from_checkpoint(final / "learner_group" / "learner" / "rl_module" / "team_1")
    weights = ActorWeights.load(final / "team_1.npz")
    env = RLlibEnv({"game": GAME, **OPTIONS})
    observations, _ = env.reset(seed=5)
    for _ in range(20):
        (agent,) = observations
        obs = observations[agent]
        batch = {"obs": {k: torch.from_numpy(v[None]) for k, v in obs.items()}}
        expected = module.forward_inference(batch)["action_dist_inputs"][0].detach().numpy()
        legal = obs["action_mask"] == 1.0
        got = weights.logits(env.env.observe(agent)["observation"])  # the raw observation: the .npz scales it
        np.testing.assert_allclose(got[legal], expected[legal], rtol=1e-4, atol=1e-5)
        observations, *_ = env.step({agent: int(np.flatnonzero(legal)[0])})


@pytest.mark.slow
def test_the_converted_team_modules_play_a_tournament_without_torch(final: Path, tmp_path: Path) -> None:
    entrants = [f"team0=ckpt:{final / 'team_0.npz'}", f"team1=ckpt-greedy:{final / 'team_1.npz'}", "random"]
    result = Tournament(GAME, entrants, games=6, options=OPTIONS).run(tmp_path / "t.sqlite")
    assert len(result.records) >= 6
    code = (
        "import sys; from cardenvs.agents.specs import make_policy; from cardenvs.registry import make_raw; "
        f"make_policy('ckpt:{final / 'team_0.npz'}', make_raw('{GAME}', **{OPTIONS!r})); "
        "print(sorted(m for m in ('torch', 'ray') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.slow
def test_a_trusted_rllib_checkpoint_converts_to_the_actors_training_wrote(final: Path, tmp_path: Path) -> None:
    from cardenvs.experiments.convert_checkpoint import main as convert

    copy = tmp_path / "final"
    shutil.copytree(final, copy, ignore=shutil.ignore_patterns("*.npz"))
    flags = ["--game", GAME, *(f"--option={k}={json.dumps(v)}" for k, v in OPTIONS.items())]
    with pytest.raises(SystemExit, match="unpickles Python objects"):
        convert([str(copy), *flags])
    assert not list(copy.glob("*.npz"))
    convert([str(copy), "--trust", *flags])
    for module in ("team_0", "team_1"):
        written, trained = ActorWeights.load(copy / f"{module}.npz"), ActorWeights.load(final / f"{module}.npz")
        for (w, b), (w0, b0) in zip((*written.hidden, written.action), (*trained.hidden, trained.action), strict=True):
            np.testing.assert_array_equal(w, w0)
            np.testing.assert_array_equal(b, b0)
        np.testing.assert_array_equal(written.obs_scale, trained.obs_scale)
        assert written.activation == trained.activation and written.meta["options"] == OPTIONS


@pytest.mark.parametrize("model_config", [None, {"fcnet_hiddens": [16], "vf_share_layers": False}])
def test_modules_with_rllibs_default_config_or_their_own_encoder_convert(model_config: Any, tmp_path: Path) -> None:
    """Modules built outside the recipe (RLlib's default config shares the encoder with the value function)."""
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    env = RLlibEnv({"game": "kyuuri-v0", "num_players": 3})
    observations, _ = env.reset(seed=1)
    (agent,) = observations
    spaces = {"observation_space": env.observation_spaces[agent], "action_space": env.action_spaces[agent]}
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config, **spaces).build()
    (path,) = write_actors({"mine": module}, "kyuuri-v0", {"num_players": 3}, tmp_path, {})
    batch = {"obs": {k: torch.from_numpy(v[None]) for k, v in observations[agent].items()}}
    expected = module.forward_inference(batch)["action_dist_inputs"][0].detach().numpy()
    legal = observations[agent]["action_mask"] == 1.0
    got = ActorWeights.load(path).logits(env.env.observe(agent)["observation"])
    np.testing.assert_allclose(got[legal], expected[legal], rtol=1e-4, atol=1e-5)


def test_modules_follow_the_sides_the_options_fix_and_dealt_sides_are_refused() -> None:
    assert module_of_seat(RLlibArgs(game=GAME, options=OPTIONS, policies="team")) == ["team_0", "team_1"] * 2
    sjx = {"num_players": 6, "team_mode": "san_jia_xi"}
    assert module_of_seat(RLlibArgs(game=GAME, options=sjx, policies="team")) == ["team_0", "team_1"] * 3
    assert module_of_seat(RLlibArgs(game="kyuuri-v0", options={"num_players": 3})) == ["shared"] * 3
    with pytest.raises(ValueError, match="sides dealt by the cards"):
        module_of_seat(RLlibArgs(game="goninkan-v1", policies="team"))
    with pytest.raises(ValueError, match="policies must be one of"):
        check_args(RLlibArgs(policies="each"))
    with pytest.raises(ValueError, match="3 env runners need as many CPUs"):
        check_args(RLlibArgs(num_env_runners=3))


def test_the_command_line_reads_the_games_config_then_flags_then_options() -> None:
    args = build_args(["--game", "yoninkan-v1", "--num-env-runners", "2", "--net-arch", "64,64", "--address", "auto"])
    assert (args.reward_scale, args.num_env_runners, args.net_arch, args.address) == (0.02, 2, [64, 64], "auto")
    args = build_args(["--game", GAME, "--option", "num_players=6", "--reward-scale", "0.5"])
    assert args.options == {"num_players": 6, "episode": "deal"} and args.reward_scale == 0.5
    assert len(make_raw(args.game, **args.options).possible_agents) == 6
