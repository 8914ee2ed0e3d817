"""A Kyuuri style between the two rule bots: it keeps one copy of its lowest rank for the last trick like both,
leads its highest spare card like ``kyuuri/rule`` (a high lead makes the followers without a higher card give up
their lowest) and follows with its cheapest card that still reaches the trick's highest, like ``kyuuri/thrifty``
(keeping its high cards to follow with later).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardenvs.agents.base import Policy


class LeadHighFollowLow(Policy):
    """Leads its highest spare card, follows with its lowest spare card that is allowed."""

    name = "kyuuri/lead_high_follow_low"

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            raise ValueError("no legal action in this observation: the agent is not the one to act")
        hand = self.view(observation, "hand")
        lowest = int(np.flatnonzero(hand)[0])
        spare = [int(a) for a in legal if a != lowest or hand[lowest] > 1]
        if not spare:
            return lowest
        leading = not self.view(observation, "to_beat").any()
        return max(spare) if leading else min(spare)
