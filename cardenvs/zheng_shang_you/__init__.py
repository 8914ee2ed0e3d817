"""Zheng Shang You 争上游 ("struggling upstream", a.k.a. Pits): the Chinese climbing game with wild cards.

54 cards with a black and a red joker; ranks 3 … A, 2, BJ, RJ. 4–6 players deal out the pack from the
dealer; the dealer leads any combination — a single, a set of one rank, a sequence of 3+ ranks within 3…A,
or a sequence of equal sets — and each player in turn passes or beats it with a stronger combination of the
same kind and shape. 2s and jokers stand in for lower ranks (jokers only, in plain sequences). When all
others pass, the last player to play leads again (or the next player, if it has gone out). The first out
scores 2, the second 1; a match runs to 11 with a card exchange between deals. Team games: 2 v 2 with four
players, San Jia Xi / Huo Jian (3 v 3) with six.

Rules: ``shared/rules/zheng_shang_you.md``; docs: ``docs/games/zheng_shang_you.md`` (options, observation
and action tables, the readings chosen). Modules: :mod:`.ranks` (card order), :mod:`.combos` (what a
combination is and the order), :mod:`.builder` (exact sub-step masks), :mod:`.movegen` (every legal move),
:mod:`.rules` (the engine), :mod:`.exchange`, :mod:`.scoring`, :mod:`.encoding`, :mod:`.actions`,
:mod:`.features`, :mod:`.env`.
"""

# PettingZoo classic's convention: ``from cardenvs import zheng_shang_you; zheng_shang_you.env()``. Importing the env
# module first leaves the package attribute ``env`` the function, not the submodule of that name.
from cardenvs.zheng_shang_you.env import DEFINITION, env, raw_env

__all__ = ["DEFINITION", "env", "raw_env"]
