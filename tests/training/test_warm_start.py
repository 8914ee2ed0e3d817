"""The imitation warm start and the fine-tuning settings of a resumed run."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.experiments.imitation import best_epoch, collect, collect_in_parallel, held_out_rows, pretrain
from cardenvs.experiments.train import CONFIGS, EnvFactory, LinearDecay, TrainArgs, check_args, make_env, train
from cardenvs.wrappers import observation_scale
from tests.training.small_runs import small_run

OPTIONS = {"num_players": 2, "episode": "deal"}


def kyuuri(out: Path, **changes: object) -> TrainArgs:
    return small_run(
        out,
        **{
            "game": "kyuuri-v0",
            "options": OPTIONS,
            "total_steps": 0,
            "n_steps": 128,
            "batch_size": 128,
            "net_arch": [64, 64],
            "opponents": {"random": 1.0},
            "snapshot_every": 0,
            "checkpoint_every": 0,
            **changes,
        },
    )


def test_demonstrations_are_the_teachers_legal_moves_with_the_return_that_followed(tmp_path: Path) -> None:
    demos = collect(make_env(kyuuri(tmp_path), 0), "kyuuri/thrifty", 3000, gamma=1.0, seed=0)
    assert len(demos) > 2900 and demos.episodes > 100
    assert demos.masks[np.arange(len(demos)), demos.actions].all()
    # a 2-player deal pays the learner +1 or −1 at its end only, so with gamma 1 every decision's return is that
    assert set(np.unique(demos.returns)) == {-1.0, 1.0}
    starts = np.flatnonzero(np.r_[True, demos.returns[1:] != demos.returns[:-1]])
    assert len(starts) <= demos.episodes
    win_rate = float(np.mean(demos.returns > 0))
    assert win_rate > 0.6, f"the teacher at the learner's seat won only {win_rate:.2f} of its decisions vs random"


def test_pretraining_copies_the_teacher_and_is_recorded(tmp_path: Path) -> None:
    final = train(kyuuri(tmp_path, imitate="kyuuri/thrifty", imitate_decisions=8000, imitate_epochs=8))
    record = json.loads((final.parent / "imitation.json").read_text())
    agreement = [epoch["agreement"] for epoch in record["rounds"][0]["epochs"]]  # the untrained network, then 8
    assert record["teacher"] == "kyuuri/thrifty" and len(agreement) == 9 and len(record["rounds"]) == 1
    # measured: 0.71 after the first epoch, 0.93 after the last
    assert agreement[-1] > 0.85 and agreement[-1] > agreement[1] > agreement[0]
    assert (final.parent / "checkpoints" / "step_0.npz").exists()  # the imitation alone, kept to compare


def test_pretrain_reports_held_out_agreement_before_and_after_each_epoch(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    args = kyuuri(tmp_path)
    model = MaskablePPO("MlpPolicy", DummyVecEnv([lambda: make_env(args, 0)]), n_steps=64, batch_size=64)
    demos = collect(make_env(args, 1), "kyuuri/thrifty", 2000, gamma=0.99, seed=1)
    history = pretrain(model, demos, epochs=2, batch_size=256, learning_rate=1e-3, seed=0)
    assert [sorted(h) for h in history] == [["agreement", "cross_entropy", "value_rmse"]] * 3
    assert all(0.0 <= h["agreement"] <= 1.0 for h in history)


def test_pretrain_keeps_the_epoch_with_the_best_held_out_agreement(tmp_path: Path) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    args = kyuuri(tmp_path)
    model = MaskablePPO("MlpPolicy", DummyVecEnv([lambda: make_env(args, 0)]), n_steps=64, batch_size=64, seed=0)
    demos = collect(make_env(args, 1), "kyuuri/thrifty", 2000, gamma=0.99, seed=1)
    rows = held_out_rows(len(demos), seed=0)
    fitted = np.setdiff1d(np.arange(len(demos)), rows)
    teacher = demos.actions.copy()
    demos.actions[fitted] = demos.masks[fitted].argmax(axis=1)  # fit "lowest legal action", hold out the teacher
    assert np.mean(demos.actions[fitted] != teacher[fitted]) > 0.3
    history = pretrain(model, demos, epochs=4, batch_size=64, learning_rate=1e-3, seed=0)
    kept = best_epoch(history)
    assert kept < len(history) - 1, [round(h["agreement"], 3) for h in history]  # later epochs only got worse
    obs, masks = torch.as_tensor(demos.observations[rows].astype(np.float32)), demos.masks[rows]
    with torch.no_grad():
        greedy = model.policy.get_distribution(obs, action_masks=masks).distribution.probs.argmax(-1).numpy()
    assert float(np.mean(greedy == demos.actions[rows])) == pytest.approx(history[kept]["agreement"])


def test_a_refit_that_only_loses_agreement_keeps_the_weights_it_started_from(tmp_path: Path) -> None:
    """A DAgger round refits a good copy; if every epoch of the refit is worse (a diverging fit), the copy stays."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    args = kyuuri(tmp_path)
    model = MaskablePPO("MlpPolicy", DummyVecEnv([lambda: make_env(args, 0)]), n_steps=64, batch_size=64, seed=0)
    demos = collect(make_env(args, 1), "kyuuri/thrifty", 2000, gamma=0.99, seed=1)
    first = pretrain(model, demos, epochs=4, batch_size=64, learning_rate=1e-3, seed=0)
    rows = held_out_rows(len(demos), seed=0)
    fitted = np.setdiff1d(np.arange(len(demos)), rows)
    demos.actions[fitted] = demos.masks[fitted].argmax(axis=1)  # refit on "lowest legal action"
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    history = pretrain(model, demos, epochs=2, batch_size=64, learning_rate=1e-3, seed=0)
    assert history[0]["agreement"] == pytest.approx(first[best_epoch(first)]["agreement"])
    assert max(h["agreement"] for h in history[1:]) < history[0]["agreement"]  # the refit made it worse
    assert best_epoch(history) == 0
    after = model.policy.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)


