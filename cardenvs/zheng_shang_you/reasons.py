"""Why an action is illegal, in words (for :class:`~cardenvs.core.errors.IllegalActionError` messages)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardenvs.zheng_shang_you.combos import KIND_NAMES, SEQUENCE, shape_label
from cardenvs.zheng_shang_you.exchange import STAGES, highest_cards
from cardenvs.zheng_shang_you.ranks import PICK_TEXT, VALUE_TEXT, text

if TYPE_CHECKING:
    from cardenvs.zheng_shang_you.rules import ZsyRules


def illegal_reason(game: ZsyRules, action: int) -> str:
    """A sentence saying why ``action`` (known to be masked out) is illegal now."""
    block = next(b for b in game.actions.blocks.values() if b.offset <= action < b.offset + b.size)
    index = action - block.offset
    seat = game.current_player
    hand = game.hands[seat]
    state = game.exchange
    if state is not None:
        stage = STAGES[state.stage]
        if not state.giving:
            return f"the card exchange is at {stage}: take one of the two cards on the table (a take action)"
        if block.name != "give":
            return f"the card exchange is at {stage}: put a card on the table (a give action)"
        if not hand >> index & 1:
            return f"{PICK_TEXT[index]} is not in your hand"
        return f"you must put down one of your highest cards ({text(highest_cards(hand))})"
    if block.name in ("give", "take"):
        return "there is no card exchange now (it happens only before the later deals of a match)"
    b = game.builder
    assert b is not None
    beating = "" if game.top is None else f" that beats {game.top.describe()}"
    if block.name == "pass":
        if game.top is None:
            return "the leader must play a combination; passing is only for follow turns"
        return "a play under construction must be finished; a pass is only possible before its first sub-step"
    if block.name == "shape":
        if game.top is not None:
            return f"the shape is fixed by the combination to beat ({shape_label(game.top.shape)})"
        if b.shape is not None:
            return f"the shape is already chosen ({shape_label(b.shape)})"
        return f"the hand holds no {block.labels[index]} combination"
    if b.shape is None:
        return "choose the shape of the combination first"
    label = shape_label(b.shape)
    if block.name == "top":
        if b.shape[0] < SEQUENCE:
            return f"only sequences and set sequences declare a top rank; this play is a {KIND_NAMES[b.shape[0]]}"
        if b.top >= 0:
            return f"the top rank is already declared ({VALUE_TEXT[b.top]})"
        return f"no {label} of this hand with top rank {VALUE_TEXT[index]}{beating} exists"
    if b.needs_top:
        return "declare the top rank of the sequence first"
    if not hand >> index & 1:
        return f"{PICK_TEXT[index]} is not in your hand"
    if b.picks and index <= b.picks[-1]:
        return f"cards are picked in ascending strength order; the last pick was {PICK_TEXT[b.picks[-1]]}"
    return f"no legal {label}{beating} can be completed with {PICK_TEXT[index]} from here"
