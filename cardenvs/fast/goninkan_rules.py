"""Goninkan's rules as array functions for :mod:`cardenvs.fast.goninkan`: the deck's tables, the action ids, the
legal actions of each phase, and a deal's scoring (the reference: :mod:`cardenvs.goninkan.tricks`,
:mod:`cardenvs.goninkan.scoring`)."""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.core.cards import GONINKAN_50
from cardenvs.goninkan.actions import action_table
from cardenvs.goninkan.ruleset import TRICKS, card_table
from cardenvs.goninkan.scoring import HONOURS, ScoreTable
from cardenvs.goninkan.table import BLIND_SWAP, LEAD_CHOICE, PLAY, SHOW, SWEEP, TRUMP

Array = jax.Array
INT = jnp.int32
CARDS = card_table(GONINKAN_50)
DECK = CARDS.size
JOKER = CARDS.joker
ACE = 12
SUIT = np.asarray(CARDS.suit, dtype=np.int32)
"""Suit of each card index (-1 for the joker)."""
RANK = np.asarray(CARDS.rank, dtype=np.int32)
HONOUR = np.asarray(CARDS.honour, dtype=bool)
ACTIONS = action_table(CARDS.text, True)
A_PLAY, A_LEAD_JOKER, A_JOKER = (ACTIONS[b].offset for b in ("play", "lead_joker", "joker"))
A_LEAD_CHOICE, A_SHOW, A_TRUMP, A_SWEEP, A_SWAP = (
    ACTIONS[b].offset for b in ("lead_choice", "show", "trump", "sweep", "blind_swap")
)
JOKER_STRENGTH = 1000
"""Above any plain card (``plain_card_strength`` gives at most 212)."""


def key_card(trump: Array) -> Array:
    """(d,) bool: the Ace of ``trump``, which makes 関係 with the joker in deal 1."""
    return (trump == SUIT) & (RANK == ACE)


def card_strength(card: Array, led_suit: Array, trump: Array) -> Array:
    """``plain_card_strength`` of card index ``card`` (Goninkan's joker wins every trick it is played to)."""
    suit, rank = _lookup(SUIT, card), _lookup(RANK, card)
    plain = jnp.where(suit == trump, 200 + rank, jnp.where(suit == led_suit, 100 + rank, 0))
    return jnp.where(card == JOKER, JOKER_STRENGTH, plain)


def _lookup(table: np.ndarray, index: Array) -> Array:
    """``table[index]`` for a small constant table, as a one-hot sum (no gather under ``vmap``)."""
    return jnp.where(jnp.arange(table.shape[0]) == index, table, 0).sum()


def suit_of(card: Array) -> Array:
    return _lookup(SUIT, card)


def legal_mask(
    phase: Array, hand: Array, trick_count: Array, led_suit: Array, trick_no: Array, pending_show: Array
) -> Array:
    """The legal action ids of the player to act holding ``hand`` ((d,) bool), in the phase at hand."""
    plain = hand & (jnp.arange(DECK) != JOKER)
    leading = trick_count == 0
    follow = plain & (led_suit == SUIT)
    options = jnp.where(leading | ~follow.any(), plain, follow)
    holds_joker = hand[JOKER]
    forced = holds_joker & (trick_no == TRICKS - 1)  # 踊り番: a joker still held goes in trick 9
    plain_ok = options & ~forced & (phase == PLAY)
    joker_ok = holds_joker & (trick_no > 1) & (trick_no < TRICKS) & (phase == PLAY)
    highest = jnp.argmax(jnp.where(hand, jnp.arange(DECK), -1))
    shown = hand & (jnp.arange(DECK) > pending_show) & ((pending_show >= 0) | (jnp.arange(DECK) != highest))
    parts = [
        plain_ok[:JOKER],
        jnp.broadcast_to(joker_ok & leading, (4,)),
        (joker_ok & ~leading)[None],
        jnp.broadcast_to(phase == LEAD_CHOICE, (2,)),
        shown & (phase == SHOW),
        jnp.broadcast_to(phase == TRUMP, (4,)),
        jnp.broadcast_to(phase == SWEEP, (2,)),
        jnp.broadcast_to(phase == BLIND_SWAP, (ACTIONS.size - A_SWAP,)),
    ]
    return jnp.concatenate(parts)


class Targets(NamedTuple):
    """A deal's honour counts: the 関係 target, what defeats it, and the skunk count."""

    target: Array
    fail: Array
    skunk: Array


def targets(table: ScoreTable, deal: Array) -> Targets:
    hot = jnp.arange(1, 4) == deal
    pick = lambda values: jnp.where(hot, jnp.asarray(values, INT), 0).sum()  # noqa: E731
    target = pick(table.targets)
    return Targets(target, HONOURS + 1 - target, pick(table.skunk_need))


def is_decided(t: Targets, kankei: Array, mukan: Array, declared: Array) -> Array:
    """Whether everything the deal pays is decided (``scoring.is_decided`` with Goninkan's declarations:
    ``declared`` = (じゅうろく, 逆じゅうろく), made after a skunk or reverse skunk in deals 2 and 3)."""
    juroku_failed = declared[0] & (mukan > 0)
    result = juroku_failed | (kankei >= t.target) | (mukan >= t.fail)
    skunk_status = (kankei >= t.skunk) | (mukan > 0)
    reverse_status = (mukan >= t.fail) | (kankei > 0)
    juroku = ~declared[0] | (kankei == HONOURS) | (mukan > 0)
    rev_juroku = ~declared[1] | (mukan == HONOURS) | (kankei > 0)
    return result & skunk_status & reverse_status & juroku & rev_juroku


def settle(
    table: ScoreTable, deal: Array, t: Targets, kankei: Array, mukan: Array, declared: Array
) -> tuple[Array, Array, Array]:
    """(success, points to each 関係-side player (the others get the negative), whether the round's earlier deals
    are cancelled): ``scoring.settle`` for Goninkan's declarations."""
    juroku, rev_juroku = declared[0], declared[1]
    juroku_failed = juroku & (mukan > 0)
    juroku_won = juroku & (kankei == HONOURS)
    success = (kankei >= t.target) & ~juroku_failed
    skunk = (kankei >= t.skunk) & (mukan == 0)
    reverse = (mukan >= t.fail) & (kankei == 0)
    rev_won = rev_juroku & (mukan == HONOURS)
    win_bonus, lose_bonus = table.juroku
    rev_bonus, rev_penalty = table.rev_juroku
    points = jnp.where(juroku, jnp.where(juroku_won, win_bonus, -lose_bonus), 0)
    points += ~juroku & success & skunk
    points += jnp.where(rev_juroku, jnp.where(rev_won, -rev_bonus, rev_penalty), 0)
    plain_reverse = ~rev_juroku & reverse
    first = deal == 1
    points -= jnp.where(plain_reverse, jnp.where(first, table.rev_skunk_d1_bonus, table.rev_skunk_later_bonus), 0)
    cancels = rev_won | (plain_reverse & ~first)  # (逆じゅうろく is only ever declared in deals 2 and 3)
    result_point = ~cancels & ~(plain_reverse & first & (not table.rev_skunk_d1_with_failure_point))
    points += jnp.where(result_point, jnp.where(success, 1, -1), 0)
    deal3_bonus = success & (deal == 3) & (table.juroku_keeps_deal3_bonus | ~juroku_won)
    points += result_point & deal3_bonus
    return success, points.astype(INT), cancels
