"""The ISMCTS agent: legal play in every game, a clear win found with a small budget, no peeking, its spec."""

from __future__ import annotations

import copy
import json
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import RandomPolicy, make_policy
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.play import play_episode
from cardenvs.agents.search import InformationSets, IsmctsPolicy, SearchSettings, parse_settings
from cardenvs.agents.tournament import Tournament
from cardenvs.core.engine import RulesEngine
from cardenvs.registry import make_raw
from tests.tournament.whole_games import assert_whole_games
from tests.zheng_shang_you.driver import new_game


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_it_plays_every_game_legally_to_the_end(env_id: str) -> None:
    env = cardenvs.make(env_id, raw=True)  # the raw env raises on an illegal action
    searcher = make_policy("search:?simulations=2&max_rollout_steps=20", env, seed=0)
    others = [make_policy("random", env, seed=i) for i in range(1, len(env.possible_agents))]
    result = play_episode(env, [searcher, *others], seed=1)
    assert env.unwrapped.game.is_terminal and not result.truncated
    assert isinstance(searcher, IsmctsPolicy) and searcher.searches > 0


def seat_view(game: RulesEngine[Any]) -> dict[str, np.ndarray]:
    seat = game.current_player
    return {"observation": game.observation(seat), "action_mask": game.legal_mask()}


def table_of(game: RulesEngine[Any]) -> InformationSets:
    """The table of an engine built from an explicit deal (``InformationSets`` reads ``env.unwrapped.game``)."""
    return InformationSets(SimpleNamespace(unwrapped=SimpleNamespace(game=game)))


def test_with_a_small_budget_it_goes_out_where_random_play_often_does_not() -> None:
    """Zheng Shang You, one deal: player 0 leads holding 5♥ 5♠. The pair goes out at once and wins the deal;
    either single lets player 1 take the lead with 2♥ and go out with the straight 3-7 first."""
    context = PolicyContext.from_env(make_raw("zheng_shang_you-v0", episode="deal"))
    hands = ["5h 5s", "2h 3c 4d 5c 6d 7s", "8d 9c", "10d Jc"]
    assert len(new_game(hands, dealer=0, episode="deal").legal_moves()) == 3  # random play finds the pair 1 time in 3
    for seed in range(5):
        game = new_game(hands, dealer=0, episode="deal")
        searcher = IsmctsPolicy(context, seed, SearchSettings(simulations=30))
        searcher.sit(table_of(game))
        while game.current_player == 0:
            game.apply(searcher.act(seat_view(game)))
        assert game.hands[0] == 0 and game.places[0] > 0, f"seed {seed}: the searcher did not go out"


class PeekingTables(InformationSets):
    """A cheat: it hands out the true world instead of a re-dealt one (the control for the test below)."""

    def sample(self, rng: np.random.Generator) -> RulesEngine[Any]:
        world = self._game.clone()
        world.take_rewards()
        return world


SHORT = {"cardenvs/zheng_shang_you-v0": {"episode": "deal"}}
"""Options that end an episode soon enough for short rollouts to reach the rewards."""


def positions(env_id: str, count: int) -> list[RulesEngine[Any]]:
    """Mid-game decision points with a choice, reached by seeded random play."""
    found = []
    for seed in range(40):
        env = make_raw(env_id, **SHORT.get(env_id, {}))
        env.reset(seed=seed)
        game, rng = env.game, np.random.default_rng(seed)
        for _ in range(int(rng.integers(4, 40))):
            if game.is_terminal:
                break
            game.apply(int(rng.choice(game.legal_actions())))
        if not game.is_terminal and len(game.legal_actions()) > 1:
            found.append(game)
        if len(found) == count:
            return found
    raise AssertionError(f"{env_id}: only {len(found)} of {count} positions with a choice found")


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_a_re_deal_depends_on_what_the_seat_knows_and_on_the_rng_only(env_id: str) -> None:
    """Two worlds one seat cannot tell apart re-deal, with one rng, into the same world (the engines sort the hidden
    cards before shuffling them), which is what lets a seeded search decide alike in both."""
    for game in positions(env_id, 3):
        seat = game.current_player
        other = game.resample_hidden(seat, np.random.default_rng(12345))
        states = [w.resample_hidden(seat, np.random.default_rng(7)).privileged_state() for w in (game, other)]
        assert json.dumps(states[0], default=str) == json.dumps(states[1], default=str)


