"""The picks of a sequence (a run of single cards): which cards keep the run, with its wild cards, within reach."""

from __future__ import annotations

from cardenvs.zheng_shang_you.build_state import (
    ANY,
    MIXED,
    NO_SUIT,
    PURE,
    SUITED,
    SUITED_OR_PURE,
    BuildState,
    _run_bits,
    allowed,
)
from cardenvs.zheng_shang_you.combos import SET_SEQUENCE
from cardenvs.zheng_shang_you.ranks import ACE, BJ, RJ, suit_of, value_of


class SequencePicker(BuildState):
    """The picks of a sequence (a run of single cards)."""

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
