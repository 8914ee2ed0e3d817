"""The play of the tricks in Goninkan and Yoninkan (spec §6, §8, §10): cards (the joker's rules), trick winners,
Yoninkan's trick-1 declarations and the sweep offers of deals 2 and 3."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.core.tricks import record_void
from cardenvs.goninkan.actions import NO_DECLARATION, Play, Sweep
from cardenvs.goninkan.ruleset import TRICKS
from cardenvs.goninkan.scoring import Declaration, Kind, is_decided, reverse_skunk_established, skunk_established
from cardenvs.goninkan.table import PLAY, SWEEP, UPGRADES, KankeiTable
from cardenvs.goninkan.tricks import legal_cards, trick_winner


class TrickPlay:
    """Owns the card decisions (with Yoninkan's declaration sub-step) and the sweep offers, from a trick opened by
    another phase to the end of the deal."""

    def declaring(self, table: KankeiTable[Any]) -> bool:
        """Whether the player to act is at the declaration sub-step of a Yoninkan trick-1 turn.

        Who is asked must not tell anyone a hidden side: while the teams are hidden (deal 1) every player is
        asked as long as either side still has a declaration open, a player whose own side has none answering
        the forced ``declare(none)``; once the teams are known (deals 2 and 3) a player is asked when his side
        has one open."""
        if not (
            table.phase == PLAY
            and table.rules.trick1_declarations
            and table.trick_no == 1
            and table.decl_choice is None
        ):
            return False
        sides = (True, False) if table.deal == 1 else (bool(table.is_kankei[table.current_player]),)
        return any(open_declarations(table, kankei) for kankei in sides)

    def mask(self, table: KankeiTable[Any], mask: np.ndarray) -> None:
        if table.phase == SWEEP:
            mask[table.A_SWEEP : table.A_SWEEP + 2] = 1
            return
        player = table.current_player
        if table.trick_no == 1 and self.declaring(table):  # the step path: no call after trick 1
            mask[table.A_DECLARE] = 1
            for kind in open_declarations(table, bool(table.is_kankei[player])):
                mask[table.A_DECLARE + 1 + kind] = 1
            return
        plain, joker = legal_play(table, player, table.decl_choice)
        for c in plain:
            mask[table.A_PLAY + c] = 1
        if joker:
            if len(table.trick):
                mask[table.A_JOKER] = 1
            else:
                mask[table.A_LEAD_JOKER : table.A_LEAD_JOKER + 4] = 1

    def apply(self, table: KankeiTable[Any], action: int) -> bool:
        player = table.current_player
        if table.phase == SWEEP:
            if action == table.A_SWEEP:
                declare(table, player, Kind.JUROKU if table.is_kankei[player] else Kind.REV_JUROKU, at_trick1=False)
            else:
                table.events.add("sweep", player, public={"declared": False})
            return self._continue_or_end(table, player)
        if table.A_DECLARE >= 0 and action >= table.A_DECLARE:
            table.decl_choice = action - table.A_DECLARE - 1
            return False
        if action < table.A_LEAD_JOKER:
            return self._play_card(table, player, action - table.A_PLAY, -1)
        if action < table.A_JOKER:
            return self._play_card(table, player, table.joker, action - table.A_LEAD_JOKER)
        return self._play_card(table, player, table.joker, -1)

    def moves(self, table: KankeiTable[Any]) -> list[Hashable]:
        if table.phase == SWEEP:
            return [Sweep(True), Sweep(False)]
        player = table.current_player
        if self.declaring(table):
            moves: list[Hashable] = []
            for declaration in [NO_DECLARATION, *open_declarations(table, bool(table.is_kankei[player]))]:
                moves.extend(_card_moves(table, player, int(declaration)))
            return moves
        return _card_moves(table, player, table.decl_choice)

    def move_actions(self, table: KankeiTable[Any], move: Hashable) -> list[int] | None:
        if isinstance(move, Play):
            ids = []
            if self.declaring(table) and move.declaration is not None:
                ids.append(table.A_DECLARE + 1 + move.declaration)
            if move.card != table.joker:
                ids.append(table.A_PLAY + move.card)
            elif move.suit >= 0:
                ids.append(table.A_LEAD_JOKER + move.suit)
            else:
                ids.append(table.A_JOKER)
            return ids
        if isinstance(move, Sweep):
            return [table.A_SWEEP + (0 if move.declare else 1)]
        return None

    def _play_card(self, table: KankeiTable[Any], player: int, card: int, named_suit: int) -> bool:
        declaration = table.decl_choice
        table.decl_choice = None
        table.hands[player].remove(card)
        table.hand_vec[player, card] = 0
        table.hand_sizes[player] -= 1
        table.who_played[card] = player
        table.played.record(player, card)
        table.in_trick.record(player, card)
        table.known[:, card] = -1
        trick = table.trick
        if not len(trick):
            trick.led_suit = named_suit if card == table.joker else table.cards.suit[card]
        elif card != table.joker and record_void(table.voids, player, table.cards.suit[card], trick.led_suit):
            table.void_mat[player, trick.led_suit] = 1
            if trick.led_suit == table.deal1_trump:  # the only void that tells where the key trump card is
                table.knowledge_changed()
        trick.add(player, card)
        table.trick_leading = trick_winner(table.rules, trick, table.trick_no, table.trump)
        if table.trick_no >= 9:
            table.played_late[player] = True
        if declaration is not None and declaration >= 0:
            declare(table, player, Kind(declaration), at_trick1=True)
        public: dict[str, Any] = {"card": table.cards.text[card], "trick": table.trick_no}
        if card == table.joker and len(trick) == 1:
            public["suit"] = SUIT_TEXT[named_suit]
        table.events.add("play", player, public=public)
        if table.deal == 1 and (card in table.deal1_keys or not table.hands[player]):
            table.knowledge_changed()  # an emptied hand can no longer hold an unplayed key card
        if len(trick) == table.active_count:
            return self._end_trick(table)
        table.current_player = table.next_active(player)
        return False

    def _end_trick(self, table: KankeiTable[Any]) -> bool:
        trick = table.trick
        winner = table.trick_leading
        taken = sum(table.cards.honour[c] for c in trick.cards)
        table.honours[winner] += taken
        table.side_honours[0 if table.is_kankei[winner] else 1] += taken
        table.events.add(
            "trick",
            public={
                "trick": table.trick_no,
                "seats": list(trick.seats),
                "cards": [table.cards.text[c] for c in trick.cards],
                "winner": winner,
                "honours": taken,
            },
        )
        table.trick_no += 1
        if taken and (table.declarations or table.honours.sum() >= table._honours_to_decide):
            table.knowledge_changed()  # some team assignment might now have decided the deal
        rules, deal = table.rules.scores, table.deal
        k, m = table.side_honours
        if deal > 1 and table.trick_no <= TRICKS:
            sides = [d.kind.side for d in table.declarations]
            if not table.sweep_offered[0] and "kankei" not in sides and skunk_established(rules, deal, k, m):
                table.sweep_offered[0] = True
                table.phase, table.current_player = SWEEP, winner
                return False
            if not table.sweep_offered[1] and "mukan" not in sides and reverse_skunk_established(rules, deal, k, m):
                table.sweep_offered[1] = True
                table.phase, table.current_player = SWEEP, winner
                return False
        return self._continue_or_end(table, winner)

    @staticmethod
    def _continue_or_end(table: KankeiTable[Any], leader: int) -> bool:
        """Open the next trick, or say that the deal is over (all tricks played, or decided)."""
        k, m = table.side_honours
        decided = is_decided(table.rules.scores, table.deal, k, m, table.declarations)
        if table.trick_no > TRICKS or (decided and not table.options.play_all_tricks):
            return True
        table.open_trick(leader)
        return False


def open_declarations(table: KankeiTable[Any], kankei: bool) -> list[Kind]:
    """Declarations still open to the kankei side (``kankei``) or the mukan side in trick 1 (public)."""
    weak, strong = (Kind.SKUNK, Kind.JUROKU) if kankei else (Kind.REV_SKUNK, Kind.REV_JUROKU)
    kinds = [weak, strong] if table.deal > 1 or table.rules.declarations_in_deal1 else [weak]
    live = [d.kind for d in table.declarations if d.kind.side == weak.side]
    if table.rules.max_declarations_per_side == 1:
        if not live:
            return kinds
        return [strong] if live == [weak] and strong in kinds else []
    return kinds if len(live) < 2 else []


def legal_play(table: KankeiTable[Any], player: int, declaration: int | None) -> tuple[list[int], bool]:
    """(plain cards ``player`` may play now, whether the joker may be played) when the card goes with
    ``declaration`` (Yoninkan trick 1: a ``Kind``, ``NO_DECLARATION`` or ``None``)."""
    declared = declaration is not None and declaration >= 0
    return legal_cards(table.rules, table.hands[player], table.trick, table.trick_no, declared, table.forced_lead)


def declare(table: KankeiTable[Any], player: int, kind: Kind, at_trick1: bool) -> None:
    """Record ``player``'s declaration (a trick-1 upgrade replaces the side's weaker one when one is allowed)."""
    upgraded = [d for d in table.declarations if UPGRADES.get(d.kind) == kind]
    if at_trick1 and upgraded and table.rules.max_declarations_per_side == 1:
        table.declarations.remove(upgraded[0])
    table.declarations.append(Declaration(kind, player, at_trick1))
    table.declared_by.append((player, kind))
    table.knowledge_changed()
    table.static_changed()
    table.events.add(
        "declare" if at_trick1 else "sweep",
        player,
        public={"declared": True, "kind": kind.text, "side": kind.side, "upgrade": bool(upgraded) and at_trick1},
    )


def _card_moves(table: KankeiTable[Any], player: int, declaration: int | None) -> list[Hashable]:
    plain, joker = legal_play(table, player, declaration)
    moves: list[Hashable] = [Play(c, -1, declaration) for c in plain]
    if joker:
        if len(table.trick):
            moves.append(Play(table.joker, -1, declaration))
        else:
            moves.extend(Play(table.joker, s, declaration) for s in range(4))
    return moves
