"""The small variants solved exactly: their deal as an explicit chance node (the env's own deal distribution),
OpenSpiel's checks and algorithms on them (random simulation, CFR+, NashConv, the plain MCTS bot), the shipped
equilibrium, and the reward model that tells OpenSpiel rewards come only at the end."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.core.errors import InvalidOptionError

pyspiel = pytest.importorskip("pyspiel")

import cardenvs.openspiel as cos  # noqa: E402  (after the skip: it needs OpenSpiel)
from cardenvs.agents import make_policy  # noqa: E402
from cardenvs.agents.equilibria import ROOT  # noqa: E402
from cardenvs.agents.exploitability import exact as solved  # noqa: E402
from cardenvs.openspiel.small import SMALL_VARIANTS, register_small  # noqa: E402
from cardenvs.openspiel.tree import EfgIndex, export_tree  # noqa: E402

TINY_KYUURI = cos.register(
    "kyuuri-v0",
    name="python_cardenvs_kyuuri_tiny",
    explicit_deal=True,
    num_players=2,
    deck_size=8,
    deal_size=2,
    episode="deal",
    dealer=0,
)
"""K and A, two cards each: small enough for OpenSpiel's Python CFR+ and best responses in a second."""


@pytest.fixture(scope="module")
def kyuuri_small() -> EfgIndex:
    return EfgIndex(export_tree(pyspiel.load_game(register_small("kyuuri"))))


@pytest.mark.parametrize("game", sorted(SMALL_VARIANTS))
def test_small_variants_pass_openspiels_random_simulation_test(game: str) -> None:
    loaded = pyspiel.load_game(register_small(game))
    assert loaded.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    outcomes = loaded.new_initial_state().chance_outcomes()
    assert len(outcomes) > 1 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=False, verbose=False)


def test_explicit_deals_follow_the_envs_deal() -> None:
    # Verish' small: 6 deals (K and A, one card aside, hands of 4 and 3); the env's own deals, redeals included.
    variant = SMALL_VARIANTS["verish_ne_verish"]
    state = pyspiel.load_game(register_small("verish_ne_verish")).new_initial_state()
    expected: collections.Counter[tuple[int, ...]] = collections.Counter()
    for action, p in state.chance_outcomes():
        child = state.child(action)
        expected[tuple(child.table.engine.table.hands[0].tolist())] += p  # seat 0's hand, after quads went
    env = cardenvs.make_raw(variant.env_id, **variant.options)
    seen: collections.Counter[tuple[int, ...]] = collections.Counter()
    draws = 3000
    for seed in range(draws):
        env.reset(seed=seed)
        seen[tuple(env.game.table.hands[0].tolist())] += 1
    assert set(seen) <= set(expected)
    for hand, p in expected.items():
        sd = (p * (1 - p) / draws) ** 0.5
        assert abs(seen[hand] / draws - p) < 4 * sd + 1e-9, (hand, seen[hand] / draws, p)


def test_cfr_plus_lowers_nash_conv_and_the_twin_agrees() -> None:
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game(TINY_KYUURI)
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(5):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    after = exploitability.nash_conv(game, average)
    assert after < uniform / 2
    index = EfgIndex(export_tree(game))  # the Gambit twin: the same NashConv for the same policy
    table = [[dict(enumerate(average.policy_for_key(s.key))) for s in sets] for sets in index.tree.infosets]
    table = [
        [{a: p for a, p in row.items() if a in s.legal} for row, s in zip(rows, sets, strict=True)]
        for rows, sets in zip(table, index.tree.infosets, strict=True)
    ]
    assert solved.nash_conv(index, table) == pytest.approx(after, abs=1e-9)
    assert solved.nash_conv(index, solved.uniform_table(index.tree)) == pytest.approx(uniform, abs=1e-9)


def test_shipped_kyuuri_equilibrium_keeps_its_recorded_nash_conv(kyuuri_small: EfgIndex) -> None:
    card = json.loads((ROOT / "kyuuri-small.json").read_text())
    assert card["nash_conv"] < 0.01 * card["reward_range"]
    from cardenvs.agents.equilibria import digest, read_table

    rows = read_table(ROOT / "kyuuri-small.npz", "info")
    table = [[rows[digest(s.key)] for s in sets] for sets in kyuuri_small.tree.infosets]
    assert solved.nash_conv(kyuuri_small, table) <= card["nash_conv"] + 1e-6
    projected = solved.table_from_rows(kyuuri_small.tree, read_table(ROOT / "kyuuri-small.npz", "obs"))
    assert solved.exploitability(kyuuri_small, projected) == pytest.approx(
        card["observation_policy_exploitability"], abs=1e-6
    )


def test_equilibrium_spec_plays_its_variant_and_only_it() -> None:
    variant = SMALL_VARIANTS["kyuuri"]
    env = cardenvs.make(variant.env_id, **variant.options)
    agents = {a: make_policy("equilibrium:kyuuri-small", env, seed=i) for i, a in enumerate(env.possible_agents)}
    env.reset(seed=3)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else agents[agent].act(observation))
    with pytest.raises(InvalidOptionError, match=r"plays kyuuri-v0 with options .* only"):
        make_policy("equilibrium:kyuuri-small", cardenvs.make("kyuuri-v0"), seed=0)


@pytest.mark.parametrize("name", ["python_cardenvs_verish_ne_verish", TINY_KYUURI])
def test_plain_mcts_bot_plays_a_game(name: str) -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name, {"rng_seed": 2} if "tiny" not in name else {})
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(0)


