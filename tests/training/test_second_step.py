"""A second step of policy iteration (agents/learned/players.py's earlier_steps, the base-aware collect and fit of
experiments/research): rollouts played by a zoo agent record its moves, the fitted checkpoint names that agent in
meta["base"], and its player applies the earlier step first. Bases other than a zoo move-advantage agent are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.goninkan_advantage import ImprovedKankeiPlayer, stepped_choice
from cardenvs.agents.learned.players import earlier_steps, weights_policy
from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.agents.learned.zsy_advantage import ImprovedZsyPlayer
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import make_policy
from cardenvs.agents.zoo import zoo_card, zoo_weights
from cardenvs.experiments.research.move_rollouts import MoveRollouts, collect_moves
from cardenvs.experiments.research.rollout_data import Rollouts
from cardenvs.experiments.research.rollout_improvement import advantages_at, collect, main

ZSY = "zheng_shang_you-v0"
ZSY_OPTIONS = {"num_players": 4, "episode": "deal"}
ZSY_FIRST = "zoo:zheng_shang_you/improved"


def on_top_of(base: str, margin: float) -> ActorWeights:
    """The base zoo agent's own network with its output zeroed, as a later step with ``margin``, naming ``base``."""
    first = zoo_weights(zoo_card(base.removeprefix("zoo:")))
    action = (first.action[0] * 0.0, first.action[1] * 0.0)
    meta = {**first.meta, "margin": margin, "base": base}
    return ActorWeights(first.hidden, action, first.activation, first.obs_scale, meta)


@pytest.mark.parametrize(
    ("game", "options", "base"),
    [(ZSY, ZSY_OPTIONS, ZSY_FIRST), ("goninkan-v1", {}, "zoo:goninkan/improved")],
)
def test_a_second_step_that_rates_nothing_plays_exactly_the_first(
    game: str, options: dict[str, Any], base: str
) -> None:
    env = cardenvs.make(game, **options)
    context = PolicyContext.from_env(env)
    second = weights_policy(on_top_of(base, margin=0.0), context, seed=0, greedy=True)
    assert isinstance(second, ImprovedZsyPlayer | ImprovedKankeiPlayer) and len(second.steps) == 2
    first = make_policy(base, env, seed=0)
    seats = context.num_players
    others = [make_policy(base, env, seed=s) for s in range(1, seats)]
    for deal in range(2):
        assert (
            play_episode(env, [second, *others], seed=deal).events
            == play_episode(env, [first, *others], seed=deal).events
        )


def rating(values: list[float]) -> ActorWeights:
    """A linear network that gives row ``i`` of the identity ``values[i]``."""
    return ActorWeights((), (np.array([values], np.float32), np.zeros(1, np.float32)), "relu", np.ones(3), {})


def test_each_step_moves_from_the_move_chosen_so_far() -> None:
    moves = np.eye(3, dtype=np.float32)  # row i is move i; move 0 is the bot's
    first = (rating([0.0, 1.0, 0.5]), 0.5)
    assert stepped_choice([first], moves, base=0) == 1
    # From move 1 the second step gains 0.7 with move 2; from the bot's move it would gain only 0.4.
    second = (rating([0.3, 0.0, 0.7]), 0.5)
    assert stepped_choice([first, second], moves, base=0) == 2
    assert stepped_choice([second], moves, base=0) == 0
    assert stepped_choice([first, (rating([0.3, 0.0, 0.7]), 0.8)], moves, base=0) == 1


def test_only_a_zoo_move_advantage_agent_can_be_a_base() -> None:
    context = PolicyContext.from_env(cardenvs.make(ZSY, **ZSY_OPTIONS))
    assert len(earlier_steps({"base": ZSY_FIRST}, context)) == 1 and earlier_steps({}, context) == []
    with pytest.raises(ValueError, match="names a zoo: agent, not 'ckpt:/etc/passwd'"):
        earlier_steps({"base": "ckpt:/etc/passwd"}, context)
    with pytest.raises(ValueError, match="zoo:zheng_shang_you/ppo, the base of this move-advantage checkpoint, is not"):
        earlier_steps({"base": "zoo:zheng_shang_you/ppo"}, context)
    with pytest.raises(ValueError, match="no such agent"):
        earlier_steps({"base": "zoo:zheng_shang_you/nothing"}, context)
    goninkan = PolicyContext.from_env(cardenvs.make("goninkan-v1"))
    with pytest.raises(ValueError, match="zheng_shang_you"):
        earlier_steps({"base": ZSY_FIRST}, goninkan)


