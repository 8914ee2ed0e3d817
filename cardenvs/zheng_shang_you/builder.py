"""Building one combination in sub-steps, with the exact set of choices at every sub-step.

A play is built as: (lead only) a **shape**; (sequences and set sequences) the **top** rank, which fixes the
run of ranks and so what every joker stands for; then the **cards**, one at a time in ascending pick-index
order until the shape's card count is reached. A set's rank is its first (lowest) card. Every combination
therefore has exactly one path, and a choice is offered only if some completion of it is a legal
combination that beats the top one: the masks are exact.

Exactness is decided by counting, never by enumerating completions: per rank, per suit and per kind of wild
card, how many cards are still available above the last pick. :func:`requirement` turns the combination to
beat into the class a completion must reach (any, pure, suited, …).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache

from cardenvs.zheng_shang_you.combos import (
    MIN_RUN,
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
    BLACK,
    RED,
    RJ,
    TWO,
    TWOS,
    above,
    iter_bits,
    stronger_than,
    suit_of,
    value_bits,
    value_of,
)

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


class MoveBuilder:
    """The choices of one player building one combination, sub-step by sub-step.

    Leading: :meth:`legal_shapes` → :meth:`choose_shape`; following, the shape is the top combination's.
    Then, for (set) sequences, :meth:`legal_tops` → :meth:`declare_top`; then :meth:`legal_picks` →
    :meth:`pick` until it returns the finished :class:`Combo`."""

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

    def copy(self) -> MoveBuilder:
        """An independent copy (the hand summary is immutable and shared)."""
        twin = copy.copy(self)
        twin.picks = list(self.picks)
        twin._counts = list(self._counts)
        return twin

    # ------------------------------------------------------------------ queries
    @property
    def needs_top(self) -> bool:
        """Whether the next choice is the top rank of a (set) sequence."""
        return self.shape is not None and self.shape[0] >= SEQUENCE and self.top < 0

    @property
    def started(self) -> bool:
        """Whether any choice has been made (a shape on a lead, a top or a card)."""
        return (self.beat is None and self.shape is not None) or self.top >= 0 or bool(self.picks)

    def legal_shapes(self) -> list[int]:
        """(Lead) indices into :func:`lead_shapes` that some combination of the hand has."""
        if self._shapes is None:
            size = self.hand.bits.bit_count()
            longest_set, longest_run = self._largest_set(), self._longest_sequence()
            longest_runs_of_sets = self._longest_set_sequences(size)
            shapes = []
            for i, (kind, group, length) in enumerate(lead_shapes()):
                if group * length > size:
                    continue
                if (
                    kind == SINGLE
                    or (kind == SET and group <= longest_set)
                    or (kind == SEQUENCE and length <= longest_run)
                    or (kind == SET_SEQUENCE and length <= longest_runs_of_sets.get(group, 0))
                ):
                    shapes.append(i)
            self._shapes = shapes
        return self._shapes

    def legal_tops(self) -> list[int]:
        """(Set) sequences: the top ranks some beating completion has."""
        assert self.shape is not None
        kind, group, length = self.shape
        highest = ACE if kind == SEQUENCE else self.rules.set_sequence_top
        return [h for h in range(length - 1, highest + 1) if self._top_possible(kind, group, length, h)]

    def legal_picks(self) -> int:
        """Bit set of the cards that may be picked next."""
        assert self.shape is not None and not self.needs_top
        kind = self.shape[0]
        if kind == SINGLE:
            return self.hand.bits & stronger_than(-1 if self.beat is None else self.beat.top)
        if kind == SET:
            return self._set_picks()
        if kind == SEQUENCE:
            return self._sequence_picks()
        return self._set_sequence_picks()

    def options_exist(self) -> bool:
        """Whether the first choice has any legal option (following: whether the player can play at all)."""
        if self.shape is None:
            return bool(self.legal_shapes())
        if self.needs_top:
            return bool(self.legal_tops())
        return bool(self.legal_picks())

    # ------------------------------------------------------------------ choices
    def choose_shape(self, shape_index: int) -> None:
        self.shape = lead_shapes()[shape_index]

    def declare_top(self, top: int) -> None:
        assert self.shape is not None
        self.top = top
        self.req = requirement(self.beat, self.shape[0], top)
        self._start_run()

    def pick(self, p: int) -> Combo | None:
        """Add card ``p``; return the finished combination once the shape's card count is reached."""
        assert self.shape is not None
        kind, group, length = self.shape
        if not self.picks and kind in (SINGLE, SET):
            self.top = value_of(p)
            self.req = requirement(self.beat, kind, self.top)
        self.picks.append(p)
        if kind == SEQUENCE:
            self._sequence_push(p)
        elif kind == SET_SEQUENCE:
            self._set_sequence_push(p)
        if len(self.picks) < group * length:
            return None
        return self.finished()

    def finished(self) -> Combo:
        """The combination the picks make (all cards picked)."""
        assert self.shape is not None
        kind, group, length = self.shape
        cards = tuple(self.picks)
        if kind == SINGLE:
            return Combo(SINGLE, 1, 1, self.top, cards, False)
        if kind == SET:
            return Combo(SET, group, 1, self.top, cards, any(value_of(p) != self.top for p in cards))
        if kind == SEQUENCE:
            naturals = [p for p in cards if p < BJ]
            jokers = len(cards) - len(naturals)
            return Combo(
                SEQUENCE, 1, length, self.top, cards, jokers > 0, sequence_suited(naturals, jokers, self.rules)
            )
        natural_twos = min(group, self._twos) if self.top == TWO else 0
        wild = self._twos - natural_twos + self._jokers > 0
        return Combo(SET_SEQUENCE, group, length, self.top, cards, wild)

    # ------------------------------------------------------------------ shapes and tops
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

    # ------------------------------------------------------------------ sets
    def _set_picks(self) -> int:
        assert self.shape is not None
        size = self.shape[1]
        if not self.picks:  # the first card is the set's rank: the i-th natural leaves the rest above it
            legal = 0
            bits, counts = self.hand.bits, self.hand.counts
            for rank in range(RED):
                req = requirement(self.beat, SET, rank) if counts[rank] else NONE
                if req == NONE:
                    continue
                wilds = 0 if req == PURE else (bits & set_pool(rank) & ~value_bits(rank)).bit_count()
                starters = counts[rank] + wilds - size + 1
                for p in iter_bits(bits & value_bits(rank)):
                    if starters <= 0:
                        break
                    legal |= 1 << p
                    starters -= 1
            return legal
        pool = self.hand.bits & (value_bits(self.top) if self.req == PURE else set_pool(self.top))
        rest = [q for q in iter_bits(pool & above(self.picks[-1]))]
        still = size - len(self.picks)  # cards to pick, this one included
        legal = 0
        for q in rest[: len(rest) - still + 1]:
            legal |= 1 << q
        return legal

    # ------------------------------------------------------------------ sequences
    def _start_run(self) -> None:
        assert self.shape is not None
        low = self.top - self.shape[2] + 1
        self._last_value = low - 1
        self._gaps = 0
        self._suit = NO_SUIT
        self._twos = 0
        self._jokers = 0
        if self.shape[0] == SET_SEQUENCE:
            self._counts = [0] * (min(self.top, ACE) - low + 1)

    def _sequence_push(self, p: int) -> None:
        if p >= BJ:
            self._jokers += 1
            return
        v, s = value_of(p), suit_of(p)
        self._gaps += v - self._last_value - 1
        self._last_value = v
        self._suit = s if self._suit in (NO_SUIT, s) else MIXED

    def _sequence_picks(self) -> int:
        assert self.shape is not None
        hand, length = self.hand, self.shape[2]
        legal = 0
        if self._jokers:  # joker phase: the remaining positions are all jokers, and only RJ can follow BJ
            return hand.bits & (1 << RJ) if len(self.picks) < length else 0
        for v in range(self._last_value + 1, self.top + 1):
            for s in range(4):
                p = 4 * v + s
                if hand.bits >> p & 1:
                    suit = s if self._suit in (NO_SUIT, s) else MIXED
                    if self._sequence_feasible(self.top, v, self._gaps + v - self._last_value - 1, suit, self.req):
                        legal |= 1 << p
        naturals = len(self.picks)
        suited = self._suit >= 0 and self.rules.joker_keeps_suitedness
        if naturals and allowed(self.req, suited, True):
            need = length - naturals
            if hand.bits >> BJ & 1 and need <= hand.jokers:
                legal |= 1 << BJ
            if hand.bits >> RJ & 1 and need == 1:
                legal |= 1 << RJ
        return legal

    def _sequence_feasible(self, h: int, last_value: int, gaps: int, suit: int, req: int) -> bool:
        """Natural phase: values up to ``last_value`` decided with ``gaps`` of them left for jokers."""
        hand = self.hand
        rest = _run_bits(last_value + 1, h)
        jokers = hand.jokers
        jokerless = gaps == 0 and not rest & ~hand.present
        if req == ANY:
            return gaps + (rest & ~hand.present).bit_count() <= jokers
        if req == PURE:
            return jokerless
        if suit == MIXED:
            best = jokers + 1
        else:
            suits = range(4) if suit == NO_SUIT else (suit,)
            best = gaps + min((rest & ~hand.suit_present[s]).bit_count() for s in suits)
        suited_jokerless = best == 0
        suited = best <= jokers if self.rules.joker_keeps_suitedness else suited_jokerless
        if req == SUITED:
            return suited
        if req == SUITED_OR_PURE:
            return suited or jokerless
        return suited_jokerless  # SUITED_AND_PURE

    # ------------------------------------------------------------------ set sequences
    def _set_sequence_push(self, p: int) -> None:
        v = value_of(p)
        if v >= 13:
            self._jokers += 1
        elif v == TWO:
            self._twos += 1
        else:
            assert self.shape is not None
            self._counts[v - (self.top - self.shape[2] + 1)] += 1
            self._last_value = v

    def _set_sequence_picks(self) -> int:
        assert self.shape is not None
        _, group, length = self.shape
        low = self.top - length + 1
        last = self.picks[-1] if self.picks else -1
        bits = self.hand.bits & above(last)
        legal = 0
        counts = self._counts
        if not self._twos and not self._jokers:  # still picking naturals
            first = max(low, self._last_value)
            for v in range(first, min(self.top, ACE) + 1):
                if counts[v - low] >= group:
                    continue
                for p in iter_bits(bits & value_bits(v)):
                    counts[v - low] += 1
                    if self._set_sequence_feasible(group, length, self.top, low, p, counts, 0, 0, self.req):
                        legal |= 1 << p
                    counts[v - low] -= 1
        for p in iter_bits(bits & (TWOS | (1 << BJ) | (1 << RJ))):
            twos, jokers = self._twos + (p < BJ), self._jokers + (p >= BJ)
            if self._set_sequence_feasible(group, length, self.top, low, p, counts, twos, jokers, self.req):
                legal |= 1 << p
        return legal

    def _set_sequence_feasible(
        self,
        group: int,
        length: int,
        h: int,
        low: int,
        last: int,
        counts: list[int],
        twos: int,
        jokers: int,
        req: int,
    ) -> bool:
        """Whether the picks so far (``counts`` of naturals per rank of the run, ``twos`` and ``jokers``, the
        last pick index ``last``) complete into a set sequence satisfying ``req``."""
        hand = self.hand
        later = hand.bits & above(last)
        in_naturals = last < 0 or value_of(last) <= ACE
        last_value = value_of(last) if last >= 0 else low - 1
        low_sum = max_sum = forced_empty = optional_empty = 0
        for i, n in enumerate(counts):
            v = low + i
            if not in_naturals or v < last_value:
                top_n = n
            elif v == last_value:
                top_n = min(group, n + (later & value_bits(v)).bit_count())
            else:
                top_n = min(group, hand.counts[v])
            low_sum += n
            max_sum += top_n
            if top_n == 0:
                forced_empty += 1
            elif n == 0:
                optional_empty += 1
        more_twos = (later & TWOS).bit_count() if last < BJ else 0
        more_jokers = (later & ((1 << BJ) | (1 << RJ))).bit_count()
        two_group = h == TWO
        total = group * length
        for x2 in range(twos, twos + more_twos + 1):
            natural_twos = min(group, x2) if two_group else 0
            jokers_for_twos = group - natural_twos if two_group else 0
            for xj in range(jokers, jokers + more_jokers + 1):
                spare_jokers = xj - jokers_for_twos
                if spare_jokers < 0 or (req == PURE and x2 - natural_twos + xj > 0):
                    continue
                naturals = total - x2 - xj
                if low_sum <= naturals <= max_sum and (
                    forced_empty + max(0, optional_empty - (naturals - low_sum)) <= spare_jokers
                ):
                    return True
        return False
