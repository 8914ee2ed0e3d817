"""The rules engine of Goninkan (5–6 players) and Yoninkan (4 players, hidden partners in deal 1): one game
object that holds the table (:mod:`.table`) and composes the phases, each an object with the narrow
:class:`~cardenvs.goninkan.table.Phase` interface: the deal (:mod:`.deal`), deal 1's calls (:mod:`.calls`), deals
2 and 3's trump choice (:mod:`.trump_choice`), the tricks (:mod:`.play`) and the settlement (:mod:`.results`).
The game alone moves the table from one phase to the next; the phases never call each other.

One engine plays one episode: a round (1–3 deals) by default, or a whole match of ``n_rounds`` rounds
(``episode="match"``); rewards are each round's points, paid when the round ends. How the game is seen (the
encoder, the renderer) is attached by its definition (:meth:`~cardenvs.core.engine.RulesEngine.observed_by`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Self

import numpy as np

from cardenvs.core.cards import SUIT_TEXT, card_text, parse_cards
from cardenvs.core.engine import TERMINAL
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import deal_seat
from cardenvs.goninkan import knowledge
from cardenvs.goninkan.calls import KankeiCalls
from cardenvs.goninkan.deal import Dealing
from cardenvs.goninkan.play import TrickPlay
from cardenvs.goninkan.reasons import why_illegal
from cardenvs.goninkan.results import Settlement
from cardenvs.goninkan.table import DECLARE, PHASES, PLAY, KankeiTable, OptionsT, Phase
from cardenvs.goninkan.trump_choice import TrumpChoice


class KankeiGame(KankeiTable[OptionsT]):
    """One Goninkan or Yoninkan episode (a round, or a match of rounds)."""

    dealing: ClassVar[Dealing] = Dealing()
    calls: ClassVar[KankeiCalls] = KankeiCalls()
    trump_choice: ClassVar[TrumpChoice] = TrumpChoice()
    tricks: ClassVar[TrickPlay] = TrickPlay()
    settlement: ClassVar[Settlement] = Settlement()
    """The phases hold no state, so every game shares them (a variant of the game may replace one)."""

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

    def _setup(self, options: OptionsT, rng: np.random.Generator) -> None:
        super()._setup(options, rng)
        self.layout = self._observer().layout(self)
        tricks, calls, trump_choice = self.tricks, self.calls, self.trump_choice
        self._phases: tuple[Phase, ...] = (tricks, tricks, calls, trump_choice, trump_choice, tricks, calls)
        """The phase that owns each decision type (indexed like ``PHASES``)."""

    # The order of the phases: a round deals, forms the teams in deal 1 or chooses the trump in deals 2 and 3, plays
    # the tricks and settles; a successful deal is followed by the next one (up to 3), a round by the next round.
    def _begin_round(self) -> None:
        self._new_round_state()
        self.dealing.deal(self, self.deal1_trump)
        self.calls.begin(self)

    def _begin_next_deal(self) -> None:
        self.deal += 1
        self.dealing.deal(self, -1)
        self.trump_choice.begin(self)

    def _end_deal(self) -> None:
        if self.settlement.end_deal(self):
            self._begin_next_deal()
        elif self.settlement.end_round(self):
            self._begin_round()

    def _apply(self, action: int) -> None:
        if self._phases[self.phase].apply(self, action):
            self._end_deal()

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.actions.size, dtype=np.int8)
        if self.current_player != TERMINAL:
            self._phases[self.phase].mask(self, mask)
        return mask

    def legal_moves(self) -> list[Hashable]:
        if self.current_player == TERMINAL:
            return []
        return self._phases[self.phase].moves(self)

    def move_actions(self, move: Hashable) -> list[int]:
        for phase in (self.tricks, self.calls, self.trump_choice):
            ids = phase.move_actions(self, move)
            if ids is not None:
                return ids
        raise TypeError(f"not a {self.rules.name} move: {move!r}")

    def move_in_progress(self) -> bool:
        return self.pending_show >= 0 or (self.phase == PLAY and self.decl_choice is not None)

    def declaring(self) -> bool:
        """Whether the player to act is at the declaration sub-step of a Yoninkan trick-1 turn."""
        return self.tricks.declaring(self)

    def decision_type(self) -> int:
        """The kind of decision the player to act faces (index into ``PHASES``)."""
        phase = self.phase  # asked at every observation: only trick 1 of the play can hold a declaration
        return DECLARE if phase == PLAY and self.trick_no == 1 and self.tricks.declaring(self) else phase

    def _why_illegal(self, action: int) -> str:
        return why_illegal(self, self.decision_type(), action)

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        return knowledge.resample(self, observer, rng)

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
