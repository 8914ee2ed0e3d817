"""Policies that play any cardenvs env: the protocol, random play, rule-based bots and trained checkpoints.

>>> import cardenvs, agents
>>> env = cardenvs.make("verish_ne_verish-v0")
>>> bot = agents.make_policy("verish_ne_verish/rule", env, seed=0)
"""

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.random_policy import RandomPolicy
from cardenvs.agents.registry import POLICIES, policy_names
from cardenvs.agents.specs import make_policy

__all__ = ["POLICIES", "Policy", "PolicyContext", "RandomPolicy", "make_policy", "policy_names"]
