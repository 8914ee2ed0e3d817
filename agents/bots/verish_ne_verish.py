"""A rule-based Verish' ne verish' player that reads only its own observation.

It tells the truth when it can, bluffs when it must (dumping a card it has few of), and challenges a
claim that its own hand and the public record make impossible, or that is unlikely enough given how
many cards of the claimed rank could still be in the claimant's hand.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardenvs.agents.base import PlanningPolicy, PolicyContext
from cardenvs.agents.bots.bluffing import claim_truth_probability, latest_claim

MAX_PLAY = 3


class VerishRuleBot(PlanningPolicy):
    """Truthful when possible, bluffs when forced, challenges impossible or unlikely claims."""

    name = "verish_ne_verish/rule"

    def __init__(
        self,
        context: PolicyContext,
        seed: int | None = None,
        challenge_threshold: float = 0.6,
        forced_bluff_threshold: float = 0.4,
    ):
        super().__init__(context, seed)
        self.challenge_threshold = challenge_threshold
        self.forced_bluff_threshold = forced_bluff_threshold
        a = context.actions
        self.CHALLENGE = a["challenge"].offset
        self.DONE = a["done"].offset
        self.declare, self.pick, self.discard, self.keep = a["declare"], a["pick"], a["discard_quad"], a["keep_quads"]

    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        phase = int(np.argmax(self.view(observation, "phase")))
        if phase == 0:  # quads: always shed them
            quads = [k for k in range(self.discard.size) if mask[self.discard[k]]]
            return self.discard[quads[0]] if quads else self.keep.offset
        if phase == 3:  # finishing a play whose planned cards are all picked
            return self.DONE
        hand = self.view(observation, "hand").astype(int)
        if phase == 1:
            self.plan = self._lead(hand)
        elif self._should_challenge(observation, hand):
            return self.CHALLENGE
        else:
            self.plan = self._follow(hand, int(np.argmax(self.view(observation, "claim_rank"))))
        return self.plan.pop(0)

    def _lead(self, hand: np.ndarray) -> list[int]:
        best = np.flatnonzero(hand == hand.max())
        rank = int(best[self.rng.integers(len(best))])
        count = min(int(hand[rank]), MAX_PLAY)
        return [self.declare[rank]] + [self.pick[rank]] * count

    def _follow(self, hand: np.ndarray, claim: int) -> list[int]:
        if hand[claim] > 0:
            return [self.pick[claim]] * min(int(hand[claim]), MAX_PLAY)
        held = np.flatnonzero(hand)
        fewest = held[hand[held] == hand[held].min()]
        return [self.pick[int(fewest[self.rng.integers(len(fewest))])]]

    def _should_challenge(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> bool:
        claim, _, owner = latest_claim(lambda name: self.view(observation, name))
        p_true = claim_truth_probability(lambda name: self.view(observation, name))
        if p_true == 0.0:
            return True  # impossible claim
        sizes = self.view(observation, "hand_sizes")
        threshold = self.challenge_threshold
        if hand[claim] == 0:
            threshold = self.forced_bluff_threshold  # otherwise we must lie ourselves
        if sizes[owner] == 0:
            threshold = min(threshold, 0.5)  # the claimant goes out unless caught
        return 1.0 - p_true > threshold
