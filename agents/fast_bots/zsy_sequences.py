"""The sequence ``zheng_shang_you/rule`` follows with, as an array program (one hand; the bot ``vmap``s it).

The Python bot takes the first, in the move generator's order, of the beating sequences that are least by (wild,
2s and jokers spent, suited, top rank, jokerless): in a sequence that is (jokers used, suited, top). The generator
walks, per top, the product over the run's ranks of [the held cards of that rank ascending, a joker], the last rank
fastest, then the jokers lowest first. So for each top ``h``, each joker count ``g`` (at most the two jokers) and
each class (mixed or suited) the first such sequence is the lexicographically first choice per rank. Which
(top, jokers, class) exist is a few counts per top (:func:`_classes`); the least of them is then built by a greedy
walk up the ranks of its run: at each rank, the first option from which the ranks above can still end with that
many jokers and that class, what the ranks above can reach being a table filled from the ace down.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.fast.zheng_shang_you_masks import ANY, NONE, PURE, SUITED, SUITED_AND_PURE, SUITED_OR_PURE
from cardenvs.zheng_shang_you.ranks import ACE, BJ

Array = jax.Array
RANKS = ACE + 1
"""Ranks a sequence may cover (3 … A), and so the tops it may have."""
MAX_JOKERS = 2
EMPTY, MULTI = 0, 5
"""Which suits a choice's naturals have: none yet, suit ``s`` alone (``s + 1``) or several."""
NUM_SUIT_SETS = 6
GAP = 4
"""The option "a joker fills this rank" (options 0 … 3 are the suits)."""


def _union_table() -> np.ndarray:
    union = np.zeros((NUM_SUIT_SETS, NUM_SUIT_SETS), np.int32)
    for a in range(NUM_SUIT_SETS):
        for b in range(NUM_SUIT_SETS):
            union[a, b] = b if a == EMPTY else a if b in (EMPTY, a) else MULTI
    return union


UNION = _union_table()
"""``UNION[a, b]``: the suit set of two parts of a choice."""
ADD_SUIT = np.array([[UNION[d, s + 1] == e for e in range(NUM_SUIT_SETS)] for s in range(4) for d in range(6)])
ADD_SUIT = ADD_SUIT.reshape(4, NUM_SUIT_SETS, NUM_SUIT_SETS)
"""``ADD_SUIT[s, d, e]``: a natural of suit ``s`` added to suit set ``d`` gives ``e``."""


class SequenceChoice(NamedTuple):
    found: Array  # () bool
    top: Array  # () the top rank
    cards: Array  # (54,) bool
    wild: Array  # () bool, jokers in it


def _allowed(req: Array, suited: Array, wild: Array) -> Array:
    """Whether a sequence of this class meets ``req`` (:func:`cardenvs.zheng_shang_you.build_state.allowed`)."""
    return (
        (req == ANY)
        | ((req == PURE) & ~wild)
        | ((req == SUITED) & suited)
        | ((req == SUITED_OR_PURE) & (suited | ~wild))
        | ((req == SUITED_AND_PURE) & suited & ~wild)
    )


def _requirement(tops: Array, beat_top: Array, beat_wild: Array, beat_suited: Array) -> Array:
    """Per top, what a sequence must be to beat the table's (build_state.requirement for sequences)."""
    higher, equal = tops > beat_top, (tops == beat_top) & beat_wild
    on_suited = jnp.where(higher, SUITED, jnp.where(equal, SUITED_AND_PURE, NONE))
    on_mixed = jnp.where(higher, ANY, jnp.where(equal, SUITED_OR_PURE, SUITED))
    return jnp.where(beat_suited, on_suited, on_mixed)


def _reachable(held: Array, in_run: Array) -> Array:
    """``bool[RANKS + 1, jokers 0..2, suit sets]``: for each rank ``v``, what the ranks ``v`` … A of the run
    (``in_run``, over the ranks) can end with."""
    add_suit = jnp.asarray(ADD_SUIT)
    done = jnp.zeros((MAX_JOKERS + 1, NUM_SUIT_SETS), bool).at[0, EMPTY].set(True)

    def down(after: Array, v: Array) -> tuple[Array, Array]:
        with_gap = jnp.concatenate([jnp.zeros_like(after[:1]), after[:-1]])
        by_suit = (held[v][:, None, None] & add_suit).any(0)  # (suit sets before, after)
        with_card = (after[:, :, None] & by_suit[None]).any(1)
        here = jnp.where(in_run[v], with_gap | with_card, after)
        return here, here

    _, reach = jax.lax.scan(down, done, jnp.arange(RANKS), reverse=True)
    return jnp.concatenate([reach, done[None]])


def _suited(suits: Array, jokers: Array, joker_keeps_suitedness: bool) -> Array:
    one_suit = (suits != EMPTY) & (suits != MULTI)
    return one_suit & ((jokers == 0) | joker_keeps_suitedness)


