"""A rule-based Verish' ne verish' player that reads only its own observation.

It tells the truth when it can, bluffs when it must (dumping a card it has few of), and challenges a
claim that its own hand and the public record make impossible, or that is unlikely enough given how
many cards of the claimed rank could still be in the claimant's hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb

import numpy as np

from agents.base import PlanningPolicy, PolicyContext

MAX_PLAY = 3


def prob_at_least(successes: int, population: int, draws: int, needed: int) -> float:
    """Hypergeometric P(X >= needed) for ``draws`` cards from ``population`` holding ``successes`` hits."""
    if needed <= 0:
        return 1.0
    draws = min(draws, population)
    total = comb(population, draws)
    if total == 0 or needed > min(successes, draws):
        return 0.0
    hits = sum(comb(successes, k) * comb(population - successes, draws - k) for k in range(needed, draws + 1))
    return hits / total


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
        claim = int(np.argmax(self.view(observation, "claim_rank")))
        count = int(self.view(observation, "last_play_count")[0])
        owner = int(np.argmax(self.view(observation, "last_play_by")))
        sizes = self.view(observation, "hand_sizes").astype(int)
        unseen = self.view(observation, "unseen").astype(int)
        known = self.view(observation, "known_held").reshape(len(sizes) - 1, -1).astype(int)
        others_known = sum(int(known[j - 1, claim]) for j in range(1, len(sizes)) if j != owner)
        possible = int(unseen[claim]) - others_known
        if count > possible:
            return True  # impossible claim
        population = int(unseen.sum()) - int(known.sum()) + int(known[owner - 1].sum())
        p_true = prob_at_least(possible, max(population, 1), int(sizes[owner]) + count, count)
        threshold = self.challenge_threshold
        if hand[claim] == 0:
            threshold = self.forced_bluff_threshold  # otherwise we must lie ourselves
        if sizes[owner] == 0:
            threshold = min(threshold, 0.5)  # the claimant goes out unless caught
        return 1.0 - p_true > threshold
