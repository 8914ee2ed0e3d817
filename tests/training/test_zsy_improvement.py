"""Rollout improvement for Zheng Shang You (experiments/research/move_rollouts.py, the move rows of
experiments/research/advantage_fit.py) and the improved player (agents/learned/zsy_advantage.py): each evaluated move's
advantage is a true rollout of that move, the player keeps the bot's move unless its network says otherwise, and the
command line's folder plays through ckpt: specs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.zheng_shang_you import LEAD, ZsyRuleBot
from cardenvs.agents.learned.goninkan_advantage import MOVE_ADVANTAGES
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.agents.learned.zsy_advantage import AFTER, ImprovedZsyPlayer, after_features, input_scale
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import make_policy
from cardenvs.experiments.research.advantage_fit import MoveRows
from cardenvs.experiments.research.move_rollouts import MoveRollouts, collect_moves, play_move
from cardenvs.experiments.research.playout import play_out
from cardenvs.experiments.research.rollout_improvement import main
from cardenvs.zheng_shang_you.actions import Pass
from cardenvs.zheng_shang_you.combos import MAX_HAND
from cardenvs.zheng_shang_you.features import move_layout, moves_features
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import parse, to_bits
from tests.training.zsy_leads import seat_zero_leads

GAME = "zheng_shang_you-v0"
OPTIONS = {"num_players": 4, "episode": "deal"}


def context() -> PolicyContext:
    return PolicyContext.from_env(cardenvs.make(GAME, **OPTIONS))


def network(weights_of_move: dict[str, float], margin: float) -> ActorWeights:
    """A linear network (no hidden layer) whose value is a weighted sum of named move features."""
    ctx = context()
    size = ctx.layout.size + move_layout().size + len(AFTER)
    row = np.zeros((1, size), dtype=np.float32)
    features = move_layout().features
    for name, weight in weights_of_move.items():
        if name in AFTER:
            row[0, ctx.layout.size + move_layout().size + AFTER.index(name)] = weight
        else:
            row[0, ctx.layout.size + features[name].offset] = weight
    meta = {
        "kind": MOVE_ADVANTAGES,
        "margin": margin,
        "env_id": "cardenvs/zheng_shang_you-v0",
        "options": OPTIONS,
        "layout_hash": context_layout_hash(ctx),
    }
    return ActorWeights((), (row, np.zeros(1, np.float32)), "relu", input_scale(ctx), meta)


def test_the_after_features_count_what_a_move_leaves_in_hand() -> None:
    hand = sorted(parse("3♣ 3♦ 4♣ 5♣ 2♠ RJ"))
    rules = context().options.combo_rules
    pair = next(c for c in legal_combos(to_bits(hand), None, rules) if len(c.cards) == 2 and not c.wild)
    rows = dict(zip(AFTER, after_features(hand, [pair])[0], strict=True))
    assert rows["cards_left"] == pytest.approx(4 / MAX_HAND)
    assert rows["high_left"] == pytest.approx(2 / 6)  # the 2 and the red joker
    assert rows["ranks_left"] == pytest.approx(2 / 12) and rows["singles_left"] == pytest.approx(2 / 12)
    assert rows["groups_left"] == 0 and rows["goes_out"] == 0
    everything = dict(zip(AFTER, after_features(hand, [Pass()])[0], strict=True))
    assert everything["cards_left"] == pytest.approx(6 / MAX_HAND) and everything["groups_left"] == pytest.approx(
        1 / 12
    )


def test_each_advantage_is_the_rollout_of_its_move_and_the_bots_move_scores_zero() -> None:
    data = collect_moves(GAME, OPTIONS, rounds=1, seed=3, sample=6)
    assert len(data) > 5 and (data.advantages[data.base] == 0).all()
    per_decision = np.bincount(data.decision)
    assert (per_decision >= 2).all() and (per_decision <= 6).all() and (np.diff(data.decision) >= 0).all()
    assert np.isfinite(data.advantages).all() and (np.abs(data.advantages) <= 2).all()
    assert (data.advantages != 0).any()  # some moves change the deal's outcome
    again = collect_moves(GAME, OPTIONS, rounds=1, seed=3, sample=6)
    np.testing.assert_array_equal(again.advantages, data.advantages)


def test_a_recorded_advantage_matches_a_fresh_rollout_of_that_move() -> None:
    data = collect_moves(GAME, OPTIONS, rounds=1, seed=7, sample=8)
    env = cardenvs.make(GAME, **OPTIONS)
    env.reset(seed=int(np.random.default_rng(7).integers(2**31)))  # the collector's first deal
    table = env.unwrapped.game
    table.take_rewards()
    ctx = PolicyContext.from_env(env)
    bots = [ZsyRuleBot(ctx, seat) for seat in range(4)]
    seat = table.current_player
    observation = {"observation": table.observation(seat), "action_mask": table.legal_mask()}
    np.testing.assert_array_equal(data.observations[0], observation["observation"].astype(np.float16))
    assert int(np.argmax(bots[seat].view(observation, "phase"))) == LEAD
    hand = [int(p) for p in np.flatnonzero(bots[seat].view(observation, "hand"))]
    leads = list(legal_combos(to_bits(hand), None, ctx.options.combo_rules))
    tails = np.concatenate([moves_features(leads), after_features(hand, leads)], axis=1).astype(np.float16)

    def fresh_return(move: object) -> float:
        world = table.clone()
        for bot in bots:
            bot.reset()
        return play_move(world, move, True, seat) + float(play_out(world, bots)[seat])

    base = fresh_return(bots[seat].choose_lead(observation, hand))
    rows = np.flatnonzero(data.decision == 0)
    assert len(rows) == min(8, len(leads))
    for row in rows:
        (match,) = np.flatnonzero((tails == data.moves[row]).all(axis=1))
        assert fresh_return(leads[match]) - base == pytest.approx(data.advantages[row])


def test_move_rows_of_moves_prepend_the_observation_to_each_move() -> None:
    data = collect_moves(GAME, OPTIONS, rounds=1, seed=5, sample=4)
    rows = MoveRows.of_moves(data)
    assert rows.width == data.observations.shape[1] + data.moves.shape[1]
    picked = np.array([0, len(rows) - 1])
    inputs = rows.inputs(picked)
    np.testing.assert_array_equal(inputs[1, : data.observations.shape[1]], data.observations[data.decision[-1]])
    np.testing.assert_array_equal(inputs[0, data.observations.shape[1] :], data.moves[0])
    assert (rows.advantages[rows.base_row] == 0).all() and (rows.decision[rows.base_row] == rows.decision).all()
    joined = MoveRollouts.concatenate([data, data])
    assert (joined.advantages[joined.base] == 0).all() and joined.base[len(data)] == len(data.moves)


def test_a_huge_margin_plays_the_rule_bot_and_a_network_of_size_sheds_the_most_cards() -> None:
    env = cardenvs.make(GAME, **OPTIONS)
    ctx = PolicyContext.from_env(env)
    cautious = ImprovedZsyPlayer(ctx, network({"size": 1.0}, margin=1e9), seed=0)
    rule = make_policy("zheng_shang_you/rule", env, seed=0)
    others = [make_policy("zheng_shang_you/rule", env, seed=s) for s in (1, 2, 3)]
    for deal in range(3):
        assert (
            play_episode(env, [cautious, *others], seed=deal).events
            == play_episode(env, [rule, *others], seed=deal).events
        )

    shedder = ImprovedZsyPlayer(ctx, network({"size": 1.0}, margin=0.0), seed=0)
    leads_checked = 0
    for observation, hand in seat_zero_leads(env, shedder, others, range(4, 8)):
        most = max(len(c.cards) for c in legal_combos(to_bits(hand), None, ctx.options.combo_rules))
        assert len(shedder.choose_lead(observation, hand).cards) == most
        leads_checked += 1
    assert leads_checked >= 4


def test_the_player_refuses_a_network_of_another_game_or_size() -> None:
    ctx = context()
    good = network({"size": 1.0}, margin=0.0)
    wrong_game = ActorWeights(
        good.hidden, good.action, "relu", good.obs_scale, {**good.meta, "env_id": "cardenvs/goninkan-v1"}
    )
    with pytest.raises(ValueError, match="fitted on cardenvs/goninkan-v1"):
        ImprovedZsyPlayer(ctx, wrong_game)
    narrow = ActorWeights((), (good.action[0][:, :10], good.action[1]), "relu", good.obs_scale[:10], good.meta)
    with pytest.raises(ValueError, match="takes 10"):
        ImprovedZsyPlayer(ctx, narrow)
    with pytest.raises(ValueError, match="plays only zheng_shang_you"):
        ImprovedZsyPlayer(PolicyContext.from_env(cardenvs.make("kyuuri-v0")), good)


def test_the_command_line_collects_fits_and_its_agent_plays_through_ckpt_specs(tmp_path: Path) -> None:
    for seed in (1, 2):
        main(["collect", "--game", GAME, "--option", "num_players=4", "--option", "episode=deal", "--rounds", "1",
              "--seed", str(seed), "--out", str(tmp_path)])  # fmt: skip
    assert sorted(p.name for p in tmp_path.glob("*.npz")) == ["moves_seed1.npz", "moves_seed2.npz"]
    main(["fit", str(tmp_path), "--held-out-shards", "1", "--epochs", "1", "--hidden", "8"])
    env = cardenvs.make(GAME, **OPTIONS)
    agent = make_policy(f"ckpt:{tmp_path / 'final.npz'}", env, seed=0)
    assert isinstance(agent, ImprovedZsyPlayer)
    rule = [make_policy("zheng_shang_you/rule", env, seed=s) for s in range(3)]
    assert play_episode(env, [agent, *rule], seed=0).decisions > 0
    with pytest.raises(ValueError, match="with the rule bot or an agent built on it, not random"):
        main(["collect", "--game", GAME, "--base", "random", "--rounds", "1", "--out", str(tmp_path)])
