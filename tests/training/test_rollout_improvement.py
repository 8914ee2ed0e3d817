"""Rollout improvement (experiments/research/rollout_improvement.py, experiments/research/advantage_fit.py) and the
improved Goninkan player (agents/learned/goninkan_advantage.py): the advantages are true rollouts, the features read the
table, the player keeps the bot's move unless its network says otherwise, and the command line's folder plays through
ckpt: specs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.learned.goninkan_advantage import (
    FEATURES,
    MOVE,
    MOVE_ADVANTAGES,
    ImprovedKankeiPlayer,
    MoveFeatures,
)
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import make_policy
from cardenvs.experiments import zoo_export
from cardenvs.experiments.research.advantage_fit import MoveRows, fit, realised_gain
from cardenvs.experiments.research.rollout_data import Rollouts
from cardenvs.experiments.research.rollout_improvement import advantages_at, collect, main

GAME = "goninkan-v1"
LAYOUT = context_layout_hash(PolicyContext.from_env(cardenvs.make(GAME)))


def table_at_first_play(seed: int, following: bool = False) -> tuple[Any, list[Policy], PolicyContext, list[int]]:
    """A Goninkan table played by rule bots up to the first card play with two or more legal plays (with
    ``following``, the first such play to a trick already led, after trick 1), and the actions that led there."""
    env = cardenvs.make(GAME)
    env.reset(seed=seed)
    context = PolicyContext.from_env(env)
    bots = [make_policy("goninkan/rule", context, seed=s) for s in range(5)]
    table = env.unwrapped.game
    reader = MoveFeatures(context)
    history: list[int] = []
    while True:
        seat, mask = table.current_player, table.legal_mask()
        observation = {"observation": table.observation(seat), "action_mask": mask}
        decision = int(np.argmax(reader.view(observation, "decision")))
        led = table.trick_leading >= 0 and table.trick_no > 1
        if decision == 0 and np.count_nonzero(mask) > 1 and (led or not following):
            return table, bots, context, history
        history.append(bots[seat].act(observation))
        table.apply(history[-1])
        table.take_rewards()


def weights(hidden: tuple[tuple[np.ndarray, np.ndarray], ...], action: tuple[np.ndarray, np.ndarray], margin: float):
    meta = {"kind": MOVE_ADVANTAGES, "margin": margin, "env_id": "cardenvs/goninkan-v1", "layout_hash": LAYOUT}
    return ActorWeights(hidden, action, "relu", np.ones(len(FEATURES), np.float32), meta)


def linear(feature: str, slope: float, margin: float) -> ActorWeights:
    """A network with no hidden layer: ``f = slope × feature``."""
    w = np.zeros((1, len(FEATURES)), np.float32)
    w[0, FEATURES.index(feature)] = slope
    return weights((), (w, np.zeros(1, np.float32)), margin)


class Scripted:
    """Plays the shared ``script`` while it lasts (whoever is to move), then its seat's bot."""

    def __init__(self, script: list[int], played: list[int], bot: Policy):
        self.script, self.played, self.bot = script, played, bot

    def act(self, observation: dict[str, np.ndarray]) -> int:
        self.played.append(0)
        step = len(self.played) - 1
        return self.script[step] if step < len(self.script) else self.bot.act(observation)


def test_an_advantage_is_what_the_whole_episode_pays_after_that_action_minus_after_the_bots() -> None:
    deal = 10  # a position where the card played changes the round's points
    table, bots, context, history = table_at_first_play(seed=deal)
    seat, legal = table.current_player, np.flatnonzero(table.legal_mask())
    base = make_policy("goninkan/rule", context, seed=0).act(
        {"observation": table.observation(seat), "action_mask": table.legal_mask()}
    )
    advantages = advantages_at(table, base, bots, seed=9)
    assert advantages[base] == 0.0 and np.isfinite(advantages[legal]).all()
    assert np.isnan(np.delete(advantages, legal)).all()
    assert not table.is_terminal and table.current_player == seat  # the table itself was not played on
    env = cardenvs.make(GAME)
    totals = {}
    for action in legal:  # the same deal through the env from the start: the history, the action, then the bots
        played: list[int] = []
        seats = [Scripted([*history, int(action)], played, bot) for bot in bots]
        totals[int(action)] = play_episode(env, seats, seed=deal).returns[seat]
    for action in legal:
        assert advantages[action] == pytest.approx(totals[int(action)] - totals[base])
    assert len(set(totals.values())) > 1


def test_collect_keeps_each_decision_with_a_choice_and_is_reproducible() -> None:
    data = collect(GAME, {}, "goninkan/rule", rounds=1, seed=2)
    assert len(data) > 10 and data.rounds == 1
    assert (data.masks.sum(axis=1) > 1).all()
    assert (np.isfinite(data.advantages) == data.masks).all()
    assert (data.advantages[np.arange(len(data)), data.base_actions] == 0).all()
    again = collect(GAME, {}, "goninkan/rule", rounds=1, seed=2)
    np.testing.assert_array_equal(again.advantages, data.advantages)
    assert not np.array_equal(
        collect(GAME, {}, "goninkan/rule", rounds=1, seed=3).observations[:5], data.observations[:5]
    )


