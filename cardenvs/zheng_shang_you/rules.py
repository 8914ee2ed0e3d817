"""The rules engine of Zheng Shang You (争上游): the decision protocol, play, passes, going out and scoring, over
the table (:mod:`.table`), composing the exchange (:mod:`.exchange_phase`). The rules read no observer:
:class:`cardenvs.zheng_shang_you.game.ZsyGame` adds the reasons, move features and re-deals, and the definition
attaches the encoder and the renderer."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Self

import numpy as np

from cardenvs.core.cards import ZHENG_SHANG_YOU_54
from cardenvs.core.engine import TERMINAL
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import deal_seat
from cardenvs.core.seating import next_seat
from cardenvs.zheng_shang_you import exchange as ex
from cardenvs.zheng_shang_you.actions import Give, Pass, Take, move_actions_from_start
from cardenvs.zheng_shang_you.combos import KIND_NAMES, SEQUENCE, Combo, shape_label
from cardenvs.zheng_shang_you.exchange_phase import Exchange
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.ranks import (
    NUM_CARDS,
    PICK_TEXT,
    VALUE_TEXT,
    bits_list,
    iter_bits,
    parse,
    pick_index,
    text,
    text_list,
    to_bits,
)
from cardenvs.zheng_shang_you.scoring import deal_points, match_over, match_rewards, place_rewards, points_rewards
from cardenvs.zheng_shang_you.table import ZsyTable


class ZsyRules(ZsyTable):
    """One episode of Zheng Shang You's rules: a match of deals to the target, or a single deal."""

    exchanging: ClassVar[Exchange] = Exchange()
    """The exchange before a match's later deals (a phase object: it holds no state, every game shares it)."""

    def __init__(self, options: ZsyOptions, rng: np.random.Generator):
        self._setup(options, rng)
        self.dealer = options.first_dealer if options.first_dealer is not None else int(rng.integers(self.num_players))
        self._deal_from_deck()

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
        """Shuffle and deal the next deal (San Jia Xi's first deal: to whoever is dealt a card shown first)."""
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
        """Deal ``hands`` and start the exchange (a match's later deals) or the dealer's first turn."""
        self._reset_deal(hands, shown)
        if self.prev_order is not None and self.options.exchange:
            self.exchange = ex.ExchangeState(list(self.prev_order))
            self.exchanging.advance(self)
        else:
            self._start_turn(self.dealer)

    def _legal_mask(self) -> np.ndarray:
        a = self.ids
        mask = np.zeros(a.SIZE, dtype=np.int8)
        seat = self.current_player
        if seat == TERMINAL:
            return mask
        if self.exchange is not None:
            self.exchanging.mask(self, mask)
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

    def _apply(self, action: int) -> None:
        if self.exchange is not None:
            self.exchanging.apply(self, action)
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
        if self.exchange is not None:
            return self.exchanging.moves(self)
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
            "deal_over", public={"order": order, "points": [points[u] for u in self.units], "totals": list(self.totals)}
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

    def _end_game(self) -> None:
        best = max(self.totals)
        winners = [s for s in range(self.num_players) if self.totals[self.units[s]] == best]
        rewards = self._rewards if self._rewards is not None else np.zeros(self.num_players)
        self.events.add(
            "game_over", public={"totals": list(self.totals), "winners": winners, "rewards": rewards.tolist()}
        )
        self.current_player = TERMINAL
        self.builder = None
        self._taken = []

    def _add_rewards(self, rewards: np.ndarray) -> None:
        self._rewards = rewards if self._rewards is None else self._rewards + rewards
