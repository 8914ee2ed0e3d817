"""Training on the JAX fast path: a short run writes checkpoints that play in the Python envs (same greedy moves
as the JAX actor), resumes, logs; the population's blocks play as configured; the advantages follow each seat."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
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
from cardenvs.agents.specs import make_policy  # noqa: E402
from cardenvs.agents.tournament import Tournament  # noqa: E402
from cardenvs.experiments.train_fast.__main__ import main  # noqa: E402
from cardenvs.experiments.train_fast.checkpoint import latest_state, load_state  # noqa: E402
from cardenvs.experiments.train_fast.config import FastTrainArgs  # noqa: E402
from cardenvs.experiments.train_fast.networks import greedy  # noqa: E402
from cardenvs.experiments.train_fast.population import apportion  # noqa: E402
from cardenvs.experiments.train_fast.ppo import Program, Steps, TrainState  # noqa: E402
from cardenvs.experiments.train_fast.trainer import RunResult, setup, train  # noqa: E402
from cardenvs.registry import make_raw  # noqa: E402
from tests.tournament.whole_games import assert_whole_games  # noqa: E402

GAME = "verish_ne_verish-v0"
OPTIONS = {"num_players": 3}
QUICK_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
STUB = "verish_ne_verish/lowest"


class LowestLegal:
    """A stub rule bot of ``agents.fast_bots``'s shape: the lowest legal action id."""

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        return jnp.argmax(mask, axis=1).astype(jnp.int32)


BOTS = {STUB: lambda env_id, options: LowestLegal()}


def tiny(out: Path, **changes: object) -> FastTrainArgs:
    fields = {
        "game": GAME,
        "options": OPTIONS,
        "total_steps": 3000,
        "num_games": 32,
        "rollout_steps": 32,
        "minibatch_size": 256,
        "n_epochs": 2,
        "net_arch": [32, 32],
        "population": {"self": 2.0, "snapshots": 1.0, "random": 1.0, STUB: 1.0},
        "snapshot_every": 1000,
        "checkpoint_every": 1500,
        "out": str(out),
        "progress": False,
        **changes,
    }
    return FastTrainArgs(**fields)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return train(tiny(tmp_path_factory.mktemp("fast")), QUICK_COMPILE, BOTS)


def test_a_run_writes_actor_checkpoints_its_state_its_arguments_and_tensorboard_logs(run: RunResult) -> None:
    out = run.final.parent
    assert run.steps >= 3000 and run.final.name == "final.npz"
    names = sorted(p.name for p in (out / "checkpoints").iterdir())
    assert any(n.endswith(".train.npz") for n in names) and len(names) >= 4  # two checkpoints at least
    assert json.loads((out / "args.json").read_text())["population"][STUB] == 1.0
    assert list((out / "tb").glob("events.out.tfevents.*"))
    meta = ActorWeights.load(run.final).meta
    context = PolicyContext.from_env(make_raw(GAME, **OPTIONS))
    assert meta["env_id"] == "cardenvs/verish_ne_verish-v0" and meta["options"] == OPTIONS
    assert meta["layout_hash"] == context_layout_hash(context) and meta["steps"] == run.steps


def test_the_checkpoint_plays_a_tournament_in_the_python_env(run: RunResult, tmp_path: Path) -> None:
    result = Tournament(GAME, [f"agent=ckpt:{run.final}", "random"], games=12, options=OPTIONS).run(tmp_path / "t.db")
    assert_whole_games(result, ["agent", "random"], games=12)


def test_greedy_moves_are_the_same_in_the_jax_and_the_python_player(run: RunResult) -> None:
    built = setup(tiny(run.final.parent), BOTS)
    state = load_state(latest_state(run.final.parent), built.fresh)  # type: ignore[arg-type]
    assert_same_greedy_moves(state.model.actor, built.program.obs_scale, run.final)


def assert_same_greedy_moves(network: Callable[[jax.Array], jax.Array], obs_scale: np.ndarray, path: Path) -> None:
    """``network`` (scaled observations → scores per action id) and the Python ``ckpt-greedy:`` player of the
    checkpoint at ``path`` choose the same moves on observations of the Python env along random games."""
    env = make_raw(GAME, **OPTIONS)
    python_player = make_policy(f"ckpt-greedy:{path}", env, seed=0)
    rng = np.random.default_rng(0)
    observations, masks = [], []
    for seed in range(6):  # observations of the Python env along random games
        env.reset(seed=seed)
        while not all(env.terminations.values()) and len(observations) < 40 * (seed + 1):
            seen = env.observe(env.agent_selection)
            observations.append(seen["observation"])
            masks.append(seen["action_mask"].astype(bool))
            env.step(int(rng.choice(np.flatnonzero(masks[-1]))))
    obs, mask = np.array(observations, np.float32), np.array(masks)
    jax_moves = np.asarray(greedy(network(jnp.asarray(obs * obs_scale)), jnp.asarray(mask)))
    python_moves = [
        python_player.act({"observation": o, "action_mask": m.astype(np.int8)}) for o, m in zip(obs, mask, strict=True)
    ]
    assert len(obs) >= 100 and len(set(python_moves)) > 1
    assert jax_moves.tolist() == python_moves


