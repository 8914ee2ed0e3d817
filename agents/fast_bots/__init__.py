"""The rule bots as JAX array programs, for training loops that must not call Python (issue 34; docs/fast.md).

:data:`FAST_BOTS` maps a Python bot's spec name to a factory ``factory(env_id, options) -> FastBot`` (options as
the fast class takes them, e.g. ``{"num_players": 4}``); a :class:`FastBot` has ``act(obs, mask, key)`` on a batch
of observations (``f32[B, D]``, the player to act's vector, ``state.observation`` of :mod:`cardenvs.fast`) and legal
masks (``bool[B, A]``), pure and jittable, returning ``int32[B]`` action ids. The bots read only the observation
vector and the mask, as the Python bots do, and keep no state: the rest of a multi-step move is read off the move
under construction. :func:`fast_policy` plays one as a Python policy (spec ``fastbot:<name>``).

>>> import jax
>>> from cardenvs.agents.fast_bots import FAST_BOTS
>>> bot = FAST_BOTS["kyuuri/rule"]("kyuuri-v0", {"num_players": 4})
>>> act = jax.jit(bot.act)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.fast_bots.common import FastBot, RandomFastBot, game_context
from cardenvs.agents.fast_bots.goninkan import KankeiRuleFast
from cardenvs.agents.fast_bots.kyuuri import KyuuriRuleFast
from cardenvs.agents.fast_bots.verish import VerishRuleFast
from cardenvs.agents.fast_bots.yukushi import YukushiFast
from cardenvs.agents.fast_bots.zheng_shang_you import ZsyRuleFast
from cardenvs.agents.registry import POLICIES
from cardenvs.registry import game_name

BUILDERS: dict[str, Callable[[PolicyContext], FastBot]] = {
    "random": lambda context: RandomFastBot(),
    "verish_ne_verish/rule": VerishRuleFast,
    "kyuuri/rule": lambda context: KyuuriRuleFast(context, "shed"),
    "kyuuri/thrifty": lambda context: KyuuriRuleFast(context, "thrifty"),
    "yukushi/honest": lambda context: YukushiFast(context, "honest"),
    "yukushi/bluffer": lambda context: YukushiFast(context, "bluffer"),
    "yukushi/counter": lambda context: YukushiFast(context, "counter"),
    "goninkan/rule": KankeiRuleFast,
    "yoninkan/rule": KankeiRuleFast,
    "zheng_shang_you/rule": ZsyRuleFast,
}
"""Spec name → the array-program bot for a game's :class:`PolicyContext`."""


def build_fast_bot(name: str, context: PolicyContext) -> FastBot:
    """The array-program twin of the Python bot ``name`` for the game of ``context``."""
    if name not in BUILDERS:
        raise ValueError(f"no array-program bot named {name!r}; those written: {', '.join(BUILDERS)}")
    game = POLICIES[name][0]
    if game is not None and game != game_name(context.env_id):
        raise ValueError(f"{name} plays {game}, not {context.env_id}")
    return BUILDERS[name](context)


def _factory(name: str) -> Callable[..., FastBot]:
    def factory(env_id: str, options: Mapping[str, Any] | None = None) -> FastBot:
        return build_fast_bot(name, game_context(env_id, options or {}))

    factory.__doc__ = f"The array-program {name} for ``env_id`` with ``options`` (as the fast class takes them)."
    return factory


FAST_BOTS: dict[str, Callable[..., FastBot]] = {name: _factory(name) for name in BUILDERS}
"""Spec name → ``factory(env_id, options) -> FastBot``."""


def fast_policy(name: str, context: PolicyContext, seed: int | None = None) -> Policy:
    """The array-program bot ``name`` as a Python policy (one observation per call; see
    :mod:`agents.fast_bots.policy`)."""
    from cardenvs.agents.fast_bots.policy import FastBotPolicy

    return FastBotPolicy(name, context, seed)


__all__ = ["BUILDERS", "FAST_BOTS", "FastBot", "build_fast_bot", "fast_policy"]
