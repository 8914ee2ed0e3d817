"""Policies that play any cardenvs env: the protocol, random play, rule-based bots and trained checkpoints.

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
from cardenvs.agents.random_policy import RandomPolicy
from cardenvs.agents.registry import POLICIES, policy_names
from cardenvs.agents.specs import make_policy

__all__ = ["POLICIES", "Policy", "PolicyContext", "RandomPolicy", "make_policy", "policy_names"]
