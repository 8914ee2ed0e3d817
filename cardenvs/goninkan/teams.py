"""Deals and teams of Goninkan and Yoninkan: each deal, the 関係 calls and seat swap, the 二重関 exchange, the
deal-1 lead choice, Yoninkan's hidden teams, and deals 2 and 3 (the show and the trump choice)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import SPADES, SUIT_TEXT
from cardenvs.core.errors import InvalidOptionError
from cardenvs.goninkan.actions import KEY_SLOTS
from cardenvs.goninkan.table import ACE, BLIND_SWAP, LEAD_CHOICE, SHOW, TRUMP, KankeiTable, OptionsT


class KankeiTeams(KankeiTable[OptionsT]):
    """Deals and forms the teams (spec §4, §5, §7, §10)."""

    def _begin_round(self) -> None:
        self._new_round_state()
        self._start_deal(self.deal1_trump)
        self._form_teams()

    def _start_deal(self, trump: int) -> None:
        scripted = bool(self._scripted_deals)
        hands = self._deal_hands()
        while self.deal == 1 and self._must_redeal(hands):
            if scripted:
                raise InvalidOptionError(
                    "this deal gives one player both key cards, which yoninkan_double='redeal' deals again"
                )
            hands = self._deal_hands()
        self.reset_deal(hands, trump)
        self.events.add(
            "deal",
            public={
                "round": self.round_number,
                "deal": self.deal,
                "dealer": self.dealer,
                "trump": SUIT_TEXT[trump] if trump >= 0 else None,
            },
            private={p: {"hand": self.cards_text(self.hands[p])} for p in range(self.num_players) if self.hands[p]},
        )

    def _form_teams(self) -> None:
        joker, key = self.key_cards()
        joker_holder, key_holder = self.holder(joker), self.holder(key)
        if self.rules.is_goninkan:
            self._form_goninkan_teams(joker_holder, key_holder)
        else:
            self._form_yoninkan_teams(joker_holder, key_holder)

    def _form_goninkan_teams(self, joker_holder: int, key_holder: int) -> None:
        joker, key = self.key_cards()
        self.team_public = True
        if joker_holder != key_holder:
            self._set_team([joker_holder, key_holder])
            self.events.add("kankei", public={"callers": sorted(self.kankei), "nijukan": False})
            self._swap_if_adjacent(joker_holder, key_holder)
            self.deal1_holders = (joker_holder, key_holder)
            self._share_partner_keys()
            self._begin_lead_choice()
            return
        holder = joker_holder
        between = self.next_active(holder)
        partner = self.next_active(between)
        self._set_team([holder, partner])
        self.known[:, joker] = self.known[:, key] = holder  # the lone caller holds both
        self.nijukan_pending = holder
        self.events.add("kankei", public={"callers": [holder], "nijukan": True, "partner": partner, "between": between})
        if self._scripted_nijukan is not None:
            given, taken = self._scripted_nijukan
            self._scripted_nijukan = None
            self._nijukan_exchange(given, taken, None)
        elif self.rules.nijukan_exchange == "random":
            given = (joker, key)[int(self.rng.integers(KEY_SLOTS))]
            taken = self.hands[partner][int(self.rng.integers(len(self.hands[partner])))]
            self._nijukan_exchange(given, taken, None)
        else:
            self._draw_swap_slots()
            self.phase = BLIND_SWAP
            self.current_player = between

    def _draw_swap_slots(self) -> None:
        partner = self.kankei_partner(self.nijukan_pending)
        keys = list(self.key_cards())
        cards = list(self.hands[partner])
        self.swap_slots = (
            [keys[i] for i in self.rng.permutation(KEY_SLOTS)],
            [cards[i] for i in self.rng.permutation(len(cards))],
        )

    def _nijukan_exchange(self, given: int, taken: int, by: int | None, slots: tuple[int, int] | None = None) -> None:
        holder = self.nijukan_pending
        partner = self.kankei_partner(holder)
        joker, key = self.key_cards()
        self._move_card(given, holder, partner)
        self._move_card(taken, partner, holder)
        self.nijukan_pending = -1
        self.knowledge_changed()
        self.known[:, joker] = self.known[:, key] = -1
        self.known[partner, taken] = holder
        self.deal1_holders = (partner, holder) if given == joker else (holder, partner)
        self._share_partner_keys()
        public: dict[str, Any] = {"holder": holder, "partner": partner}
        if slots is not None:
            public["slots"] = list(slots)
        self.events.add(
            "nijukan_exchange",
            by,
            public=public,
            private={
                holder: {"gave": self.cards.text[given], "received": self.cards.text[taken]},
                partner: {"gave": self.cards.text[taken], "received": self.cards.text[given]},
            },
        )
        self._begin_lead_choice()

    def _share_partner_keys(self) -> None:
        """Each 関係 player of Goninkan's deal 1 knows that the partner holds the other key card."""
        joker_holder, key_holder = self.deal1_holders
        joker, key = self.key_cards()
        if joker not in self.hands[joker_holder] or key not in self.hands[key_holder]:
            return
        self.known[key_holder, joker] = joker_holder
        self.known[joker_holder, key] = key_holder

    def _swap_if_adjacent(self, a: int, b: int) -> None:
        if self.next_active(a) == b:
            mover = b
        elif self.next_active(b) == a:
            mover = a
        else:
            return
        other = self.next_active(mover)
        seat_m, seat_o = self.seat_of[mover], self.seat_of[other]
        self.person_at[seat_m], self.person_at[seat_o] = other, mover
        self.seat_of[mover], self.seat_of[other] = seat_o, seat_m
        self._refresh_orders()
        self.static_changed()
        self.events.add("seat_swap", mover, public={"with": other, "seat": seat_o, "other_seat": seat_m})

    def _begin_lead_choice(self) -> None:
        mode = self.rules.kankei_lead_decider
        joker_holder, key_holder = self.deal1_holders
        if mode == "elder":
            decider = next(p for p in self.active_players() if self.is_kankei[p])
        elif mode == "random":
            decider = self.kankei[int(self.rng.integers(len(self.kankei)))]
        else:
            decider = joker_holder if mode == "joker_holder" else key_holder
            joker, key = self.key_cards()
            self.known[:, joker] = joker_holder  # who speaks is public, and so is the card that makes him speak
            self.known[:, key] = key_holder
        self.phase = LEAD_CHOICE
        self.current_player = decider

    def _form_yoninkan_teams(self, joker_holder: int, key_holder: int) -> None:
        joker, key = self.key_cards()
        self.deal1_holders = (joker_holder, key_holder)
        if joker_holder != key_holder:
            self._set_team([joker_holder, key_holder])
        elif self.rules.double_holding == "one_vs_three":
            self._set_team([joker_holder])
        elif self.rules.double_holding == "opposite_partner":
            partner = self.next_active(self.next_active(joker_holder))
            self._set_team([joker_holder, partner])
            self.team_public = self.double_announced = True
            self.known[:, joker] = self.known[:, key] = joker_holder
            self.events.add("kankei", public={"callers": [joker_holder], "double": True, "partner": partner})
        if self.rules.spade_ace_leads:
            ace = self.cards.find(ACE, SPADES)
            leader = self.holder(ace)
            self.forced_lead = ace
            self.known[:, ace] = leader
        else:
            leader = self.next_active(self.dealer)
        self._start_trick(leader)

    def _begin_next_deal(self) -> None:
        self.deal += 1
        self._start_deal(-1)
        self.chooser = self.deal1_holders[0] if self.deal == 2 else self.deal1_holders[1]
        if len(self.kankei) == 2:
            self.phase = SHOW
            self.current_player = self.kankei_partner(self.chooser)
        else:
            self.phase = TRUMP
            self.current_player = self.chooser
