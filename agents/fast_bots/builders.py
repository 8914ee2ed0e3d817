"""Which array-program bot twins which Python bot: :data:`BUILDERS` and :func:`build_fast_bot`."""

from __future__ import annotations

from collections.abc import Callable

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.fast_bots.common import FastBot, RandomFastBot
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