def test_shards_round_trip_without_pickle_and_refuse_to_mix_games(tmp_path: Path) -> None:
    data = collect(GAME, {}, "goninkan/rule", rounds=1, seed=5)
    path = data.save(tmp_path / "rollouts_seed5.npz")
    with np.load(path, allow_pickle=False) as raw:
        assert raw["observations"].dtype == np.float16
    loaded = Rollouts.load(path)
    assert (loaded.game, loaded.options, loaded.rounds) == (GAME, {}, 1)
    np.testing.assert_array_equal(loaded.advantages, data.advantages)
    other = Rollouts(data.observations, data.masks, data.base_actions, data.advantages, 1, "yoninkan-v1", {})
    with pytest.raises(ValueError, match="different games"):
        Rollouts.concatenate([data, other])


def test_the_move_features_read_the_cards_off_the_table() -> None:
    table, _, context, _ = table_at_first_play(seed=7)
    seat, legal = table.current_player, np.flatnonzero(table.legal_mask())
    rows = MoveFeatures(context).features(table.observation(seat), legal)
    assert rows.shape == (len(legal), len(FEATURES)) and ((rows >= 0) & (rows <= 1)).all()
    cards = table.rules.cards
    hand = [c for c in table.hands[seat] if c != cards.joker]
    play = context.actions["play"]
    for row, action in zip(rows, legal, strict=True):
        if action not in play:
            continue
        card = int(action) - play.offset
        move = dict(zip(MOVE, row[-len(MOVE) :], strict=True))
        assert move["honour"] == cards.honour[card] and move["joker"] == 0
        assert move["rank"] == pytest.approx(cards.rank[card] / 12)
        assert move["my_suit_cards"] == pytest.approx(sum(cards.suit[c] == cards.suit[card] for c in hand) / 10)
        assert move["trump_suit"] == (cards.suit[card] == table.trump)
    assert (rows[:, FEATURES.index("hand_cards")] == len(table.hands[seat]) / 10).all()


def test_a_network_that_rates_nothing_plays_the_rule_bots_game() -> None:
    env = cardenvs.make(GAME)
    context = PolicyContext.from_env(env)
    flat = ImprovedKankeiPlayer(context, linear("rank", 0.0, margin=0.0), seed=0)
    rule = [make_policy("goninkan/rule", context, seed=s) for s in range(5)]
    for seed in range(3):
        improved = play_episode(env, [flat, *rule[1:]], seed=seed)
        original = play_episode(env, rule, seed=seed)
        assert (improved.returns, improved.decisions) == (original.returns, original.decisions)


def test_the_player_leaves_the_bot_only_for_a_play_rated_above_the_margin() -> None:
    table, _, context, _ = table_at_first_play(seed=6)
    seat, mask = table.current_player, table.legal_mask()
    observation = {"observation": table.observation(seat), "action_mask": mask}
    legal = np.flatnonzero(mask)
    rank = MoveFeatures(context).features(observation["observation"], legal)[:, FEATURES.index("rank")]
    bot = make_policy("goninkan/rule", context, seed=0).act(observation)
    highest = ImprovedKankeiPlayer(context, linear("rank", 10.0, margin=0.0)).act(observation)
    assert rank[list(legal).index(highest)] == rank.max()
    gap = 10.0 * (rank.max() - rank[list(legal).index(bot)])
    assert ImprovedKankeiPlayer(context, linear("rank", 10.0, margin=gap + 1e-3)).act(observation) == bot
    assert gap > 0  # this position's bot does not play its highest card
    assert ImprovedKankeiPlayer(context, linear("rank", 10.0, margin=gap / 2)).act(observation) == highest


def test_a_network_that_does_not_fit_is_refused_with_the_reason() -> None:
    goninkan = PolicyContext.from_env(cardenvs.make(GAME))
    with pytest.raises(ValueError, match="play only"):
        ImprovedKankeiPlayer(PolicyContext.from_env(cardenvs.make("kyuuri-v0")), linear("rank", 1.0, 0.0))
    yoninkan = PolicyContext.from_env(cardenvs.make("yoninkan-v1"))
    with pytest.raises(ValueError, match="fitted on cardenvs/goninkan-v1, not cardenvs/yoninkan-v1"):
        ImprovedKankeiPlayer(yoninkan, linear("rank", 1.0, 0.0))
    six = PolicyContext.from_env(cardenvs.make(GAME, num_players=6))
    with pytest.raises(ValueError, match=r"options .* but this env is cardenvs/goninkan-v1 with 6 players"):
        ImprovedKankeiPlayer(six, linear("rank", 1.0, 0.0))
    wide = weights((), (np.zeros((1, len(FEATURES) + 1), np.float32), np.zeros(1, np.float32)), 0.0)
    with pytest.raises(ValueError, match=f"takes {len(FEATURES)} features"):
        ImprovedKankeiPlayer(goninkan, wide)
    unmarked = linear("rank", 1.0, 0.0)
    unmarked.meta.pop("margin")  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="margin"):
        ImprovedKankeiPlayer(goninkan, unmarked)


