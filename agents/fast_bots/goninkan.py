"""``goninkan/rule`` and ``yoninkan/rule`` (:class:`agents.bots.goninkan.KankeiRuleBot`) as one array program.

Card strengths come from a table that the engine's own :func:`cardenvs.goninkan.tricks.card_strength` fills for
every (card, led or not, led suit, trump, trick number), so the comparisons are the Python bot's. Its one plan,
the two cards shown in deals 2 and 3, is read back at the second pick: the same two cards, worked out from the
hand and the first pick. Ties go to the lowest card index, as Python's ``min`` / ``max`` over ascending cards
give them. The trump choice sums ``12 + rank`` per suit in integers where the Python bot sums ``1 + rank / 12``
in floats; the two can differ only on a tie that rounding breaks.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.goninkan import DECISIONS
from cardenvs.agents.fast_bots.common import Features, first_true, take, uniform_choice
from cardenvs.goninkan.ruleset import ruleset
from cardenvs.goninkan.tricks import card_strength

PLAY, LEAD_CHOICE, SHOW, TRUMP, SWEEP, DECLARE = (
    DECISIONS.index(d) for d in ("play", "lead_choice", "show", "trump", "sweep", "declare")
)
ACE = 12
HONOURS = 16
"""Honours in the deck: a sweep is declared only when all those not yet taken are in the hand."""


def first_best(score: jax.Array, allowed: jax.Array, lowest: bool = False) -> jax.Array:
    """Per row, the first allowed index of the highest (``lowest``: the lowest) score."""
    big = jnp.iinfo(jnp.int32).max
    masked = jnp.where(allowed, -score if lowest else score, -big)
    return jnp.argmax(masked, axis=1).astype(jnp.int32)


class KankeiRuleFast:
    """Wins tricks with honours cheaply, feeds a winning partner honours, throws low to opponents; leads aces,
    then a top trump; the joker on a trick of two honours or more (the Python bot's rules)."""

    def __init__(self, context: PolicyContext):
        rules = ruleset(context.options)
        cards = rules.cards
        self.name = "goninkan/rule" if rules.is_goninkan else "yoninkan/rule"
        self.view = Features(context)
        self.n, self.d = context.num_players, cards.size
        self.joker_card = cards.joker
        self.rank = jnp.asarray(cards.rank, jnp.int32)
        self.suit = jnp.asarray(cards.suit, jnp.int32)
        self.honour = jnp.asarray(cards.honour, jnp.int32)
        # strength[card, played by the leader?, led suit + 1, trump + 1, trick number]
        table = np.zeros((self.d, 2, 5, 5, 11), np.int32)
        for index in np.ndindex(table.shape):
            card, led_by_it, led, trump, trick = index
            table[index] = card_strength(rules, card, 0 if led_by_it else 1, led - 1, trump - 1, trick)
        self.strength = jnp.asarray(table)
        a = context.actions
        self.play, self.lead_joker, self.joker = a["play"].offset, a["lead_joker"].offset, a["joker"].offset
        self.show, self.trump, self.sweep = a["show"].offset, a["trump"].offset, a["sweep"].offset
        self.lead_choice = a["lead_choice"].offset if rules.is_goninkan else None

    def index(self, obs: jax.Array, name: str) -> jax.Array:
        """A one-hot group's index, −1 when none is set (the Python bot's ``one_hot_index``)."""
        group = self.view(obs, name)
        return jnp.where(group.any(axis=1), jnp.argmax(group, axis=1), -1).astype(jnp.int32)

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        view = self.view
        decision = view.index(obs, "decision")
        hand = view(obs, "hand") > 0
        choices = {
            PLAY: self._play(obs, mask, hand),
            SHOW: self._show(obs, mask, hand),
            TRUMP: self.trump + self._best_trump(obs, hand),
            SWEEP: self.sweep + jnp.where(self._sweep_is_safe(obs, hand), 0, 1),
            DECLARE: first_true(mask),  # declare(none): the joker stays out of trick 1
        }
        if self.lead_choice is not None:
            aces = (hand & (self.rank == ACE)[None, :]).sum(axis=1)
            choices[LEAD_CHOICE] = self.lead_choice + jnp.where(aces >= 2, 0, 1)
        fallback = uniform_choice(key, mask)  # the blind swap: nothing to see
        cases = list(choices)
        return jnp.select([decision == c for c in cases], [choices[c] for c in cases], fallback).astype(jnp.int32)

    # ------------------------------------------------------------------ card play
    def _strength_of(
        self, card: jax.Array, led_by_it: jax.Array, led: jax.Array, trump: jax.Array, trick: jax.Array
    ) -> jax.Array:
        return self.strength[card, led_by_it.astype(jnp.int32), led + 1, trump + 1, trick]

    def _play(self, obs: jax.Array, mask: jax.Array, hand: jax.Array) -> jax.Array:
        view, rows = self.view, obs.shape[0]
        plain = mask[:, self.play : self.play + self.d - 1]
        trick = view(obs, "trick").reshape(rows, self.n, self.d) > 0
        seat_cards = jnp.argmax(trick, axis=2)
        trump = self.index(obs, "trump")
        trick_no = self.index(obs, "trick_number") + 1
        led = self.index(obs, "led_suit")
        leader = jnp.maximum(self.index(obs, "leader"), 0)
        best_seat = jnp.maximum(self.index(obs, "trick_winner"), 0)
        gone = view(obs, "played").reshape(rows, self.n, self.d).any(axis=1)

        plain_rank, plain_suit = self.rank[None, : self.d - 1], self.suit[None, : self.d - 1]
        plain_honour = self.honour[None, : self.d - 1]
        rank_order = plain_rank + 20 * (plain_suit == trump[:, None])
        cheapest = first_best(plain_honour * 100 + rank_order, plain, lowest=True)

        # Leading: an ace outside trump, else the top trump if no higher one is out, else the cheapest card.
        aces = plain & (plain_rank == ACE) & (plain_suit != trump[:, None])
        trumps = plain & (plain_suit == trump[:, None])
        top_trump = first_best(plain_rank, trumps)
        higher = (plain_suit == trump[:, None]) & (plain_rank > self.rank[top_trump][:, None])
        is_top = trumps.any(axis=1) & ~(higher & ~gone[:, : self.d - 1]).any(axis=1)
        lead_card = jnp.where(aces.any(axis=1), first_true(aces), jnp.where(is_top, top_trump, cheapest))
        lead = jnp.where(plain.any(axis=1), self.play + lead_card, self.lead_joker + self._suit_to_name(hand, gone))

        # Following.
        best = self._strength_of(take(seat_cards, best_seat), best_seat == leader, led, trump, trick_no)
        honours = (trick.any(axis=2) * self.honour[seat_cards]).sum(axis=1)
        mates = self._partners(obs)
        strengths = self._strength_of(
            jnp.arange(self.d - 1)[None, :], jnp.zeros((1, 1), bool), led[:, None], trump[:, None], trick_no[:, None]
        )
        winners = plain & (strengths > best[:, None])
        worth = (honours > 0) | (winners & (plain_honour > 0)).any(axis=1)
        feed = first_best(plain_honour * 100 - rank_order, plain)
        joker_worth_it = mask[:, self.joker] & (honours >= 2)
        follow = jnp.select(
            [~plain.any(axis=1), take(mates, best_seat), joker_worth_it, winners.any(axis=1) & worth],
            [self.joker, self.play + feed, self.joker, self.play + first_best(strengths, winners, lowest=True)],
            self.play + cheapest,
        )
        return jnp.where(trick.any(axis=(1, 2)), follow, lead)

    def _partners(self, obs: jax.Array) -> jax.Array:
        """Per relative seat, whether I know it to be on my side (me excluded)."""
        kankei, mukan = self.view(obs, "kankei") > 0, self.view(obs, "mukan") > 0
        side = jnp.where(kankei[:, :1], kankei, jnp.where(mukan[:, :1], mukan, False))
        return side.at[:, 0].set(False)

    def _suit_to_name(self, hand: jax.Array, gone: jax.Array) -> jax.Array:
        """Leading the joker: the suit with most honours still out, less my cards of it."""
        suits = jnp.arange(4)[None, :, None]
        of_suit = self.suit[None, None, :] == suits
        open_honours = (of_suit & (self.honour > 0)[None, None, :] & ~gone[:, None, :]).sum(axis=2)
        mine = (of_suit & hand[:, None, :]).sum(axis=2)
        return jnp.argmax(open_honours - mine, axis=1).astype(jnp.int32)

    # ------------------------------------------------------------------ deals 2 and 3
    def _show(self, obs: jax.Array, mask: jax.Array, hand: jax.Array) -> jax.Array:
        """The two best cards of the longest suit, lower index first; the second pick shows the other one."""
        picked = self.view(obs, "show_pick") > 0
        plain = (hand | picked) & (jnp.arange(self.d) != self.joker_card)[None, :]
        counts = (plain[:, None, :] & (self.suit[None, None, :] == jnp.arange(4)[None, :, None])).sum(axis=2)
        longest = jnp.argmax(counts, axis=1)
        score = 100 * (self.suit[None, :] == longest[:, None]) + self.rank[None, :]
        first = first_best(score, plain)
        second = first_best(score, plain & (jnp.arange(self.d)[None, :] != first[:, None]))
        low, high = jnp.minimum(first, second), jnp.maximum(first, second)
        return self.show + jnp.where(picked.any(axis=1), high, low)

    def _best_trump(self, obs: jax.Array, hand: jax.Array) -> jax.Array:
        known = self.view(obs, "known_cards").reshape(obs.shape[0], self.n - 1, self.d).any(axis=1)
        counted = (hand | known) & (jnp.arange(self.d) != self.joker_card)[None, :]
        of_suit = self.suit[None, None, :] == jnp.arange(4)[None, :, None]
        score = (counted[:, None, :] & of_suit) * (12 + self.rank)[None, None, :]
        return jnp.argmax(score.sum(axis=2), axis=1).astype(jnp.int32)

    def _sweep_is_safe(self, obs: jax.Array, hand: jax.Array) -> jax.Array:
        taken = self.view.ints(obs, "honours").sum(axis=1)
        return (hand & (self.honour > 0)[None, :]).sum(axis=1) >= HONOURS - taken