def test_held_out_rows_stay_held_out_when_rows_are_appended() -> None:
    first, longer = held_out_rows(4000, seed=3), held_out_rows(9000, seed=3)
    assert np.array_equal(longer[longer < 4000], first)
    assert 0.03 < len(longer) / 9000 < 0.07


def test_with_a_learner_the_learner_plays_and_the_teacher_labels(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    args = kyuuri(tmp_path)
    env = make_env(args, 0)
    untrained = MaskablePPO("MlpPolicy", DummyVecEnv([lambda: make_env(args, 0)]), n_steps=64, seed=0)
    learner = ActorWeights.from_model(untrained, observation_scale(env.env.layout))
    demos = collect(env, "kyuuri/thrifty", 2000, gamma=1.0, seed=0, learner=learner)
    rows = np.arange(len(demos))
    assert demos.masks[rows, demos.actions].all() and demos.masks[rows, demos.played].all()
    # an untrained network picks the bot's card in some decisions only (forced moves and luck)
    assert 0.2 < demos.agreement() < 0.9, demos.agreement()
    by_teacher = collect(make_env(args, 0), "kyuuri/thrifty", 2000, gamma=1.0, seed=0)
    assert by_teacher.agreement() == 1.0
    # the untrained copy loses more to random than the bot does: the returns are those of the play at the table
    assert float(np.mean(demos.returns > 0)) < float(np.mean(by_teacher.returns > 0)) - 0.1


def test_collection_splits_over_processes_reproducibly(tmp_path: Path) -> None:
    args = kyuuri(tmp_path)
    fns = [EnvFactory(args, 0), EnvFactory(args, 1)]
    one, again = (collect_in_parallel(fns, "kyuuri/thrifty", 3000, 1.0, seed=5) for _ in range(2))
    assert 2800 < len(one) <= 3000 and one.episodes > 100
    assert np.array_equal(one.observations, again.observations) and np.array_equal(one.actions, again.actions)
    alone = collect_in_parallel(fns[:1], "kyuuri/thrifty", 3000, 1.0, seed=5)
    # the first process records what one process would, up to its share; the second deals games of its own
    assert np.array_equal(alone.observations[:1000], one.observations[:1000])
    assert not np.array_equal(alone.observations[-1000:], one.observations[-1000:])


def test_dagger_rounds_refit_on_the_copys_own_play(tmp_path: Path) -> None:
    final = train(
        kyuuri(
            tmp_path,
            imitate="kyuuri/thrifty",
            imitate_decisions=4000,
            imitate_epochs=4,
            imitate_rounds=1,
            imitate_round_decisions=3000,
            imitate_round_epochs=3,
        )
    )
    rounds = json.loads((final.parent / "imitation.json").read_text())["rounds"]
    # each round records the weights it started from, then every epoch
    assert [len(r["epochs"]) for r in rounds] == [5, 4] and rounds[0]["own_play_agreement"] is None
    assert 6500 < rounds[1]["decisions"] <= 7000
    # measured: the copy played the bot's card in 0.63 of its own decisions (held-out agreement 0.68 after 4 epochs)
    assert 0.4 < rounds[1]["own_play_agreement"] < 0.95
    first, second = (ActorWeights.load(final.parent / "checkpoints" / f"imitation_round_{n}.npz") for n in (0, 1))
    assert first.meta["imitation_round"] == 0 and not np.array_equal(first.action[0], second.action[0])


def test_an_unknown_teacher_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown imitate teacher 'kyuuri/nobody'.*kyuuri/thrifty"):
        train(kyuuri(tmp_path, imitate="kyuuri/nobody"))


def test_a_teacher_may_be_any_policy_spec_and_a_bad_one_is_named() -> None:
    module = "cardenvs.agents.yardstick.verish_ne_verish"
    check_args(TrainArgs(game="verish_ne_verish-v0", imitate=f"{module}:Truthful"))
    with pytest.raises(ValueError, match=r"(?s)verish_ne_verish has no 'Nobody'.*accepted policy specs"):
        check_args(TrainArgs(game="verish_ne_verish-v0", imitate=f"{module}:Nobody"))


def test_the_learning_rate_decays_over_the_resumed_phase_only() -> None:
    decay = LinearDecay(start=1e-3, end=0.0, begin=100, total=200)
    # SB3 passes progress_remaining = 1 - steps / total
    assert decay(1.0) == pytest.approx(1e-3) and decay(0.5) == pytest.approx(1e-3)
    assert decay(0.25) == pytest.approx(5e-4) and decay(0.0) == pytest.approx(0.0)


def test_a_resumed_run_takes_new_ppo_settings(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    first = train(kyuuri(tmp_path / "run", total_steps=512))
    copy = tmp_path / "copy"
    shutil.copytree(first.parent, copy)
    resumed = train(
        kyuuri(copy, total_steps=1024, resume=str(copy / "final.zip"), learning_rate=1e-4, lr_final=0.0, ent_coef=0.05),
        trust_checkpoint=True,
    )
    model = MaskablePPO.load(resumed, device="cpu")
    assert model.num_timesteps == 1024 and model.ent_coef == 0.05
    assert model.lr_schedule(1 - 512 / 1024) == pytest.approx(1e-4) and model.lr_schedule(0.0) == 0.0


@pytest.mark.parametrize("config", sorted(CONFIGS.glob("*.toml")), ids=lambda path: path.stem)
def test_every_game_config_is_a_valid_recipe(config: Path) -> None:
    args = TrainArgs(**tomllib.loads(config.read_text()))
    check_args(args)  # known game, opponents and teacher; batch size dividing the rollout
    assert config.stem == args.game_name or config.stem.startswith(args.game_name + "_")  # <game>[_<variant>]
