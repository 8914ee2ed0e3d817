"""Which sub-steps of a Zheng Shang You play are legal, as array tests (the reference: ``cardenvs.zheng_shang_you``'s
:class:`~cardenvs.zheng_shang_you.builder.MoveBuilder`).

A play is built as a shape, a top rank ((set) sequences) and its cards in ascending pick-index order, and a choice
is offered only if some completion of it beats the combination on the table. Because the cards come in ascending
order, every completion of the picks so far plus a candidate card ``p`` has, per value ``v`` (3 … RJ), a count
in a box: at least the cards picked, at most those plus the held cards above ``p``. Whether the box holds a legal
combination of the shape is a few sums per value, and so is the test of every candidate card at once (a row per
held card above the last pick, at most a full deal's largest hand: 9 × 15 with six players), of every top rank and
of every lead shape: no combination is ever enumerated.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.zheng_shang_you.combos import SEQUENCE, SET, SET_SEQUENCE, SINGLE, ComboRules, lead_shapes
from cardenvs.zheng_shang_you.ranks import ACE, BJ, NUM_CARDS, NUM_VALUES, TWO, value_of

Array = jax.Array
INT = jnp.int32
NONE, ANY, PURE, SUITED, SUITED_OR_PURE, SUITED_AND_PURE = range(6)
"""What a completion must be to beat the top (:func:`cardenvs.zheng_shang_you.build_state.requirement`)."""
NATURALS = 4 * (ACE + 1)
"""Pick indices of the cards a sequence may hold as naturals (3 … A)."""

VALUE = np.array([value_of(p) for p in range(NUM_CARDS)], np.int32)
VALUE_HOT = (VALUE[:, None] == np.arange(NUM_VALUES)[None, :]).astype(np.int32)  # (54, 15)
SHAPES = np.array(lead_shapes(), np.int32)  # (28, 3): kind, group, length
NUM_SHAPES = len(SHAPES)
_V = np.arange(NUM_VALUES)
_JOKER = _V > TWO
_NATURAL = _V <= ACE


def requirement(beat: tuple[Array, ...], kind: Array, top: Array) -> Array:
    """What a combination of ``kind`` and top rank ``top`` must be to beat the table's (``ANY`` when leading).
    ``beat``: the table's shape index (-1 when leading), top rank, wild and suited flags."""
    beat_shape, beat_top, beat_wild, beat_suited = beat
    higher = top > beat_top
    equal = (top == beat_top) & beat_wild
    single = jnp.where(higher, ANY, NONE)
    setlike = jnp.where(higher, ANY, jnp.where(equal, PURE, NONE))
    on_suited = jnp.where(higher, SUITED, jnp.where(equal, SUITED_AND_PURE, NONE))
    on_mixed = jnp.where(higher, ANY, jnp.where(equal, SUITED_OR_PURE, SUITED))
    sequence = jnp.where(beat_suited, on_suited, on_mixed)
    req = jnp.where(kind == SINGLE, single, jnp.where(kind == SEQUENCE, sequence, setlike))
    return jnp.where(beat_shape < 0, ANY, req)


def feasible(
    kind: Array,
    group: Array,
    length: Array,
    top: Array,
    req: Array | int,
    lo: Array,
    hi: Array,
    suit_hi: Array,
    suit_ok: Array,
    rules: ComboRules,
) -> Array:
    """Whether some combination of the shape (``kind``, ``group``, ``length``) with top rank ``top`` (a set's rank)
    satisfying ``req`` has, per value, between ``lo`` and ``hi`` cards (``(..., 15)``). Sequences also need, per
    suit, whether a natural of that suit can fill each rank (``suit_hi``, ``(..., 4, 12)``) and whether the cards
    picked so far all have that suit (``suit_ok``, ``(..., 4)``). Every array argument broadcasts; ``rules``: the
    options that change what a combination is."""
    k, g, n, h, r = (jnp.asarray(x)[..., None] for x in (kind, group, length, top, req))
    v = jnp.asarray(_V)
    joker = jnp.asarray(_JOKER)
    lo_j = jnp.where(joker, lo, 0).sum(-1)
    hi_j = jnp.where(joker, hi, 0).sum(-1)
    single = (r[..., 0] != NONE) & (jnp.where(v == h, hi, 0).sum(-1) >= 1) & ~((lo > 0) & (v != h)).any(-1)
    k0 = k[..., 0]
    return jnp.where(
        k0 == SET,
        _set_ok(g, h, r, lo, hi),
        jnp.where(
            k0 == SEQUENCE,
            _sequence_ok(n, h, r, lo, hi, lo_j, hi_j, suit_hi, suit_ok, rules.joker_keeps_suitedness),
            jnp.where(
                k0 == SET_SEQUENCE, _set_sequence_ok(g, n, h, r, lo, hi, lo_j, hi_j, rules.set_sequence_top), single
            ),
        ),
    )


