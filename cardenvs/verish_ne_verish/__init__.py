"""Verish' ne verish' (2–6 players), ``cardenvs/verish_ne_verish-v0``: a bluffing game of claimed ranks played
face down; rules, options, observation and action tables: ``docs/games/verish_ne_verish.md``."""

# PettingZoo classic's convention: ``from cardenvs import verish_ne_verish; verish_ne_verish.env()``.
# Importing the env module first leaves the package attribute ``env`` the function, not the submodule of that name.
from cardenvs.verish_ne_verish.env import DEFINITION, env, raw_env

__all__ = ["DEFINITION", "env", "raw_env"]
