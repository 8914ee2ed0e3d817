"""The picks of a set (n of a kind): which cards keep a set that beats the top within reach."""

from __future__ import annotations

from cardenvs.zheng_shang_you.build_state import NONE, PURE, BuildState, requirement, set_pool
from cardenvs.zheng_shang_you.combos import SET
from cardenvs.zheng_shang_you.ranks import RED, above, iter_bits, value_bits


class SetPicker(BuildState):
    """The picks of a set (n of a kind)."""

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