def _set_ok(g: Array, rank: Array, req: Array, lo: Array, hi: Array) -> Array:
    v = jnp.asarray(_V)
    allowed = (v == rank) | ((req == ANY) & (v >= TWO) & (v > rank))
    fits = ~((lo > 0) & ~allowed).any(-1)
    low, high = jnp.where(allowed, lo, 0).sum(-1), jnp.where(allowed, hi, 0).sum(-1)
    natural = jnp.where(v == rank, hi, 0).sum(-1) >= 1
    g0, r0 = g[..., 0], req[..., 0]
    return (r0 != NONE) & fits & natural & (low <= g0) & (g0 <= high) & (rank[..., 0] < NUM_VALUES - 1)


def _run(length: Array, top: Array, highest: int = ACE) -> tuple[Array, Array]:
    """The values of the run (a mask over the 15 values) and whether the top is possible for that length (runs
    end at ``highest`` at most)."""
    v = jnp.asarray(_V)
    run = (v >= top - length + 1) & (v <= top)
    return run, (top[..., 0] <= highest) & (top[..., 0] >= length[..., 0] - 1)


def _sequence_ok(
    length: Array,
    top: Array,
    req: Array,
    lo: Array,
    hi: Array,
    lo_j: Array,
    hi_j: Array,
    suit_hi: Array,
    suit_ok: Array,
    joker_keeps_suitedness: bool,
) -> Array:
    run, valid = _run(length, top)
    joker = jnp.asarray(_JOKER)
    valid &= ~((lo > 0) & ~run & ~joker).any(-1) & ~((lo > 1) & run).any(-1)
    fill = jnp.minimum(hi, 1)
    forced = (run & (fill == 0)).sum(-1)  # ranks only a joker can fill
    optional = (run & (lo == 0) & (fill == 1)).sum(-1)  # ranks a natural or a joker can fill
    with_jokers = jnp.maximum(forced, lo_j) <= jnp.minimum(forced + optional, hi_j)
    pure = (forced == 0) & (lo_j == 0)
    run12 = run[..., None, : ACE + 1]
    lo12 = lo[..., None, : ACE + 1]
    forced_s = (run12 & ~suit_hi).sum(-1)
    optional_s = (run12 & (lo12 == 0) & suit_hi).sum(-1)
    lo_js, hi_js = lo_j[..., None], hi_j[..., None]
    pure_s = suit_ok & (forced_s == 0) & (lo_js == 0)
    if joker_keeps_suitedness:
        suited = (suit_ok & (jnp.maximum(forced_s, lo_js) <= jnp.minimum(forced_s + optional_s, hi_js))).any(-1)
    else:
        suited = pure_s.any(-1)
    suited_pure = pure_s.any(-1)
    r = req[..., 0]
    ok = jnp.where(
        r == ANY,
        with_jokers,
        jnp.where(
            r == PURE,
            pure,
            jnp.where(r == SUITED, suited, jnp.where(r == SUITED_OR_PURE, suited | pure, suited_pure & (r != NONE))),
        ),
    )
    return valid & ok