def test_rollouts_of_the_first_step_record_its_moves_and_fit_a_checkpoint_that_names_it(tmp_path: Path) -> None:
    data = collect_moves(ZSY, ZSY_OPTIONS, rounds=1, seed=4, sample=5, base=ZSY_FIRST)
    assert data.policy == ZSY_FIRST and (data.advantages[data.base] == 0).all()
    assert MoveRollouts.load(data.save(tmp_path / "moves_seed4.npz")).policy == ZSY_FIRST
    rule = collect_moves(ZSY, ZSY_OPTIONS, rounds=1, seed=4, sample=5)
    assert rule.policy == "" and not np.array_equal(rule.moves[rule.base], data.moves[data.base])
    with pytest.raises(ValueError, match="base policies or opponents cannot be joined"):
        MoveRollouts.concatenate([data, rule])

    out = tmp_path / "second"
    for seed in (1, 2):
        main(["collect", "--game", ZSY, "--option", "num_players=4", "--option", "episode=deal", "--rounds", "1",
              "--seed", str(seed), "--base", ZSY_FIRST, "--out", str(out)])  # fmt: skip
    main(["fit", str(out), "--held-out-shards", "1", "--epochs", "1", "--hidden", "8"])
    env = cardenvs.make(ZSY, **ZSY_OPTIONS)
    agent = make_policy(f"ckpt:{out / 'final.npz'}", env, seed=0)
    assert isinstance(agent, ImprovedZsyPlayer) and len(agent.steps) == 2
    assert ActorWeights.load(out / "final.npz").meta["base"] == ZSY_FIRST


def test_rollouts_of_a_base_that_no_checkpoint_can_name_are_not_fitted(tmp_path: Path) -> None:
    for seed in (1, 2):
        main(["collect", "--game", "goninkan-v1", "--rounds", "1", "--seed", str(seed), "--base", "random",
              "--out", str(tmp_path)])  # fmt: skip
    with pytest.raises(ValueError, match="played by random: a later step can stand only on"):
        main(["fit", str(tmp_path), "--held-out-shards", "1", "--epochs", "1", "--hidden", "8"])


def test_rollouts_against_fixed_opponents_play_the_base_at_the_movers_seat_only() -> None:
    """With ``opponents``, the first recorded decision's advantages are those of rollouts where the mover plays on as
    the base and every other seat as the opponents (the collector's seeds replayed), and the shard says so."""
    data = collect("goninkan-v1", {}, "goninkan/rule", rounds=1, seed=2, opponents="random")
    assert data.opponents == "random" and data.policy == ""
    plain = collect("goninkan-v1", {}, "goninkan/rule", rounds=1, seed=2)
    np.testing.assert_array_equal(plain.observations, data.observations)  # the same table, other rollouts
    assert not np.array_equal(np.nan_to_num(plain.advantages), np.nan_to_num(data.advantages))
    with pytest.raises(ValueError, match="base policies or opponents cannot be joined"):
        Rollouts.concatenate([data, plain])

    env = cardenvs.make("goninkan-v1")
    deal = int(np.random.default_rng(2).integers(2**31))  # the collector's first deal
    env.reset(seed=deal)
    table = env.unwrapped.game
    table.take_rewards()
    while np.count_nonzero(table.legal_mask()) == 1:  # forced moves are played, not recorded
        table.apply(int(np.flatnonzero(table.legal_mask())[0]))
        table.take_rewards()
    seat = table.current_player
    np.testing.assert_array_equal(table.observation(seat).astype(np.float16), data.observations[0])
    context = PolicyContext.from_env(env)
    bots = [make_policy("goninkan/rule" if s == seat else "random", context, seed=0) for s in range(5)]
    expected = advantages_at(table, int(data.base_actions[0]), bots, seed=deal + 1)
    np.testing.assert_array_equal(expected, data.advantages[0])
    mirrored = advantages_at(table, int(data.base_actions[0]), [make_policy("goninkan/rule", context)] * 5, deal + 1)
    np.testing.assert_array_equal(mirrored, plain.advantages[0])


def test_the_margin_rule_picks_the_highest_held_out_gain_or_its_lower_bound(tmp_path: Path) -> None:
    for seed in (1, 2, 3):
        main(["collect", "--game", "goninkan-v1", "--rounds", "2", "--seed", str(seed), "--out", str(tmp_path)])
    for rule, caution in (("estimate", 0.0), ("lower_bound", 1.0)):
        main(["fit", str(tmp_path), "--held-out-shards", "1", "--epochs", "1", "--hidden", "8", "--margin-rule", rule])
        summary = json.loads((tmp_path / "improve.json").read_text())
        scores = {float(m): r["gain_per_decision"] - caution * r["half_width"]
                  for m, r in summary["held_out_by_margin"].items()}  # fmt: skip
        assert summary["margin"] == max(scores, key=scores.__getitem__)
        assert ActorWeights.load(tmp_path / "final.npz").meta["margin"] == summary["margin"]
    with pytest.raises(SystemExit):
        main(["fit", str(tmp_path), "--margin-rule", "boldest"])
