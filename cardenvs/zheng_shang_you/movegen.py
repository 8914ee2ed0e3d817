"""Every legal combination of a hand, as complete moves (for ``legal_moves()``, bots and search).

The generator enumerates directly by shape (sets: naturals × wilds; sequences: one natural or a joker per
rank; set sequences: naturals per rank, then the 2s and jokers that fill the gaps), so it never looks at a
card subset that cannot work. Tests check it against the brute-force :func:`~.combos.interpretations`
and against the sub-step masks of :class:`~.builder.MoveBuilder`. The last few thousand answers are remembered: bots,
search and rollouts ask for the same hand against the same table again and again.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations, product

from cardenvs.zheng_shang_you.build_state import NONE, PURE, allowed, requirement
from cardenvs.zheng_shang_you.combos import (
    SEQUENCE,
    SET,
    SET_SEQUENCE,
    SINGLE,
    Combo,
    ComboRules,
    lead_shapes,
    sequence_suited,
)
from cardenvs.zheng_shang_you.ranks import (
    ACE,
    BJ,
    TWO,
    TWOS,
    bits_list,
    stronger_than,
    value_bits,
    value_of,
)


def legal_combos(hand: int, top: Combo | None, rules: ComboRules) -> list[Combo]:
    """Every combination of ``hand`` (a bit set) that may be played now: on a lead any combination, else
    those of ``top``'s shape that beat it, grouped by shape in lead-menu order (a new list each call)."""
    return list(_remembered_combos(hand, top, rules))


@functools.lru_cache(maxsize=4096)
def _remembered_combos(hand: int, top: Combo | None, rules: ComboRules) -> tuple[Combo, ...]:
    shapes = lead_shapes() if top is None else (top.shape,)
    return tuple(combo for shape in shapes for combo in combos_of_shape(hand, shape, top, rules))


def combos_of_shape(hand: int, shape: tuple[int, int, int], top: Combo | None, rules: ComboRules) -> Iterator[Combo]:
    """The legal combinations of one shape."""
    kind, group, length = shape
    if group * length > hand.bit_count():
        return iter(())
    if kind == SINGLE:
        floor = -1 if top is None else top.top
        return (Combo(SINGLE, 1, 1, value_of(p), (p,), False) for p in bits_list(hand & stronger_than(floor)))
    if kind == SET:
        return _sets(hand, group, top)
    if kind == SEQUENCE:
        return _sequences(hand, length, top, rules)
    return _set_sequences(hand, group, length, top, rules)


def _sets(hand: int, size: int, top: Combo | None) -> Iterator[Combo]:
    for rank in range(14):
        naturals = bits_list(hand & value_bits(rank))
        req = requirement(top, SET, rank)
        if not naturals or req == NONE:
            continue
        wilds = [] if req == PURE else bits_list(hand & stronger_than(max(rank, TWO - 1)))
        for n in range(min(size, len(naturals)), 0, -1):
            if size - n > len(wilds):
                break
            for nat in combinations(naturals, n):
                for wild in combinations(wilds, size - n):
                    yield Combo(SET, size, 1, rank, nat + wild, n < size)


def _sequences(hand: int, length: int, top: Combo | None, rules: ComboRules) -> Iterator[Combo]:
    jokers = bits_list(hand >> BJ << BJ)
    for h in range(length - 1, ACE + 1):
        req = requirement(top, SEQUENCE, h)
        if req == NONE:
            continue
        options = [[*bits_list(hand & value_bits(v)), -1] for v in range(h - length + 1, h + 1)]
        for choice in product(*options):
            gaps = choice.count(-1)
            if gaps > len(jokers):
                continue
            naturals = tuple(p for p in choice if p >= 0)
            suited = sequence_suited(naturals, gaps, rules)
            if not allowed(req, suited, gaps > 0):
                continue
            for used in combinations(jokers, gaps):
                yield Combo(SEQUENCE, 1, length, h, naturals + used, gaps > 0, suited)


def _set_sequences(hand: int, group: int, length: int, top: Combo | None, rules: ComboRules) -> Iterator[Combo]:
    twos = bits_list(hand & TWOS)
    jokers = bits_list(hand >> BJ << BJ)
    for h in range(length - 1, rules.set_sequence_top + 1):
        req = requirement(top, SET_SEQUENCE, h)
        if req == NONE:
            continue
        low = h - length + 1
        per_rank = [_subsets_up_to(bits_list(hand & value_bits(v)), group) for v in range(low, min(h, ACE) + 1)]
        for choice in product(*per_rank):
            naturals = tuple(p for part in choice for p in part)
            empty = sum(1 for part in choice if not part)
            missing = group * length - len(naturals)
            for x2 in range(max(0, missing - len(jokers)), min(len(twos), missing) + 1):
                xj = missing - x2
                natural_twos = min(group, x2) if h == TWO else 0
                spare = xj - (group - natural_twos if h == TWO else 0)
                wild = x2 - natural_twos + xj > 0
                if spare < empty or (req == PURE and wild):
                    continue
                for used2 in combinations(twos, x2):
                    for usedj in combinations(jokers, xj):
                        yield Combo(SET_SEQUENCE, group, length, h, naturals + used2 + usedj, wild)


def _subsets_up_to(cards: list[int], size: int) -> list[tuple[int, ...]]:
    return [sub for n in range(min(size, len(cards)) + 1) for sub in combinations(cards, n)]
