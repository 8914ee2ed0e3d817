"""Deep Monte-Carlo on the JAX fast path (``algorithm = "dmc"``): a short run writes action-value checkpoints that
play as ``ckpt-greedy:`` in the Python envs (the same moves as the JAX network), resumes; the learner acts
ε-greedily; the targets are each seat's return to the end of its game; bad settings are one-line errors."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

from cardenvs.agents.base import PolicyContext  # noqa: E402
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash  # noqa: E402
from cardenvs.agents.tournament import Tournament  # noqa: E402
from cardenvs.experiments.train_fast.__main__ import main  # noqa: E402
from cardenvs.experiments.train_fast.checkpoint import latest_state, load_state  # noqa: E402
from cardenvs.experiments.train_fast.config import FastTrainArgs  # noqa: E402
from cardenvs.experiments.train_fast.dmc import monte_carlo_targets  # noqa: E402
from cardenvs.experiments.train_fast.networks import ActionValues, greedy  # noqa: E402
from cardenvs.experiments.train_fast.rollout import Turn  # noqa: E402
from cardenvs.experiments.train_fast.trainer import RunResult, setup, train  # noqa: E402
from cardenvs.registry import make_raw  # noqa: E402
from tests.tournament.whole_games import assert_whole_games  # noqa: E402
from tests.training.test_train_fast import (  # noqa: E402
    BOTS,
    GAME,
    OPTIONS,
    QUICK_COMPILE,
    assert_same_greedy_moves,
    tiny,
)


def dmc(out: Path, **changes: object) -> FastTrainArgs:
    """The PPO tests' tiny run with the DMC learner (rollouts long enough that most deals end within two)."""
    return tiny(out, **{"algorithm": "dmc", "epsilon": 0.1, "rollout_steps": 48, "minibatch_size": 512, **changes})


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return train(dmc(tmp_path_factory.mktemp("dmc")), QUICK_COMPILE, BOTS)  # type: ignore[arg-type]


def test_a_run_writes_action_value_checkpoints_its_state_and_its_arguments(run: RunResult) -> None:
    out = run.final.parent
    assert run.steps >= 3000
    assert any(p.name.endswith(".train.npz") for p in (out / "checkpoints").iterdir())
    assert json.loads((out / "args.json").read_text())["algorithm"] == "dmc"
    weights = ActorWeights.load(run.final)
    context = PolicyContext.from_env(make_raw(GAME, **OPTIONS))
    assert weights.meta["algorithm"] == "dmc" and weights.meta["steps"] == run.steps
    assert weights.meta["layout_hash"] == context_layout_hash(context)
    assert weights.action[0].shape[0] == context.actions.size  # one value per action id


def test_the_checkpoint_plays_a_tournament_as_ckpt_greedy(run: RunResult, tmp_path: Path) -> None:
    entrants = [f"agent=ckpt-greedy:{run.final}", "random"]
    result = Tournament(GAME, entrants, games=12, options=OPTIONS).run(tmp_path / "t.db")
    assert_whole_games(result, ["agent", "random"], games=12)


def test_greedy_moves_are_the_same_in_the_jax_network_and_the_python_player(run: RunResult) -> None:
    built = setup(dmc(run.final.parent), BOTS)  # type: ignore[arg-type]
    state = load_state(latest_state(run.final.parent), built.fresh)  # type: ignore[arg-type]
    assert isinstance(state.model, ActionValues)
    assert_same_greedy_moves(state.model, built.program.obs_scale, run.final)


def test_a_resumed_run_continues_from_its_newest_checkpoint(run: RunResult, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(run.final.parent, copy)
    again = train(replace(dmc(copy), total_steps=run.steps + 1000, resume=True), QUICK_COMPILE, BOTS)  # type: ignore[type-var]
    assert 1000 <= again.steps - run.steps <= 1000 + 32 * 48
    assert ActorWeights.load(again.final).meta["steps"] == again.steps


def test_the_learner_plays_its_best_action_but_for_epsilon_and(tmp_path: Path) -> None:
    def rollout(epsilon: float) -> tuple[np.ndarray, np.ndarray, Turn]:
        built = setup(dmc(tmp_path, epsilon=epsilon, population={"self": 1.0}), BOTS)  # type: ignore[arg-type]
        fresh = built.fresh
        state = built.program.start(fresh)
        _, turns = jax.jit(built.program.rollout).lower(state).compile(QUICK_COMPILE)(state)  # type: ignore[arg-type]
        assert isinstance(fresh.model, ActionValues)
        obs, mask = (x.reshape(-1, x.shape[-1]) for x in (turns.obs, turns.mask))
        best = greedy(fresh.model(obs), mask)
        return np.asarray(turns.action).ravel(), np.asarray(best), turns

    actions, best, turns = rollout(0.0)
    assert np.asarray(turns.learner).all() and (actions == best).all()
    actions, best, _ = rollout(0.5)
    assert 0.1 < (actions != best).mean() < 0.5  # half the moves random, some of which are the best one anyway


def test_the_first_iteration_trains_nothing_and_the_next_the_decisions_it_carried(tmp_path: Path) -> None:
    built = setup(dmc(tmp_path, population={"self": 1.0}), BOTS)  # type: ignore[arg-type]
    fresh = built.fresh
    state = built.program.start(fresh)
    rate = jnp.asarray(1e-3, jnp.float32)
    iterate = jax.jit(built.program.iteration).lower(state, rate).compile(QUICK_COMPILE)  # type: ignore[attr-defined]
    first, stats = iterate(state, rate)
    assert int(stats["trained_on"]) == 0 and int(stats["learner_decisions"]) == 32 * 48
    second, stats = iterate(first, rate)
    done = np.concatenate([np.asarray(first.carried.done), np.asarray(second.carried.done)])
    ends_later = np.flip(np.logical_or.accumulate(np.flip(done, 0), axis=0), 0)[:48]  # the game ends at t or after
    expected = int((np.asarray(first.carried.learner) & ends_later).sum())
    assert int(stats["trained_on"]) == expected > 0


def test_targets_are_each_movers_return_to_the_end_of_its_game() -> None:
    # one game, two seats: 0, 1, 0, 1 move and the 4th move ends the game (seat 0 +1, seat 1 −1); a reward of 0.5
    # to seat 1 at the 2nd step; then seat 0 moves in a new deal that does not end within the sequence
    player = np.array([0, 1, 0, 1, 0])
    rewards = np.zeros((5, 1, 2), np.float32)
    rewards[1, 0] = [0.0, 0.5]
    rewards[3, 0] = [1.0, -1.0]
    rewards[4, 0] = [0.25, 0.0]
    done = np.array([0, 0, 0, 1, 0], bool)
    columns = (player[:, None], np.ones((5, 1), bool), rewards, done[:, None])
    turns = Turn(None, None, None, *map(jnp.asarray, columns), None)  # type: ignore[arg-type]
    targets, known = monte_carlo_targets(turns)
    assert np.asarray(targets)[:, 0].tolist() == [1.0, -0.5, 1.0, -1.0, 0.25]
    assert np.asarray(known)[:, 0].tolist() == [True, True, True, True, False]


def test_bad_settings_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", GAME, "--set", "algorithm='sarsa'"]) == 2
    assert main(["--game", GAME, "--set", "algorithm='dmc'", "--set", "epsilon=1.5"]) == 2
    assert main(["--game", GAME, "--set", "algorithm='dmc'", "--set", "init_from='zoo:verish_ne_verish/ppo'"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("error: ") for line in lines)
    assert "algorithm must be one of" in lines[0] and "epsilon" in lines[1] and "init_from" in lines[2]