def synthetic_rows(decisions: int, seed: int) -> MoveRows:
    """Decisions of three plays each, the first the base; a play's advantage is +1 if it is an honour, else 0 (the
    base is never one)."""
    rng = np.random.default_rng(seed)
    features = rng.random((3 * decisions, len(FEATURES))).astype(np.float32)
    honour = FEATURES.index("honour")
    features[:, honour] = rng.random(3 * decisions) < 0.3
    features[::3, honour] = 0
    decision = np.repeat(np.arange(decisions), 3)
    return MoveRows(features, features[:, honour].copy(), decision, 3 * decision)


def test_the_fit_finds_a_learnable_advantage_and_the_held_out_gain_measures_it() -> None:
    train, held = synthetic_rows(3000, seed=0), synthetic_rows(500, seed=1)
    net, history = fit(train, held, np.ones(len(FEATURES), dtype=np.float32), (16,), 4, 1e-2, 0)
    assert history[-1] < history[0] / 10
    import torch

    with torch.no_grad():
        values = net(torch.as_tensor(held.features)).squeeze(1).numpy()
    with_honour = np.unique(held.decision[held.features[:, FEATURES.index("honour")] == 1]).size / 500
    result = realised_gain(held, values, margin=0.5)
    assert result["gain_per_decision"] == pytest.approx(with_honour) and result["changed"] == pytest.approx(with_honour)
    assert realised_gain(held, values, margin=5.0)["gain_per_decision"] == 0.0  # nothing clears the margin


def test_the_command_line_collects_fits_and_its_agent_plays_through_ckpt_specs(tmp_path: Path) -> None:
    for seed in (1, 2):
        main(["collect", "--game", GAME, "--rounds", "1", "--seed", str(seed), "--out", str(tmp_path)])
    main(["fit", str(tmp_path), "--held-out-shards", "1", "--epochs", "1", "--hidden", "8"])
    env = cardenvs.make(GAME)
    agent = make_policy(f"ckpt-greedy:{tmp_path / 'final.npz'}", env, seed=0)
    assert isinstance(agent, ImprovedKankeiPlayer)
    rule = [make_policy("goninkan/rule", env, seed=s) for s in range(4)]
    assert play_episode(env, [agent, *rule], seed=0).decisions > 0
    with pytest.raises(ValueError, match="holds out 2"):
        main(["fit", str(tmp_path), "--held-out-shards", "2"])


def test_the_situation_features_name_who_is_winning_the_trick_from_my_seat() -> None:
    for seed in range(6):
        table, _, context, _ = table_at_first_play(seed=seed, following=True)
        seat = table.current_player
        row = MoveFeatures(context).features(table.observation(seat), [int(np.flatnonzero(table.legal_mask())[0])])[0]
        situation = dict(zip(FEATURES, row, strict=False))
        assert situation["leading"] == 0 and situation["trick_cards"] > 0
        winner = table.trick_leading
        mine = table.is_kankei[winner] == table.is_kankei[seat]
        assert situation["me_kankei"] == table.is_kankei[seat]  # deal 1's 関係 call is public in Goninkan
        assert situation["partner_winning"] == (winner != seat and mine)
        assert situation["other_winning"] == (not mine)


def test_move_rows_group_each_play_decision_with_its_base_at_zero() -> None:
    data = collect(GAME, {}, "goninkan/rule", rounds=1, seed=6)
    rows = MoveRows.of(data)
    reader = MoveFeatures(PolicyContext.from_env(cardenvs.make(GAME)))
    assert (rows.advantages[rows.base_row] == 0).all()
    assert (np.diff(rows.decision) >= 0).all() and (rows.decision[rows.base_row] == rows.decision).all()
    for decision in np.unique(rows.decision):
        vector = data.observations[decision].astype(np.float32)
        assert int(np.argmax(reader.view({"observation": vector}, "decision"))) == 0  # card play only
        here = np.flatnonzero(rows.decision == decision)
        assert len(here) == np.count_nonzero(data.masks[decision]) > 1
        base = rows.base_row[here[0]]
        np.testing.assert_array_equal(rows.features[base], reader.features(vector, [data.base_actions[decision]])[0])


def test_the_zoo_export_compares_the_float16_players_of_a_move_advantage_network() -> None:
    rng = np.random.default_rng(0)
    hidden = ((rng.normal(size=(8, len(FEATURES))).astype(np.float32), np.zeros(8, np.float32)),)
    network = weights(hidden, (rng.normal(size=(1, 8)).astype(np.float32), np.zeros(1, np.float32)), margin=0.0)
    check = zoo_export.float16_check("cardenvs/goninkan-v1", {}, network, games=2)
    assert check["decisions"] > 20 and 0 <= check["greedy_actions_equal"] <= check["decisions"]
