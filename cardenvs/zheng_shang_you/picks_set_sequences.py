"""The picks of a set sequence (a run of equal sets): which cards keep every set of the run within reach."""

from __future__ import annotations

from cardenvs.zheng_shang_you.build_state import PURE, BuildState
from cardenvs.zheng_shang_you.ranks import ACE, BJ, RJ, TWO, TWOS, above, iter_bits, value_bits, value_of


class SetSequencePicker(BuildState):
    """The picks of a set sequence (a run of equal sets)."""

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
        self, group: int, length: int, h: int, low: int, last: int, counts: list[int], twos: int, jokers: int, req: int
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