def test_a_resumed_run_continues_from_its_newest_checkpoint(run: RunResult, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(run.final.parent, copy)
    again = train(replace(tiny(copy), total_steps=run.steps + 1000, resume=True), QUICK_COMPILE, BOTS)
    assert 1000 <= again.steps - run.steps <= 1000 + 32 * 32  # from the saved count, at most one rollout more
    assert ActorWeights.load(again.final).meta["steps"] == again.steps


def test_a_time_limit_stops_the_run_with_its_final_checkpoint(run: RunResult, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(run.final.parent, copy)
    limited = replace(tiny(copy), total_steps=10**9, resume=True, max_minutes=1e-9)
    again = train(limited, QUICK_COMPILE, BOTS)
    assert again.steps == run.steps  # the limit had passed before the first iteration: no step taken
    assert ActorWeights.load(again.final).meta["steps"] == run.steps


def test_each_population_block_plays_its_games_and_the_learner_its_seats(tmp_path: Path) -> None:
    args = tiny(tmp_path, num_games=8, rollout_steps=32, population={"self": 1.0, STUB: 3.0})
    built = setup(args, BOTS)
    program = built.program
    fresh = built.fresh
    games, seats = program.init_games(fresh.key)
    state = TrainState(fresh.model, fresh.opt_state, fresh.snapshots, games, seats, fresh.key)
    _, steps = jax.jit(program.rollout).lower(state).compile(QUICK_COMPILE)(state)
    learner, player = np.asarray(steps.learner), np.asarray(steps.player)
    action, mask = np.asarray(steps.action), np.asarray(steps.mask)
    assert [b.size for b in program.blocks] == [2, 6]
    assert learner[:, :2].all()  # self games: the learner at every seat
    bot_turns = ~learner[:, 2:]
    assert 0 < learner[:, 2:].mean() < 0.6 and bot_turns.any()  # one seat of three is the learner's
    lowest = mask[:, 2:].argmax(axis=2)
    assert (action[:, 2:][bot_turns] == lowest[bot_turns]).all()
    done = np.asarray(steps.done)
    for game in range(2, 8):  # within a deal the learner always moves for the same seat
        deal = np.concatenate([[0], np.cumsum(done[:-1, game])])
        for number in set(deal.tolist()):
            assert len(set(player[(deal == number) & learner[:, game], game].tolist())) <= 1


def test_shares_are_whole_games_in_proportion() -> None:
    assert apportion({"self": 2.0, "snapshots": 1.0, "random": 1.0}, 32) == {"self": 16, "snapshots": 8, "random": 8}
    assert apportion({"self": 1.0, "random": 0.001}, 10) == {"self": 9, "random": 1}


def test_advantages_follow_each_seat_to_its_next_decision_or_the_end() -> None:
    gamma, lam = 0.9, 0.8
    program = Program(None, [], FastTrainArgs(gamma=gamma, gae_lambda=lam), np.ones(1, np.float32), 2)
    # one game, two seats: 0 moves, 1 moves, 0 moves, 1 moves and ends it (seat 0 +1, seat 1 −1), then 0 moves in
    # the next deal with no later decision in the rollout
    player = np.array([0, 1, 0, 1, 0])
    value = np.array([0.1, 0.2, 0.3, 0.4, 0.5], np.float32)
    rewards = np.zeros((5, 1, 2), np.float32)
    rewards[3, 0] = [1.0, -1.0]
    done = np.array([0, 0, 0, 1, 0], bool)

    def advantages(learner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        columns = [value[:, None], player[:, None], learner[:, None], rewards, done[:, None]]
        steps = Steps(*(None,) * 4, *map(jnp.asarray, columns), None)  # type: ignore[arg-type]
        adv, valid = program.advantages(steps)
        return np.asarray(adv)[:, 0], np.asarray(valid)[:, 0]

    adv, valid = advantages(player == 0)  # the learner holds seat 0
    assert valid.tolist() == [True, False, True, False, False]
    assert adv[2] == pytest.approx(1.0 - 0.3)
    assert adv[0] == pytest.approx(gamma * 0.3 - 0.1 + gamma * lam * (1.0 - 0.3))
    adv, valid = advantages(np.ones(5, bool))  # every seat the learner's
    assert valid.tolist() == [True, True, True, True, False]
    assert adv[3] == pytest.approx(-1.0 - 0.4)
    assert adv[1] == pytest.approx(gamma * 0.4 - 0.2 + gamma * lam * (-1.0 - 0.4))


def test_bad_settings_are_one_line_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--game", "nope-v0", "--out", str(tmp_path)]) == 2
    assert main(["--game", GAME, "--set", "population={ 'zheng_shang_you/rule' = 1.0 }"]) == 2
    assert main(["--game", GAME, "--set", "minibatch_size=1000", "--set", "num_games=3"]) == 2
    assert main(["--out", str(tmp_path / "none"), "--resume"]) == 2
    assert main(["--game", GAME, "--set", "max_minutes=-1"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 5 and "max_minutes" in lines[4] and all(line.startswith("error: ") for line in lines)
    assert "population entry 'zheng_shang_you/rule'" in lines[1] and "minibatch_size 1000" in lines[2]
