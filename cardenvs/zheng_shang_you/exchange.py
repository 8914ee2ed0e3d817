"""The card exchange before every deal of a match but the first (spec §5), as a small state machine.

1. ``give_highest``: the second-to-last and the last of the previous deal each put their highest card on
   the table (a decision only when several cards tie for highest); both are turned up together.
2. ``take_highest``: the previous 1st takes one of them; the 2nd gets the other.
3. ``give_back``: the 1st and the 2nd each put any card on the table (face up by default, A6), revealed
   together once both have chosen.
4. ``take_back``: the previous second-to-last takes one of them; the last gets the other.

Table slot 0 holds the better-placed giver's card, slot 1 the worse-placed giver's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardenvs.zheng_shang_you.ranks import bits_list, value_bits, value_of

GIVE_HIGHEST, TAKE_HIGHEST, GIVE_BACK, TAKE_BACK = range(4)
STAGES: tuple[str, ...] = ("give_highest", "take_highest", "give_back", "take_back")
EMPTY = -1


@dataclass(slots=True)
class ExchangeState:
    """Where the exchange stands: the stage, who gives and who takes, the cards on the table."""

    order: list[int]
    """The previous deal's finishing order (seats, 1st first)."""
    stage: int = GIVE_HIGHEST
    table: list[int] = field(default_factory=lambda: [EMPTY, EMPTY])
    """Card (pick index) in each slot, or ``EMPTY``."""
    revealed: bool = False
    """Whether the cards on the table are face up for everybody."""

    @property
    def givers(self) -> tuple[int, int]:
        """Seats giving in this stage (or the last giving stage), better-placed first."""
        o = self.order
        return (o[-2], o[-1]) if self.stage <= TAKE_HIGHEST else (o[0], o[1])

    @property
    def takers(self) -> tuple[int, int]:
        """Seats taking in this stage (or the next taking stage), in taking order."""
        o = self.order
        return (o[0], o[1]) if self.stage <= TAKE_HIGHEST else (o[-2], o[-1])

    @property
    def giving(self) -> bool:
        return self.stage in (GIVE_HIGHEST, GIVE_BACK)

    def copy(self) -> ExchangeState:
        """An independent copy (the finishing order is never changed in place, so it is shared)."""
        return ExchangeState(self.order, self.stage, list(self.table), self.revealed)

    def next_slot(self) -> int:
        """Slot whose giver decides next in a giving stage (``EMPTY`` once both have given)."""
        return self.table.index(EMPTY) if EMPTY in self.table else EMPTY


def highest_cards(hand: int) -> list[int]:
    """The cards of the hand's highest value (several only for tied suits of one rank)."""
    top = value_of(hand.bit_length() - 1)
    return bits_list(hand & value_bits(top))


def give_options(hand: int, stage: int) -> list[int]:
    """Cards a giver may put on the table in ``stage``."""
    return highest_cards(hand) if stage == GIVE_HIGHEST else bits_list(hand)
