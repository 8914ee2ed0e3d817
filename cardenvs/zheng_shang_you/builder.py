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

from cardenvs.zheng_shang_you.build_state import requirement
from cardenvs.zheng_shang_you.combos import SEQUENCE, SET, SET_SEQUENCE, SINGLE, Combo, lead_shapes, sequence_suited
from cardenvs.zheng_shang_you.picks_sequences import SequencePicker
from cardenvs.zheng_shang_you.picks_set_sequences import SetSequencePicker
from cardenvs.zheng_shang_you.picks_sets import SetPicker
from cardenvs.zheng_shang_you.ranks import ACE, BJ, TWO, stronger_than, value_of


class MoveBuilder(SetPicker, SequencePicker, SetSequencePicker):
    """The choices of one player building one combination, sub-step by sub-step.

    Leading: :meth:`legal_shapes` → :meth:`choose_shape`; following, the shape is the top combination's.
    Then, for (set) sequences, :meth:`legal_tops` → :meth:`declare_top`; then :meth:`legal_picks` →
    :meth:`pick` until it returns the finished :class:`Combo`."""

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
