"""Deal 1's teams in Goninkan and Yoninkan (spec §5, §10): the 関係 calls and the seat swap, the 二重関 exchange
(dealt at random, scripted, or picked blind from face-down slots), the lead choice, and Yoninkan's hidden teams
with its first lead."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from cardenvs.core.cards import SPADES
from cardenvs.goninkan.actions import CARD_SLOTS, KEY_SLOTS, BlindSwap, LeadChoice
from cardenvs.goninkan.table import ACE, BLIND_SWAP, LEAD_CHOICE, KankeiTable


class KankeiCalls:
    """Forms deal 1's teams; owns the lead choice and the blind 二重関 swap, and opens the first trick."""

    def begin(self, table: KankeiTable[Any]) -> None:
        """Form the teams of the deal just dealt, up to the first decision or the first trick."""
        joker, key = table.key_cards()
        joker_holder, key_holder = table.holder(joker), table.holder(key)
        if table.rules.is_goninkan:
            self._goninkan_teams(table, joker_holder, key_holder)
        else:
            self._yoninkan_teams(table, joker_holder, key_holder)

    def mask(self, table: KankeiTable[Any], mask: np.ndarray) -> None:
        if table.phase == LEAD_CHOICE:
            mask[table.A_LEAD_CHOICE : table.A_LEAD_CHOICE + 2] = 1
        else:
            mask[table.A_SWAP : table.A_SWAP + KEY_SLOTS * len(table.swap_slots[1])] = 1

    def apply(self, table: KankeiTable[Any], action: int) -> bool:
        player = table.current_player
        if table.phase == LEAD_CHOICE:
            lead = action == table.A_LEAD_CHOICE
            leader = player if lead else table.kankei_partner(player)
            table.events.add("lead_choice", player, public={"choice": "いく" if lead else "こい", "leader": leader})
            table.open_trick(leader)
        else:
            key_slot, card_slot = divmod(action - table.A_SWAP, CARD_SLOTS)
            keys, cards = table.swap_slots
            table.swap_slots = ([], [])
            self._exchange(table, keys[key_slot], cards[card_slot], player, (key_slot, card_slot))
        return False

    def moves(self, table: KankeiTable[Any]) -> list[Hashable]:
        if table.phase == LEAD_CHOICE:
            return [LeadChoice(True), LeadChoice(False)]
        return [BlindSwap(k, c) for k in range(KEY_SLOTS) for c in range(len(table.swap_slots[1]))]

    def move_actions(self, table: KankeiTable[Any], move: Hashable) -> list[int] | None:
        if isinstance(move, LeadChoice):
            return [table.A_LEAD_CHOICE + (0 if move.lead else 1)]
        if isinstance(move, BlindSwap):
            return [table.A_SWAP + move.key * CARD_SLOTS + move.card]
        return None

    def _goninkan_teams(self, table: KankeiTable[Any], joker_holder: int, key_holder: int) -> None:
        joker, key = table.key_cards()
        table.team_public = True
        if joker_holder != key_holder:
            table._set_team([joker_holder, key_holder])
            table.events.add("kankei", public={"callers": sorted(table.kankei), "nijukan": False})
            _swap_if_adjacent(table, joker_holder, key_holder)
            table.deal1_holders = (joker_holder, key_holder)
            share_partner_keys(table)
            _begin_lead_choice(table)
            return
        holder = joker_holder
        between = table.next_active(holder)
        partner = table.next_active(between)
        table._set_team([holder, partner])
        table.known[:, joker] = table.known[:, key] = holder  # the lone caller holds both
        table.nijukan_pending = holder
        public = {"callers": [holder], "nijukan": True, "partner": partner, "between": between}
        table.events.add("kankei", public=public)
        if table._scripted_nijukan is not None:
            given, taken = table._scripted_nijukan
            table._scripted_nijukan = None
            self._exchange(table, given, taken, None)
        elif table.rules.nijukan_exchange == "random":
            given = (joker, key)[int(table.rng.integers(KEY_SLOTS))]
            taken = table.hands[partner][int(table.rng.integers(len(table.hands[partner])))]
            self._exchange(table, given, taken, None)
        else:
            draw_swap_slots(table)
            table.phase = BLIND_SWAP
            table.current_player = between

    def _exchange(
        self, table: KankeiTable[Any], given: int, taken: int, by: int | None, slots: tuple[int, int] | None = None
    ) -> None:
        """The 二重関 exchange: ``given`` (a key card) to the partner, ``taken`` back from him."""
        holder = table.nijukan_pending
        partner = table.kankei_partner(holder)
        joker, key = table.key_cards()
        table._move_card(given, holder, partner)
        table._move_card(taken, partner, holder)
        table.nijukan_pending = -1
        table.knowledge_changed()
        table.known[:, joker] = table.known[:, key] = -1
        table.known[partner, taken] = holder
        table.deal1_holders = (partner, holder) if given == joker else (holder, partner)
        share_partner_keys(table)
        public: dict[str, Any] = {"holder": holder, "partner": partner}
        if slots is not None:
            public["slots"] = list(slots)
        table.events.add(
            "nijukan_exchange",
            by,
            public=public,
            private={
                holder: {"gave": table.cards.text[given], "received": table.cards.text[taken]},
                partner: {"gave": table.cards.text[taken], "received": table.cards.text[given]},
            },
        )
        _begin_lead_choice(table)

    def _yoninkan_teams(self, table: KankeiTable[Any], joker_holder: int, key_holder: int) -> None:
        joker, key = table.key_cards()
        table.deal1_holders = (joker_holder, key_holder)
        if joker_holder != key_holder:
            table._set_team([joker_holder, key_holder])
        elif table.rules.double_holding == "one_vs_three":
            table._set_team([joker_holder])
        elif table.rules.double_holding == "opposite_partner":
            partner = table.next_active(table.next_active(joker_holder))
            table._set_team([joker_holder, partner])
            table.team_public = table.double_announced = True
            table.known[:, joker] = table.known[:, key] = joker_holder
            table.events.add("kankei", public={"callers": [joker_holder], "double": True, "partner": partner})
        if table.rules.spade_ace_leads:
            ace = table.cards.find(ACE, SPADES)
            leader = table.holder(ace)
            table.forced_lead = ace
            table.known[:, ace] = leader
        else:
            leader = table.next_active(table.dealer)
        table.open_trick(leader)


