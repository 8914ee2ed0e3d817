"""The card exchange as the engine plays it (spec §5): who decides in each stage of
:class:`~cardenvs.zheng_shang_you.exchange.ExchangeState`, the cards given, turned up and taken. A phase object
that holds no state: the rules compose it and hand it the table."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.actions import Give, Take
from cardenvs.zheng_shang_you.ranks import PICK_TEXT, text_list
from cardenvs.zheng_shang_you.table import ZsyTable


class Exchange:
    """Plays the exchange before a deal of a match, up to the dealer's first turn."""

    def advance(self, table: ZsyTable) -> None:
        """Give every forced card, up to the next choice; after the last stage the dealer leads."""
        state = table.exchange
        assert state is not None
        while state.stage <= ex.TAKE_BACK:
            if not state.giving:
                _decide(table, state.takers[0])
                return
            slot = state.next_slot()
            if slot == ex.EMPTY:
                _reveal_table(table, state)
                state.stage += 1
                continue
            giver = state.givers[slot]
            options = ex.give_options(table.hands[giver], state.stage)
            if len(options) > 1:
                _decide(table, giver)
                return
            _give(table, state, giver, slot, options[0])
        table.exchange = None
        table._start_turn(table.dealer)

    def mask(self, table: ZsyTable, mask: np.ndarray) -> None:
        state = table.exchange
        assert state is not None
        if state.giving:
            mask[[table.ids.GIVE + p for p in ex.give_options(table.hands[table.current_player], state.stage)]] = 1
        else:
            mask[table.ids.TAKE : table.ids.TAKE + 2] = 1

    def apply(self, table: ZsyTable, action: int) -> None:
        state = table.exchange
        assert state is not None
        if state.giving:
            _give(table, state, table.current_player, state.next_slot(), action - table.ids.GIVE)
        else:
            _take(table, state, action - table.ids.TAKE)
        self.advance(table)

    def moves(self, table: ZsyTable) -> list[Hashable]:
        state = table.exchange
        assert state is not None
        if state.giving:
            return [Give(p) for p in ex.give_options(table.hands[table.current_player], state.stage)]
        return [Take(0), Take(1)]


def _decide(table: ZsyTable, seat: int) -> None:
    table.current_player = seat
    table.builder = None
    table._taken = []


def _give(table: ZsyTable, state: ex.ExchangeState, giver: int, slot: int, card: int) -> None:
    table._remove_cards(giver, (card,), seen=False)  # the others learn which card only at the reveal
    state.table[slot] = card
    table.events.add(
        "give", giver, public={"stage": ex.STAGES[state.stage]}, private={giver: {"card": PICK_TEXT[card]}}
    )


def _reveal_table(table: ZsyTable, state: ex.ExchangeState) -> None:
    state.revealed = state.stage == ex.GIVE_HIGHEST or table.options.return_face_up
    for giver, card in zip(state.givers, state.table, strict=True):
        if state.revealed:
            table.known.set_for_all(giver, [card], 0.0)
        else:  # any card the others knew the giver held may be the one face down: certainty is gone
            table.known.set_for_all(giver, slice(None), 0.0)
    public: dict[str, Any] = {"stage": ex.STAGES[state.stage], "givers": list(state.givers)}
    if state.revealed:
        public["cards"] = text_list(state.table)
    table.events.add("exchange_table", public=public)


def _take(table: ZsyTable, state: ex.ExchangeState, slot: int) -> None:
    givers = state.givers
    for taker, s in zip(state.takers, (slot, 1 - slot), strict=True):
        card = state.table[s]
        table._add_card(taker, card)
        if state.revealed:
            table.known.set_for_all(taker, [card], 1.0)
        else:
            table.known.set_for(givers[s], taker, [card], 1.0)
        public: dict[str, Any] = {"stage": ex.STAGES[state.stage], "from": givers[s]}
        if state.revealed:
            public["card"] = PICK_TEXT[card]
        table.events.add("take", taker, public=public, private={taker: {"card": PICK_TEXT[card]}})
    state.table = [ex.EMPTY, ex.EMPTY]
    state.revealed = False
    state.stage += 1
