"""The shipped fast-path configs train against the game's rule bots (``agents.fast_bots``' array programs): every
config whose game has one names it, and Kyuuri's config, shrunk, trains and its bot blocks play the bots' moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("equinox")
pytest.importorskip("optax")

from cardenvs.agents.fast_bots import FAST_BOTS  # noqa: E402
from cardenvs.experiments.train_fast.checkpoint import latest_state, load_state  # noqa: E402
from cardenvs.experiments.train_fast.config import CONFIGS, default_config, make_args  # noqa: E402
from cardenvs.experiments.train_fast.ppo import TrainState  # noqa: E402
from cardenvs.experiments.train_fast.trainer import setup, train  # noqa: E402

QUICK_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
GAME = "kyuuri-v0"


def test_every_config_whose_game_has_a_fast_rule_bot_gives_it_games() -> None:
    checked = []
    for path in sorted(CONFIGS.glob("*.toml")):
        written = {name for name in FAST_BOTS if name.startswith(f"{path.stem}/")}
        population = default_config(path.stem)["population"]
        named = {name for name, share in population.items() if share > 0 and name in written}
        assert bool(named) == bool(written), f"{path.name}: rule bots {sorted(written)}, population {population}"
        checked += sorted(named)
    assert "kyuuri/thrifty" in checked and "verish_ne_verish/rule" in checked and len(checked) >= 5


def test_kyuuris_config_trains_and_its_bot_blocks_play_the_bots_moves(tmp_path: Path) -> None:
    shrunk = {"num_games": 40, "rollout_steps": 32, "minibatch_size": 256, "n_epochs": 1, "net_arch": [32, 32]}
    values = {**default_config(GAME), **shrunk, "total_steps": 2000, "checkpoint_every": 1000}
    args = make_args({**values, "snapshot_every": 1000, "out": str(tmp_path), "progress": False})
    run = train(args, QUICK_COMPILE)  # the real agents.fast_bots, as a run from the command line
    assert run.steps >= 2000 and run.final.exists()

    built = setup(args)
    program, scale = built.program, built.program.obs_scale
    trained = load_state(latest_state(tmp_path), built.fresh)  # type: ignore[arg-type]
    games, seats = program.init_games(jax.random.PRNGKey(7))
    state = TrainState(trained.model, trained.opt_state, trained.snapshots, games, seats, trained.key)
    _, steps = jax.jit(program.rollout).lower(state).compile(QUICK_COMPILE)(state)
    scaled, mask = np.asarray(steps.obs), np.asarray(steps.mask)
    action, learner = np.asarray(steps.action), np.asarray(steps.learner)
    raw = np.round(scaled / scale)  # Kyuuri's features are whole numbers; the rollout keeps them scaled
    assert np.allclose(raw * scale, scaled, atol=1e-6)

    bot_blocks = [block for block in program.blocks if block.name.startswith("kyuuri/")]
    assert sorted(block.name for block in bot_blocks) == ["kyuuri/rule", "kyuuri/thrifty"]
    for block in bot_blocks:
        games_of = slice(block.start, block.start + block.size)
        turns = ~learner[:, games_of]
        obs, legal = raw[:, games_of][turns].astype(np.float32), mask[:, games_of][turns]
        bot = FAST_BOTS[block.name](GAME, args.options)
        moves = np.asarray(bot.act(obs, legal, jax.random.PRNGKey(0)))
        assert (moves == np.asarray(bot.act(obs, legal, jax.random.PRNGKey(1)))).all()  # deterministic: any key
        assert len(moves) >= 100 and (moves != legal.argmax(axis=1)).any()  # many turns, not just the lowest id
        assert (action[:, games_of][turns] == moves).all(), block.name
