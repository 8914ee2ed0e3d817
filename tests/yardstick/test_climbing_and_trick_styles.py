"""The Kyuuri and Zheng Shang You yardstick styles play as their docstrings say."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.bots.zheng_shang_you import ZsyRuleBot
from cardenvs.agents.play import play_episode
from cardenvs.agents.yardstick.kyuuri import LeadHighFollowLow
from cardenvs.agents.yardstick.zheng_shang_you import Unbroken, breaks


class KyuuriWatch(Policy):
    """Checks every decision of :class:`LeadHighFollowLow` against the rule it states."""

    def __init__(self, context: PolicyContext, seed: int):
        super().__init__(context, seed)
        self.inner = LeadHighFollowLow(context, seed)
        self.leads = self.follows = 0

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        action = self.inner.act(observation)
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        hand = self.view(observation, "hand")
        lowest = int(np.flatnonzero(hand)[0])
        spare = [a for a in legal if a != lowest or hand[lowest] > 1]
        if not spare:
            assert action == lowest
        elif not self.view(observation, "to_beat").any():
            self.leads += 1
            assert action == max(spare)
        else:
            self.follows += 1
            assert action == min(spare)
        return action


def test_kyuuri_style_leads_high_follows_low_and_keeps_its_lowest_card() -> None:
    env = cardenvs.make("kyuuri-v0", num_players=4)
    context = PolicyContext.from_env(env)
    seats = [KyuuriWatch(context, seed) for seed in range(4)]
    for seed in range(6):
        play_episode(env, seats, seed=seed)
    assert sum(s.leads for s in seats) > 20 and sum(s.follows for s in seats) > 60


def picks(*cards: str) -> list[int]:
    """Pick indices of ``"3c"``-style cards (rank, then suit letter c d h s)."""
    values = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    return sorted(values.index(card[:-1]) * 4 + "cdhs".index(card[-1]) for card in cards)


def test_the_unbroken_lead_keeps_the_pair_that_the_rule_bot_breaks_for_a_run() -> None:
    env = cardenvs.make("zheng_shang_you-v0", num_players=4)
    context: Any = PolicyContext.from_env(env)
    hand = picks("3c", "3d", "4h", "5s", "6c", "7d", "8h", "Ks")
    rule = ZsyRuleBot(context, 0).choose_lead({}, hand)
    unbroken = Unbroken(context, 0).choose_lead({}, hand)
    assert breaks(rule, hand) == 1, "the rule bot's longest run takes one 3 of the pair"
    assert breaks(unbroken, hand) == 0
    assert len(unbroken.cards) == 5 and unbroken.low == 1, "the run 4-8 keeps both 3s"