def _set_sequence_ok(
    g: Array, length: Array, top: Array, req: Array, lo: Array, hi: Array, lo_j: Array, hi_j: Array, highest: int
) -> Array:
    """A run of sets ending at ``highest`` at most; one ending at the 2 (``highest`` = 2) has its 2-rank group of
    natural 2s, jokers making up the rest; every other 2 and joker is wild."""
    run, valid = _run(length, top, highest)
    run &= jnp.asarray(_NATURAL)  # the ranks naturals fill (a 2-rank group is counted apart)
    valid &= ~((lo > 0) & ~run & jnp.asarray(_NATURAL)).any(-1) & ~((lo > g) & run).any(-1)
    fill = jnp.minimum(hi, g)
    low_sum = jnp.where(run, lo, 0).sum(-1)
    max_sum = jnp.where(run, fill, 0).sum(-1)
    forced = (run & (fill == 0)).sum(-1)
    optional = (run & (lo == 0) & (fill > 0)).sum(-1)
    twos = jnp.arange(5)[:, None]
    jokers = jnp.arange(3)[None, :]
    ex = (..., None, None)
    lo2, hi2 = lo[..., TWO][ex], hi[..., TWO][ex]
    naturals = (g[..., 0] * length[..., 0])[ex] - twos - jokers
    low_sum, max_sum, forced, optional = low_sum[ex], max_sum[ex], forced[ex], optional[ex]
    empty = forced + jnp.maximum(0, optional - (naturals - low_sum))  # fewest ranks left without a natural
    if highest == TWO:  # a run to the 2: its group takes natural 2s first, then jokers
        to_two = (top[..., 0] == TWO)[ex]
        natural_twos = jnp.where(to_two, jnp.minimum(twos, g[..., 0][ex]), 0)
        spare = jokers - jnp.where(to_two, g[..., 0][ex] - natural_twos, 0)
    else:
        natural_twos, spare = jnp.zeros_like(twos), jokers
    wilds = twos - natural_twos + jokers
    r = req[..., 0][ex]
    ok = (
        (lo2 <= twos)
        & (twos <= hi2)
        & (lo_j[ex] <= jokers)
        & (jokers <= hi_j[ex])
        & (low_sum <= naturals)
        & (naturals <= max_sum)
        & (empty <= spare)
        & ((r == ANY) | ((r == PURE) & (wilds == 0)))
    )
    return valid & ok.any(axis=(-2, -1))


def _counts(cards: Array) -> Array:
    """Cards per value (15) of a (54,) bool card set."""
    return cards.astype(INT) @ jnp.asarray(VALUE_HOT)


def _by_suit(cards: Array) -> Array:
    """``(..., 4, 12)``: whether each suit's natural of each value 3 … A is in the card set ``(..., 54)`` (or its
    first 48 cards, the naturals)."""
    naturals = cards[..., :NATURALS]
    return jnp.swapaxes(naturals.reshape((*naturals.shape[:-1], ACE + 1, 4)), -1, -2)


def _runs(kind: int) -> tuple[np.ndarray, np.ndarray]:
    """The lead shapes of ``kind`` ((set) sequences): their groups, and ``runs[shape, top, value]`` (whether the
    value is in the run of that length ending at that top, 3 … A; all false for a top the length cannot reach)."""
    rows = SHAPES[SHAPES[:, 0] == kind]
    tops, values = np.arange(ACE + 1)[:, None], np.arange(ACE + 1)[None, :]
    runs = [(values <= tops) & (values > tops - length) & (tops >= length - 1) for length in rows[:, 2]]
    return rows[:, 1], np.array(runs)


_SEQUENCE_RUNS = _runs(SEQUENCE)[1]
_SET_SEQUENCE_GROUPS, _SET_SEQUENCE_RUNS = _runs(SET_SEQUENCE)
_SET_SIZES = SHAPES[SHAPES[:, 0] == SET][:, 1]