def decision(game: RulesEngine[Any], context: PolicyContext, tables: type[InformationSets]) -> tuple[int, Any]:
    searcher = IsmctsPolicy(context, 7, SearchSettings(simulations=12, max_rollout_steps=1000))
    searcher.sit(tables(SimpleNamespace(unwrapped=SimpleNamespace(game=game))))
    return searcher.act(seat_view(game)), searcher.last_visits


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_its_decision_does_not_change_when_the_hidden_cards_are_dealt_again(env_id: str) -> None:
    """The same seed gives the same search (action and root visit counts) in every world the deciding seat cannot
    tell from the true one; a cheat that searches the true world fails this test somewhere."""
    context = PolicyContext.from_env(make_raw(env_id, **SHORT.get(env_id, {})))
    cheat_caught = 0
    for game in positions(env_id, 3):
        seat = game.current_player
        other = game.resample_hidden(seat, np.random.default_rng(12345))
        assert np.array_equal(other.observation(seat), game.observation(seat))
        hands = (json.dumps(w.privileged_state()["hands"], default=str) for w in (game, other))
        assert next(hands) != next(hands), "the re-deal moved no card: the test would prove nothing"
        assert decision(game, context, InformationSets) == decision(other, context, InformationSets)
        cheat_caught += decision(game, context, PeekingTables) != decision(other, context, PeekingTables)
    assert cheat_caught, f"{env_id}: a searcher that peeks was not caught (pick other positions)"


def test_with_a_prior_and_one_simulation_it_plays_the_priors_move() -> None:
    env = make_raw("kyuuri-v0")
    env.reset(seed=2)
    bot = make_policy("kyuuri/rule", env, seed=0)
    searcher = make_policy("search:?simulations=1&prior=kyuuri/rule", env, seed=0)
    assert isinstance(searcher, IsmctsPolicy)
    searcher.sit(InformationSets(env))
    checked = 0
    while not env.game.is_terminal and checked < 10:
        view = seat_view(env.game)
        if view["action_mask"].sum() > 1:
            prior = copy.deepcopy(searcher.prior_policy)  # the same state: it would choose what the search's prior does
            assert prior is not None
            prior.reset()
            assert searcher.act(view) == prior.act(view) and len(searcher.last_visits) == 1
            checked += 1
        env.game.apply(bot.act(view))
    assert checked == 10


def test_named_rollouts_are_built_by_the_resolver_it_is_given() -> None:
    context = PolicyContext.from_env(make_raw("kyuuri-v0"))
    built: list[str] = []

    def make(name: str, ctx: PolicyContext, seed: int | None) -> RandomPolicy:
        built.append(name)
        return RandomPolicy(ctx, seed)

    settings = SearchSettings(10, rollout="kyuuri/rule", prior="kyuuri/thrifty")
    searcher = IsmctsPolicy(context, 0, settings, make)
    assert built == ["kyuuri/rule"] * context.num_players + ["kyuuri/thrifty"]
    assert searcher.rollout_policies and searcher.prior_policy is not None
    with pytest.raises(ValueError, match=r"name \['kyuuri/rule', 'kyuuri/thrifty'\]; pass make_policy"):
        IsmctsPolicy(context, 0, settings)


def test_specs_parse_and_bad_ones_are_refused_with_the_reason() -> None:
    context = PolicyContext.from_env(make_raw("kyuuri-v0"))
    assert parse_settings("?simulations=50&rollout=kyuuri/rule", context) == SearchSettings(50, rollout="kyuuri/rule")
    assert parse_settings("?milliseconds=20", context) == SearchSettings(None, milliseconds=20.0)
    assert parse_settings("", context) == SearchSettings()
    assert parse_settings("prior=kyuuri/thrifty", context).prior == "kyuuri/thrifty"
    for spec, message in [
        ("?simulation=5", r"unknown search setting 'simulation'.*valid: \['exploration'"),
        ("?simulations=many", "simulations must be a whole number, got 'many'"),
        ("?simulations=0", "simulations must be at least 1"),
        ("?simulations=5&milliseconds=3", "exactly one"),
        ("?rollout=zheng_shang_you/rule", r"rollout 'zheng_shang_you/rule' is not a registered policy for .*kyuuri"),
        ("?rollout=search:", "is not a registered policy"),
        ("?prior=random2", r"prior 'random2' is not a registered policy for .*valid: \['none', 'random'"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_policy(f"search:{spec}", make_raw("kyuuri-v0"))


def test_without_the_table_it_says_how_to_give_it() -> None:
    env = make_raw("kyuuri-v0")
    env.reset(seed=0)
    searcher = make_policy("search:?simulations=2", env)
    game = env.game
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    with pytest.raises(RuntimeError, match=r"play it through agents\.play\.play_episode"):
        searcher.act(seat_view(game))


def test_it_enters_a_tournament_as_a_spec(tmp_path: Any) -> None:
    spec = "search=search:?simulations=2&rollout=goninkan/rule&max_rollout_steps=50"
    result = Tournament("goninkan-v1", [spec, "goninkan/rule"], games=5).run(tmp_path / "t.sqlite")
    assert_whole_games(result, ["search", "goninkan/rule"], games=5)
