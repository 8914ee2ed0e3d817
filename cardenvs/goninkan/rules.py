"""The rules engine of Goninkan (5–6 players) and Yoninkan (4 players, hidden partners in deal 1): the decision
protocol over the phases (:mod:`.table`, :mod:`.teams`, :mod:`.play`, :mod:`.results`, :mod:`.reasons`).

One engine plays one episode: a round (1–3 deals) by default, or a whole match of ``n_rounds`` rounds
(``episode="match"``); rewards are each round's points, paid when the round ends. The rules read no observer:
:class:`cardenvs.goninkan.game.KankeiGame` adds the observation, rendering and re-deals."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Self

import numpy as np

from cardenvs.core.cards import SUIT_TEXT, card_text, parse_cards
from cardenvs.core.engine import TERMINAL
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import deal_seat
from cardenvs.goninkan.actions import (
    CARD_SLOTS,
    KEY_SLOTS,
    NO_DECLARATION,
    BlindSwap,
    ChooseTrump,
    LeadChoice,
    Play,
    Show,
    Sweep,
)
from cardenvs.goninkan.reasons import KankeiReasons
from cardenvs.goninkan.scoring import Kind
from cardenvs.goninkan.table import LEAD_CHOICE, PHASES, PLAY, SHOW, SWEEP, TRUMP, OptionsT


class KankeiRules(KankeiReasons[OptionsT]):
    """One Goninkan or Yoninkan episode's rules (a round, or a match of rounds)."""

    def __init__(self, options: OptionsT, rng: np.random.Generator):
        self._setup(options, rng)
        n_rounds = options.n_rounds
        if options.episode == "match":
            self.round_number = 1
        elif options.round_number is not None:
            self.round_number = options.round_number
        else:
            self.round_number = int(rng.integers(1, n_rounds + 1))
        self.dealer = options.dealer if options.dealer is not None else int(rng.integers(self.num_players))
        self._begin_round()

    @classmethod
    def from_deal(
        cls,
        options: OptionsT,
        hands: Sequence[str],
        *,
        dealer: int | None = None,
        rng: np.random.Generator | None = None,
        round_number: int = 1,
        deal: int = 1,
        kankei: Sequence[int] | None = None,
        deal1_holders: tuple[int, int] | None = None,
        round_points: Sequence[float] | None = None,
        later_deals: Sequence[Sequence[str]] = (),
        nijukan: tuple[str, str] | None = None,
        seats: Sequence[int] | None = None,
    ) -> Self:
        """A game from an explicit deal. ``hands[p]`` lists player ``p``'s cards as text (``"A♠ 10♥ BJ"``;
        the 6-player dealer's hand is ``""``); together they must be the deck exactly.

        * ``deal=1`` starts a round (trump from ``round_number``'s place in the match, teams from the calls);
          ``nijukan=(key, card)`` scripts a 二重関 exchange: the key card that goes to the partner and the
          partner's card that comes back.
        * ``deal=2`` or ``3`` starts there: give the team ``kankei``, ``deal1_holders`` = (who held the joker,
          who held the key trump card in deal 1) and optionally the round's ``round_points`` so far.
        * ``later_deals`` are the hands of the following deals, in order (random deals once exhausted);
          ``seats`` is the seating, ``seats[s]`` = the player on physical seat ``s``.
        """
        game = cls.__new__(cls)
        game._setup(options, rng if rng is not None else np.random.default_rng(0))
        n = game.num_players
        dealer = deal_seat("dealer", dealer, options.dealer, n)
        bad_round = not 1 <= round_number <= options.n_rounds
        if bad_round or deal not in (1, 2, 3):
            raise InvalidOptionError(
                f"need 1 <= round_number <= {options.n_rounds}, a dealer in 0..{n - 1} and deal 1, 2 or 3; "
                f"got round_number={round_number}, dealer={dealer}, deal={deal}"
            )
        game.round_number = round_number
        game.rounds_played = round_number - 1 if options.episode == "match" else 0
        game.dealer = dealer
        if seats is not None:
            if sorted(seats) != list(range(n)):
                raise InvalidOptionError(f"seats must be a permutation of 0..{n - 1}, got {list(seats)}")
            game.person_at = list(seats)
            game.seat_of = [game.person_at.index(p) for p in range(n)]
            game._refresh_orders()
        game._scripted_deals = [game._parse_hands(h) for h in (hands, *later_deals)]
        if nijukan is not None:
            key, card = (game.cards.index(c) for c in parse_cards(" ".join(nijukan)))
            game._scripted_nijukan = (key, card)
        if deal == 1:
            game._begin_round()
            return game
        if kankei is None or deal1_holders is None:
            raise InvalidOptionError("a game starting at deal 2 or 3 needs kankei and deal1_holders")
        game._new_round_state()
        if round_points is not None:
            game.round_points[:] = round_points
        game._set_team(list(kankei))
        game.team_public = True
        game.deal1_holders = deal1_holders
        game.deal = deal - 1
        game._begin_next_deal()
        return game

    def _parse_hands(self, hands: Sequence[str]) -> list[list[int]]:
        n = self.num_players
        if len(hands) != n:
            raise InvalidOptionError(f"need {n} hands (one per player), got {len(hands)}")
        parsed = []
        for text in hands:
            ids = parse_cards(text)
            missing = [card_text(c) for c in ids if c not in self.cards.ids]
            if missing:
                raise InvalidOptionError(f"{' '.join(missing)} not in the {self.cards.deck.name} deck")
            parsed.append(sorted(self.cards.index(c) for c in ids))
        every = sorted(c for h in parsed for c in h)
        if every != list(range(self.deck_size)):
            raise InvalidOptionError(f"the hands must be the {self.cards.deck.name} deck exactly, each card once")
        return parsed

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.actions.size, dtype=np.int8)
        player = self.current_player
        if player == TERMINAL:
            return mask
        phase = self.phase
        if phase == PLAY:
            if self.declaring():
                mask[self.A_DECLARE] = 1
                for kind in self.available_declarations(player):
                    mask[self.A_DECLARE + 1 + kind] = 1
                return mask
            plain, joker = self.legal_play(player, self.decl_choice)
            for c in plain:
                mask[self.A_PLAY + c] = 1
            if joker:
                if len(self.trick):
                    mask[self.A_JOKER] = 1
                else:
                    mask[self.A_LEAD_JOKER : self.A_LEAD_JOKER + 4] = 1
        elif phase == LEAD_CHOICE:
            mask[self.A_LEAD_CHOICE : self.A_LEAD_CHOICE + 2] = 1
        elif phase == SHOW:
            hand = self.hands[player]
            for c in hand:
                if c > self.pending_show and (self.pending_show >= 0 or c != hand[-1]):
                    mask[self.A_SHOW + c] = 1
        elif phase == TRUMP:
            mask[self.A_TRUMP : self.A_TRUMP + 4] = 1
        elif phase == SWEEP:
            mask[self.A_SWEEP : self.A_SWEEP + 2] = 1
        else:
            mask[self.A_SWAP : self.A_SWAP + KEY_SLOTS * len(self.swap_slots[1])] = 1
        return mask

    def _apply(self, action: int) -> None:
        player = self.current_player
        phase = self.phase
        if phase == PLAY:
            if self.A_DECLARE >= 0 and action >= self.A_DECLARE:
                self.decl_choice = action - self.A_DECLARE - 1
            elif action < self.A_LEAD_JOKER:
                self._play_card(player, action - self.A_PLAY, -1)
            elif action < self.A_JOKER:
                self._play_card(player, self.joker, action - self.A_LEAD_JOKER)
            else:
                self._play_card(player, self.joker, -1)
        elif phase == LEAD_CHOICE:
            lead = action == self.A_LEAD_CHOICE
            leader = player if lead else self.kankei_partner(player)
            self.events.add("lead_choice", player, public={"choice": "いく" if lead else "こい", "leader": leader})
            self._start_trick(leader)
        elif phase == SHOW:
            card = action - self.A_SHOW
            if self.pending_show < 0:
                self.pending_show = card
                return
            shown = [self.pending_show, card]
            self.pending_show = -1
            for c in shown:
                self.known[self.chooser, c] = player
            text = self.cards_text(shown)
            self.events.add(
                "show",
                player,
                public={"to": self.chooser},
                private={self.chooser: {"cards": text}, player: {"cards": text}},
            )
            self.phase, self.current_player = TRUMP, self.chooser
        elif phase == TRUMP:
            self.trump = action - self.A_TRUMP
            self.static_changed()
            self.events.add("trump", player, public={"suit": SUIT_TEXT[self.trump]})
            self._start_trick(player)
        elif phase == SWEEP:
            if action == self.A_SWEEP:
                self._declare(player, Kind.JUROKU if self.is_kankei[player] else Kind.REV_JUROKU, at_trick1=False)
            else:
                self.events.add("sweep", player, public={"declared": False})
            self._continue_or_end(player)
        else:
            key_slot, card_slot = divmod(action - self.A_SWAP, CARD_SLOTS)
            keys, cards = self.swap_slots
            self.swap_slots = ([], [])
            self._nijukan_exchange(keys[key_slot], cards[card_slot], player, (key_slot, card_slot))

    def legal_moves(self) -> list[Hashable]:
        player = self.current_player
        if player == TERMINAL:
            return []
        phase = self.phase
        if phase == PLAY:
            if self.declaring():
                moves: list[Hashable] = []
                for declaration in [NO_DECLARATION, *self.available_declarations(player)]:
                    moves.extend(self._card_moves(player, int(declaration)))
                return moves
            return self._card_moves(player, self.decl_choice)
        if phase == LEAD_CHOICE:
            return [LeadChoice(True), LeadChoice(False)]
        if phase == SHOW:
            hand = self.hands[player]
            if self.pending_show >= 0:
                return [Show(self.pending_show, c) for c in hand if c > self.pending_show]
            return [Show(a, b) for i, a in enumerate(hand) for b in hand[i + 1 :]]
        if phase == TRUMP:
            return [ChooseTrump(s) for s in range(4)]
        if phase == SWEEP:
            return [Sweep(True), Sweep(False)]
        return [BlindSwap(k, c) for k in range(KEY_SLOTS) for c in range(len(self.swap_slots[1]))]

    def _card_moves(self, player: int, declaration: int | None) -> list[Hashable]:
        plain, joker = self.legal_play(player, declaration)
        moves: list[Hashable] = [Play(c, -1, declaration) for c in plain]
        if joker:
            if len(self.trick):
                moves.append(Play(self.joker, -1, declaration))
            else:
                moves.extend(Play(self.joker, s, declaration) for s in range(4))
        return moves

    def move_actions(self, move: Hashable) -> list[int]:
        if isinstance(move, Play):
            ids = []
            if self.declaring() and move.declaration is not None:
                ids.append(self.A_DECLARE + 1 + move.declaration)
            if move.card != self.joker:
                ids.append(self.A_PLAY + move.card)
            elif move.suit >= 0:
                ids.append(self.A_LEAD_JOKER + move.suit)
            else:
                ids.append(self.A_JOKER)
            return ids
        if isinstance(move, LeadChoice):
            return [self.A_LEAD_CHOICE + (0 if move.lead else 1)]
        if isinstance(move, Show):
            first = [] if self.pending_show >= 0 else [self.A_SHOW + move.low]
            return [*first, self.A_SHOW + move.high]
        if isinstance(move, ChooseTrump):
            return [self.A_TRUMP + move.suit]
        if isinstance(move, Sweep):
            return [self.A_SWEEP + (0 if move.declare else 1)]
        if isinstance(move, BlindSwap):
            return [self.A_SWAP + move.key * CARD_SLOTS + move.card]
        raise TypeError(f"not a {self.rules.name} move: {move!r}")

    def move_in_progress(self) -> bool:
        return self.pending_show >= 0 or (self.phase == PLAY and self.decl_choice is not None)

    def privileged_state(self) -> dict[str, Any]:
        return {
            "game": self.rules.name,
            "round": self.round_number,
            "deal": self.deal,
            "dealer": self.dealer,
            "seats": list(self.person_at),
            "trump": SUIT_TEXT[self.trump] if self.trump >= 0 else None,
            "kankei": list(self.kankei),
            "hands": [self.cards_text(h) for h in self.hands],
            "trick_number": self.trick_no,
            "trick": [[p, self.cards.text[c]] for p, c in zip(self.trick.seats, self.trick.cards, strict=True)],
            "honours": self.honours.tolist(),
            "declarations": [[d.player, d.kind.text, d.at_trick1] for d in self.declarations],
            "phase": PHASES[self.decision_type()] if self.current_player != TERMINAL else "over",
            "current_player": self.current_player,
            "round_points": self.round_points.tolist(),
            "match_points": self.match_points.tolist(),
        }
