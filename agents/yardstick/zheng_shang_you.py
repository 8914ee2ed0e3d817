"""A Zheng Shang You style built on the rule bot: it plays like :class:`ZsyRuleBot` but never breaks a group.

* :class:`Unbroken`: leads the longest, lowest combination that uses every card it holds of each rank it
  touches (no pair split for a run, no triple split for a pair), follows with the cheapest beating play,
  preferring one that breaks nothing, and keeps its 2s and jokers for going out (the rule bot's endgame).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import numpy as np

from cardenvs.agents.bots.zheng_shang_you import ZsyRuleBot, high_cards
from cardenvs.zheng_shang_you.combos import Combo
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import to_bits, value_of


def breaks(combo: Combo, hand: list[int]) -> int:
    """How many ranks the play leaves partly in the hand (cards of that rank held but not played)."""
    held = Counter(value_of(p) for p in hand)
    played = Counter(value_of(p) for p in combo.cards)
    return sum(held[rank] > count for rank, count in played.items())


class Unbroken(ZsyRuleBot):
    """The rule bot, with leads and follows that keep its pairs, triples and bombs whole."""

    name = "zheng_shang_you/unbroken"

    def choose_lead(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo:
        combos = legal_combos(to_bits(hand), None, self.rules)
        cheap = [c for c in combos if not c.wild and not high_cards(c)] or combos
        whole = [c for c in cheap if not breaks(c, hand)] or cheap
        return max(whole, key=lambda c: (len(c.cards), -c.top))

    def choose_follow(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo | None:
        combos = legal_combos(to_bits(hand), self.combo_to_beat(observation), self.rules)
        if not combos:
            return None
        best = min(combos, key=lambda c: (c.wild, high_cards(c), breaks(c, hand), c.key()))
        if len(best.cards) == len(hand):
            return best
        if self.partner_on_top(observation):
            return None
        if (best.wild or high_cards(best)) and not self.endgame(observation, len(hand) - len(best.cards)):
            return None
        return best
