"""Policies that play any cardenvs env, and the tools that measure them. Two rooms:

* **players**: the policy kit every player uses (``base``: the protocol; ``moves``: a seat's complete legal moves;
  ``play``; ``policy_code``: policies named by a file; ``specs`` and ``registry``: one spec registry,
  ``SPEC_PREFIXES`` included), the rule bots (``bots/``), trained networks (``learned/``: the NumPy weights
  runtime, checkpoint reading, learned players), the shipped trained agents (``zoo/``), search (``search/``),
  language models (``llm/``), array-program bots of the fast path (``fast_bots/``), styled reference bots
  (``yardstick/``) and exact equilibria of small variants (``equilibria/``);
* **evaluation**: ``tournament/`` (duplicate-deal tournaments and their statistics), ``benchmark/`` (a strategy
  against a game's gauntlet, the leaderboards) and ``exploitability/`` (how much a best response wins). They stay at
  the top level, where the docs and users' code import them.

>>> import cardenvs
>>> from cardenvs.agents import make_policy
>>> env = cardenvs.make("verish_ne_verish-v0")
>>> bot = make_policy("verish_ne_verish/rule", env, seed=0)
"""

if __name__ != "cardenvs.agents":  # the checkout's folder, imported under its own name
    raise ImportError(
        "agents/ is the package cardenvs.agents: import cardenvs.agents (the short name is not ours)", name=__name__
    )

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.bots.random_policy import RandomPolicy
from cardenvs.agents.registry import POLICIES, policy_names
from cardenvs.agents.specs import make_policy

__all__ = ["POLICIES", "Policy", "PolicyContext", "RandomPolicy", "make_policy", "policy_names"]
