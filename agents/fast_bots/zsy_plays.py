"""The plays ``zheng_shang_you/rule`` chooses (:class:`agents.bots.zheng_shang_you.ZsyRuleBot`), as array programs on
one hand (the bot ``vmap``s them). Each gives the play the Python bot would pick from the move generator's list
(:func:`cardenvs.zheng_shang_you.movegen.legal_combos`), in closed form per shape: the generator takes the lowest
cards of a rank first, so the first play of the least key is the lowest cards that make it.

* :func:`lead_play`: the longest play without 2s, jokers or wilds, the lowest top on a tie, the first shape of the
  lead menu after that; a hand of 2s and jokers alone plays them all as one set (or its one card).
* :func:`single_play`, :func:`set_play`, :func:`set_sequence_play`: the least beating play by (wild, 2s and jokers
  spent, strength); sequences are :mod:`agents.fast_bots.zsy_sequences`.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.fast.zheng_shang_you_masks import SHAPES, VALUE, VALUE_HOT
from cardenvs.zheng_shang_you.combos import SEQUENCE, SET, SET_SEQUENCE, SINGLE
from cardenvs.zheng_shang_you.ranks import ACE, BJ, NUM_VALUES, TWO

Array = jax.Array
INT = jnp.int32
_V = np.arange(NUM_VALUES)


class Play(NamedTuple):
    """A play chosen (or none: ``found`` false)."""

    found: Array  # () bool
    shape: Array  # () index in the lead menu
    top: Array  # () its top rank (a set's rank)
    cards: Array  # (54,) bool
    wild: Array  # () bool


def counts_of(cards: Array) -> Array:
    """Cards per value (15)."""
    return cards.astype(INT) @ jnp.asarray(VALUE_HOT)


def lowest_per_value(hand: Array, wanted: Array) -> Array:
    """The ``wanted[v]`` lowest held cards of each value ``v`` (``(54,)`` bool)."""
    same_value_below = jnp.cumsum(jnp.asarray(VALUE_HOT) * hand[:, None], axis=0) - jnp.asarray(VALUE_HOT)
    order = (same_value_below * jnp.asarray(VALUE_HOT)).sum(1)  # how many held cards of its value lie below it
    return hand & (order < wanted[jnp.asarray(VALUE)])


def lowest_of(cards: Array, how_many: Array) -> Array:
    """The ``how_many`` lowest cards of ``cards``."""
    return cards & (jnp.cumsum(cards) <= how_many)


def _lead_table() -> tuple[np.ndarray, np.ndarray]:
    """For every lead shape and top rank, the naturals per value a play of 3 … A without wilds needs (``need``,
    ``(shapes, tops, 15)``) and whether such a play exists (``valid``)."""
    need = np.zeros((len(SHAPES), NUM_VALUES, NUM_VALUES), np.int32)
    valid = np.zeros((len(SHAPES), NUM_VALUES), bool)
    for shape, (kind, group, length) in enumerate(SHAPES):
        for top in range(ACE + 1):
            if kind in (SINGLE, SET) and group <= 4:
                need[shape, top, top], valid[shape, top] = group, True
            elif kind in (SEQUENCE, SET_SEQUENCE) and top >= length - 1:
                need[shape, top, top - length + 1 : top + 1], valid[shape, top] = group, True
    return need, valid


LEAD_NEED, LEAD_VALID = _lead_table()
LEAD_SIZE = SHAPES[:, 1] * SHAPES[:, 2]


def lead_play(hand: Array) -> Play:
    """What the rule bot leads (see the module docstring)."""
    counts = counts_of(hand)
    need = jnp.asarray(LEAD_NEED)
    fits = jnp.asarray(LEAD_VALID) & (counts[None, None, :] >= need).all(-1)  # (shapes, tops)
    shapes, tops = jnp.arange(len(SHAPES))[:, None], jnp.arange(NUM_VALUES)[None, :]
    score = jnp.asarray(LEAD_SIZE)[:, None] * 10_000 + (NUM_VALUES - tops) * 100 - shapes
    shape, top = jnp.unravel_index(jnp.argmax(jnp.where(fits, score, -1)), fits.shape)
    plain = jnp.zeros((), bool)
    natural = Play(fits.any(), shape.astype(INT), top.astype(INT), lowest_per_value(hand, need[shape, top]), plain)
    # only 2s and jokers: all of them as one set of the lowest card's rank, or the one card
    size = hand.sum()
    lowest = jnp.argmax(counts > 0).astype(INT)
    high = Play(size > 0, jnp.where(size > 1, size - 1, 0).astype(INT), lowest, hand, (counts[lowest] < size))
    return jax.tree.map(lambda a, b: jnp.where(natural.found, a, b), natural, high)


def single_play(hand: Array, beat_top: Array) -> Play:
    """The lowest card above the table's."""
    above = hand & (jnp.asarray(VALUE) > beat_top)
    card = jnp.argmax(above)
    cards = above & (jnp.arange(above.shape[0]) == card)
    return Play(above.any(), jnp.zeros((), INT), jnp.asarray(VALUE)[card], cards, jnp.zeros((), bool))