def test_plain_mcts_bot_accepts_every_game_at_its_default_options() -> None:
    from open_spiel.python.algorithms import mcts

    rs = np.random.RandomState(0)
    for name in cos.GAME_NAMES:
        mcts.MCTSBot(pyspiel.load_game(name), 2.0, 4, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)


def test_rewards_before_the_end_need_their_declaration() -> None:
    options = {"num_players": 2, "fixed_deals": 2, "reward_mode": "penalty"}
    wrong = cos.register(
        "kyuuri-v0", name="python_cardenvs_kyuuri_two_deals", utility=cos.Utility(False, -28, 28), **options
    )
    right = cos.register(
        "kyuuri-v0",
        name="python_cardenvs_kyuuri_two_deals_paid",
        utility=cos.Utility(False, -28, 28, paid_at_end=False),
        **options,
    )
    assert pyspiel.load_game(right).get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    for name in (wrong, right):
        state = pyspiel.load_game(name, {"rng_seed": 0}).new_initial_state()
        state.apply_action(0)
        rng = np.random.default_rng(0)

        def play(state: object = state, rng: np.random.Generator = rng) -> None:
            while not state.is_terminal():
                state.apply_action(int(rng.choice(state.legal_actions())))

        if name == wrong:
            with pytest.raises(ValueError, match="paid before the end"):
                play()
        else:
            play()


def test_explicit_deal_is_refused_with_chance_after_the_deal() -> None:
    with pytest.raises(InvalidOptionError, match="single deal"):
        cos.register(
            "kyuuri-v0",
            name="python_cardenvs_kyuuri_game_small",
            explicit_deal=True,
            num_players=2,
            deck_size=16,
            deal_size=3,
        )
    with pytest.raises(InvalidOptionError, match="no explicit deal"):
        cos.register("zheng_shang_you-v0", name="python_cardenvs_zsy_explicit", explicit_deal=True, episode="deal")


def test_a_bot_read_as_a_table_plays_as_the_bot() -> None:
    # The rule bot plans a whole claim (rank, then cards, then done); its table, read move by move, must give the
    # value the bot itself gets against random play in the env, within the games' noise.
    from cardenvs.agents.base import PolicyContext

    options = {"num_players": 2, "deck_size": 8, "dealer": 0, "max_steps": 8}
    name = cos.register("verish_ne_verish-v0", name="python_cardenvs_verish_tiny", explicit_deal=True, **options)
    index = EfgIndex(export_tree(pyspiel.load_game(name)))
    env = cardenvs.make_raw("verish_ne_verish-v0", **options)
    context = PolicyContext.from_env(env)
    bot = solved.queried_table(index.tree, lambda seed: make_policy("verish_ne_verish/rule", context, seed), 32)
    exact = solved.expected_returns(index, [bot, solved.uniform_table(index.tree)])[0]
    rule, rng, scores = make_policy("verish_ne_verish/rule", context, 0), np.random.default_rng(0), []
    for seed in range(1500):
        env.reset(seed=seed)
        rule.reset(seed)
        total = 0.0
        while env.agents:
            agent = env.agent_selection
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            elif agent == "player_0":
                action = rule.act(observation)
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
            total += env.rewards.get("player_0", 0.0)
        scores.append(total)
    assert exact == pytest.approx(np.mean(scores), abs=4 * np.std(scores) / np.sqrt(len(scores)) + 0.005)


def test_the_exact_equilibrium_is_an_openspiel_policy_of_the_variant() -> None:
    from cardenvs.agents.exploitability.exact import equilibrium

    policy = equilibrium("kyuuri")
    state = policy.game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
            continue
        probabilities = policy.action_probabilities(state)
        assert set(probabilities) == set(state.legal_actions())
        assert sum(probabilities.values()) == pytest.approx(1, abs=1e-5)
        state.apply_action(max(probabilities, key=probabilities.get))


@pytest.mark.slow
def test_calibration_rows_keep_the_lbr_below_the_truth() -> None:
    # about 15 s on an idle machine (the tree, the bots read as tables, five LBR runs of 5 deals)
    from cardenvs.agents.exploitability import LbrBudget
    from cardenvs.experiments.research.exploitability_calibration import calibrate

    rows = calibrate("kyuuri", deals=5, budget=LbrBudget(worlds=1, max_moves=3))
    assert {r["policy"] for r in rows} == {"random", "kyuuri/rule", "kyuuri/thrifty", "never-challenge", "equilibrium"}
    for row in rows:
        assert row["low"] <= row["exact"] + 1e-9, row  # a lower bound, within its interval
    exact = {r["policy"]: r["exact"] for r in rows}
    assert exact["equilibrium"] < 1e-4 < exact["kyuuri/thrifty"] < exact["kyuuri/rule"] < exact["random"]


def test_the_equilibrium_spec_is_fingerprinted_by_its_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import shutil

    from cardenvs.agents import equilibria
    from cardenvs.agents.base import PolicyContext
    from cardenvs.agents.specs import fingerprinted_policy

    variant = SMALL_VARIANTS["kyuuri"]
    env = PolicyContext.from_env(cardenvs.make(variant.env_id, **variant.options))
    _, shipped = fingerprinted_policy("equilibrium:kyuuri-small", env)
    for name in ("kyuuri-small.json", "kyuuri-small.npz"):
        shutil.copy(ROOT / name, tmp_path / name)
    with open(tmp_path / "kyuuri-small.npz", "ab") as table:
        table.write(b"\0")  # another table (the zip reader ignores trailing bytes)
    monkeypatch.setattr(equilibria, "ROOT", tmp_path)
    _, changed = fingerprinted_policy("equilibrium:kyuuri-small", env)
    assert changed != shipped
