"""The card exchange as the engine plays it (spec §5): who decides in each stage of
:class:`~cardenvs.zheng_shang_you.exchange.ExchangeState`, the cards given, turned up and taken."""

from __future__ import annotations

from typing import Any

from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.ranks import PICK_TEXT, text_list
from cardenvs.zheng_shang_you.table import ZsyTable


class ZsyExchangePhase(ZsyTable):
    """Plays the exchange before a deal of a match."""

    def _advance_exchange(self) -> None:
        state = self.exchange
        assert state is not None
        while state.stage <= ex.TAKE_BACK:
            if not state.giving:
                self._decide(state.takers[0])
                return
            slot = state.next_slot()
            if slot == ex.EMPTY:
                self._reveal_table()
                state.stage += 1
                continue
            giver = state.givers[slot]
            options = ex.give_options(self.hands[giver], state.stage)
            if len(options) > 1:
                self._decide(giver)
                return
            self._give(giver, slot, options[0])
        self.exchange = None
        self._start_turn(self.dealer)

    def _decide(self, seat: int) -> None:
        self.current_player = seat
        self.builder = None
        self._taken = []

    def _exchange_action(self, action: int) -> None:
        state = self.exchange
        assert state is not None
        if state.giving:
            self._give(self.current_player, state.next_slot(), action - self.ids.GIVE)
        else:
            self._take(action - self.ids.TAKE)
        self._advance_exchange()

    def _give(self, giver: int, slot: int, card: int) -> None:
        state = self.exchange
        assert state is not None
        self._remove_cards(giver, (card,), seen=False)  # the others learn which card only at the reveal
        state.table[slot] = card
        self.events.add(
            "give", giver, public={"stage": ex.STAGES[state.stage]}, private={giver: {"card": PICK_TEXT[card]}}
        )

    def _reveal_table(self) -> None:
        state = self.exchange
        assert state is not None
        state.revealed = state.stage == ex.GIVE_HIGHEST or self.options.return_face_up
        for giver, card in zip(state.givers, state.table, strict=True):
            if state.revealed:
                self.known.set_for_all(giver, [card], 0.0)
            else:  # any card the others knew the giver held may be the one face down: certainty is gone
                self.known.set_for_all(giver, slice(None), 0.0)
        public: dict[str, Any] = {"stage": ex.STAGES[state.stage], "givers": list(state.givers)}
        if state.revealed:
            public["cards"] = text_list(state.table)
        self.events.add("exchange_table", public=public)

    def _take(self, slot: int) -> None:
        state = self.exchange
        assert state is not None
        givers = state.givers
        for taker, s in zip(state.takers, (slot, 1 - slot), strict=True):
            card = state.table[s]
            self._add_card(taker, card)
            if state.revealed:
                self.known.set_for_all(taker, [card], 1.0)
            else:
                self.known.set_for(givers[s], taker, [card], 1.0)
            public: dict[str, Any] = {"stage": ex.STAGES[state.stage], "from": givers[s]}
            if state.revealed:
                public["card"] = PICK_TEXT[card]
            self.events.add("take", taker, public=public, private={taker: {"card": PICK_TEXT[card]}})
        state.table = [ex.EMPTY, ex.EMPTY]
        state.revealed = False
        state.stage += 1