def _setlike_requirement(tops: Array, beat_top: Array, beat_wild: Array) -> tuple[Array, Array]:
    """Per top: may a play of it beat the table's (``able``), and may it be wild (``any_kind``)."""
    higher = tops > beat_top
    return higher | ((tops == beat_top) & beat_wild), higher


def set_play(hand: Array, shape: Array, group: Array, beat_top: Array, beat_wild: Array) -> Play:
    """A set of ``group``: of naturals alone at the lowest rank that has them; else, fewest 2s and jokers spent, the
    lowest rank, its naturals and the lowest wilds above it."""
    counts = counts_of(hand)
    ranks = jnp.arange(NUM_VALUES)
    able, any_kind = _setlike_requirement(ranks, beat_top, beat_wild)
    able &= ranks < NUM_VALUES - 1
    pure = able & (counts >= group)
    wild_pool = hand[None, :] & (jnp.asarray(VALUE)[None, :] >= TWO) & (jnp.asarray(VALUE)[None, :] > ranks[:, None])
    spare = wild_pool.sum(1)
    with_wilds = able & any_kind & (counts >= 1) & (counts < group) & (group - counts <= spare)
    spent = jnp.where(ranks < TWO, group - counts, group)  # 2s and jokers in the play
    rank = jnp.where(pure.any(), jnp.argmax(pure), jnp.argmin(jnp.where(with_wilds, spent * 100 + ranks, 10_000)))
    naturals = hand & (jnp.asarray(VALUE) == rank)
    cards = jnp.where(
        pure.any(), lowest_of(naturals, group), naturals | lowest_of(wild_pool[rank], group - counts[rank])
    )
    return Play(pure.any() | with_wilds.any(), shape, rank.astype(INT), cards, ~pure.any())


def set_sequence_play(
    hand: Array, shape: Array, group: Array, length: Array, beat_top: Array, beat_wild: Array, highest: int
) -> Play:
    """A set sequence of ``group`` × ``length`` reaching ``highest`` at most: of naturals alone at the lowest top that
    has them (a run to the 2 with natural 2s); else, fewest 2s and jokers spent (the most naturals per rank), the
    lowest top, the fewest 2s (the generator tries the fewest first)."""
    counts = counts_of(hand)
    twos, jokers = counts[TWO], counts[TWO + 1] + counts[TWO + 2]
    tops = jnp.arange(TWO + 1)[:, None]
    v = jnp.arange(ACE + 1)[None, :]
    run = (v <= tops) & (v > tops - length)  # (tops, 3 … A): the ranks naturals fill
    valid = (tops[:, 0] >= length - 1) & (tops[:, 0] <= highest)
    able, any_kind = _setlike_requirement(tops[:, 0], beat_top, beat_wild)
    used = jnp.where(run, jnp.minimum(counts[: ACE + 1], group), 0)  # (tops, ranks)
    naturals = used.sum(1)
    empty = (run & (counts[: ACE + 1] == 0)).sum(1)
    missing = group * length - naturals
    to_two = tops[:, 0] == TWO
    pure = valid & able & (naturals == group * run.sum(1)) & jnp.where(to_two, twos >= group, True)
    x2 = jnp.maximum(0, missing - jokers)
    xj = missing - x2
    natural_twos = jnp.where(to_two, jnp.minimum(group, x2), 0)
    spare = xj - jnp.where(to_two, group - natural_twos, 0)
    with_wilds = valid & any_kind & (x2 <= twos) & (spare >= empty) & (x2 - natural_twos + xj > 0)
    top = jnp.where(pure.any(), jnp.argmax(pure), jnp.argmin(jnp.where(with_wilds, missing * 100 + tops[:, 0], 10_000)))
    two_count = jnp.where(pure.any(), jnp.where(top == TWO, group, 0), x2[top])
    wanted = jnp.concatenate([used[top], jnp.zeros(NUM_VALUES - ACE - 1, INT)])
    two_cards = hand & (jnp.asarray(VALUE) == TWO)
    joker_cards = hand & (jnp.arange(hand.shape[0]) >= BJ)
    cards = lowest_per_value(hand, wanted) | lowest_of(two_cards, two_count)
    cards |= lowest_of(joker_cards, jnp.where(pure.any(), 0, xj[top]))
    return Play(pure.any() | with_wilds.any(), shape, top.astype(INT), cards, ~pure.any())
