"""Zheng Shang You's combinations, their shapes and their order (spec §4).

A :class:`Combo` is a complete play: its kind, its shape (cards per rank ``group`` × ranks ``length``),
the value of its top rank, the cards spent (pick indices, ascending) and the two facts the order needs:
``wild`` (some card stands for a rank it is not) and ``suited`` (a sequence whose natural cards share a suit).

* **single**: one card, by value; never wild.
* **set**: ``k >= 2`` cards of one rank ``r``; cards above ``r`` of value 2, BJ or RJ stand in as wilds. The rank is
  always the lowest card's (A9), so a set holds at least one natural card. Pure beats wild at equal rank.
* **sequence**: ``L >= 3`` consecutive ranks within 3…A, one card each; jokers fill any rank, 2s never appear.
  Suited beats mixed; then the higher top; at equal top the jokerless one beats the one with jokers.
* **set sequence**: ``L >= 3`` consecutive ranks, ``g >= 2`` cards each; 2s and jokers are wild, but a rank
  made of wild 2s alone is not allowed (a joker must be among them). Higher top, then pure beats wild.

A combination beats another only if both have exactly the same kind and shape: there are no bombs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from cardenvs.zheng_shang_you.ranks import ACE, BLACK, RED, TWO, VALUE_TEXT, suit_of, text, value_of

SINGLE, SET, SEQUENCE, SET_SEQUENCE = range(4)
KIND_NAMES: tuple[str, ...] = ("single", "set", "sequence", "set_sequence")
MAX_HAND = 14
"""The largest hand any variant deals (four players: 14, 14, 13, 13); the exchange keeps sizes."""
MAX_SET = 10
"""Four naturals, four 2s and both jokers."""
MIN_RUN = 3
"""Shortest sequence and shortest set sequence."""


@dataclass(frozen=True)
class ComboRules:
    """The rule options that change what a combination is."""

    joker_keeps_suitedness: bool = True
    """(A2) a sequence is suited when all its natural cards share a suit, jokers or not; if false, a joker
    makes it mixed."""
    set_sequence_top: int = ACE
    """(A5) highest rank a set sequence may reach: the ace (default) or the 2 (value 12), in which case the
    2s of the 2-rank group are natural."""


@dataclass(frozen=True, slots=True)
class Combo:
    """One complete play (see the module docstring)."""

    kind: int
    group: int
    """Cards per rank: 1 for singles and sequences, ``k`` for a set of ``k``, ``g`` for a set sequence."""
    length: int
    """Ranks covered: 1 for singles and sets, ``L`` for (set) sequences."""
    top: int
    """Value of the highest rank represented (0 = 3 … 14 = RJ)."""
    cards: tuple[int, ...]
    """Pick indices of the cards spent, ascending."""
    wild: bool
    """Some card stands for a rank other than its own (an impure set, a sequence with a joker, …)."""
    suited: bool = False
    """(Sequences) all natural cards share one suit, per :attr:`ComboRules.joker_keeps_suitedness`."""

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(kind, group, length)``: only combinations of equal shape are compared."""
        return (self.kind, self.group, self.length)

    @property
    def low(self) -> int:
        """Value of the lowest rank represented."""
        return self.top - self.length + 1

    def key(self) -> tuple[int, ...]:
        """Strength within the shape: a combination beats another of its shape iff its key is greater."""
        if self.kind == SEQUENCE:
            return (int(self.suited), self.top, int(not self.wild))
        return (self.top, int(not self.wild))

    def beats(self, other: Combo) -> bool:
        """Whether this combination may be played on ``other`` (same shape, strictly stronger)."""
        return self.shape == other.shape and self.key() > other.key()

    def describe(self) -> str:
        """Readable name, e.g. ``sequence 5–7 (suited, joker): 5♠ 6♠ BJ``."""
        if self.kind == SINGLE:
            what = "single"
        elif self.kind == SET:
            what = f"set of {self.group}×{VALUE_TEXT[self.top]}"
        else:
            run = f"{VALUE_TEXT[self.low]}–{VALUE_TEXT[self.top]}"
            what = f"sequence {run}" if self.kind == SEQUENCE else f"set sequence {self.group}×{run}"
        flags = [f for f, on in (("suited", self.suited), ("wild", self.wild)) if on]
        return f"{what}{' (' + ', '.join(flags) + ')' if flags else ''}: {text(self.cards)}"


