"""``env()`` of every game is the fast order-enforcing wrapper: PettingZoo's API and seed tests pass on it,
it plays the same games as the raw env, and it enforces the call order with the stock wrapper's errors."""

from __future__ import annotations

import contextlib
import io
import logging
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import OrderEnforcingWrapper

import cardenvs
from cardenvs.core.order import FastOrderEnforcingWrapper
from cardenvs.testing.checks import unexpected_warnings

FAST = [e for e in cardenvs.ENV_IDS if isinstance(cardenvs.make(e), FastOrderEnforcingWrapper)]


def play(env: Any, seed: int) -> list[tuple[str, int | None, float]]:
    """A seeded random game through ``agent_iter``/``last``/``step``: (agent, action, reward) per step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, reward))
        env.step(action)
    return trace


def test_every_game_uses_the_fast_wrapper() -> None:  # env_constructors builds it for every game
    assert list(cardenvs.ENV_IDS) == FAST


@pytest.mark.parametrize("env_id", FAST)
def test_pettingzoo_api_and_seed_tests_pass_on_the_fast_wrapper(env_id: str) -> None:
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        api_test(cardenvs.make(env_id), num_cycles=50)
        seed_test(lambda: cardenvs.make(env_id), num_cycles=50)
    assert not unexpected_warnings(caught)


@pytest.mark.parametrize("env_id", FAST)
def test_fast_wrapper_plays_the_same_game_as_the_stock_one(env_id: str) -> None:
    stock = OrderEnforcingWrapper(cardenvs.make_raw(env_id))
    assert play(cardenvs.make(env_id), 3) == play(stock, 3)


def test_call_order_is_enforced_like_the_stock_wrapper(caplog: pytest.LogCaptureFixture) -> None:
    env = cardenvs.make("kyuuri-v0")
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        env.last()
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    with pytest.raises(AssertionError, match="reset"):
        env.agent_iter()
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="need to call step"):
        for _agent in env.agent_iter():
            env.last()  # no step: the iterator must refuse to go on
    play(env, 1)
    with caplog.at_level(logging.WARNING):  # every agent is done: a step is logged, not made
        env.step(None)
    assert "step() called after all agents are terminated or truncated" in caplog.text