def legal_shapes(hand: Array, rules: ComboRules) -> Array:
    """(Lead) ``(28,)``: the shapes some combination of the hand has, by closed forms (the reference builder's):
    the largest set, the runs with as many ranks missing as jokers at most, and per set sequence the wilds needed
    (with ``set_sequence_top`` 2, runs to the 2 by the box test, as the reference tests them)."""
    counts = _counts(hand)
    twos, jokers = counts[TWO], counts[TWO + 1] + counts[TWO + 2]
    v = jnp.asarray(_V)
    wilds_above = jnp.where(v < TWO, twos, 0) + jnp.where(v < TWO + 1, counts[TWO + 1], 0) + counts[TWO + 2]
    largest_set = jnp.where(counts[: NUM_VALUES - 1] > 0, (counts + wilds_above)[: NUM_VALUES - 1], 0).max()
    naturals = counts[: ACE + 1]
    missing = (jnp.asarray(_SEQUENCE_RUNS) & (naturals == 0)).sum(-1)  # (shape, top)
    runs = jnp.asarray(_SEQUENCE_RUNS).any(-1)
    groups = jnp.asarray(_SET_SEQUENCE_GROUPS)[:, None, None]
    in_run = jnp.asarray(_SET_SEQUENCE_RUNS)
    used = jnp.where(in_run, jnp.minimum(naturals, groups), 0).sum(-1)
    empty = (in_run & (naturals == 0)).sum(-1)
    size = in_run.sum(-1) * groups[..., 0]
    set_sequences = (in_run.any(-1) & (size - used <= twos + jokers) & (empty <= jokers)).any(-1)
    if rules.set_sequence_top == TWO:
        rows = SHAPES[SHAPES[:, 0] == SET_SEQUENCE]
        group, length = jnp.asarray(rows[:, 1:2]), jnp.asarray(rows[:, 2:3])  # (shapes, 1): broadcast over values
        top, req = jnp.full_like(group, TWO), jnp.full_like(group, ANY)
        no_cards = jnp.zeros(NUM_VALUES, INT)
        set_sequences |= _set_sequence_ok(group, length, top, req, no_cards, counts, no_cards.sum(), jokers, TWO)
    return jnp.concatenate(
        [
            hand.any()[None],
            jnp.asarray(_SET_SIZES) <= largest_set,
            (runs & (missing <= jokers)).any(-1),
            set_sequences,
        ]
    )


def legal_tops(hand: Array, shape: Array, beat: tuple[Array, ...], rules: ComboRules) -> Array:
    """(Set) sequences ``(13,)``: the top ranks some beating completion has. ``beat``: the table's shape, top rank,
    wild and suited flags."""
    kind, group, length = (jnp.asarray(SHAPES)[shape, i] for i in range(3))
    tops = jnp.arange(TWO + 1)
    req = requirement(beat, kind, tops)
    zero = jnp.zeros(NUM_VALUES, INT)
    return feasible(kind, group, length, tops, req, zero, _counts(hand), _by_suit(hand), jnp.ones(4, bool), rules)


def legal_picks(
    hand: Array,
    picks: Array,
    last: Array,
    shape: Array,
    build_top: Array,
    beat: tuple[Array, ...],
    rules: ComboRules,
    slots: int,
) -> Array:
    """``(54,)``: the cards that may be picked next (each keeps a beating completion within reach). The candidates
    are the held cards above the last pick, at most ``slots`` (the largest hand of the deal): the test runs on
    ``slots`` rows rather than 54, each row holding its card's facts."""
    kind, group, length = (jnp.asarray(SHAPES)[shape, i] for i in range(3))
    index = jnp.arange(NUM_CARDS)
    candidates = hand & ~picks & (index > last)
    slot_of = jnp.cumsum(candidates) - 1
    in_slot = candidates[None, :] & (slot_of[None, :] == jnp.arange(slots)[:, None])  # (slots, 54)
    card = jnp.where(in_slot, index, 0).sum(-1)  # (slots,): 0 in an empty slot (its row is masked out)
    value = jnp.where(card >= BJ, card - BJ + TWO + 1, card // 4)
    above = index[None, :] > card[:, None]  # (slots, 54)
    picked = _counts(picks)
    v = jnp.asarray(_V)[None, :]
    below, at = v < value[:, None], v == value[:, None]
    lo = picked[None, :] + at
    same_above = (hand[None, :] & above & (jnp.asarray(VALUE)[None, :] == value[:, None])).sum(-1)
    hi = jnp.where(below, picked[None, :], jnp.where(at, lo + same_above[:, None], _counts(hand)[None, :]))
    natural = jnp.arange(NATURALS)[None, :]
    reachable = picks[None, :NATURALS] | (natural == card[:, None]) | (hand[None, :NATURALS] & above[:, :NATURALS])
    picked_suits = picks[:NATURALS].reshape(ACE + 1, 4).any(0)
    only_suit = ~(picked_suits[None, :] & ~jnp.eye(4, dtype=bool)).any(-1)  # (4,): no picked natural of another suit
    suit_allows = (card[:, None] >= NATURALS) | (card[:, None] % 4 == jnp.arange(4)[None, :])  # a joker: every suit
    suit_ok = only_suit[None, :] & suit_allows
    top = jnp.where((kind >= SEQUENCE) | picks.any(), build_top, value)
    req = requirement(beat, kind, top)
    ok = feasible(kind, group, length, top, req, lo, hi, _by_suit(reachable), suit_ok, rules)
    return (in_slot & ok[:, None]).any(0)
