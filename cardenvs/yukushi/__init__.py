"""Yukushi (ゆくし, Okinawan for "lie"): the bluffing game with passes, flushed piles and calls from anyone.

``cardenvs/yukushi-v0``; rules, options, observation and actions: ``docs/games/yukushi.md``. The pure engine is
:class:`cardenvs.yukushi.rules.YukushiGame` (``from_deal`` builds explicit deals); the claim, pile and
challenge machinery is shared with Verish' ne verish' (:mod:`cardenvs.core.bluffing`, :mod:`cardenvs.core.claim_moves`,
:mod:`cardenvs.core.claim_encoding`, :mod:`cardenvs.core.bluffing_game`, :mod:`cardenvs.core.challenge`).
"""

# PettingZoo classic's convention: ``from cardenvs import yukushi; yukushi.env()``. Importing the env
# module first leaves the package attribute ``env`` the function, not the submodule of that name.
from cardenvs.yukushi.env import DEFINITION, env, raw_env

__all__ = ["DEFINITION", "env", "raw_env"]
