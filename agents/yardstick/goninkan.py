"""Goninkan and Yoninkan styles built on the rule bot (:class:`agents.bots.goninkan.KankeiRuleBot`): the same deals 2
and 3 choices and the same help for a partner who is winning a trick, but another appetite for tricks. Neither
game has bidding: greed and caution show in which tricks a player tries to take.

* :class:`Greedy`: beats every trick an opponent is winning whenever it can (with its cheapest winning card),
  throws the joker on any such trick that holds an honour, and leads its highest card.
* :class:`Cautious`: ducks: overtakes only a trick already worth two honours or more, keeps the joker until the
  rules force it out, and leads its lowest card.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardenvs.agents.bots.goninkan import KankeiRuleBot, Trick


class Greedy(KankeiRuleBot):
    """Takes every trick it can from the opponents."""

    name = "goninkan/greedy"

    def _lead(self, legal: list[int], observation: Mapping[str, np.ndarray], trump: int) -> int:
        return max(legal, key=lambda c: self._rank_order(c, trump))

    def _follow(self, observation: Mapping[str, np.ndarray], trick: Trick, legal: list[int], joker: bool) -> int:
        if trick.partner_wins:
            return super()._follow(observation, trick, legal, joker)
        if joker and trick.honours >= 1:
            return self.joker.offset
        winners = self._winners(trick, legal)
        return self.play[winners[0]] if winners else self._discard(trick, legal)


class Cautious(KankeiRuleBot):
    """Ducks every trick not already worth two honours; never plays the joker by choice."""

    name = "goninkan/cautious"

    def _lead(self, legal: list[int], observation: Mapping[str, np.ndarray], trump: int) -> int:
        return min(legal, key=lambda c: (self.cards.honour[c], self._rank_order(c, trump)))

    def _follow(self, observation: Mapping[str, np.ndarray], trick: Trick, legal: list[int], joker: bool) -> int:
        if trick.partner_wins:
            return super()._follow(observation, trick, legal, joker)
        winners = self._winners(trick, legal)
        return self.play[winners[0]] if winners and trick.honours >= 2 else self._discard(trick, legal)
