"""Kyuuri (きゅうり, "cucumber"; Danish Agurk, Swedish Gurka): don't take the last trick.

2–7 players get 7 cards each from a 52-card pack; the rest stays face down, never seen. Ranks run A high
to 2 low and suits never matter. The dealer's left neighbour leads any card; each follower must play a card
at least as high as the highest already in the trick, or their lowest card. The highest card takes the
trick (of equal ranks, the last played) and its player leads the next. Only the 7th trick counts: its taker
scores the value of their card (2–10 face value, J 11, Q 12, K 13, A 14) as penalty, and every other player
who played the same rank to it subtracts that value (never below 0). A player at 21 or more is out; the
deal passes left (skipping players who are out) until one player is left, the winner.

Docs: ``docs/games/kyuuri.md`` (every option, the observation and action tables, the rule readings).
"""

# PettingZoo classic's convention: ``from cardenvs import kyuuri; kyuuri.env()``. Importing the env
# module first leaves the package attribute ``env`` the function, not the submodule of that name.
from cardenvs.kyuuri.env import DEFINITION, env, raw_env

__all__ = ["DEFINITION", "env", "raw_env"]
