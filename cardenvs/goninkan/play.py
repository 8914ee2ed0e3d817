"""Tricks and declarations of Goninkan and Yoninkan: playing cards (the joker's rules), trick winners, Yoninkan's
trick-1 declarations and the sweep offers of deals 2 and 3."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.core.tricks import Trick, record_void
from cardenvs.goninkan.ruleset import TRICKS
from cardenvs.goninkan.scoring import Declaration, Kind, is_decided, reverse_skunk_established, skunk_established
from cardenvs.goninkan.table import DECLARE, PLAY, SWEEP, UPGRADES, OptionsT
from cardenvs.goninkan.teams import KankeiTeams
from cardenvs.goninkan.tricks import legal_cards, trick_winner


class KankeiPlay(KankeiTeams[OptionsT]):
    """Plays the tricks (spec §6, §8, §10)."""

    def _start_trick(self, leader: int) -> None:
        self.trick = Trick(leader)
        self.trick_leading = -1
        self.in_trick.clear()
        self.phase = PLAY
        self.current_player = leader
        self.decl_choice = None

    def declaring(self) -> bool:
        """Whether the player to act is at the declaration sub-step of a Yoninkan trick-1 turn.

        Who is asked must not tell anyone a hidden side: while the teams are hidden (deal 1) every player is
        asked as long as either side still has a declaration open, a player whose own side has none answering
        the forced ``declare(none)``; once the teams are known (deals 2 and 3) a player is asked when his side
        has one open."""
        if not (
            self.phase == PLAY and self.rules.trick1_declarations and self.trick_no == 1 and self.decl_choice is None
        ):
            return False
        sides = (True, False) if self.deal == 1 else (bool(self.is_kankei[self.current_player]),)
        return any(self.open_declarations(kankei) for kankei in sides)

    def available_declarations(self, player: int) -> list[Kind]:
        """Declarations ``player`` may make in trick 1 (he always knows his own side)."""
        return self.open_declarations(bool(self.is_kankei[player]))

    def open_declarations(self, kankei: bool) -> list[Kind]:
        """Declarations still open to the kankei side (``kankei``) or the mukan side in trick 1 (public)."""
        weak, strong = (Kind.SKUNK, Kind.JUROKU) if kankei else (Kind.REV_SKUNK, Kind.REV_JUROKU)
        kinds = [weak, strong] if self.deal > 1 or self.rules.declarations_in_deal1 else [weak]
        live = [d.kind for d in self.declarations if d.kind.side == weak.side]
        if self.rules.max_declarations_per_side == 1:
            if not live:
                return kinds
            return [strong] if live == [weak] and strong in kinds else []
        return kinds if len(live) < 2 else []

    def legal_play(self, player: int, declaration: int | None) -> tuple[list[int], bool]:
        """(plain cards ``player`` may play now, whether the joker may be played) when the card goes with
        ``declaration`` (Yoninkan trick 1: a ``Kind``, ``NO_DECLARATION`` or ``None``)."""
        declared = declaration is not None and declaration >= 0
        return legal_cards(self.rules, self.hands[player], self.trick, self.trick_no, declared, self.forced_lead)

    def decision_type(self) -> int:
        """The kind of decision the player to act faces (index into ``PHASES``)."""
        return DECLARE if self.declaring() else self.phase

    def _play_card(self, player: int, card: int, named_suit: int) -> None:
        declaration = self.decl_choice
        self.decl_choice = None
        self.hands[player].remove(card)
        self.hand_vec[player, card] = 0
        self.hand_sizes[player] -= 1
        self.who_played[card] = player
        self.played.record(player, card)
        self.in_trick.record(player, card)
        self.known[:, card] = -1
        trick = self.trick
        if not len(trick):
            trick.led_suit = named_suit if card == self.joker else self.cards.suit[card]
        elif card != self.joker and record_void(self.voids, player, self.cards.suit[card], trick.led_suit):
            self.void_mat[player, trick.led_suit] = 1
            if trick.led_suit == self.deal1_trump:  # the only void that tells where the key trump card is
                self.knowledge_changed()
        trick.add(player, card)
        self.trick_leading = trick_winner(self.rules, trick, self.trick_no, self.trump)
        if self.trick_no >= 9:
            self.played_late[player] = True
        if declaration is not None and declaration >= 0:
            self._declare(player, Kind(declaration), at_trick1=True)
        public: dict[str, Any] = {"card": self.cards.text[card], "trick": self.trick_no}
        if card == self.joker and len(trick) == 1:
            public["suit"] = SUIT_TEXT[named_suit]
        self.events.add("play", player, public=public)
        if self.deal == 1 and (card in self.key_cards() or not self.hands[player]):
            self.knowledge_changed()  # an emptied hand can no longer hold an unplayed key card
        if len(trick) == self.active_count:
            self._end_trick()
        else:
            self.current_player = self.next_active(player)

    def _declare(self, player: int, kind: Kind, at_trick1: bool) -> None:
        upgraded = [d for d in self.declarations if UPGRADES.get(d.kind) == kind]
        if at_trick1 and upgraded and self._max_per_side() == 1:
            self.declarations.remove(upgraded[0])
        self.declarations.append(Declaration(kind, player, at_trick1))
        self.declared_by.append((player, kind))
        self.knowledge_changed()
        self.static_changed()
        self.events.add(
            "declare" if at_trick1 else "sweep",
            player,
            public={"declared": True, "kind": kind.text, "side": kind.side, "upgrade": bool(upgraded) and at_trick1},
        )

    def _max_per_side(self) -> int:
        return self.rules.max_declarations_per_side

    def _end_trick(self) -> None:
        trick = self.trick
        winner = self.trick_leading
        taken = sum(self.cards.honour[c] for c in trick.cards)
        self.honours[winner] += taken
        self.side_honours[0 if self.is_kankei[winner] else 1] += taken
        self.events.add(
            "trick",
            public={
                "trick": self.trick_no,
                "seats": list(trick.seats),
                "cards": [self.cards.text[c] for c in trick.cards],
                "winner": winner,
                "honours": taken,
            },
        )
        self.trick_no += 1
        if taken and (self.declarations or self.honours.sum() >= self._honours_to_decide):
            self.knowledge_changed()  # some team assignment might now have decided the deal
        self._after_trick(winner)

    def _after_trick(self, winner: int) -> None:
        table, deal = self.rules.scores, self.deal
        k, m = self.side_honours
        if deal > 1 and self.trick_no <= TRICKS:
            sides = [d.kind.side for d in self.declarations]
            if not self.sweep_offered[0] and "kankei" not in sides and skunk_established(table, deal, k, m):
                self.sweep_offered[0] = True
                self.phase, self.current_player = SWEEP, winner
                return
            if not self.sweep_offered[1] and "mukan" not in sides and reverse_skunk_established(table, deal, k, m):
                self.sweep_offered[1] = True
                self.phase, self.current_player = SWEEP, winner
                return
        self._continue_or_end(winner)

    def _continue_or_end(self, leader: int) -> None:
        k, m = self.side_honours
        decided = is_decided(self.rules.scores, self.deal, k, m, self.declarations)
        if self.trick_no > TRICKS or (decided and not self.options.play_all_tricks):
            self._end_deal()
        else:
            self._start_trick(leader)
