"""cardenvs games as OpenSpiel Python games: OpenSpiel's own random-simulation test, its IS-MCTS bot playing a game,
the deal and every decision matching the env, the re-deal behind ``resample_from_infostate``, and registration."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs

pyspiel = pytest.importorskip("pyspiel")

import cardenvs.openspiel as cos  # noqa: E402  (after the skip: it needs OpenSpiel)
from cardenvs.core.errors import InvalidOptionError  # noqa: E402

ZSY_DEAL = cos.register("zheng_shang_you-v0", name="python_cardenvs_zheng_shang_you_deal", episode="deal")
SIMULATED = {name: name for name in cos.GAME_NAMES}
# A Zheng Shang You match (its default) runs about 1,000 decisions: 10 s in OpenSpiel's test, which passes (measured
# in docs/openspiel.md); CI plays one deal of it.
SIMULATED["python_cardenvs_zheng_shang_you"] = ZSY_DEAL
QUICK_DEALS = {"python_cardenvs_yukushi": 1}
"""rng_seed of a game whose first seed deals a long random game (Yukushi: 2,300 decisions, 18 s)."""


def dealt(name: str, seed: int = 0) -> object:
    state = pyspiel.load_game(name, {"rng_seed": seed}).new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1.0)]
    state.apply_action(0)
    return state


def play_randomly(state: object, steps: int, rng: np.random.Generator) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_every_registered_id_is_an_openspiel_game() -> None:
    assert tuple(cos.PREFIX + cardenvs.registry.game_name(i) for i in cardenvs.ENV_IDS) == cos.GAME_NAMES
    for name, env_id in zip(cos.GAME_NAMES, cardenvs.ENV_IDS, strict=True):
        game = pyspiel.load_game(name)
        env = cardenvs.make_raw(env_id)
        kind = game.get_type()
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game.num_players() == len(env.possible_agents)
        assert game.num_distinct_actions() == env.action_table.size
        assert game.observation_tensor_shape() == game.information_state_tensor_shape() == [env.layout.size]
        assert game.max_game_length() == env.max_steps


@pytest.mark.parametrize("name", sorted(SIMULATED))
def test_every_game_passes_openspiels_random_simulation_test(name: str) -> None:
    # serialize=False: OpenSpiel serializes a sampled-stochastic game with its RNG state, which Python games cannot
    # give (pyspiel's PyGame has no GetRNGState); states serialize (test below).
    game = pyspiel.load_game(SIMULATED[name], {"rng_seed": QUICK_DEALS.get(name, 0)})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_deal_and_every_decision_are_the_envs_composite_moves_included() -> None:
    state = dealt("python_cardenvs_yukushi", seed=3)
    env = cardenvs.make_raw("yukushi-v0")
    env.reset(seed=state.deal_seed)
    rng = np.random.default_rng(0)
    sub_steps = 0
    for _ in range(150):
        if state.is_terminal():
            break
        player = state.current_player()
        assert env.agent_selection == f"player_{player}"
        seen = env.observe(env.agent_selection)
        assert state.legal_actions() == np.flatnonzero(seen["action_mask"]).tolist()
        np.testing.assert_array_equal(state.observation_tensor(), seen["observation"])
        np.testing.assert_array_equal(state.information_state_tensor(), seen["observation"])
        action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(player, action) == env.action_name(action)
        sub_steps += env.game.move_in_progress()
        state.apply_action(action)
        env.step(action)
    assert sub_steps > 0, "no composite move was built in sub-steps"


def test_resample_from_infostate_redeals_what_the_player_cannot_see_and_keeps_what_it_knows() -> None:
    state = dealt("python_cardenvs_kyuuri", seed=1)
    play_randomly(state, 9, np.random.default_rng(0))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)  # seeded
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(6)]
    for world in worlds:
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == state.history() and world.returns() == state.returns()
    assert {str(w) for w in worlds} - {str(state)}, "no sample re-dealt a hidden card"
    # a Kyuuri game has deals to come: a sample must not replay the true ones (the engine's generator is reseeded)
    true_future = state.table.engine.rng.bit_generator.state
    assert all(w.table.engine.rng.bit_generator.state != true_future for w in worlds)
    others = [p for p in range(state.num_players()) if p != player]
    assert any(w.information_state_string(p) != state.information_state_string(p) for w in worlds for p in others)


def test_information_state_strings_tell_seats_and_histories_apart() -> None:
    state = dealt("python_cardenvs_verish_ne_verish")
    strings = {state.information_state_string(p) for p in range(state.num_players())}
    assert len(strings) == state.num_players()
    before = state.information_state_string(0)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) != before
    assert "hand" in state.observation_string(0)


def test_is_mcts_plays_a_game_to_the_end() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_cardenvs_yoninkan", {"rng_seed": 0})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=4, random_state=rs)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))  # asserts each sampled world has the player's information state
            searched += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert searched > 0
    assert sum(state.returns()) == 0 and max(state.returns()) > 0


def test_states_serialize_and_clone() -> None:
    state = dealt("python_cardenvs_goninkan")
    play_randomly(state, 5, np.random.default_rng(0))
    game = state.get_game()
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.information_state_string(1) == state.information_state_string(1)
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.history() != state.history() and str(again) == str(state)


def test_register_with_options_and_its_errors() -> None:
    name = cos.register("verish_ne_verish-v0", name="python_cardenvs_verish_three", num_players=3)
    assert cos.register("verish_ne_verish-v0", name=name, num_players=3) == name
    game = pyspiel.load_game(name)
    assert game.num_players() == 3
    with pytest.raises(InvalidOptionError, match="already registered"):
        cos.register("verish_ne_verish-v0", name=name, num_players=5)
    with pytest.raises(InvalidOptionError, match="needs a name"):
        cos.register("verish_ne_verish-v0", num_players=5)
    with pytest.raises(InvalidOptionError, match="unknown option"):
        cos.register("verish_ne_verish-v0", name="python_cardenvs_typo", num_playerz=5)
    with pytest.raises(InvalidOptionError, match="lower-case"):
        cos.register("verish_ne_verish-v0", name="Bad Name", num_players=5)
    with pytest.raises(InvalidOptionError, match="already has"):
        cos.register("kyuuri-v0", name="kuhn_poker")


def test_returns_outside_the_declared_utility_raise() -> None:
    # one deal paid in penalty points: the last trick's taker loses at least 2, so the default ±1 cannot hold
    name = cos.register("kyuuri-v0", name="python_cardenvs_kyuuri_penalty", episode="deal", reward_mode="penalty")
    state = dealt(name)
    with pytest.raises(Exception, match="Utility"):
        play_randomly(state, 1000, np.random.default_rng(0))
    fair = cos.register(
        "kyuuri-v0",
        name="python_cardenvs_kyuuri_penalty_declared",
        utility=cos.Utility(zero_sum=False, low=-100, high=100),
        episode="deal",
        reward_mode="penalty",
    )
    state = dealt(fair)
    play_randomly(state, 1000, np.random.default_rng(0))
    assert state.is_terminal() and min(state.returns()) <= -2


def test_observers_other_than_one_seats_are_refused() -> None:
    game = pyspiel.load_game("python_cardenvs_yoninkan")
    public_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(Exception, match="one seat"):
        game.make_py_observer(public_only)


def test_the_docs_page_runs_and_is_listed() -> None:
    from tests.test_docs import DOCS, python_blocks

    page = DOCS / "openspiel.md"
    blocks = python_blocks(page)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, str(page), "exec"), {})
    assert "(openspiel.md)" in (DOCS / "index.md").read_text()