# ---------------------------------------------------------------------- shapes (the lead menu)
@cache
def lead_shapes() -> tuple[tuple[int, int, int], ...]:
    """Every shape a lead may choose, in action-id order: single; sets of 2…10; sequences of 3…12;
    set sequences ``g × L`` with ``g >= 2``, ``L >= 3`` and ``g·L <= 14`` (no hand is larger)."""
    shapes: list[tuple[int, int, int]] = [(SINGLE, 1, 1)]
    shapes += [(SET, k, 1) for k in range(2, MAX_SET + 1)]
    shapes += [(SEQUENCE, 1, n) for n in range(MIN_RUN, ACE + 2)]
    shapes += [
        (SET_SEQUENCE, g, n) for g in range(2, MAX_HAND // MIN_RUN + 1) for n in range(MIN_RUN, MAX_HAND // g + 1)
    ]
    return tuple(shapes)


@cache
def shape_index() -> dict[tuple[int, int, int], int]:
    """Position of each shape in :func:`lead_shapes`."""
    return {s: i for i, s in enumerate(lead_shapes())}


def shape_label(shape: tuple[int, int, int]) -> str:
    """Short label of a shape: ``single``, ``set2``, ``seq5``, ``setseq2x3``."""
    kind, group, length = shape
    return ("single", f"set{group}", f"seq{length}", f"setseq{group}x{length}")[kind]


# ---------------------------------------------------------------------- classification
def is_wild_for(value: int, rank: int) -> bool:
    """Whether a card of ``value`` may stand for ``rank`` in a set: 2s and jokers, for lower ranks only."""
    return value >= TWO and value > rank


def interpretations(cards: Sequence[int], rules: ComboRules = ComboRules()) -> list[Combo]:
    """Every combination the cards (pick indices) can be played as, one per distinct meaning.

    This is the rules read literally, card set by card set; the move generator and the sub-step masks are
    checked against it."""
    cs = tuple(sorted(cards))
    if not cs or len(set(cs)) != len(cs):
        return []
    if len(cs) == 1:
        return [Combo(SINGLE, 1, 1, value_of(cs[0]), cs, False)]
    found: list[Combo] = []
    as_set = _as_set(cs)
    if as_set is not None:
        found.append(as_set)
    found += _as_sequences(cs, rules)
    found += _as_set_sequences(cs, rules)
    return found


def _as_set(cs: tuple[int, ...]) -> Combo | None:
    rank = value_of(cs[0])
    values = [value_of(p) for p in cs]
    if not all(v == rank or is_wild_for(v, rank) for v in values):
        return None
    return Combo(SET, len(cs), 1, rank, cs, any(v != rank for v in values))


def sequence_suited(naturals: Sequence[int], jokers: int, rules: ComboRules) -> bool:
    """Suitedness of a sequence with these natural cards and this many jokers."""
    return len({suit_of(p) for p in naturals}) == 1 and (rules.joker_keeps_suitedness or jokers == 0)


def _as_sequences(cs: tuple[int, ...], rules: ComboRules) -> list[Combo]:
    n = len(cs)
    if n < MIN_RUN:
        return []
    naturals = [p for p in cs if value_of(p) <= ACE]
    jokers = sum(value_of(p) >= BLACK for p in cs)
    if len(naturals) + jokers != n or not naturals:  # a 2 anywhere makes it no sequence
        return []
    values = [value_of(p) for p in naturals]
    if len(set(values)) != len(values):
        return []
    lowest, highest = min(values), max(values)
    suited = sequence_suited(naturals, jokers, rules)
    return [
        Combo(SEQUENCE, 1, n, top, cs, jokers > 0, suited)
        for top in range(max(highest, n - 1), min(lowest + n - 1, ACE) + 1)
    ]


def _as_set_sequences(cs: tuple[int, ...], rules: ComboRules) -> list[Combo]:
    found = []
    n = len(cs)
    values = [value_of(p) for p in cs]
    twos = values.count(TWO)
    jokers = sum(v >= BLACK for v in values)
    for group in range(2, n // MIN_RUN + 1):
        if n % group:
            continue
        length = n // group
        for top in range(length - 1, rules.set_sequence_top + 1):
            low = top - length + 1
            counts = [values.count(v) for v in range(low, top + 1) if v < TWO]
            if sum(counts) + twos + jokers != n:  # a natural outside the run
                continue
            natural_twos = min(twos, group) if top == TWO else 0
            if top == TWO and twos < group and jokers < group - twos:
                continue  # the 2-rank group is short: only jokers can stand for a 2
            if any(c > group for c in counts) or counts.count(0) > jokers - max(0, group - twos) * (top == TWO):
                continue
            wild = twos - natural_twos + jokers > 0
            found.append(Combo(SET_SEQUENCE, group, length, top, cs, wild))
    return found


def all_values_text() -> str:
    """The rank order as text (for docs)."""
    return " ".join(VALUE_TEXT[: RED + 1])


def combos_of_shape(cards: Sequence[int], shape: tuple[int, int, int], rules: ComboRules) -> list[Combo]:
    """Every combination of ``shape`` that some subset of ``cards`` makes (brute force, for tests)."""
    size = shape[1] * shape[2]
    found = []
    for subset in itertools.combinations(sorted(cards), size):
        found += [c for c in interpretations(subset, rules) if c.shape == shape]
    return found
