"""ヨニンカン (Yoninkan, 4 players), ``cardenvs/yoninkan-v1``: Goninkan's engine with Yoninkan's rules.

PettingZoo classic's module convention: ``from cardenvs import yoninkan; yoninkan.env()``. The game lives in
:mod:`cardenvs.goninkan` (``docs/games/goninkan.md``); this module only gives it its own name.
"""

from cardenvs.goninkan.yoninkan_env import DEFINITION, env, raw_env

__all__ = ["DEFINITION", "env", "raw_env"]
