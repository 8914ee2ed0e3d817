"""Deals 2 and 3 of Goninkan and Yoninkan choose their trump (spec §7): the partner shows the chooser two cards
(when the team has two players), then the chooser names the suit and leads the first trick."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.goninkan.actions import ChooseTrump, Show
from cardenvs.goninkan.table import SHOW, TRUMP, KankeiTable


class TrumpChoice:
    """Owns the show (two sub-steps, the lower card first) and the trump decision."""

    def begin(self, table: KankeiTable[Any]) -> None:
        """Start the choice of the deal just dealt: deal 2's chooser held the joker in deal 1, deal 3's the key
        card."""
        table.chooser = table.deal1_holders[0] if table.deal == 2 else table.deal1_holders[1]
        if len(table.kankei) == 2:
            table.phase = SHOW
            table.current_player = table.kankei_partner(table.chooser)
        else:
            table.phase = TRUMP
            table.current_player = table.chooser

    def mask(self, table: KankeiTable[Any], mask: np.ndarray) -> None:
        if table.phase == TRUMP:
            mask[table.A_TRUMP : table.A_TRUMP + 4] = 1
            return
        hand = table.hands[table.current_player]
        for c in hand:
            if c > table.pending_show and (table.pending_show >= 0 or c != hand[-1]):
                mask[table.A_SHOW + c] = 1

    def apply(self, table: KankeiTable[Any], action: int) -> bool:
        player = table.current_player
        if table.phase == TRUMP:
            table.trump = action - table.A_TRUMP
            table.static_changed()
            table.events.add("trump", player, public={"suit": SUIT_TEXT[table.trump]})
            table.open_trick(player)
            return False
        card = action - table.A_SHOW
        if table.pending_show < 0:
            table.pending_show = card
            return False
        shown = [table.pending_show, card]
        table.pending_show = -1
        for c in shown:
            table.known[table.chooser, c] = player
        text = table.cards_text(shown)
        table.events.add(
            "show",
            player,
            public={"to": table.chooser},
            private={table.chooser: {"cards": text}, player: {"cards": text}},
        )
        table.phase, table.current_player = TRUMP, table.chooser
        return False

    def moves(self, table: KankeiTable[Any]) -> list[Hashable]:
        if table.phase == TRUMP:
            return [ChooseTrump(s) for s in range(4)]
        hand = table.hands[table.current_player]
        if table.pending_show >= 0:
            return [Show(table.pending_show, c) for c in hand if c > table.pending_show]
        return [Show(a, b) for i, a in enumerate(hand) for b in hand[i + 1 :]]

    def move_actions(self, table: KankeiTable[Any], move: Hashable) -> list[int] | None:
        if isinstance(move, ChooseTrump):
            return [table.A_TRUMP + move.suit]
        if isinstance(move, Show):
            first = [] if table.pending_show >= 0 else [table.A_SHOW + move.low]
            return [*first, table.A_SHOW + move.high]
        return None
