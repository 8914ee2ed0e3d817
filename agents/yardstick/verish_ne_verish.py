"""Verish' ne verish' styles built on the rule bot's plan machinery (lead, follow, challenge are its hooks).

* :class:`Truthful`: follows truthfully whenever it holds the claimed rank, otherwise lies with one card; calls
  *ne verish'* only on a claim that counting proves impossible (or that would end the game against it).
* :class:`NeverLie`: never places a false card: it challenges whenever it cannot follow truthfully.
* :class:`AlwaysChallenge`: challenges every claim it may.
* :class:`NeverChallenge`: trusts every claim, truthful when it can.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardenvs.agents.bots.bluffing import claim_truth_probability, latest_claim
from cardenvs.agents.bots.verish_ne_verish import VerishRuleBot


class Truthful(VerishRuleBot):
    """Truthful when possible, a one-card lie otherwise; challenges only what counting rules out."""

    name = "verish_ne_verish/truthful"

    def _should_challenge(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> bool:
        _, _, owner = latest_claim(lambda name: self.view(observation, name))
        if claim_truth_probability(lambda name: self.view(observation, name)) == 0.0:
            return True
        sizes = self.view(observation, "hand_sizes")
        # Trusting the last cards of the only other player still in ends the game with me as the loser.
        return bool(sizes[owner] == 0 and np.count_nonzero(sizes) == 1)


class NeverLie(VerishRuleBot):
    """Plays only true cards: it challenges whenever it holds none of the claimed rank."""

    name = "verish_ne_verish/never_lie"

    def _should_challenge(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> bool:
        claim = int(np.argmax(self.view(observation, "claim_rank")))
        return bool(hand[claim] == 0) or claim_truth_probability(lambda name: self.view(observation, name)) == 0.0


class AlwaysChallenge(VerishRuleBot):
    """Turns over every play it may."""

    name = "verish_ne_verish/always_challenge"

    def _should_challenge(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> bool:
        return True


class NeverChallenge(VerishRuleBot):
    """Trusts every play (truthful when it can, a one-card lie otherwise)."""

    name = "verish_ne_verish/never_challenge"

    def _should_challenge(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> bool:
        return False
