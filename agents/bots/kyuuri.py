"""Rule-based Kyuuri players that read only their own observation.

Both keep one copy of their lowest rank for the last trick (it is the card that decides the deal) and play it
earlier only when the follow rule leaves nothing else. They differ in what they play otherwise:

* ``shed`` (``kyuuri/rule``): the highest card allowed, to get rid of high cards while that is still free;
  a high lead also forces the followers without a higher card to give up their lowest cards.
* ``thrifty`` (``kyuuri/thrifty``): the lowest card allowed (other than the kept one), keeping high cards to
  overtake with later, so that low cards never have to be sacrificed (pagat's advice for Cucumber).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import numpy as np

from cardenvs.agents.base import Policy, PolicyContext

Style = Literal["shed", "thrifty"]


class KyuuriRuleBot(Policy):
    """Keeps its lowest card for the last trick; otherwise sheds high cards (``shed``) or overtakes as
    cheaply as possible (``thrifty``)."""

    name = "kyuuri/rule"

    def __init__(self, context: PolicyContext, seed: int | None = None, style: Style = "shed"):
        super().__init__(context, seed)
        if style not in ("shed", "thrifty"):
            raise ValueError(f"style must be 'shed' or 'thrifty', got {style!r}")
        self.style = style
        self.name = "kyuuri/rule" if style == "shed" else "kyuuri/thrifty"

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            raise ValueError("no legal action in this observation: the agent is not the one to act")
        hand = self.view(observation, "hand")
        held = np.flatnonzero(hand)
        lowest = int(held[0])
        spare = [int(a) for a in legal if a != lowest or hand[lowest] > 1]  # keep one copy of the lowest rank
        if not spare:
            return lowest  # forced (or the last card)
        return max(spare) if self.style == "shed" else min(spare)
