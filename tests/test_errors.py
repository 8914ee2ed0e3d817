"""Bad input gets a clear error that names the problem and what is valid."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs import ActionTypeError, GameOverError, IllegalActionError, InvalidOptionError

ID = "verish_ne_verish-v0"


def test_unknown_option_lists_the_valid_ones() -> None:
    with pytest.raises(InvalidOptionError, match=r"unknown option\(s\) 'players'.*valid options: .*num_players"):
        cardenvs.make(ID, players=4)


@pytest.mark.parametrize("n", [0, 1, 7])
def test_bad_player_count(n: int) -> None:
    with pytest.raises(InvalidOptionError, match="num_players must be 2–6"):
        cardenvs.make(ID, num_players=n)


def test_wrongly_typed_option() -> None:
    with pytest.raises(InvalidOptionError, match=r"option .num_players. .* must be int, got .4."):
        cardenvs.make(ID, num_players="4")
    with pytest.raises(InvalidOptionError, match=r"reward_mode.*one of .loser., .exit_order."):
        cardenvs.make(ID, reward_mode="winner")


def test_bad_common_options() -> None:
    with pytest.raises(InvalidOptionError, match="render_mode"):
        cardenvs.make(ID, render_mode="human")
    with pytest.raises(InvalidOptionError, match="illegal_action"):
        cardenvs.make(ID, illegal_action="ignore")
    with pytest.raises(InvalidOptionError, match="max_steps"):
        cardenvs.make(ID, max_steps=0)


def test_unknown_env_id_lists_the_registered_ones() -> None:
    with pytest.raises(InvalidOptionError, match=r"registered ids: .*cardenvs/verish_ne_verish-v0"):
        cardenvs.make("bluff-v0")


def test_illegal_action_says_why_and_what_is_legal() -> None:
    env = cardenvs.make_raw(ID, num_players=3)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"challenge.*nothing to challenge yet.*Legal now: 1=declare\(2\)"):
        env.step(0)


def test_wrong_action_types() -> None:
    env = cardenvs.make_raw(ID)
    env.reset(seed=0)
    for bad in (1.0, "1", [1], np.float32(1), True):
        with pytest.raises(ActionTypeError, match="must be an integer id"):
            env.step(bad)
    env.step(np.int64(1))  # NumPy integers are fine (declare the first rank)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.array([legal[0]]))  # so is a one-element integer array
    assert env.num_steps == 2


def test_step_before_reset_and_after_the_end() -> None:
    env = cardenvs.make_raw(ID, num_players=2)
    with pytest.raises(GameOverError, match="call reset"):
        env.step(1)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    with pytest.raises(GameOverError, match="episode is over"):
        env.step(1)


def test_dead_agent_must_step_none() -> None:
    env = cardenvs.make_raw(ID, num_players=2, max_steps=1)
    env.reset(seed=1)
    env.step(1)  # truncated at the step cap
    assert all(env.truncations.values())
    with pytest.raises(ActionTypeError, match="only valid action is None"):
        env.step(1)


def test_penalize_option_ends_the_episode_with_the_pettingzoo_convention() -> None:
    env = cardenvs.make_raw(ID, num_players=3, illegal_action="penalize", illegal_penalty=-2.0)
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(0)  # a challenge on the round's first play is illegal
    assert all(env.terminations.values())
    assert env.rewards[offender] == -2.0 and sum(env.rewards.values()) == -2.0
    assert "nothing to challenge" in env.infos[offender]["illegal_action"]
