"""The sequence ``zheng_shang_you/rule`` follows with, as an array program (one hand; the bot ``vmap``s it).

The Python bot takes the first, in the move generator's order, of the beating sequences that are least by (wild,
2s and jokers spent, suited, top rank, jokerless): in a sequence that is (jokers used, suited, top). The generator
walks, per top, the product over the run's ranks of [the held cards of that rank ascending, a joker], the last rank
fastest, then the jokers lowest first. So for each top ``h``, each joker count ``g`` (at most the two jokers) and
each class (mixed or suited) the first such sequence is the lexicographically first choice per rank, which a
greedy walk up the ranks finds: at each rank, the first option from which the ranks above can still end with
``g`` jokers and the class. What the ranks above can still reach (jokers used, which suits the naturals have) is a
table filled from the ace down.
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
    """``bool[RANKS + 1, tops, jokers 0..2, suit sets]``: for each rank ``v``, what the ranks ``v`` … A of each
    top's run can end with."""
    add_suit = jnp.asarray(ADD_SUIT)
    done = jnp.zeros((RANKS, MAX_JOKERS + 1, NUM_SUIT_SETS), bool).at[:, 0, EMPTY].set(True)

    def down(after: Array, v: Array) -> tuple[Array, Array]:
        with_gap = jnp.concatenate([jnp.zeros_like(after[:, :1]), after[:, :-1]], axis=1)
        by_suit = jnp.einsum("s,sde->de", held[v].astype(jnp.int32), add_suit.astype(jnp.int32)) > 0
        with_card = jnp.einsum("hrd,de->hre", after.astype(jnp.int32), by_suit.astype(jnp.int32)) > 0
        here = jnp.where(in_run[:, v, None, None], with_gap | with_card, after)
        return here, here

    _, reach = jax.lax.scan(down, done, jnp.arange(RANKS), reverse=True)
    return jnp.concatenate([reach, done[None]])


def _suited(suits: Array, jokers: Array, joker_keeps_suitedness: bool) -> Array:
    one_suit = (suits != EMPTY) & (suits != MULTI)
    return one_suit & ((jokers == 0) | joker_keeps_suitedness)


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
    reach = _reachable(held, in_run)
    g = jnp.arange(MAX_JOKERS + 1)[None, :, None]  # jokers the sequence uses
    suited_class = jnp.arange(2)[None, None, :].astype(bool)  # 0: mixed, 1: suited
    union = jnp.asarray(UNION)

    def can_finish(after: Array, gaps: Array, suits: Array) -> Array:
        """Whether the ranks still to come (``after``: (tops, jokers, suit sets)) can finish a choice with ``gaps``
        jokers and ``suits`` so far as the class wanted with ``g`` jokers. ``gaps``/``suits``: (tops, g, class, o)."""
        need = g[..., None] - gaps  # jokers the rest must use
        rows = after[tops[:, None, None, None], jnp.clip(need, 0, MAX_JOKERS)]  # (tops, g, class, o, suit sets)
        rows &= ((need >= 0) & (need <= MAX_JOKERS))[..., None]
        final = union[suits[..., None], jnp.arange(NUM_SUIT_SETS)]
        wanted = _suited(final, g[..., None, None], joker_keeps_suitedness) == suited_class[..., None, None]
        return (rows & wanted).any(-1)

    start = jnp.zeros((RANKS, MAX_JOKERS + 1, 2), jnp.int32)

    def up(carry: tuple[Array, Array], v: Array) -> tuple[tuple[Array, Array], Array]:
        gaps, suits = carry
        option = jnp.arange(GAP + 1)
        new_gaps = gaps[..., None] + (option == GAP)
        new_suits = jnp.where(option == GAP, suits[..., None], union[suits[..., None], jnp.minimum(option, 3) + 1])
        offered = jnp.concatenate([held[v], jnp.ones(1, bool)])
        ok = offered & can_finish(reach[v + 1], new_gaps, new_suits)
        pick = jnp.argmax(ok, axis=-1)
        running = in_run[:, v, None, None]
        gaps = jnp.where(running, jnp.take_along_axis(new_gaps, pick[..., None], -1)[..., 0], gaps)
        suits = jnp.where(running, jnp.take_along_axis(new_suits, pick[..., None], -1)[..., 0], suits)
        return (gaps, suits), jnp.where(running, pick, -1)

    _, picks = jax.lax.scan(up, (start, start), v)  # (ranks, tops, g, class): the option taken per rank
    exists = can_finish(reach[0], start[..., None], start[..., None])[..., 0]
    req = _requirement(tops, *beat)[:, None, None]
    exists &= _allowed(req, suited_class, g > 0) & (g <= jokers) & (tops[:, None, None] >= length - 1)
    score = jnp.where(exists, g * 100 + suited_class * 20 + tops[:, None, None], 10_000)
    best = jnp.argmin(score)
    h, used, cls = jnp.unravel_index(best, score.shape)
    chosen = picks[:, h, used, cls]  # (ranks,)
    naturals = (chosen[:, None] == jnp.arange(4)[None, :]).ravel()
    joker_cards = hand[BJ:] & (jnp.cumsum(hand[BJ:]) <= used)
    cards = jnp.concatenate([naturals, jnp.zeros(BJ - 4 * RANKS, bool), joker_cards])
    return SequenceChoice(exists.any(), h.astype(jnp.int32), cards, used > 0)