def draw_swap_slots(table: KankeiTable[Any]) -> None:
    """Lay the two key cards and the partner's hand face down, shuffled, for the blind 二重関 swap."""
    partner = table.kankei_partner(table.nijukan_pending)
    keys = list(table.key_cards())
    cards = list(table.hands[partner])
    table.swap_slots = (
        [keys[i] for i in table.rng.permutation(KEY_SLOTS)],
        [cards[i] for i in table.rng.permutation(len(cards))],
    )


def share_partner_keys(table: KankeiTable[Any]) -> None:
    """Each 関係 player of Goninkan's deal 1 knows that the partner holds the other key card."""
    joker_holder, key_holder = table.deal1_holders
    joker, key = table.key_cards()
    if joker not in table.hands[joker_holder] or key not in table.hands[key_holder]:
        return
    table.known[key_holder, joker] = joker_holder
    table.known[joker_holder, key] = key_holder


def _swap_if_adjacent(table: KankeiTable[Any], a: int, b: int) -> None:
    if table.next_active(a) == b:
        mover = b
    elif table.next_active(b) == a:
        mover = a
    else:
        return
    other = table.next_active(mover)
    seat_m, seat_o = table.seat_of[mover], table.seat_of[other]
    table.person_at[seat_m], table.person_at[seat_o] = other, mover
    table.seat_of[mover], table.seat_of[other] = seat_o, seat_m
    table._refresh_orders()
    table.static_changed()
    table.events.add("seat_swap", mover, public={"with": other, "seat": seat_o, "other_seat": seat_m})


def _begin_lead_choice(table: KankeiTable[Any]) -> None:
    mode = table.rules.kankei_lead_decider
    joker_holder, key_holder = table.deal1_holders
    if mode == "elder":
        decider = next(p for p in table.active_players() if table.is_kankei[p])
    elif mode == "random":
        decider = table.kankei[int(table.rng.integers(len(table.kankei)))]
    else:
        decider = joker_holder if mode == "joker_holder" else key_holder
        joker, key = table.key_cards()
        table.known[:, joker] = joker_holder  # who speaks is public, and so is the card that makes him speak
        table.known[:, key] = key_holder
    table.phase = LEAD_CHOICE
    table.current_player = decider
