"""Pure rules engine of Zheng Shang You (spec: ``shared/rules/zheng_shang_you.md``).

Players ``0..n-1`` sit so that play, dealing and "the next player" go counter-clockwise as ``i -> i + 1``.
One engine plays one episode: a whole match (default) or a single deal. Hands are bit sets of pick indices
(:mod:`.ranks`); plays are built in sub-steps by :class:`~.builder.MoveBuilder`.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from typing import Any, Self

import numpy as np

from cardenvs.core.cards import ZHENG_SHANG_YOU_54
from cardenvs.core.copying import ChanceGenerator, materialise_generator, share_generator
from cardenvs.core.engine import TERMINAL, RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.events import EventLog
from cardenvs.core.layout import ActionTable, ObservationLayout
from cardenvs.core.options import deal_seat
from cardenvs.core.seating import next_seat, relative_order
from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.actions import Give, Pass, Take, action_table, ids, move_actions_from_start
from cardenvs.zheng_shang_you.builder import HandSummary, MoveBuilder, summarize
from cardenvs.zheng_shang_you.combos import KIND_NAMES, SEQUENCE, Combo, shape_label
from cardenvs.zheng_shang_you.encoding import MAX_TOTAL_RATIO, SEAT_ROWS, encode, observation_layout
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.ranks import (
    NUM_CARDS,
    PICK_TEXT,
    VALUE_TEXT,
    bits_list,
    card_id,
    iter_bits,
    parse,
    pick_index,
    text,
    text_list,
    to_bits,
)
from cardenvs.zheng_shang_you.scoring import deal_points, match_over, match_rewards, place_rewards, points_rewards
from cardenvs.zheng_shang_you.tables import RelativeCardTable


class ZsyGame(RulesEngine[ZsyOptions]):
    """One episode of Zheng Shang You: a match of deals to the target, or a single deal."""

    rng = ChanceGenerator()

    def __init__(self, options: ZsyOptions, rng: np.random.Generator):
        self._setup(options, rng)
        self.dealer = options.first_dealer if options.first_dealer is not None else int(rng.integers(self.num_players))
        self._deal_from_deck()

    def _setup(self, options: ZsyOptions, rng: np.random.Generator) -> None:
        self.options = options
        self.rng = rng
        n = self.num_players = options.num_players
        self.rules = options.combo_rules
        self.units = options.teams
        self.layout: ObservationLayout = observation_layout(n)
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

    # ------------------------------------------------------------------ set-up
    @classmethod
    def from_deal(
        cls,
        options: ZsyOptions,
        hands: Sequence[str],
        *,
        dealer: int | None = None,
        rng: np.random.Generator | None = None,
        prev_order: Sequence[int] | None = None,
        totals: Sequence[int] | None = None,
        shown_card: str | None = None,
    ) -> Self:
        """A game from an explicit deal: ``hands[i]`` is player ``i``'s cards as text (``"3♣ 10h 2s BJ"``).

        The hands may hold fewer than 54 cards (the rest count as set aside) so that tests can stay small.
        Every hand holds a card (a player with none would be out before the deal starts). ``dealer`` defaults to
        the options' ``first_dealer`` (else seat 0). ``prev_order`` (the previous deal's finishing order) makes it
        a later deal of a match: the dealer is then the previous deal's ``next_dealer_place`` (3rd by default)
        and the exchange runs first if enabled; deal episodes have no previous deal. ``totals`` sets the match
        points per scoring unit; ``shown_card`` marks the San Jia Xi card shown before the first deal (it must be
        in the dealer's hand)."""
        game = cls.__new__(cls)
        game._setup(options, rng if rng is not None else np.random.default_rng(0))
        n = options.num_players
        if len(hands) != n:
            raise InvalidOptionError(f"need {n} hands, got {len(hands)}")
        parsed = [parse(h) for h in hands]
        flat = [p for h in parsed for p in h]
        if len(set(flat)) != len(flat):
            raise InvalidOptionError("a card appears twice in the hands")
        empty = [s for s in range(n) if not parsed[s]]
        if empty:
            raise InvalidOptionError(f"player(s) {empty} have no cards: every player holds cards when a deal starts")
        if prev_order is not None:
            if options.episode == "deal":
                raise InvalidOptionError("prev_order makes a later deal of a match, but episode='deal' plays one deal")
            if sorted(prev_order) != list(range(n)):
                raise InvalidOptionError(f"prev_order must list every seat once, got {list(prev_order)}")
            next_dealer = prev_order[options.dealer_place - 1]
            if dealer is not None and dealer != next_dealer:
                raise InvalidOptionError(
                    f"after the finishing order {list(prev_order)} the dealer is seat {next_dealer} (the previous "
                    f"place {options.dealer_place}), not {dealer}"
                )
            game.dealer = next_dealer
            game.prev_order = list(prev_order)
            game.deals_played = 1
        else:
            game.dealer = deal_seat("dealer", dealer, options.first_dealer, n)
        if totals is not None:
            if len(totals) != options.num_units:
                raise InvalidOptionError(f"totals needs {options.num_units} entries (one per scoring unit)")
            game.totals = list(totals)
        shown = None
        if shown_card is not None:
            shown = parse(shown_card)[0]
            if shown not in parsed[game.dealer]:
                raise InvalidOptionError(f"the shown card {shown_card} must be in the dealer's hand")
        game._set_aside = to_bits(range(NUM_CARDS)) & ~to_bits(flat)
        game._start_deal([to_bits(h) for h in parsed], shown)
        return game

    def _deal_from_deck(self) -> None:
        cards = [pick_index(c) for c in ZHENG_SHANG_YOU_54.shuffled(self.rng)]
        n = self.num_players
        shown = None
        start = self.dealer
        if self.options.team_mode == "san_jia_xi" and self.prev_order is None:
            # A card is shown before the shuffle; whoever is dealt it deals and leads (spec §6.2).
            start = int(self.rng.integers(n))
            shown = int(self.rng.integers(NUM_CARDS))
        hands = [0] * n
        for k, p in enumerate(cards):
            hands[(start + k) % n] |= 1 << p
        if shown is not None:
            self.dealer = next(s for s in range(n) if hands[s] >> shown & 1)
        self._set_aside = 0
        self._start_deal(hands, shown)

    def _start_deal(self, hands: list[int], shown: int | None) -> None:
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
        if self.prev_order is not None and self.options.exchange:
            self.exchange = ex.ExchangeState(list(self.prev_order))
            self._advance_exchange()
        else:
            self._start_turn(self.dealer)

    # ------------------------------------------------------------------ engine protocol
    def _legal_mask(self) -> np.ndarray:
        a = self.ids
        mask = np.zeros(a.SIZE, dtype=np.int8)
        seat = self.current_player
        if seat == TERMINAL:
            return mask
        state = self.exchange
        if state is not None:
            if state.giving:
                mask[[a.GIVE + p for p in ex.give_options(self.hands[seat], state.stage)]] = 1
            else:
                mask[a.TAKE : a.TAKE + 2] = 1
            return mask
        b = self.builder
        assert b is not None
        if b.shape is None:
            mask[[a.SHAPE + i for i in b.legal_shapes()]] = 1
        elif b.needs_top:
            for h in b.legal_tops():  # a few ids: scalar writes beat building an index list
                mask[a.TOP + h] = 1
        else:
            for p in iter_bits(b.legal_picks()):
                mask[a.PICK + p] = 1
        if self.top is not None and not b.started:
            mask[a.PASS] = 1
        return mask

    def _why_illegal(self, action: int) -> str:
        from cardenvs.zheng_shang_you.reasons import illegal_reason

        return illegal_reason(self, action)

    def _apply(self, action: int) -> None:
        if self.exchange is not None:
            self._exchange_action(action)
            return
        a, seat, b = self.ids, self.current_player, self.builder
        assert b is not None
        if action == a.PASS:
            self._pass(seat)
            return
        self._taken.append(action)
        if action < a.TOP:
            b.choose_shape(action - a.SHAPE)
        elif action < a.PICK:
            b.declare_top(action - a.TOP)
        else:
            combo = b.pick(action - a.PICK)
            if combo is not None:
                self._play(seat, combo)

    def legal_moves(self) -> list[Hashable]:
        seat = self.current_player
        if seat == TERMINAL:
            return []
        state = self.exchange
        if state is not None:
            if state.giving:
                return [Give(p) for p in ex.give_options(self.hands[seat], state.stage)]
            return [Take(0), Take(1)]
        b = self.builder
        assert b is not None
        if self._turn_combos is None:
            self._turn_combos = legal_combos(self.hands[seat], self.top, self.rules)
        moves: list[Hashable] = [Pass()] if self.top is not None and not b.started else []
        picks = tuple(b.picks)
        for combo in self._turn_combos:
            if (
                (b.shape is None or combo.shape == b.shape)
                and (combo.kind < SEQUENCE or b.top < 0 or combo.top == b.top)
                and combo.cards[: len(picks)] == picks
            ):
                moves.append(combo)
        return moves

    def legal_move_features(self) -> tuple[list[Hashable], np.ndarray]:
        """``legal_moves()`` with one feature row per move (layout: :func:`~.features.move_layout`)."""
        from cardenvs.zheng_shang_you.features import moves_features

        moves = self.legal_moves()
        return moves, moves_features(moves)

    def move_actions(self, move: Hashable) -> list[int]:
        if not isinstance(move, (Combo, Pass, Give, Take)):
            raise TypeError(f"not a Zheng Shang You move: {move!r}")
        full = move_actions_from_start(move, self.top is None)
        done = len(self._taken)
        if full[:done] != self._taken:
            raise ValueError(f"move {move} does not continue the sub-steps taken so far {self._taken}")
        return full[done:]

    def move_in_progress(self) -> bool:
        return bool(self._taken)

    def observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def observe_into(self, player: int, out: np.ndarray) -> None:
        encode(self, player, out)

    def privileged_state(self) -> dict[str, Any]:
        b = self.builder
        state = self.exchange
        return {
            "deals_played": self.deals_played,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "hands": [text(bits_list(h)) for h in self.hands],
            "totals": list(self.totals),
            "prev_order": self.prev_order,
            "finish_order": list(self.finish_order),
            "top": None if self.top is None else {"seat": self.top_seat, "combo": self.top.describe()},
            "passes": self.passes,
            "exchange": None
            if state is None
            else {
                "stage": ex.STAGES[state.stage],
                "table": [PICK_TEXT[c] if c >= 0 else None for c in state.table],
                "revealed": state.revealed,
            },
            "building": None
            if b is None or not self._taken
            else {
                "shape": None if b.shape is None else shape_label(b.shape),
                "top": VALUE_TEXT[b.top] if b.top >= 0 else None,
                "cards": text(b.picks),
            },
        }

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        from cardenvs.zheng_shang_you.resample import resample_hidden

        world = resample_hidden(self, observer, rng)
        materialise_generator(world)  # where sample_world's reseed_chance finds it
        return world

    def card_multiset(self) -> list[int]:
        bits = self._set_aside
        for h in self.hands:
            bits |= h
        bits |= to_bits(np.flatnonzero(self.played.data[0].any(axis=0)).tolist())
        if self.exchange is not None:
            bits |= to_bits(c for c in self.exchange.table if c >= 0)
        return sorted(card_id(p) for p in iter_bits(bits))

    def render_text(self) -> str:
        from cardenvs.zheng_shang_you.render import render

        return render(self)

    def clone(self) -> Self:
        """An independent copy; events are shared read-only (they are never changed once logged)."""
        twin = copy.copy(self)
        share_generator(self, twin)
        twin.events = EventLog()
        twin.events.events = list(self.events.events)
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

    # ------------------------------------------------------------------ play
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

    def _start_turn(self, seat: int) -> None:
        self.current_player = seat
        self.builder = MoveBuilder(self.summary(seat), self.top, self.rules)
        self._taken = []
        self._turn_combos = None

    def _play(self, seat: int, combo: Combo) -> None:
        self._remove_cards(seat, combo.cards)
        self.played.set_for_all(seat, combo.cards, 1.0)
        self.events.add(
            "play",
            seat,
            public={
                "cards": text_list(combo.cards),
                "kind": KIND_NAMES[combo.kind],
                "group": combo.group,
                "length": combo.length,
                "top": VALUE_TEXT[combo.top],
                "wild": combo.wild,
                "suited": combo.suited,
                "lead": self.top is None,
            },
        )
        self.top, self.top_seat = combo, seat
        self.trick.append((seat, combo))
        self.passes = 0
        self.passed[:] = 0.0
        if not self.hands[seat]:
            self._go_out(seat)
            if self.out.count(False) == 1:
                self._finish_deal()
                return
        self._start_turn(next_seat(seat, [not o for o in self.out]))

    def _pass(self, seat: int) -> None:
        self.events.add("pass", seat)
        self.passes += 1
        self.passed[seat] = 1.0
        still_in = self.out.count(False)
        needed = still_in if self.out[self.top_seat] else still_in - 1
        active = [not o for o in self.out]
        if self.passes < needed:
            self._start_turn(next_seat(seat, active))
            return
        winner = self.top_seat
        leader = winner if active[winner] else next_seat(winner, active)
        self.events.add(
            "trick",
            winner,
            public={
                "seats": [s for s, _ in self.trick],
                "cards": [text_list(c.cards) for _, c in self.trick],
                "winner": winner,
                "next_leader": leader,
            },
        )
        self.top, self.top_seat, self.passes = None, -1, 0
        self.passed[:] = 0.0
        self.trick = []
        self._start_turn(leader)

    def _go_out(self, seat: int) -> None:
        self.out[seat] = True
        self.finish_order.append(seat)
        self.places[seat] = len(self.finish_order) / self.num_players
        self.events.add("out", seat, public={"place": len(self.finish_order)})

    # ------------------------------------------------------------------ end of a deal, of the match
    def _finish_deal(self) -> None:
        last = self.out.index(False)
        self._go_out(last)
        order = list(self.finish_order)
        opts = self.options
        points = deal_points(order, opts)
        for unit, pts in enumerate(points):
            self.totals[unit] += pts
        self.deals_played += 1
        self._refresh_match_rows()
        self.events.add(
            "deal_over",
            public={"order": order, "points": [points[u] for u in self.units], "totals": list(self.totals)},
        )
        if opts.reward_mode == "match_points":
            self._add_rewards(points_rewards(points, opts))
        elif opts.episode == "deal":
            self._add_rewards(place_rewards(order, opts))
        if opts.episode == "deal" or match_over(self.totals, opts):
            if opts.episode == "match" and opts.reward_mode == "place":
                self._add_rewards(match_rewards(self.totals, opts))
            self._end_game()
            return
        self.prev_order = order
        self.dealer = order[opts.dealer_place - 1]
        self._deal_from_deck()

    def _refresh_match_rows(self) -> None:
        """The match rows of :attr:`seats`: unit totals / target, previous places / n."""
        n, target = self.num_players, self.options.target
        for seat in range(n):
            self.seats[4, seat] = min(self.totals[self.units[seat]] / target, MAX_TOTAL_RATIO)
        if self.prev_order is not None:
            for place, seat in enumerate(self.prev_order):
                self.seats[5, seat] = (place + 1) / n

    def _end_game(self) -> None:
        best = max(self.totals)
        winners = [s for s in range(self.num_players) if self.totals[self.units[s]] == best]
        rewards = self._rewards if self._rewards is not None else np.zeros(self.num_players)
        self.events.add(
            "game_over",
            public={"totals": list(self.totals), "winners": winners, "rewards": rewards.tolist()},
        )
        self.current_player = TERMINAL
        self.builder = None
        self._taken = []

    def _add_rewards(self, rewards: np.ndarray) -> None:
        self._rewards = rewards if self._rewards is None else self._rewards + rewards

    # ------------------------------------------------------------------ the exchange
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
            "give",
            giver,
            public={"stage": ex.STAGES[state.stage]},
            private={giver: {"card": PICK_TEXT[card]}},
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

    # ------------------------------------------------------------------ cards
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
