"""An array-program bot as a Python policy: each call is a jitted batch of one (spec ``fastbot:<name>``).

Slow next to the Python bots (a dispatch per decision); it exists so that a tournament can check that a bot and
its array program play alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

import jax
import numpy as np

from cardenvs.agents.base import ForeignPolicy, PolicyContext
from cardenvs.agents.fast_bots.builders import build_fast_bot
from cardenvs.agents.fast_bots.common import FastBot
from cardenvs.core.views import PublicView


@cache
def _jitted(name: str, context: PolicyContext) -> tuple[FastBot, Callable[..., jax.Array]]:
    """One compiled bot per name and game, shared by the seats that play it, compiled here (ahead of the first
    move, so that a tournament's move clock times moves, not XLA)."""
    bot = build_fast_bot(name, context)
    obs = jax.ShapeDtypeStruct((1, context.layout.size), np.float32)
    mask = jax.ShapeDtypeStruct((1, context.actions.size), np.bool_)
    key = jax.ShapeDtypeStruct(jax.random.PRNGKey(0).shape, jax.random.PRNGKey(0).dtype)
    return bot, jax.jit(bot.act).lower(obs, mask, key).compile()


class FastBotPolicy(ForeignPolicy):
    """Plays the array-program bot ``name`` one observation at a time, its random keys drawn from ``seed``. The bot
    is the wrapped object, so that a tournament entrant's fingerprint covers its code."""

    def __init__(self, name: str, context: PolicyContext, seed: int | None = None):
        bot, self._jitted_act = _jitted(name, context)
        super().__init__(bot, context, seed, name=f"fastbot:{bot.name}")
        self._key = self._fresh_key(seed)

    def _fresh_key(self, seed: int | None) -> jax.Array:
        return jax.random.PRNGKey(int(self.rng.integers(2**31)) if seed is None else seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if seed is not None:
            self._key = self._fresh_key(seed)

    def act(self, observation: Mapping[str, np.ndarray], view: PublicView | None = None) -> int:
        self._key, key = jax.random.split(self._key)
        obs = np.asarray(observation["observation"], np.float32)[None]
        mask = np.asarray(observation["action_mask"], bool)[None]
        return int(self._jitted_act(obs, mask, key)[0])
