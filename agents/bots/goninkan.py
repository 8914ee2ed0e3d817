"""A partnership-aware honours player for Goninkan and Yoninkan that reads only its own observation.

Card play: win tricks that hold honours as cheaply as possible, let a partner who is winning a trick have it
and throw him honours, discard low when an opponent wins. Leads aces (then the top trump). The joker goes on
a trick worth two honours or more that an opponent is winning (or when the rules force it). Deals 2 and 3:
show the two best cards of the longest suit, and choose the trump where hand and shown cards are strongest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from cardenvs.agents.base import PlanningPolicy, PolicyContext
from cardenvs.goninkan.ruleset import ruleset
from cardenvs.goninkan.tricks import card_strength


@dataclass(frozen=True)
class Trick:
    """What a follower sees of the trick in play."""

    led: int
    trump: int
    number: int
    """The trick's number in the deal, from 1."""
    best: int
    """The strength of the card winning the trick so far."""
    honours: int
    """Honours on the trick."""
    partner_wins: bool
    """A player I know to be on my side is winning it."""


DECISIONS = ("play", "declare", "lead_choice", "show", "trump", "sweep", "blind_swap")


class KankeiRuleBot(PlanningPolicy):
    """Rule-based player for ``cardenvs/goninkan-v1`` and ``cardenvs/yoninkan-v1`` (any seat, any option)."""

    name = "goninkan/rule"

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed)
        self.rules = rules = ruleset(context.options)
        self.cards = rules.cards
        self.goninkan = rules.is_goninkan
        self.n = context.num_players
        self.d = self.cards.size
        a = context.actions
        self.play, self.lead_joker, self.joker = a["play"], a["lead_joker"], a["joker"]
        self.plain_ids = np.arange(self.play.offset, self.play.offset + self.d - 1)  # play(c) of every plain card
        self.show, self.trump, self.sweep = a["show"], a["trump"], a["sweep"]
        self.lead_choice = a["lead_choice"] if self.goninkan else None

    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        decision = DECISIONS[int(np.argmax(self.view(observation, "decision")))]
        hand = np.flatnonzero(self.view(observation, "hand"))
        if decision == "play":
            return self._play(observation, mask, hand)
        if decision == "lead_choice" and self.lead_choice is not None:
            aces = sum(1 for c in hand if self.cards.rank[c] == 12)
            return self.lead_choice[0 if aces >= 2 else 1]
        if decision == "show":
            return self._show(observation, mask, hand)
        if decision == "trump":
            return self.trump[self._best_trump(observation, hand)]
        if decision == "sweep":
            return self.sweep[0 if self._sweep_is_safe(observation, hand) else 1]
        legal = np.flatnonzero(mask)
        if decision == "declare":
            return int(legal[0])  # declare(none): the bot keeps the joker out of trick 1
        return int(legal[self.rng.integers(len(legal))])  # blind swap: nothing to see

    # ------------------------------------------------------------------ card play
    def _play(self, observation: Mapping[str, np.ndarray], mask: np.ndarray, hand: np.ndarray) -> int:
        legal_plain: list[int] = np.flatnonzero(mask[self.plain_ids]).tolist()
        trick = self._trick(observation)
        if trick is None:
            if not legal_plain:
                return self.lead_joker[self._suit_to_name(observation, hand)]
            return self.play[self._lead(legal_plain, observation, one_hot_index(self.view(observation, "trump")))]
        if not legal_plain:
            return self.joker.offset
        return self._follow(observation, trick, legal_plain, bool(mask[self.joker.offset]))

    def _trick(self, observation: Mapping[str, np.ndarray]) -> Trick | None:
        """The trick being played (``None`` when I lead)."""
        cards = self.view(observation, "trick").reshape(self.n, self.d)
        played = {seat: int(np.flatnonzero(row)[0]) for seat, row in enumerate(cards) if row.any()}
        if not played:
            return None
        trump = one_hot_index(self.view(observation, "trump"))
        trick_no = one_hot_index(self.view(observation, "trick_number")) + 1
        led = one_hot_index(self.view(observation, "led_suit"))
        leader = one_hot_index(self.view(observation, "leader"))
        best_seat = one_hot_index(self.view(observation, "trick_winner"))
        best = self._strength(played[best_seat], best_seat == leader, led, trump, trick_no)
        honours = sum(self.cards.honour[c] for c in played.values())
        partner_wins = best_seat in self._partners(observation)
        return Trick(led, trump, trick_no, best, honours, partner_wins)

    def _follow(self, observation: Mapping[str, np.ndarray], trick: Trick, legal: list[int], joker: bool) -> int:
        """Following to ``trick`` with ``legal`` plain cards (``joker``: the joker may be played)."""
        if trick.partner_wins:
            return self.play[max(legal, key=lambda c: (self.cards.honour[c], -self._rank_order(c, trick.trump)))]
        if joker and trick.honours >= 2:
            return self.joker.offset
        winners = self._winners(trick, legal)
        if winners and (trick.honours > 0 or any(self.cards.honour[c] for c in winners)):
            return self.play[winners[0]]
        return self._discard(trick, legal)

    def _winners(self, trick: Trick, legal: list[int]) -> list[int]:
        """The legal cards that would win the trick now, cheapest first."""
        strength = {c: self._strength(c, False, trick.led, trick.trump, trick.number) for c in legal}
        return sorted((c for c in legal if strength[c] > trick.best), key=strength.__getitem__)

    def _discard(self, trick: Trick, legal: list[int]) -> int:
        """The cheapest card to throw away: no honour, low rank, no trump."""
        return self.play[min(legal, key=lambda c: (self.cards.honour[c], self._rank_order(c, trick.trump)))]

    def _lead(self, legal: list[int], observation: Mapping[str, np.ndarray], trump: int) -> int:
        aces = [c for c in legal if self.cards.rank[c] == 12 and self.cards.suit[c] != trump]
        if aces:
            return aces[0]
        trumps = sorted((c for c in legal if self.cards.suit[c] == trump), key=lambda c: -self.cards.rank[c])
        if trumps and self._is_top_trump(trumps[0], observation, trump):
            return trumps[0]
        return min(legal, key=lambda c: (self.cards.honour[c], self._rank_order(c, trump)))

    def _is_top_trump(self, card: int, observation: Mapping[str, np.ndarray], trump: int) -> bool:
        gone = self._played(observation)
        higher = [
            c
            for c in range(self.d - 1)
            if self.cards.suit[c] == trump and self.cards.rank[c] > self.cards.rank[card] and not gone[c]
        ]
        return not higher

    def _strength(self, card: int, led_by_it: bool, led: int, trump: int, trick_no: int) -> int:
        return card_strength(self.rules, card, 0 if led_by_it else 1, led, trump, trick_no)

    def _rank_order(self, card: int, trump: int) -> int:
        """Cheapness of a card to throw away: low ranks first, trumps last."""
        return self.cards.rank[card] + (20 if self.cards.suit[card] == trump else 0)

    def _partners(self, observation: Mapping[str, np.ndarray]) -> set[int]:
        """Relative seats I know to be on my side (me excluded)."""
        kankei = self.view(observation, "kankei")
        mukan = self.view(observation, "mukan")
        side = kankei if kankei[0] else mukan if mukan[0] else None
        return set() if side is None else {k for k in range(1, self.n) if side[k]}

    def _suit_to_name(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> int:
        """Leading the joker: name the suit whose honours are most likely to fall to it."""
        gone = self._played(observation)
        out: list[int] = []
        for s in range(4):
            open_honours = [c for c in range(self.d - 1) if self.cards.suit[c] == s and self.cards.honour[c]]
            mine = [c for c in hand if self.cards.suit[c] == s]
            out.append(len([c for c in open_honours if not gone[c]]) - len(mine))
        return int(np.argmax(out))

    def _played(self, observation: Mapping[str, np.ndarray]) -> np.ndarray:
        """Cards played this deal by anybody."""
        return np.asarray(self.view(observation, "played").reshape(self.n, self.d).any(axis=0))

    # ------------------------------------------------------------------ deals 2 and 3
    def _show(self, observation: Mapping[str, np.ndarray], mask: np.ndarray, hand: np.ndarray) -> int:
        if self.view(observation, "show_pick").any():  # second pick without a plan: the highest allowed
            return int(np.flatnonzero(mask)[-1])
        plain = [int(c) for c in hand if c != self.cards.joker]
        longest = max(range(4), key=lambda s: sum(self.cards.suit[c] == s for c in plain))
        by_rank = sorted(plain, key=lambda c: (self.cards.suit[c] != longest, -self.cards.rank[c]))
        chosen = sorted(by_rank[:2])  # lower index first, as the masks require
        self.plan = [self.show[c] for c in chosen]
        return self.plan.pop(0)

    def _best_trump(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> int:
        known = self.view(observation, "known_cards").reshape(self.n - 1, self.d).any(axis=0)
        score = [0.0] * 4
        for c in [*hand.tolist(), *np.flatnonzero(known).tolist()]:
            if c != self.cards.joker:
                score[self.cards.suit[c]] += 1 + self.cards.rank[c] / 12
        return int(np.argmax(score))

    def _sweep_is_safe(self, observation: Mapping[str, np.ndarray], hand: np.ndarray) -> bool:
        """Declare only if every honour not yet taken is in my own hand."""
        taken = int(self.view(observation, "honours").sum())
        mine = sum(1 for c in hand if self.cards.honour[c])
        return mine >= 16 - taken


def one_hot_index(vector: np.ndarray) -> int:
    """The index of a one-hot feature group's set entry, -1 if none is set."""
    hot = np.flatnonzero(vector)
    return int(hot[0]) if len(hot) else -1