def _classes(held: Array, in_run: Array, length: Array, joker_keeps_suitedness: bool) -> Array:
    """``bool[tops, jokers 0..2, class]``: whether some choice of the run of each top uses exactly that many jokers
    and is mixed (class 0) or suited (class 1). A rank without a natural takes a joker; the other jokers replace
    naturals anywhere. Suited: some suit lacks at most that many of the run's ranks. Mixed: with a joker that
    breaks suitedness, any choice; else two kept ranks (the run less the jokers) and two suits among the ranks."""
    g = jnp.arange(MAX_JOKERS + 1)[None, :]
    natural_ranks = held.any(1)
    forced = (in_run & ~natural_ranks[None, :]).sum(1)[:, None]  # (tops, 1)
    lacking = (in_run[:, :, None] & ~held[None]).sum(1)  # (tops, suits)
    suited = (lacking[:, None, :] <= g[..., None]).any(-1) & ((g == 0) | joker_keeps_suitedness)
    suits = (in_run[:, :, None] & held[None]).any(1).sum(1)[:, None]
    mixed_by_suits = (length - g >= 2) & (suits >= 2)
    mixed = (forced <= g) & jnp.where((g > 0) & (not joker_keeps_suitedness), True, mixed_by_suits)
    return jnp.stack([mixed, suited & (forced <= g)], axis=-1)


def _first_choice(held: Array, in_run: Array, jokers: Array, suited: Array, joker_keeps_suitedness: bool) -> Array:
    """``int[RANKS]``: per rank of the run, the suit of the natural taken (or ``GAP``; -1 off the run) of the
    first choice in the generator's order with ``jokers`` jokers of the class ``suited``."""
    reach = _reachable(held, in_run)
    union = jnp.asarray(UNION)
    option = jnp.arange(GAP + 1)

    def up(carry: tuple[Array, Array], v: Array) -> tuple[tuple[Array, Array], Array]:
        gaps, suits = carry
        new_gaps = gaps + (option == GAP)
        new_suits = jnp.where(option == GAP, suits, union[suits, jnp.minimum(option, 3) + 1])
        need = jokers - new_gaps  # jokers the ranks above must take
        rows = reach[v + 1][jnp.clip(need, 0, MAX_JOKERS)] & ((need >= 0) & (need <= MAX_JOKERS))[:, None]
        final = union[new_suits[:, None], jnp.arange(NUM_SUIT_SETS)[None, :]]
        ends = _suited(final, jokers, joker_keeps_suitedness) == suited
        ok = jnp.concatenate([held[v], jnp.ones(1, bool)]) & (rows & ends).any(-1)
        pick = jnp.argmax(ok)
        running = in_run[v]
        carry = (jnp.where(running, new_gaps[pick], gaps), jnp.where(running, new_suits[pick], suits))
        return carry, jnp.where(running, pick, -1)

    zero = jnp.zeros((), jnp.int32)
    return jax.lax.scan(up, (zero, zero), jnp.arange(RANKS))[1]


def first_sequences(
    hand: Array, length: Array, beat: tuple[Array, Array, Array], joker_keeps_suitedness: bool
) -> SequenceChoice:
    """The sequence of ``length`` the rule bot would play on the table's (``beat``: its top rank, wild and suited
    flags), found or not."""
    held = hand[: 4 * RANKS].reshape(RANKS, 4)
    jokers = hand[BJ:].sum()
    tops = jnp.arange(RANKS)
    v = jnp.arange(RANKS)
    in_run = (v[None, :] <= tops[:, None]) & (v[None, :] > tops[:, None] - length)  # (tops, ranks)
    g = jnp.arange(MAX_JOKERS + 1)[None, :, None]  # jokers the sequence uses
    suited_class = jnp.arange(2)[None, None, :].astype(bool)  # 0: mixed, 1: suited
    exists = _classes(held, in_run, length, joker_keeps_suitedness)
    req = _requirement(tops, *beat)[:, None, None]
    exists &= _allowed(req, suited_class, g > 0) & (g <= jokers) & (tops[:, None, None] >= length - 1)
    score = jnp.where(exists, g * 100 + suited_class * 20 + tops[:, None, None], 10_000)
    h, used, cls = jnp.unravel_index(jnp.argmin(score), score.shape)
    chosen = _first_choice(held, in_run[h], used, cls.astype(bool), joker_keeps_suitedness)
    naturals = (chosen[:, None] == jnp.arange(4)[None, :]).ravel()
    joker_cards = hand[BJ:] & (jnp.cumsum(hand[BJ:]) <= used)
    cards = jnp.concatenate([naturals, jnp.zeros(BJ - 4 * RANKS, bool), joker_cards])
    return SequenceChoice(exists.any(), h.astype(jnp.int32), cards, used > 0)
