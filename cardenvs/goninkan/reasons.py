"""Why an action is illegal in Goninkan and Yoninkan, in the rules' words."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.goninkan.table import BLIND_SWAP, DECLARE, LEAD_CHOICE, PLAY, SHOW, SWEEP, TRUMP, KankeiTable


def why_illegal(table: KankeiTable[Any], expected: int, action: int) -> str:
    """Why the in-range ``action`` is masked out at a live decision of type ``expected`` (index into ``PHASES``)."""
    block = next(b for b in table.actions.blocks.values() if action in b)
    wanted = {
        PLAY: "play a card",
        DECLARE: "choose a trick-1 declaration (declare(none) for none)",
        LEAD_CHOICE: "say いく or こい",
        SHOW: "pick the cards to show",
        TRUMP: "name the trump suit",
        SWEEP: "declare or stop",
        BLIND_SWAP: "take a face-down key slot and card slot",
    }[expected]
    if block.name != _BLOCK_OF_DECISION[expected] and not (expected == PLAY and block.name in ("lead_joker", "joker")):
        return f"it is not a {block.name} decision: the player must {wanted}"
    return _why_not(table, block.name, action - block.offset)


def _why_not(table: KankeiTable[Any], block: str, index: int) -> str:
    player = table.current_player
    if block == "declare":
        return "this declaration is not open to the player's side now (one live declaration per side, upgrades only)"
    if block == "show":
        if index not in table.hands[player]:
            return "the card is not in the player's hand"
        return "shown cards are picked in increasing index order (and the first cannot be the highest card)"
    if block == "blind_swap":
        return "no such face-down slot"
    if block in ("lead_joker", "joker"):
        if table.joker not in table.hands[player]:
            return "the player does not hold the joker"
        if (block == "joker") != bool(len(table.trick)):
            return "lead_joker opens a trick (naming a suit); joker follows a lead"
        if table.rules.joker_banned_first_and_last:
            if table.trick_no == 1:
                return "the joker may never be played in trick 1"
            return "the joker may never be played in trick 10"
        return "a joker played in trick 1 needs a declaration (choose one before the card)"
    card = index
    if card not in table.hands[player]:
        return f"{table.cards.text[card]} is not in the player's hand"
    if table.forced_lead >= 0 and table.trick_no == 1 and not len(table.trick):
        return f"the first lead must be {table.cards.text[table.forced_lead]}"
    if table.joker in table.hands[player] and table.rules.joker_banned_first_and_last and table.trick_no == 9:
        return "a joker still held in trick 9 (踊り番) must be played now"
    return f"the player must follow {SUIT_TEXT[table.trick.led_suit]}"


_BLOCK_OF_DECISION = {
    PLAY: "play",
    DECLARE: "declare",
    LEAD_CHOICE: "lead_choice",
    SHOW: "show",
    TRUMP: "trump",
    SWEEP: "sweep",
    BLIND_SWAP: "blind_swap",
}
