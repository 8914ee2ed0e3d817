"""The situation features of a Zheng Shang You move (agents/learned/zsy_context.py): each value of both groups on an
explicit position, moves rebuilt from their feature rows, the player of a network that reads them, and the fit's
``--features context`` and ``control`` from the command line to a ``ckpt:`` agent."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.goninkan_advantage import MOVE_ADVANTAGES, stepped_choice
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash, load_weights
from cardenvs.agents.learned.zsy_advantage import AFTER, ImprovedZsyPlayer, feature_groups, input_scale
from cardenvs.agents.learned.zsy_context import (
    BEATERS_CAP,
    CONTEXT,
    CONTROL,
    GROUPS,
    context_features,
    control_features,
    leads_left,
    move_of_row,
    plays_left,
    sequence_beaters,
    situation_features,
    situation_names,
)
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import fingerprint, make_policy, parse_spec
from cardenvs.experiments.research.move_rollouts import MoveRollouts, group_path
from cardenvs.experiments.research.rollout_improvement import main
from cardenvs.zheng_shang_you.actions import Pass
from cardenvs.zheng_shang_you.combos import MAX_HAND, SEQUENCE, Combo
from cardenvs.zheng_shang_you.features import move_layout, moves_features
from cardenvs.zheng_shang_you.movegen import combos_of_shape, legal_combos
from cardenvs.zheng_shang_you.ranks import parse, to_bits
from tests.training.zsy_leads import seat_zero_leads

GAME = "zheng_shang_you-v0"
OPTIONS = {"num_players": 4, "episode": "deal"}


def context() -> PolicyContext:
    return PolicyContext.from_env(cardenvs.make(GAME, **OPTIONS))


def position(hand: str, unseen: str) -> np.ndarray:
    """Seat 0 to lead holding ``hand``, every card but ``unseen`` played by seat 1; hands of 6, 2, 1 and 0 cards."""
    layout = context().layout
    vector = layout.empty()
    held, hidden = parse(hand), parse(unseen)
    vector[layout.features["hand"].offset + np.array(held)] = 1
    played = [p for p in range(54) if p not in held and p not in hidden]
    vector[layout.features["played"].offset + 54 + np.array(played)] = 1
    vector[layout["hand_sizes"]] = [6, 2, 1, 0]
    vector[layout["teammates"]] = [1, 0, 0, 0]
    return vector


def named(rows: np.ndarray) -> dict[str, float]:
    return {name: float(value) for name, value in zip(CONTEXT, rows, strict=True)}


def test_each_context_feature_on_an_explicit_lead() -> None:
    ctx = context()
    rules = ctx.options.combo_rules
    vector = position("3♣ 3♦ 4♣ 5♣ 2♠ RJ", unseen="K♠ A♥ BJ")
    combos = {c.describe(): c for c in legal_combos(to_bits(parse("3♣ 3♦ 4♣ 5♣ 2♠ RJ")), None, rules)}
    picked = ["single: 3♣", "single: RJ", "set of 2×3: 3♣ 3♦", "sequence 3–5: 3♦ 4♣ 5♣"]
    picked.append("sequence 3–5 (suited): 3♣ 4♣ 5♣")
    rows = [named(r) for r in context_features(vector, ctx.layout, rules, [combos[name] for name in picked])]
    scale = np.log1p(BEATERS_CAP)
    low, joker, pair, run, suited = rows
    assert low["table_beaters"] == pytest.approx(np.log1p(3) / scale)  # K♠, A♥ and the black joker beat a 3
    assert low["table_unbeatable"] == 0 and low["keeps_lead"] == 0
    assert low["plays_left"] == pytest.approx(2 / MAX_HAND)  # 3♦ 4♣ 5♣, then 2♠ RJ as a pair
    assert joker["table_beaters"] == 0 and joker["table_unbeatable"] == 1 and joker["keeps_lead"] == 1
    assert pair["table_beaters"] == pytest.approx(np.log1p(2) / scale)  # K♠ or A♥ with the joker standing in
    assert run["table_beaters"] == pytest.approx(np.log1p(1) / scale)  # Q–A with the joker as the queen
    assert suited["table_unbeatable"] == 1  # K♠ and A♥ make no suited run
    for row in rows:
        assert row["unseen_high"] == pytest.approx(1 / 6) and row["min_opponent"] == pytest.approx(1 / MAX_HAND)
    everything = combos["set sequence 2×3–5 (wild): 3♣ 3♦ 4♣ 5♣ 2♠ RJ"]
    (out,) = context_features(vector, ctx.layout, rules, [everything])
    assert named(out)["plays_left"] == 0 and named(out)["keeps_lead"] == 0  # going out keeps no lead
    assert plays_left(to_bits(parse("4♣ 5♣ 2♠ RJ")), rules) == 3


def test_each_control_feature_on_an_explicit_lead() -> None:
    ctx = context()
    rules = ctx.options.combo_rules
    hand = "3♣ 3♦ 4♣ 5♣ 2♠ RJ"
    vector = position(hand, unseen="K♠ A♥ BJ")
    combos = {c.describe(): c for c in legal_combos(to_bits(parse(hand)), None, rules)}
    run, out = combos["sequence 3–5: 3♦ 4♣ 5♣"], combos["set sequence 2×3–5 (wild): 3♣ 3♦ 4♣ 5♣ 2♠ RJ"]
    left = [lead.describe() for lead in leads_left(to_bits(parse("3♣ 2♠ RJ")), rules)]
    assert left == ["single: 3♣", "set of 2×2 (wild): 2♠ RJ"]  # the lowest plain card first, then the 2s
    after_run, gone = (
        dict(zip(CONTROL, row, strict=True)) for row in control_features(vector, ctx.layout, rules, [run, out])
    )
    single = np.log1p(3) / np.log1p(BEATERS_CAP)  # K♠, A♥ and the black joker beat the 3♣; nothing beats the 2s
    assert after_run["controls_left"] == pytest.approx(1 / 4) and after_run["loose_left"] == pytest.approx(1 / MAX_HAND)
    assert after_run["leads_beaten"] == pytest.approx(single / MAX_HAND)
    assert after_run["weakest_lead"] == pytest.approx(single)
    assert all(value == 0 for value in gone.values())  # going out leaves no lead
    both = situation_features(vector, ctx.layout, rules, [run], tuple(GROUPS))
    np.testing.assert_array_equal(both[0, len(CONTEXT) :], control_features(vector, ctx.layout, rules, [run])[0])


def test_a_pass_is_read_as_the_combination_it_leaves_on_the_table() -> None:
    ctx = context()
    rules = ctx.options.combo_rules
    vector = position("3♣ 3♦ 4♣ 5♣ 2♠ RJ", unseen="K♠ A♥ BJ")
    with pytest.raises(ValueError, match="nothing on the table"):
        context_features(vector, ctx.layout, rules, [Pass()])
    (queen,) = legal_combos(to_bits(parse("Q♦")), None, rules)
    layout = ctx.layout
    vector[layout["top_cards"]][queen.cards[0]] = 1
    vector[layout.features["top_shape"].offset] = 1  # a single
    vector[layout.features["top_rank"].offset + queen.top] = 1
    (passing,) = context_features(vector, layout, rules, [Pass()])
    assert named(passing)["table_beaters"] == pytest.approx(np.log1p(3) / np.log1p(BEATERS_CAP))
    assert named(passing)["plays_left"] == pytest.approx(3 / MAX_HAND) and named(passing)["keeps_lead"] == 0


@pytest.mark.parametrize("keeps", [True, False])
def test_sequences_are_counted_as_the_move_generator_lists_them(keeps: bool) -> None:
    rules = replace(context().options.combo_rules, joker_keeps_suitedness=keeps)
    rng = np.random.default_rng(0)
    counted = []
    for _ in range(150):
        unseen = to_bits(rng.choice(54, int(rng.integers(6, 24)), replace=False).tolist())
        length = int(rng.integers(3, 7))
        top = int(rng.integers(length - 1, 12))
        played = Combo(SEQUENCE, 1, length, top, (), bool(rng.integers(2)), bool(rng.integers(2)))
        listed = sum(1 for _ in combos_of_shape(unseen, played.shape, played, rules))
        assert sequence_beaters(unseen, played, rules) == listed
        counted.append(listed)
    assert max(counted) > BEATERS_CAP and counted.count(0) > 5  # both ends of the count were met


def test_every_move_is_rebuilt_from_its_feature_row() -> None:
    rules = context().options.combo_rules
    for hand in ("3♣ 3♦ 4♣ 5♣ 2♠ RJ", "6♥ 7♥ 8♥ 9♥ 9♠ 10♠ BJ RJ 2♦", "J♣ J♦ J♥ Q♣ Q♦ K♣ K♦ 2♣ 2♥"):
        moves = [Pass(), *legal_combos(to_bits(parse(hand)), None, rules)]
        assert [move_of_row(row) for row in moves_features(moves)] == moves


def network(
    weights_of_situation: dict[str, float], margin: float, groups: tuple[str, ...] = ("context",)
) -> ActorWeights:
    """A linear network over the situation features of ``groups``, with the given weights by name."""
    ctx = context()
    own = ctx.layout.size + move_layout().size + len(AFTER)
    names = situation_names(groups)
    row = np.zeros((1, own + len(names)), dtype=np.float32)
    for name, weight in weights_of_situation.items():
        row[0, own + names.index(name)] = weight
    features = ["observation", *move_layout().features, *AFTER, *names]
    meta = {"kind": MOVE_ADVANTAGES, "margin": margin, "env_id": "cardenvs/zheng_shang_you-v0", "options": OPTIONS,
            "layout_hash": context_layout_hash(ctx), "features": features}  # fmt: skip
    return ActorWeights((), (row, np.zeros(1, np.float32)), "relu", input_scale(ctx, groups), meta)


def test_a_network_that_reads_the_context_leads_what_keeps_the_lead() -> None:
    env = cardenvs.make(GAME, **OPTIONS)
    ctx = PolicyContext.from_env(env)
    keeper = ImprovedZsyPlayer(ctx, network({"keeps_lead": 1.0}, margin=0.0), seed=0)
    others = [make_policy("zheng_shang_you/rule", env, seed=s) for s in (1, 2, 3)]
    checked = 0
    for observation, hand in seat_zero_leads(env, keeper, others, range(6)):
        leads = legal_combos(to_bits(hand), None, ctx.options.combo_rules)
        keeps = context_features(observation["observation"], ctx.layout, ctx.options.combo_rules, leads)[:, -1]
        assert keeps[leads.index(keeper.choose_lead(observation, hand))] == keeps.max()
        checked += keeps.max() > 0 and keeps.min() == 0
    assert checked >= 2


def test_the_context_network_is_refused_without_its_columns_and_an_earlier_step_reads_the_first_ones() -> None:
    ctx = context()
    plain, reading = network({}, 0.0, groups=()), network({"keeps_lead": 1.0}, 0.0)
    assert feature_groups(plain) == () and feature_groups(reading) == ("context",)
    short = ActorWeights((), (plain.action[0], plain.action[1]), "relu", plain.obs_scale, reading.meta)
    with pytest.raises(ValueError, match=f"takes {plain.obs_scale.size + len(CONTEXT)} features"):
        ImprovedZsyPlayer(ctx, short)
    rows = np.zeros((3, reading.obs_scale.size), dtype=np.float32)
    rows[1, -1] = 1.0  # the second move keeps the lead
    assert stepped_choice([(plain, 0.0), (reading, 0.5)], rows, base=0) == 1


def test_the_situation_groups_are_read_in_their_order() -> None:
    both = network({"weakest_lead": -1.0}, 0.0, groups=("context", "control"))
    assert feature_groups(both) == ("context", "control")
    assert both.obs_scale.size == network({}, 0.0).obs_scale.size + len(CONTROL)
    alone = replace(
        both, meta={**both.meta, "features": [*both.meta["features"][: -len(CONTEXT) - len(CONTROL)], *CONTROL]}
    )
    with pytest.raises(ValueError, match="each with all before it"):
        feature_groups(alone)
    env = cardenvs.make(GAME, **OPTIONS)
    earlier = [network({"keeps_lead": 1.0}, 0.0)]
    later = ImprovedZsyPlayer(PolicyContext.from_env(env), both, seed=0, earlier=earlier)
    others = [make_policy("zheng_shang_you/rule", env, seed=s) for s in (1, 2, 3)]
    assert play_episode(env, [later, *others], seed=0).decisions > 0  # each step reads its own columns


def test_a_later_steps_fingerprint_covers_the_earlier_steps_it_reads_from_other_files() -> None:
    later = network({"keeps_lead": 1.0}, 0.0)
    spec = parse_spec("zheng_shang_you/rule")
    prints = {
        fingerprint(spec, ImprovedZsyPlayer(context(), later, seed=0, earlier=[network({name: 1.0}, 0.0)]))
        for name in ("keeps_lead", "plays_left")
    }
    again = fingerprint(spec, ImprovedZsyPlayer(context(), later, seed=0, earlier=[network({"plays_left": 1.0}, 0.0)]))
    assert len(prints) == 2 and again in prints  # the same checkpoint on other earlier steps plays otherwise


def test_the_command_line_fits_on_the_context_and_its_agent_plays_through_ckpt_specs(tmp_path: Path) -> None:
    for seed in (1, 2):
        main(["collect", "--game", GAME, "--option", "num_players=4", "--option", "episode=deal", "--rounds", "1",
              "--seed", str(seed), "--out", str(tmp_path)])  # fmt: skip
    main(["fit", str(tmp_path), "--held-out-shards", "1", "--epochs", "1", "--hidden", "8", "--features", "context"])
    kept = np.load(group_path(tmp_path / "moves_seed2.npz", "context"), allow_pickle=False)
    shard = MoveRollouts.load(tmp_path / "moves_seed2.npz")
    assert kept.shape == (len(shard.moves), len(CONTEXT))
    ctx = context()
    first = int(np.flatnonzero(shard.decision == 0)[-1]) + 1
    moves = [move_of_row(row) for row in shard.moves[:first, : move_layout().size].astype(np.float32)]
    expected = context_features(shard.observations[0].astype(np.float32), ctx.layout, ctx.options.combo_rules, moves)
    np.testing.assert_array_equal(kept[:first], expected.astype(np.float16))
    weights = load_weights(tmp_path / "final.npz")
    assert (
        feature_groups(weights) == ("context",)
        and weights.obs_scale.size == ctx.layout.size + move_layout().size + 6 + 6
    )
    env = cardenvs.make(GAME, **OPTIONS)
    agent = make_policy(f"ckpt:{tmp_path / 'final.npz'}", env, seed=0)
    assert isinstance(agent, ImprovedZsyPlayer)
    rule = [make_policy("zheng_shang_you/rule", env, seed=s) for s in range(3)]
    assert play_episode(env, [agent, *rule], seed=0).decisions > 0
    stopped = group_path(tmp_path / "moves_seed1.npz", "control").with_suffix(".npy.partial")
    stopped.write_bytes(b"cut short")  # what a run stopped while writing leaves behind
    main(["fit", str(tmp_path), "--held-out-shards", "1", "--epochs", "1", "--hidden", "8", "--features", "control"])
    assert not list(tmp_path.glob("*.partial")), "each shard's rows replace their partial file whole"
    kept = np.load(group_path(tmp_path / "moves_seed2.npz", "control"), allow_pickle=False)
    expected = control_features(shard.observations[0].astype(np.float32), ctx.layout, ctx.options.combo_rules, moves)
    np.testing.assert_array_equal(kept[:first], expected.astype(np.float16))
    weights = load_weights(tmp_path / "final.npz")
    assert feature_groups(weights) == ("context", "control")
    agent = make_policy(f"ckpt:{tmp_path / 'final.npz'}", env, seed=0)
    assert play_episode(env, [agent, *rule], seed=1).decisions > 0
    with pytest.raises(SystemExit):
        main(["fit", str(tmp_path), "--features", "everything"])
