"""gymnasium's and SB3's env checkers on :class:`SeatEnv`: they step unmasked samples, so they pass under the
explicit ``illegal_action="penalize"`` and are refused under the default ``"raise"``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env

import cardenvs
from cardenvs import IllegalActionError
from cardenvs.wrappers import SeatEnv


def seat_env(env_id: str, illegal_action: str) -> SeatEnv:
    return SeatEnv(cardenvs.make_raw(env_id, illegal_action=illegal_action))


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_both_checkers_pass_with_illegal_action_penalize(env_id: str) -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker's warning is a failure too
        gymnasium_check_env(seat_env(env_id, "penalize"), skip_render_check=True)
        sb3_checker.check_env(seat_env(env_id, "penalize"), warn=True)


def test_the_default_refuses_the_checkers_unmasked_samples() -> None:
    """The reason the setting exists: nothing repairs an illegal action silently."""
    with pytest.raises(IllegalActionError, match="Legal now"):
        for seed in range(20):  # a few runs, each samples unmasked actions until one is illegal
            env = seat_env("cardenvs/kyuuri-v0", "raise")
            env.action_space.seed(seed)
            gymnasium_check_env(env, skip_render_check=True)


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_says_why() -> None:
    env = SeatEnv(cardenvs.make_raw("cardenvs/kyuuri-v0", illegal_action="penalize", illegal_penalty=-2.0), seat=0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    reason = info["illegal_action"]
    assert reason.startswith(f"action {illegal} (") and "is illegal for player 0" in reason
    assert not env.action_masks().any()
