"""The table of Zheng Shang You: the state every phase reads (hands as bit sets, the per-seat public rows, the
trick, the plays and what each player knows), dealing, and the cheap clone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np

from cardenvs.core.copying import shallow_copy
from cardenvs.core.engine import TERMINAL, RulesEngine
from cardenvs.core.events import EventLog
from cardenvs.core.layout import ActionTable
from cardenvs.core.seating import relative_order
from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.actions import action_table, ids
from cardenvs.zheng_shang_you.build_state import HandSummary, summarize
from cardenvs.zheng_shang_you.builder import MoveBuilder
from cardenvs.zheng_shang_you.combos import Combo
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.ranks import (
    NUM_CARDS,
    PICK_TEXT,
    bits_list,
    card_id,
    iter_bits,
    text,
    to_bits,
)
from cardenvs.zheng_shang_you.tables import MAX_TOTAL_RATIO, SEAT_ROWS, RelativeCardTable


class ZsyTable(RulesEngine[ZsyOptions]):
    """The state of a Zheng Shang You episode and the changes to it that the rules and the exchange share."""

    dealer: int
    _set_aside: int
    """The cards (bits) dealt to nobody this deal, counted in :meth:`card_multiset`."""

    def _setup(self, options: ZsyOptions, rng: np.random.Generator) -> None:
        self.options = options
        self.rng = rng
        n = self.num_players = options.num_players
        self.rules = options.combo_rules
        self.units = options.teams
        self.actions: ActionTable = action_table()
        self.ids = ids()
        self.events = EventLog()
        self.totals = [0] * options.num_units
        self.deals_played = 0
        self.prev_order: list[int] | None = None
        self.teammates = [
            np.array([self.units[s] == self.units[me] for s in relative_order(me, n)], np.float32) for me in range(n)
        ]
        """Per observer, 1 for the relative seats of its scoring unit."""
        self.seats = np.zeros((len(SEAT_ROWS), n), dtype=np.float32)
        """Per-seat public features, rows as :data:`~.encoding.SEAT_ROWS`: hand size, passed, place / n, dealer,
        unit total / target (capped), previous place / n."""
        self.current_player = TERMINAL
        self._rewards = None

    def _reset_deal(self, hands: list[int], shown: int | None) -> None:
        """Every per-deal member as at the deal's start, with these hands (``shown``: San Jia Xi's shown card), and
        the deal logged; the rules then start the exchange or the first turn."""
        n = self.num_players
        self._refresh_match_rows()
        self.hands = hands
        self.hand_vec = np.zeros((n, NUM_CARDS), dtype=np.float32)
        for s, bits in enumerate(hands):
            self.hand_vec[s, bits_list(bits)] = 1.0
        self.seats[:4] = 0.0
        self.hand_sizes[:] = [b.bit_count() for b in hands]
        self.seats[3, self.dealer] = 1.0
        self._summaries: list[HandSummary | None] = [None] * n
        self.played = RelativeCardTable(n)
        """Cards each seat has played this deal (public)."""
        self.known = RelativeCardTable(n)
        """Cards an observer knows a seat holds (exchange, shown card)."""
        self.out = [False] * n
        self.finish_order: list[int] = []
        self.top: Combo | None = None
        self.top_seat = -1
        self.passes = 0
        self.trick: list[tuple[int, Combo]] = []
        self.exchange: ex.ExchangeState | None = None
        self.builder: MoveBuilder | None = None
        self._taken: list[int] = []
        self._turn_combos: list[Combo] | None = None
        self.shown = shown
        public: dict[str, Any] = {
            "deal": self.deals_played,
            "dealer": self.dealer,
            "hand_sizes": [b.bit_count() for b in hands],
        }
        if shown is not None:
            self.known.set_for_all(self.dealer, [shown], 1.0)
            public["shown_card"] = PICK_TEXT[shown]
        self.events.add("deal", public=public, private={s: {"hand": text(bits_list(hands[s]))} for s in range(n)})

    def _start_turn(self, seat: int) -> None:
        """Give ``seat`` the turn, with a fresh move builder."""
        self.current_player = seat
        self.builder = MoveBuilder(self.summary(seat), self.top, self.rules)
        self._taken = []
        self._turn_combos = None

    def _refresh_match_rows(self) -> None:
        """The match rows of :attr:`seats`: unit totals / target, previous places / n."""
        n, target = self.num_players, self.options.target
        for seat in range(n):
            self.seats[4, seat] = min(self.totals[self.units[seat]] / target, MAX_TOTAL_RATIO)
        if self.prev_order is not None:
            for place, seat in enumerate(self.prev_order):
                self.seats[5, seat] = (place + 1) / n

    @property
    def hand_sizes(self) -> np.ndarray:
        """Cards held per seat (a row of :attr:`seats`)."""
        return self.seats[0]

    @property
    def passed(self) -> np.ndarray:
        """1 for the seats that passed since the last play of the trick (a row of :attr:`seats`)."""
        return self.seats[1]

    @property
    def places(self) -> np.ndarray:
        """Finishing place / n of the seats already out (a row of :attr:`seats`)."""
        return self.seats[2]

    @property
    def leading(self) -> bool:
        """Whether the player to act starts a trick (no combination to beat)."""
        return self.top is None

    def summary(self, seat: int) -> HandSummary:
        """Counts of ``seat``'s hand (cached until the hand changes)."""
        cached = self._summaries[seat]
        if cached is None:
            cached = self._summaries[seat] = summarize(self.hands[seat])
        return cached

    def _remove_cards(self, seat: int, cards: Sequence[int], *, seen: bool = True) -> None:
        """Take cards out of a hand; ``seen``: everybody sees which (else what others knew stays as it was)."""
        bits = to_bits(cards)
        self.hands[seat] &= ~bits
        idx = list(cards)
        self.hand_vec[seat, idx] = 0.0
        if seen:
            self.known.set_for_all(seat, idx, 0.0)
        self.hand_sizes[seat] -= len(idx)
        self._summaries[seat] = None

    def _add_card(self, seat: int, card: int) -> None:
        self.hands[seat] |= 1 << card
        self.hand_vec[seat, card] = 1.0
        self.hand_sizes[seat] += 1
        self._summaries[seat] = None

    def card_multiset(self) -> list[int]:
        bits = self._set_aside
        for h in self.hands:
            bits |= h
        bits |= to_bits(np.flatnonzero(self.played.data[0].any(axis=0)).tolist())
        if self.exchange is not None:
            bits |= to_bits(c for c in self.exchange.table if c >= 0)
        return sorted(card_id(p) for p in iter_bits(bits))

    def clone(self) -> Self:
        """An independent copy; events are shared read-only (they are never changed once logged)."""
        twin = shallow_copy(self)
        self.share_generator(twin)
        twin.events = self.events.fork()
        twin.totals = list(self.totals)
        twin.seats = self.seats.copy()
        twin.hands = list(self.hands)
        twin.hand_vec = self.hand_vec.copy()
        twin._summaries = list(self._summaries)
        twin.played = self.played.copy()
        twin.known = self.known.copy()
        twin.out = list(self.out)
        twin.finish_order = list(self.finish_order)
        twin.trick = list(self.trick)
        twin._taken = list(self._taken)
        twin.exchange = None if self.exchange is None else self.exchange.copy()
        twin.builder = None if self.builder is None else self.builder.copy()
        return twin
