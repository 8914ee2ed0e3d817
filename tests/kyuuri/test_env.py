"""Kyuuri through the PettingZoo adapter: options and their errors, explicit-deal errors, illegal actions,
episode units and rewards."""

from __future__ import annotations

from typing import Any

import numpy as np
import pettingzoo
import pytest

import cardenvs
from cardenvs.core.errors import IllegalActionError, InvalidOptionError
from tests.kyuuri.helpers import new_game


def run_random(env: Any, seed: int) -> tuple[dict[str, float], int]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return returns, steps


def test_registered_with_pettingzoo() -> None:
    assert "cardenvs/kyuuri-v0" in cardenvs.ENV_IDS
    env = pettingzoo.make("aec", "cardenvs/kyuuri-v0", num_players=5)
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{i}" for i in range(5)]
    assert env.action_space("player_0").n == 13


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "unknown option"),
        ({"num_players": 1}, "num_players must be 2–7"),
        ({"num_players": 8}, "num_players must be 2–7"),
        ({"num_players": "4"}, "must be int"),
        ({"threshold": 0}, "threshold must be a positive"),
        ({"fixed_deals": 0}, "fixed_deals must be None or at least 1"),
        ({"max_deals": 0}, "max_deals must be at least 1"),
        ({"fixed_deals": 3, "episode": "deal"}, "cannot be combined"),
        ({"episode": "trick"}, "one of 'game', 'deal'"),
        ({"reward_mode": "winner"}, "one of 'outcome', 'penalty'"),
        ({"dealer": 4}, "dealer must be None or a seat 0..3"),
        ({"countdown_display": True}, "unknown option"),
    ],
)
def test_bad_options_raise_clear_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        cardenvs.make("kyuuri-v0", **options)


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        (["2 3 4 5 6 7", "2 3 4 5 6 7 8", "2 3 4 5 6 7 8"], {}, "player 0 must be dealt 7 cards"),
        (["2 2 2 2 2 3 4", "5 6 7 8 9 10 J", "5 6 7 8 9 10 J"], {}, "more than 4 times"),
        (["2 3 4 5 6 7 8", "2 3 4 5 6 7 8"], {"num_players_override": 3}, "need 3 hands"),
        (["2 3 4 5 6 7 8"] * 3, {"penalties": [0, 21, 0]}, "over the limit of 21"),
        (["2 3 4 5 6 7 8", "", ""], {"eliminated": [1, 2]}, "at least two players"),
        (["2 3 4 5 6 7 8"] * 3, {"penalties": [0, -1, 0]}, "penalties must be 3 numbers"),
    ],
)
def test_bad_explicit_deals_raise(hands: list[str], kwargs: dict[str, Any], message: str) -> None:
    from cardenvs.kyuuri.options import KyuuriOptions
    from cardenvs.kyuuri.rules import KyuuriGame

    n = kwargs.pop("num_players_override", len(hands))
    with pytest.raises(InvalidOptionError, match=message):
        KyuuriGame.from_deal(KyuuriOptions(num_players=n), hands, **kwargs)


def test_illegal_action_raises_with_the_reason_and_the_legal_moves() -> None:
    game = new_game(["6 2 4 7 J Q 9", "K 2 5 6 9 A A", "3 4 5 8 10 Q A"], dealer=2)
    game.apply(4)  # 6
    with pytest.raises(IllegalActionError, match=r"play\(5\).*at least as high.*Legal now: 0=play\(2\), 4=play\(6\)"):
        game.apply(3)


def test_illegal_action_can_end_the_episode_with_a_penalty() -> None:
    env = cardenvs.make_raw("kyuuri-v0", num_players=3, illegal_action="penalize")
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.terminations[agent] and env.rewards[agent] == -1.0
    assert "illegal_action" in env.infos[agent]


@pytest.mark.parametrize("num_players", [2, 4, 7])
def test_one_deal_episodes_last_exactly_one_deal(num_players: int) -> None:
    env = cardenvs.make_raw("kyuuri-v0", num_players=num_players, episode="deal")
    for seed in range(5):
        returns, steps = run_random(env, seed)
        assert steps == 7 * num_players
        assert abs(sum(returns.values())) < 1e-9 and min(returns.values()) < 0


def test_whole_games_end_with_one_winner_and_zero_sum_rewards() -> None:
    env = cardenvs.make_raw("kyuuri-v0", num_players=4)
    for seed in range(5):
        returns, _ = run_random(env, seed)
        assert abs(sum(returns.values())) < 1e-9
        assert sorted(returns.values())[-1] == 1.0
        [end] = env.unwrapped.events.of_kind("game_over")
        assert len(end["public"]["winners"]) == 1 and not env.truncations.get("player_0", False)


def test_penalty_rewards_sum_to_minus_the_penalties_scored() -> None:
    env = cardenvs.make_raw("kyuuri-v0", num_players=3, fixed_deals=4, reward_mode="penalty")
    returns, steps = run_random(env, 3)
    assert steps == 4 * 7 * 3
    penalties = env.unwrapped.events.of_kind("game_over")[0]["public"]["penalties"]
    assert [returns[f"player_{i}"] for i in range(3)] == [-float(p) for p in penalties]
