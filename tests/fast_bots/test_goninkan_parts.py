"""The Goninkan bot's choices that random games seldom ask for (the suit named for a led joker, the sweep offer),
compared with the Python bot's own methods on every observation of a few games, asked or not."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.specs import make_policy
from tests.fast_bots.agreement import collect

jax = pytest.importorskip("jax")
from cardenvs.agents.fast_bots.goninkan import KankeiRuleFast  # noqa: E402  (needs JAX, skipped above without it)


@pytest.mark.parametrize(("env_id", "name"), [("goninkan-v1", "goninkan/rule"), ("yoninkan-v1", "yoninkan/rule")])
def test_joker_suit_and_sweep_match_the_python_bot(env_id: str, name: str) -> None:
    context = PolicyContext.from_env(cardenvs.make(env_id))
    python_bot, fast_bot = make_policy(name, context), KankeiRuleFast(context)
    decisions = collect(name, env_id, {}, 2, seed=3)
    obs = np.stack(decisions.observations)
    hand = obs[:, context.layout["hand"]] > 0
    gone = obs[:, context.layout["played"]].reshape(len(obs), context.num_players, -1).any(axis=1)
    suits = np.asarray(fast_bot._suit_to_name(hand, gone))
    safe = np.asarray(fast_bot._sweep_is_safe(obs, hand))
    for i, vector in enumerate(decisions.observations):
        observation = {"observation": vector, "action_mask": decisions.masks[i]}
        cards = np.flatnonzero(hand[i])
        assert suits[i] == python_bot._suit_to_name(observation, cards), f"observation {i}"
        assert safe[i] == python_bot._sweep_is_safe(observation, cards), f"observation {i}"
    assert len(set(suits.tolist())) > 1, "the observations should not all name one suit"
