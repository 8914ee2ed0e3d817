"""Deep Monte-Carlo (experiments/research/dmc.py) and the move-value agent (agents/learned/move_values.py): cheap
checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.move_values import ZsyMoveValuePolicy, move_values
from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import make_policy
from cardenvs.experiments.research.dmc import DmcArgs, MoveValueNet, build_args, train
from cardenvs.zheng_shang_you.features import move_layout

OPTIONS = {"num_players": 4, "episode": "deal"}


def zsy_context() -> PolicyContext:
    return PolicyContext.from_env(cardenvs.make("zheng_shang_you-v0", **OPTIONS))


def test_a_tiny_run_writes_a_pickle_free_checkpoint_that_ckpt_specs_play(tmp_path: Path) -> None:
    args = DmcArgs(
        episodes=12, net_arch=[16], batch_size=32, train_every=4, teacher_episodes=6, log_every=6, out=str(tmp_path)
    )
    final = train(args)
    with np.load(final, allow_pickle=False) as data:  # plain arrays only
        assert "header" in data.files
    assert ActorWeights.load(final).meta["kind"] == "move-values"
    assert len((tmp_path / "log.jsonl").read_text().splitlines()) == 2
    env = cardenvs.make("zheng_shang_you-v0", **OPTIONS)
    agent = make_policy(f"ckpt:{final}", PolicyContext.from_env(env), seed=0)
    assert isinstance(agent, ZsyMoveValuePolicy)
    rule = [make_policy("zheng_shang_you/rule", PolicyContext.from_env(env), seed=i) for i in range(3)]
    result = play_episode(env, [agent, *rule], seed=3)  # an illegal action would raise
    assert not result.truncated and sum(result.returns) == pytest.approx(0.0)


def test_with_the_teacher_share_at_one_the_agent_plays_the_rule_bots_game() -> None:
    context = zsy_context()
    weights = MoveValueNet(context.layout.size + move_layout().size, DmcArgs(net_arch=[8]), np.ones(1), {}).weights()
    agent = ZsyMoveValuePolicy(context, weights, teacher_share=1.0)
    rule = [make_policy("zheng_shang_you/rule", context, seed=i) for i in range(4)]
    env = cardenvs.make("zheng_shang_you-v0", **OPTIONS)
    copied = play_episode(env, [agent, *rule[1:]], seed=5)
    original = play_episode(env, rule, seed=5)
    assert (copied.returns, copied.decisions) == (original.returns, original.decisions)
    plays = sum(1 for e in copied.events if e.get("player") == 0 and e["kind"] in ("play", "pass"))
    assert len(agent.chosen) == plays > 0


def test_the_network_learns_a_trivially_learnable_value_and_its_export_agrees() -> None:
    width = 10
    net = MoveValueNet(width, DmcArgs(net_arch=[16], learning_rate=1e-2), np.ones(width, dtype=np.float32), {})
    rng = np.random.default_rng(0)
    for _ in range(300):  # the value is the sign of the first move feature
        x = rng.normal(size=(64, width)).astype(np.float32)
        loss = net.update(x, np.sign(x[:, 6]))
    assert loss < 0.2
    features = np.array([[-1, 0, 0, 0], [1, 0, 0, 0]], dtype=np.float32)  # the last 4 columns are the move's
    values = move_values(net.weights(), np.zeros(6, dtype=np.float32), features)
    assert values[1] > 0.5 > -0.5 > values[0]
    import torch

    x = np.concatenate([np.zeros((2, 6), dtype=np.float32), features], axis=1)
    assert np.allclose(values, net.module(torch.as_tensor(x))[:, 0].detach().numpy(), atol=1e-5)


def test_a_network_that_does_not_fit_the_game_is_refused_naming_the_sizes() -> None:
    context = zsy_context()
    weights = MoveValueNet(12, DmcArgs(net_arch=[4]), np.ones(12, dtype=np.float32), {}).weights()
    expected = context.layout.size + move_layout().size
    with pytest.raises(ValueError, match=f"takes {expected} inputs .* this one takes 12"):
        ZsyMoveValuePolicy(context, weights)
    kyuuri = PolicyContext.from_env(cardenvs.make("kyuuri-v0"))
    with pytest.raises(ValueError, match="move-value agents play only"):
        ZsyMoveValuePolicy(kyuuri, weights)


def test_an_unknown_setting_is_refused_naming_the_valid_ones() -> None:
    assert build_args(["--episodes", "5", "--set", "epsilon=0.1"]).epsilon == 0.1
    with pytest.raises(SystemExit, match=r"unknown DMC setting 'epsilom'.*'epsilon'"):
        build_args(["--set", "epsilom=0.1"])
