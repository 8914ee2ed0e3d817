"""Rule-based Zheng Shang You players that read only their own observation.

Both rebuild the combination to beat from the observation, list their legal plays with the game's own move
generator (:func:`cardenvs.zheng_shang_you.movegen.legal_combos`, a pure function of hand and top) and turn
the chosen play into its sub-step actions.

* :class:`ZsyRuleBot` plays the weakest combination that beats the top, saves its 2s and jokers (it spends
  them only when the hand is nearly out, or an opponent is), does not overtake its partner, and leads the
  longest combination it can make without them (the lowest such on a tie) to shed cards.
* :class:`ZsyGreedyBot` always plays if it can, the combination shedding the most cards (the weakest of
  those), wilds or not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from cardenvs.agents.base import PlanningPolicy, PolicyContext
from cardenvs.agents.moves import combo_to_beat
from cardenvs.zheng_shang_you.actions import combo_actions, ids
from cardenvs.zheng_shang_you.combos import Combo
from cardenvs.zheng_shang_you.encoding import PHASES
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import TWO, suit_of, to_bits, value_of

LEAD, FOLLOW, DECLARE, PICK, GIVE_HIGHEST, TAKE_HIGHEST, GIVE_BACK, TAKE_BACK = range(len(PHASES))


def high_cards(combo: Combo) -> int:
    """How many 2s and jokers a play spends (the cards worth saving)."""
    return sum(value_of(p) >= TWO for p in combo.cards)


def rule_lead(combos: Sequence[Combo]) -> Combo:
    """The rule bot's lead among ``combos`` (a hand's legal leads): the longest without 2s, jokers or stand-ins,
    the lowest of those; any combination once only such are left."""
    cheap = [c for c in combos if not c.wild and not high_cards(c)] or combos
    return max(cheap, key=lambda c: (len(c.cards), -c.top, -c.wild))


class ZsyRuleBot(PlanningPolicy):
    """Weakest beating play, saves wilds, sheds its longest combination on a lead (see the module docstring)."""

    name = "zheng_shang_you/rule"
    endgame_cards = 4
    """Spend 2s and jokers freely once this many cards or fewer would be left (or an opponent holds as few)."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed)
        self.rules = context.options.combo_rules
        self.ids = ids()

    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        phase = int(np.argmax(self.view(observation, "phase")))
        hand = [int(p) for p in np.flatnonzero(self.view(observation, "hand"))]
        if phase in (LEAD, FOLLOW):
            combo = self.choose_lead(observation, hand) if phase == LEAD else self.choose_follow(observation, hand)
            if combo is None:
                return self.ids.PASS
            self.plan = combo_actions(combo, leading=phase == LEAD)
            return self.plan.pop(0)
        if phase in (GIVE_HIGHEST, GIVE_BACK):
            return self.ids.GIVE + self.choose_gift([p for p in hand if mask[self.ids.GIVE + p]], hand)
        if phase in (TAKE_HIGHEST, TAKE_BACK):
            return self.ids.TAKE + self.choose_take(observation)
        return int(np.flatnonzero(mask)[0])  # unreachable with a plan; keeps the bot total

    # ------------------------------------------------------------------ plays
    def choose_lead(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo:
        return rule_lead(legal_combos(to_bits(hand), None, self.rules))

    def choose_follow(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo | None:
        top = self.combo_to_beat(observation)
        combos = legal_combos(to_bits(hand), top, self.rules)
        if not combos:
            return None
        best = min(combos, key=lambda c: (c.wild, high_cards(c), c.key()))
        if len(best.cards) == len(hand):
            return best  # going out
        if self.partner_on_top(observation):
            return None
        if (best.wild or high_cards(best)) and not self.endgame(observation, len(hand) - len(best.cards)):
            return None
        return best

    def endgame(self, observation: Mapping[str, np.ndarray], left_after: int) -> bool:
        sizes = self.view(observation, "hand_sizes")[1:]
        mates = self.view(observation, "teammates")[1:]
        opponents_low = any(0 < s <= self.endgame_cards and not m for s, m in zip(sizes, mates, strict=True))
        return left_after <= self.endgame_cards or opponents_low

    def partner_on_top(self, observation: Mapping[str, np.ndarray]) -> bool:
        by = self.view(observation, "top_by")
        seat = int(np.argmax(by))
        return bool(by.any() and seat != 0 and self.view(observation, "teammates")[seat])

    def combo_to_beat(self, observation: Mapping[str, np.ndarray]) -> Combo:
        """The combination on the table (on a follow), rebuilt from the public features."""
        top = combo_to_beat(observation["observation"], self.context.layout)
        if top is None:
            raise ValueError("no combination to beat: the seat is leading")
        return top

    # ------------------------------------------------------------------ the exchange
    def choose_gift(self, options: list[int], hand: list[int]) -> int:
        """The lowest card allowed, breaking ties by the suit the hand holds least of (keeps suited runs)."""
        low = min(value_of(p) for p in options)
        suits = [suit_of(p) for p in hand if p < 52]
        candidates = [p for p in options if value_of(p) == low]
        return min(candidates, key=lambda p: suits.count(suit_of(p)) if p < 52 else 0)

    def choose_take(self, observation: Mapping[str, np.ndarray]) -> int:
        """The stronger of the two cards if they can be seen, else the better-placed giver's."""
        table = self.view(observation, "table_cards").reshape(2, -1)
        seen = [np.flatnonzero(row) for row in table]
        if all(len(s) for s in seen):
            return int(np.argmax([value_of(int(s[0])) for s in seen]))
        return 0


class ZsyGreedyBot(ZsyRuleBot):
    """Plays whenever it can: the combination shedding the most cards, the weakest of those."""

    name = "zheng_shang_you/greedy"

    def choose_lead(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo:
        combos = legal_combos(to_bits(hand), None, self.rules)
        return max(combos, key=lambda c: (len(c.cards), -c.top, not c.wild))

    def choose_follow(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo | None:
        combos = legal_combos(to_bits(hand), self.combo_to_beat(observation), self.rules)
        return min(combos, key=lambda c: c.key()) if combos else None
