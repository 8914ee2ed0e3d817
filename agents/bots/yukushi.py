"""Rule-based Yukushi players with distinct styles, reading only their own observation.

* ``honest`` (cautious): tells the truth or passes, never bluffs on a follow; calls ゆくし only on claims its
  knowledge makes impossible, or on the last cards of a player about to win.
* ``bluffer`` (aggressive): pads true plays with junk, dumps cards it has few of under any claim, rarely
  passes; calls when a claim looks more likely false than not.
* ``counter`` (card-counting challenger): plays truthfully when it can and passes otherwise; calls whenever
  counting makes the claim unlikely (hypergeometric estimate from the unseen copies and certain knowledge).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np

from cardenvs.agents.base import PlanningPolicy, PolicyContext
from cardenvs.agents.bots.bluffing import claim_truth_probability, latest_claim

Style = Literal["honest", "bluffer", "counter"]
DECLARE, DECLARE_COUNT, WINDOW, TURN, PICKING = range(5)


@dataclass(frozen=True)
class StyleParams:
    """How a style plays: call when P(lie) exceeds ``call_threshold``; ``pad`` / ``dump`` chances of a lie."""

    call_threshold: float
    pad: float
    """Chance of adding a junk card to a true play (lead or follow)."""
    dump: float
    """Chance, holding none of the claimed rank, of playing a junk card instead of passing."""


STYLES: dict[str, StyleParams] = {
    "honest": StyleParams(call_threshold=0.99, pad=0.0, dump=0.0),
    "bluffer": StyleParams(call_threshold=0.8, pad=0.5, dump=0.8),
    "counter": StyleParams(call_threshold=0.6, pad=0.0, dump=0.1),
}


class YukushiBot(PlanningPolicy):
    """A Yukushi player of one :data:`STYLES` style."""

    def __init__(self, context: PolicyContext, seed: int | None = None, style: Style = "counter"):
        super().__init__(context, seed)
        self.style = style
        self.params = STYLES[style]
        self.name = f"yukushi/{style}"
        self.max_play = int(context.options.max_play)
        self.counts_declared = bool(context.options.allow_count_mismatch)
        a = context.actions
        self.CHALLENGE, self.DECLINE, self.PASS = a["challenge"].offset, a["decline"].offset, a["pass"].offset
        self.DONE = a["done"].offset
        self.declare, self.pick, self.count = a["declare"], a["pick"], a["count"]

    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        phase = int(np.argmax(self.view(observation, "phase")))
        if phase == WINDOW:
            return self.CHALLENGE if self._should_call(observation) else self.DECLINE
        if phase == PICKING:  # the planned cards are picked: finish (or pick anything left, if asked to)
            return self.DONE if mask[self.DONE] else int(np.flatnonzero(mask)[0])
        hand = self.view(observation, "hand").astype(int)
        if phase == TURN:
            if mask[self.CHALLENGE] and self._should_call(observation):
                return self.CHALLENGE
            cards = self._follow(hand, int(np.argmax(self.view(observation, "claim_rank"))))
            if not cards:
                return self.PASS
            self.plan = self._count_ids(len(cards)) + [self.pick[k] for k in cards]
        else:
            rank, cards = self._lead(hand)
            self.plan = [self.declare[rank], *self._count_ids(len(cards)), *(self.pick[k] for k in cards)]
        return self.plan.pop(0)

    # ------------------------------------------------------------------ plays
    def _lead(self, hand: np.ndarray) -> tuple[int, list[int]]:
        best = np.flatnonzero(hand == hand.max())
        rank = int(best[self.rng.integers(len(best))])
        cards = [rank] * min(int(hand[rank]), self.max_play)
        return rank, self._padded(hand, rank, cards)

    def _follow(self, hand: np.ndarray, claim: int) -> list[int]:
        if hand[claim] > 0:
            return self._padded(hand, claim, [claim] * min(int(hand[claim]), self.max_play))
        if self.rng.random() < self.params.dump:
            return [self._junk(hand, claim)]
        return []

    def _padded(self, hand: np.ndarray, rank: int, cards: list[int]) -> list[int]:
        """``cards`` with one junk card added (a lie), with the style's chance, if there is room."""
        if len(cards) < self.max_play and hand.sum() > hand[rank] and self.rng.random() < self.params.pad:
            cards = sorted([*cards, self._junk(hand, rank)])
        return cards

    def _junk(self, hand: np.ndarray, avoid: int) -> int:
        """A rank held and not ``avoid``, among those held fewest (the cards least useful for true plays)."""
        held = [k for k in np.flatnonzero(hand) if k != avoid]
        fewest = min(int(hand[k]) for k in held)
        choices = [int(k) for k in held if hand[k] == fewest]
        return choices[self.rng.integers(len(choices))]

    def _count_ids(self, n: int) -> list[int]:
        return [self.count[n - 1]] if self.counts_declared else []

    # ------------------------------------------------------------------ calls
    def _should_call(self, observation: Mapping[str, np.ndarray]) -> bool:
        def view(name: str) -> np.ndarray:
            return self.view(observation, name)

        _, _, owner = latest_claim(view)
        about_to_win = self.context.options.counts_public and view("hand_sizes")[owner] == 0
        if about_to_win and not self.context.options.play_to_ranking:
            return True  # the player goes out unless caught: calling costs nothing worth keeping
        claimed = int(view("declared_count")[0]) if self.counts_declared else None
        p_true = claim_truth_probability(view, claimed)
        if view("pile_plays")[0] == 1 and p_true > 0.0:
            # A lead names its rank: judge it as the best of the ranks the leader could have picked.
            p_true = 1.0 - (1.0 - p_true) ** len(view("claim_rank"))
        return 1.0 - p_true > self.params.call_threshold
