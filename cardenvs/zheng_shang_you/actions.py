"""Action ids of Zheng Shang You (a stable contract: see the docs page's action table).

::

    0           pass          follow turns only
    1 .. 28     shape(s)      lead: the shape of the combination (single, set2…set10, seq3…seq12, setseq2x3…)
    29 .. 41    top(r)        (set) sequences: the top rank, 3 … A (… 2 with set_sequence_top="2")
    42 .. 95    pick(c)       add card c to the combination being built; cards in strength order 3♣ … RJ
    96 .. 149   give(c)       exchange: put card c on the table (a highest card, or any card to give back)
    150 .. 151  take(giver)   exchange: take the card of the better- or the worse-placed giver

A play is built by the same player in sub-steps: ``shape`` (leads only), ``top`` (sequences and set
sequences only), then one ``pick`` per card in ascending card order; the play is made with the last pick.
Sub-steps per play: a lead takes ``1 + [top] + cards`` decisions, a follow ``[top] + cards``, a pass one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cardenvs.core.layout import ActionTable
from cardenvs.zheng_shang_you.combos import SEQUENCE, Combo, lead_shapes, shape_index, shape_label
from cardenvs.zheng_shang_you.ranks import PICK_TEXT, TWO, VALUE_TEXT

TAKE_LABELS = ("better-placed giver", "worse-placed giver")
NUM_TOPS = TWO + 1


@dataclass(frozen=True, slots=True)
class Pass:
    """The move "pass" (follow turns only)."""


@dataclass(frozen=True, slots=True)
class Give:
    """Exchange: put card ``card`` (pick index) on the table."""

    card: int


@dataclass(frozen=True, slots=True)
class Take:
    """Exchange: take the card of the better-placed (``slot=0``) or the worse-placed (``slot=1``) giver."""

    slot: int


ZsyMove = Combo | Pass | Give | Take


@cache
def action_table() -> ActionTable:
    """The action table (the same for every variant)."""
    return ActionTable(
        [
            ("pass", [""], "pass (follow turns only; a pass does not stop a later play in the trick)"),
            ("shape", [shape_label(s) for s in lead_shapes()], "lead: choose the shape of the combination"),
            ("top", VALUE_TEXT[:NUM_TOPS], "(set) sequences: declare the top rank, fixing what each joker stands for"),
            ("pick", PICK_TEXT, "add this card to the combination being built (ascending card order)"),
            ("give", PICK_TEXT, "exchange: put this card on the table (your highest card, or any card to give back)"),
            ("take", TAKE_LABELS, "exchange: take the card put down by the better- or the worse-placed giver"),
        ]
    )


@dataclass(frozen=True)
class ActionIds:
    """First id of each block."""

    PASS: int
    SHAPE: int
    TOP: int
    PICK: int
    GIVE: int
    TAKE: int
    SIZE: int


@cache
def ids() -> ActionIds:
    t = action_table()
    return ActionIds(
        PASS=t["pass"].offset,
        SHAPE=t["shape"].offset,
        TOP=t["top"].offset,
        PICK=t["pick"].offset,
        GIVE=t["give"].offset,
        TAKE=t["take"].offset,
        SIZE=t.size,
    )


def combo_actions(combo: Combo, leading: bool) -> list[int]:
    """The complete action sequence that plays ``combo`` (from the start of a turn)."""
    a = ids()
    actions = [a.SHAPE + shape_index()[combo.shape]] if leading else []
    if combo.kind >= SEQUENCE:
        actions.append(a.TOP + combo.top)
    actions.extend(a.PICK + p for p in combo.cards)
    return actions


def move_actions_from_start(move: ZsyMove, leading: bool) -> list[int]:
    """The complete action sequence of any move, from the start of the decision."""
    a = ids()
    if isinstance(move, Combo):
        return combo_actions(move, leading)
    if isinstance(move, Pass):
        return [a.PASS]
    if isinstance(move, Give):
        return [a.GIVE + move.card]
    if isinstance(move, Take):
        return [a.TAKE + move.slot]
    raise TypeError(f"not a Zheng Shang You move: {move!r}")
