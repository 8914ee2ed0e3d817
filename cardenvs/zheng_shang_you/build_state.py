"""What a combination under construction needs: the class a completion must reach to beat the top
(:func:`requirement`), a hand's counts (:class:`HandSummary`), and the builder's state with the counting helpers
that the per-shape pickers share (:class:`BuildState`; :mod:`.builder` explains the sub-steps)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Self

from cardenvs.core.copying import shallow_copy
from cardenvs.zheng_shang_you.combos import MIN_RUN, SEQUENCE, SET_SEQUENCE, SINGLE, Combo, ComboRules
from cardenvs.zheng_shang_you.ranks import ACE, BJ, BLACK, RED, RJ, TWO, value_bits

# What a completion must be to beat the top combination (an up-set of classes: suited and pure only help).
NONE, ANY, PURE, SUITED, SUITED_OR_PURE, SUITED_AND_PURE = range(6)
NO_SUIT, MIXED = -1, -2


def requirement(top: Combo | None, kind: int, candidate_top: int) -> int:
    """What a combination of ``top``'s shape with top rank ``candidate_top`` must be to beat ``top``
    (``ANY`` when leading)."""
    if top is None:
        return ANY
    higher, equal = candidate_top > top.top, candidate_top == top.top and top.wild
    if kind != SEQUENCE:
        if kind == SINGLE:
            return ANY if higher else NONE
        return ANY if higher else PURE if equal else NONE
    if top.suited:
        return SUITED if higher else SUITED_AND_PURE if equal else NONE
    return ANY if higher else SUITED_OR_PURE if equal else SUITED


def allowed(req: int, suited: bool, wild: bool) -> bool:
    """Whether a combination of this class satisfies ``req``."""
    return (
        req == ANY
        or (req == PURE and not wild)
        or (req == SUITED and suited)
        or (req == SUITED_OR_PURE and (suited or not wild))
        or (req == SUITED_AND_PURE and suited and not wild)
    )


@dataclass(frozen=True, slots=True)
class HandSummary:
    """Counts of a hand that the exactness tests need."""

    bits: int
    counts: tuple[int, ...]
    """Cards held per value 0..14."""
    present: int
    """Bit ``v`` set iff some natural card of value ``v`` (3…A) is held."""
    suit_present: tuple[int, int, int, int]
    """Per suit, bit ``v`` set iff that suit's card of value ``v`` (3…A) is held."""
    twos: int
    jokers: int


@cache
def _run_bits(low: int, high: int) -> int:
    """Bit set of values ``low..high`` (empty if ``low > high``)."""
    return ((1 << (high - low + 1)) - 1) << low if high >= low else 0


@cache
def set_pool(rank: int) -> int:
    """Cards that may appear in a set of ``rank``: its naturals and every 2 or joker above it."""
    pool = value_bits(rank)
    for wild_value in range(max(TWO, rank + 1), 15):
        pool |= value_bits(wild_value)
    return pool


_SUITS_IN = tuple(tuple(s for s in range(4) if nibble >> s & 1) for nibble in range(16))


def summarize(bits: int) -> HandSummary:
    """The :class:`HandSummary` of a hand given as a bit set of pick indices."""
    nibbles = [(bits >> (4 * v)) & 0xF for v in range(13)]
    counts = [nibble.bit_count() for nibble in nibbles]
    counts += [(bits >> BJ) & 1, (bits >> RJ) & 1]
    suits = [0, 0, 0, 0]
    present = 0
    for v in range(ACE + 1):
        if nibbles[v]:
            present |= 1 << v
            for s in _SUITS_IN[nibbles[v]]:
                suits[s] |= 1 << v
    return HandSummary(
        bits, tuple(counts), present, (suits[0], suits[1], suits[2], suits[3]), counts[TWO], counts[13] + counts[14]
    )


