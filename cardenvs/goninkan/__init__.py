"""ゴニンカン (Goninkan, 5–6 players) and ヨニンカン (Yoninkan, 4 players): Tsugaru trick-taking games in
which two 関係 players (the holders of the joker and the trump Ace) try to take 9 of the 16 honours
(A K Q J) against the others. One engine plays both (``cardenvs/goninkan-v1``, ``cardenvs/yoninkan-v1``);
rules, options, observation and action tables: ``docs/games/goninkan.md``.
"""

# PettingZoo classic's convention: ``from cardenvs import goninkan; goninkan.env()``. Importing the env
# module first leaves the package attribute ``env`` the function, not the submodule of that name.
from cardenvs.goninkan.env import DEFINITION, env, raw_env

__all__ = ["DEFINITION", "env", "raw_env"]
