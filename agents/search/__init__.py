"""Search at decision time: a single-observer information-set MCTS agent for any cardenvs game.

>>> import cardenvs, agents
>>> env = cardenvs.make("kyuuri-v0")
>>> searcher = agents.make_policy("search:?simulations=50&rollout=kyuuri/rule", env, seed=0)

See :mod:`agents.search.ismcts` for the algorithm and :mod:`agents.search.information` for how the agent gets
its worlds without reading hidden cards; ``docs/search.md`` for measurements.
"""

from cardenvs.agents.search.information import InformationSets, NeedsInformationSets
from cardenvs.agents.search.ismcts import IsmctsPolicy, SearchSettings
from cardenvs.agents.search.spec import parse_settings, search_policy

__all__ = [
    "InformationSets",
    "IsmctsPolicy",
    "NeedsInformationSets",
    "SearchSettings",
    "parse_settings",
    "search_policy",
]