class BuildState:
    """The state of one combination under construction and the counts every picker reads."""

    # The pickers' own feasibility tests, which the shared checks call (.picks_sequences, .picks_set_sequences).
    def _sequence_feasible(self, h: int, last_value: int, gaps: int, suit: int, req: int) -> bool:
        raise NotImplementedError

    def _set_sequence_feasible(
        self, group: int, length: int, h: int, low: int, last: int, counts: list[int], twos: int, jokers: int, req: int
    ) -> bool:
        raise NotImplementedError

    def __init__(self, hand: HandSummary, top: Combo | None, rules: ComboRules):
        self.hand = hand
        self.beat = top
        self.rules = rules
        self.shape: tuple[int, int, int] | None = None if top is None else top.shape
        self.top = -1
        self.req = ANY
        self.picks: list[int] = []
        self._shapes: list[int] | None = None
        # Run state of a (set) sequence, set by declare_top: last natural value, ranks left for jokers so far,
        # common suit of the naturals, wilds picked, naturals per rank of the run.
        self._last_value = -1
        self._gaps = 0
        self._suit = NO_SUIT
        self._twos = 0
        self._jokers = 0
        self._counts: list[int] = []

    def copy(self) -> Self:
        """An independent copy (the hand summary is immutable and shared)."""
        twin = shallow_copy(self)
        twin.picks = list(self.picks)
        twin._counts = list(self._counts)
        return twin

    def _largest_set(self) -> int:
        """Size of the largest set of the hand: naturals of a rank plus every 2 or joker above it."""
        counts = self.hand.counts
        largest = 0
        for rank in range(RED):
            if counts[rank]:
                wilds = (counts[TWO] if rank < TWO else 0) + (counts[BLACK] if rank < BLACK else 0) + counts[RED]
                largest = max(largest, counts[rank] + wilds)
        return largest

    def _longest_sequence(self) -> int:
        """Length of the longest run of ranks 3…A with at most as many ranks missing as jokers held.

        Every shorter run of at least three ranks inside it is a sequence too (it keeps a natural card)."""
        present, jokers = self.hand.present, self.hand.jokers
        longest = start = missing = 0
        for end in range(ACE + 1):
            missing += not present >> end & 1
            while missing > jokers:
                missing -= not present >> start & 1
                start += 1
            longest = max(longest, end - start + 1)
        return longest

    def _longest_set_sequences(self, size: int) -> dict[int, int]:
        """Per group size, the longest set sequence of the hand (0 if none).

        Feasibility only shrinks with a longer run (its sub-runs stay feasible) or larger groups (drop one
        card per rank, keeping a natural or a joker in each), so the search stops at the first failure."""
        longest: dict[int, int] = {}
        for group in range(2, size // MIN_RUN + 1):
            length = MIN_RUN - 1
            while (length + 1) * group <= size and self._set_sequence_possible(group, length + 1):
                length += 1
            if length < MIN_RUN:
                break
            longest[group] = length
        return longest

    def _set_sequence_possible(self, group: int, length: int) -> bool:
        return any(
            self._top_possible(SET_SEQUENCE, group, length, h)
            for h in range(length - 1, self.rules.set_sequence_top + 1)
        )

    def _top_possible(self, kind: int, group: int, length: int, h: int) -> bool:
        req = requirement(self.beat, kind, h)
        if req == NONE:
            return False
        low = h - length + 1
        if kind == SEQUENCE:
            return self._sequence_feasible(h, low - 1, 0, NO_SUIT, req)
        if h <= ACE:
            return self._set_sequence_start_feasible(group, length, h, req)
        return self._set_sequence_feasible(group, length, h, low, -1, [0] * (ACE - low + 1), 0, 0, req)

    def _set_sequence_start_feasible(self, group: int, length: int, h: int, req: int) -> bool:
        """Closed form of :meth:`_set_sequence_feasible` before any pick, for runs within 3…A: take every
        natural that fits (more naturals never hurt); the rest must be wilds, a joker in each empty rank."""
        counts = self.hand.counts
        naturals = empty = 0
        for v in range(h - length + 1, h + 1):
            if counts[v]:
                naturals += min(group, counts[v])
            else:
                empty += 1
        wilds = group * length - naturals
        if req == PURE:
            return wilds == 0
        return wilds <= self.hand.twos + self.hand.jokers and empty <= self.hand.jokers
