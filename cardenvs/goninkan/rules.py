"""Pure rules engine of Goninkan (5–6 players) and Yoninkan (4 players, hidden partners in deal 1).

Spec: ``shared/rules/goninkan.md``. A player index is a *person* and never changes; people sit on physical
seats (``person_at[seat]``), play passes to the next seat on the right (``seat + 1``) and, with six players,
skips the dealer, who sits the round out. Goninkan's seat swap moves people between seats permanently.

One engine plays one episode: a round (1–3 deals) by default, or a whole match of ``n_rounds`` rounds
(``episode="match"``); rewards are each round's points, paid when the round ends.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from typing import Any, Self, TypeVar

import numpy as np

from cardenvs.core.cards import SPADES, SUIT_TEXT, card_text, parse_cards, rank_index
from cardenvs.core.copying import ChanceGenerator, materialise_generator, share_generator
from cardenvs.core.engine import TERMINAL, RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.events import EventLog
from cardenvs.core.options import deal_seat
from cardenvs.core.tricks import PlayedCards, Trick, record_void
from cardenvs.goninkan import knowledge
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
    action_table,
)
from cardenvs.goninkan.encoding import encode, observation_layout
from cardenvs.goninkan.options import GoninkanOptions, KankeiOptions, YoninkanOptions
from cardenvs.goninkan.ruleset import DEAL1_TRUMP_CYCLE, LAST_ROUND_TRUMP, TRICKS, Ruleset, ruleset
from cardenvs.goninkan.scoring import (
    Declaration,
    Kind,
    Line,
    is_decided,
    reverse_skunk_established,
    settle,
    skunk_established,
)
from cardenvs.goninkan.tricks import legal_cards, trick_winner

HAND_SIZE = 10
ACE = rank_index("A")
PLAY, DECLARE, LEAD_CHOICE, SHOW, TRUMP, SWEEP, BLIND_SWAP = range(7)
PHASES = ("play", "declare", "lead_choice", "show", "trump", "sweep", "blind_swap")
"""Decision types; ``declare`` is the first sub-step of a Yoninkan trick-1 turn."""
UPGRADES = {Kind.SKUNK: Kind.JUROKU, Kind.REV_SKUNK: Kind.REV_JUROKU}
OptionsT = TypeVar("OptionsT", bound=KankeiOptions)


class KankeiGame(RulesEngine[OptionsT]):
    """One Goninkan or Yoninkan episode (a round, or a match of rounds)."""

    rng = ChanceGenerator()

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
        self.options = options
        self.rng = rng
        self.rules: Ruleset = ruleset(options)
        self.cards = self.rules.cards
        self.num_players = n = self.rules.num_players
        self.deck_size = d = self.cards.size
        self.joker = self.cards.joker
        self.layout = observation_layout(self.rules, options.n_rounds)
        self.actions = action_table(self.cards.text, self.rules.is_goninkan)
        a = self.actions
        self.A_PLAY = a["play"].offset
        self.A_LEAD_JOKER = a["lead_joker"].offset
        self.A_JOKER = a["joker"].offset
        self.A_LEAD_CHOICE = a["lead_choice"].offset if self.rules.is_goninkan else -1
        self.A_SHOW = a["show"].offset
        self.A_TRUMP = a["trump"].offset
        self.A_SWEEP = a["sweep"].offset
        self.A_SWAP = a["blind_swap"].offset if self.rules.is_goninkan else -1
        self.A_DECLARE = -1 if self.rules.is_goninkan else a["declare"].offset
        self.events = EventLog()
        self.match_points = np.zeros(n, dtype=np.float64)
        self.round_points = np.zeros(n, dtype=np.float64)
        self.rounds_played = 0
        self._rewards = None
        self.person_at = list(range(n))
        self.seat_of = list(range(n))
        self.active_count = min(n, 5)
        self._refresh_orders()
        self._scripted_deals: list[list[list[int]]] = []
        self._scripted_nijukan: tuple[int, int] | None = None
        # per-deal arrays, allocated once
        self.hand_vec = np.zeros((n, d), dtype=np.float32)
        self.played = PlayedCards(n, d)
        self.in_trick = PlayedCards(n, d)
        self.known = np.full((n, d), -1, dtype=np.int8)
        self.team_view = np.full((n, n), -1, dtype=np.int8)
        """``team_view[observer]``: read it through :func:`knowledge.team_view`, which refreshes it."""
        self.views_stale = [True] * n
        self.knows_all = [False] * n
        """``knows_all[observer]``: whether his (refreshed) team view is complete."""
        self.pair_cache: dict[tuple[int, int], bool] = {}
        self.static_version = 0
        """Bumped whenever a rarely-changing observation feature may change (see ``encoding``)."""
        self.static_cache: list[tuple[int, np.ndarray | None]] = [(-1, None)] * n
        self.void_mat = np.zeros((n, 4), dtype=np.float32)
        self.hand_sizes = np.zeros(n, dtype=np.float32)
        self.current_player = TERMINAL

    # ------------------------------------------------------------------ explicit deals (tests, analysis)
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

    # ------------------------------------------------------------------ seating
    def _refresh_orders(self) -> None:
        n = self.num_players
        self.orders = [[self.person_at[(self.seat_of[p] + k) % n] for k in range(n)] for p in range(n)]
        """``orders[p]``: everybody in play order starting with ``p`` (the dealer who sits out included)."""
        self.order_index = [np.asarray(order, dtype=np.intp) for order in self.orders]
        self.relative = [{q: k for k, q in enumerate(order)} for order in self.orders]
        """``relative[p][q]``: how many seats after ``p`` player ``q`` sits."""

    def is_active(self, person: int) -> bool:
        """Whether ``person`` plays this round (with six players the dealer sits out)."""
        return self.num_players < 6 or person != self.dealer

    def next_active(self, person: int) -> int:
        """The next player to the right who plays this round."""
        for q in self.orders[person][1:]:
            if self.is_active(q):
                return q
        raise AssertionError("no other active player")

    def active_players(self) -> list[int]:
        """The players of this round in play order, starting at the dealer's right."""
        return [q for q in [*self.orders[self.dealer][1:], self.dealer] if self.is_active(q)]

    def scores_with_kankei(self, person: int) -> bool:
        """Whether ``person`` is paid as a 関係 player (the team, and the sitting-out dealer)."""
        return self.is_kankei[person] or not self.is_active(person)

    # ------------------------------------------------------------------ rounds and deals
    def _new_round_state(self) -> None:
        last = self.round_number == self.options.n_rounds
        self.deal1_trump = LAST_ROUND_TRUMP if last else DEAL1_TRUMP_CYCLE[(self.round_number - 1) % 3]
        self.deal = 1
        self.round_points[:] = 0
        self.kankei: tuple[int, ...] = ()
        self.is_kankei = [False] * self.num_players
        self.team_public = False
        self.double_announced = False
        self.deal1_holders = (-1, -1)
        self.nijukan_pending = -1
        """The 二重関 holder while the exchange is pending, else -1."""

    def _begin_round(self) -> None:
        self._new_round_state()
        self._start_deal(self.deal1_trump)
        self._form_teams()

    def key_cards(self) -> tuple[int, int]:
        """(joker, key trump card) of this round's deal 1: the cards that make 関係."""
        return self.joker, self.cards.find(self.rules.key_rank, self.deal1_trump)

    def _deal_hands(self) -> list[list[int]]:
        if self._scripted_deals:
            scripted = self._scripted_deals.pop(0)
            sizes = [len(h) for h in scripted]
            if sizes != [HAND_SIZE if self.is_active(p) else 0 for p in range(self.num_players)]:
                raise InvalidOptionError(
                    f"each player must be dealt {HAND_SIZE} cards (none to a dealer who sits out, here player "
                    f"{self.dealer} with 6 players); got hand sizes {sizes}"
                )
            return scripted
        hands: list[list[int]] = [[] for _ in range(self.num_players)]
        order = self.rng.permutation(self.deck_size)
        for i, p in enumerate(self.active_players()):
            hands[p] = sorted(int(c) for c in order[i * HAND_SIZE : (i + 1) * HAND_SIZE])
        return hands

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

    def reset_deal(self, hands: list[list[int]], trump: int) -> None:
        """Every member of a deal as at its start, with these hands (a position fills in the rest)."""
        self.hands = hands
        self.trump = trump
        self.hand_vec[:] = 0
        for p, hand in enumerate(hands):
            self.hand_vec[p, hand] = 1
        self.played.clear()
        self.in_trick.clear()
        self.known[:] = -1
        self.trick_no = 1
        self.trick = Trick(-1)
        self.trick_leading = -1
        """The player whose card is winning the trick in progress (-1 before its lead)."""
        self.honours = np.zeros(self.num_players, dtype=np.int64)
        self.side_honours = [0, 0]
        """Honours of the 関係 side and of the 無関係 side this deal."""
        self.voids = [0] * self.num_players
        self.void_mat[:] = 0
        self.who_played = [-1] * self.deck_size
        self.hand_sizes[:] = [len(h) for h in hands]
        self.played_late = [False] * self.num_players
        """Who has played in trick 9 or later (Goninkan: they no longer hold the joker)."""
        self.declarations: list[Declaration] = []
        table = self.rules.scores
        self._honours_to_decide = min(table.target(self.deal), table.fail_need(self.deal))
        self.declared_by: list[tuple[int, Kind]] = []
        self.sweep_offered = [False, False]
        self.pending_show = -1
        self.decl_choice: int | None = None
        self.forced_lead = -1
        self.chooser = -1
        self.swap_slots: tuple[list[int], list[int]] = ([], [])
        self.team_view[:] = -1
        self.knowledge_changed()
        self.static_changed()

    def _must_redeal(self, hands: list[list[int]]) -> bool:
        if not self.rules.redeal_on_double:
            return False
        joker, key = self.key_cards()
        return any(joker in h and key in h for h in hands)

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
        assert isinstance(self.options, GoninkanOptions)
        if self._scripted_nijukan is not None:
            given, taken = self._scripted_nijukan
            self._scripted_nijukan = None
            self._nijukan_exchange(given, taken, None)
        elif self.options.nijukan_exchange == "random":
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

    def _move_card(self, card: int, giver: int, receiver: int) -> None:
        self.hands[giver].remove(card)
        self.hands[receiver] = sorted([*self.hands[receiver], card])
        self.hand_vec[giver, card] = 0
        self.hand_vec[receiver, card] = 1
        self.hand_sizes[giver] -= 1
        self.hand_sizes[receiver] += 1

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
        assert isinstance(self.options, GoninkanOptions)
        mode = self.options.kankei_lead_decider
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
        assert isinstance(self.options, YoninkanOptions)
        joker, key = self.key_cards()
        self.deal1_holders = (joker_holder, key_holder)
        if joker_holder != key_holder:
            self._set_team([joker_holder, key_holder])
        elif self.options.yoninkan_double == "one_vs_three":
            self._set_team([joker_holder])
        elif self.options.yoninkan_double == "opposite_partner":
            partner = self.next_active(self.next_active(joker_holder))
            self._set_team([joker_holder, partner])
            self.team_public = self.double_announced = True
            self.known[:, joker] = self.known[:, key] = joker_holder
            self.events.add("kankei", public={"callers": [joker_holder], "double": True, "partner": partner})
        if self.options.yoninkan_first_lead == "spade_ace":
            ace = self.cards.find(ACE, SPADES)
            leader = self.holder(ace)
            self.forced_lead = ace
            self.known[:, ace] = leader
        else:
            leader = self.next_active(self.dealer)
        self._start_trick(leader)

    def _set_team(self, members: list[int]) -> None:
        self.kankei = tuple(sorted(members))
        self.is_kankei = [p in self.kankei for p in range(self.num_players)]
        self.knowledge_changed()

    def kankei_partner(self, person: int) -> int:
        """The other member of a two-player 関係 team."""
        return next(p for p in self.kankei if p != person)

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

    # ------------------------------------------------------------------ tricks
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
        assert isinstance(self.options, YoninkanOptions)
        weak, strong = (Kind.SKUNK, Kind.JUROKU) if kankei else (Kind.REV_SKUNK, Kind.REV_JUROKU)
        kinds = [weak, strong] if self.deal > 1 or self.options.declarations_in_deal1 else [weak]
        live = [d.kind for d in self.declarations if d.kind.side == weak.side]
        if self.options.max_declarations_per_side == 1:
            if not live:
                return kinds
            return [strong] if live == [weak] and strong in kinds else []
        return kinds if len(live) < 2 else []

    def legal_play(self, player: int, declaration: int | None) -> tuple[list[int], bool]:
        """(plain cards ``player`` may play now, whether the joker may be played) when the card goes with
        ``declaration`` (Yoninkan trick 1: a ``Kind``, ``NO_DECLARATION`` or ``None``)."""
        declared = declaration is not None and declaration >= 0
        return legal_cards(self.rules, self.hands[player], self.trick, self.trick_no, declared, self.forced_lead)

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
        if self.deal == 1 and card in self.key_cards():
            self.knowledge_changed()
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

    def _end_deal(self) -> None:
        k, m = self.side_honours
        outcome = settle(self.rules.scores, self.deal, k, m, self.declarations)
        if outcome.cancels_round:
            self.round_points[:] = 0
        for line in outcome.lines:
            self._pay(line)
        self.team_public = True  # Yoninkan: the teams are revealed at the end of deal 1
        self.knowledge_changed()
        self.static_changed()
        self.events.add(
            "deal_over",
            public={
                "round": self.round_number,
                "deal": self.deal,
                "kankei": list(self.kankei),
                "honours": {"kankei": k, "mukan": m},
                "success": outcome.success,
                "lines": [[line.side, line.points, line.label] for line in outcome.lines],
                "cancelled": outcome.cancels_round,
                "round_points": self.round_points.tolist(),
            },
        )
        if outcome.success and self.deal < 3:
            self._begin_next_deal()
        else:
            self._end_round()

    def _pay(self, line: Line) -> None:
        for p in range(self.num_players):
            on_side = self.scores_with_kankei(p) == (line.side == "kankei")
            self.round_points[p] += line.points if on_side else -line.points

    def _end_round(self) -> None:
        points = self.round_points.copy()
        self.static_changed()
        self.match_points += points
        self._rewards = points if self._rewards is None else self._rewards + points
        self.rounds_played += 1
        self.events.add("round_over", public={"round": self.round_number, "points": points.tolist()})
        if self.options.episode == "match" and self.rounds_played < self.options.n_rounds:
            self.dealer = self.orders[self.dealer][1]
            self.round_number += 1
            self._begin_round()
            return
        self.current_player = TERMINAL
        self.phase = PLAY
        best = self.match_points.max()
        self.events.add(
            "game_over",
            public={
                "rewards": self.match_points.tolist(),
                "rounds": self.rounds_played,
                "winners": [p for p in range(self.num_players) if self.match_points[p] == best],  # ties share (A16)
            },
        )

    # ------------------------------------------------------------------ engine protocol
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

    def _why_illegal(self, action: int) -> str:
        block = next(b for b in self.actions.blocks.values() if action in b)
        expected = self.decision_type()
        wanted = {
            PLAY: "play a card",
            DECLARE: "choose a trick-1 declaration (declare(none) for none)",
            LEAD_CHOICE: "say いく or こい",
            SHOW: "pick the cards to show",
            TRUMP: "name the trump suit",
            SWEEP: "declare or stop",
            BLIND_SWAP: "take a face-down key slot and card slot",
        }[expected]
        if block.name != _BLOCK_OF_DECISION[expected] and not (
            expected == PLAY and block.name in ("lead_joker", "joker")
        ):
            return f"it is not a {block.name} decision: the player must {wanted}"
        return self._why_not(block.name, action - block.offset)

    def _why_not(self, block: str, index: int) -> str:
        player = self.current_player
        if block == "declare":
            return (
                "this declaration is not open to the player's side now (one live declaration per side, upgrades only)"
            )
        if block == "show":
            if index not in self.hands[player]:
                return "the card is not in the player's hand"
            return "shown cards are picked in increasing index order (and the first cannot be the highest card)"
        if block == "blind_swap":
            return "no such face-down slot"
        if block in ("lead_joker", "joker"):
            if self.joker not in self.hands[player]:
                return "the player does not hold the joker"
            if (block == "joker") != bool(len(self.trick)):
                return "lead_joker opens a trick (naming a suit); joker follows a lead"
            if self.rules.joker_banned_first_and_last:
                if self.trick_no == 1:
                    return "the joker may never be played in trick 1"
                return "the joker may never be played in trick 10"
            return "a joker played in trick 1 needs a declaration (choose one before the card)"
        card = index
        if card not in self.hands[player]:
            return f"{self.cards.text[card]} is not in the player's hand"
        if self.forced_lead >= 0 and self.trick_no == 1 and not len(self.trick):
            return f"the first lead must be {self.cards.text[self.forced_lead]}"
        if self.joker in self.hands[player] and self.rules.joker_banned_first_and_last and self.trick_no == 9:
            return "a joker still held in trick 9 (踊り番) must be played now"
        return f"the player must follow {SUIT_TEXT[self.trick.led_suit]}"

    def decision_type(self) -> int:
        """The kind of decision the player to act faces (index into ``PHASES``)."""
        return DECLARE if self.declaring() else self.phase

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

    def observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def observe_into(self, player: int, out: np.ndarray) -> None:
        encode(self, player, out=out)

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

    def clone(self) -> Self:
        """An independent copy, made cheaply (search clones at every simulation): options, rules, layout, action
        table and the seating orders (rebuilt, never changed in place) are shared, as are the logged events
        (never changed once added); the members of ``_COPIED_ARRAYS`` and ``_COPIED_LISTS`` and the nested ones
        below are copied (a test checks that no other mutable member exists)."""
        new = copy.copy(self)
        values, mine = new.__dict__, self.__dict__
        for name in _COPIED_ARRAYS:
            values[name] = mine[name].copy()
        for name in _COPIED_LISTS:
            values[name] = list(mine[name])
        if self._rewards is not None:
            new._rewards = self._rewards.copy()
        new.hands = [list(h) for h in self.hands]
        if self._scripted_deals:
            new._scripted_deals = [[list(h) for h in deal] for deal in self._scripted_deals]
        new.swap_slots = (list(self.swap_slots[0]), list(self.swap_slots[1]))
        trick = self.trick
        new.trick = Trick(trick.leader, list(trick.seats), list(trick.cards), trick.led_suit)
        for record in ("played", "in_trick"):
            twin = copy.copy(mine[record])
            twin.by_seat = twin.by_seat.copy()
            values[record] = twin
        new.pair_cache = dict(self.pair_cache)
        new.events = EventLog()
        new.events.events = list(self.events.events)
        share_generator(self, new)
        return new

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        world = knowledge.resample(self, observer, rng)
        materialise_generator(world)  # where sample_world's reseed_chance finds it
        return world

    def card_multiset(self) -> list[int]:
        held = [c for h in self.hands for c in h]
        played = [int(c) for c in np.flatnonzero(self.played.all_played())]
        return sorted(self.cards.ids[c] for c in held + played)

    def render_text(self) -> str:
        from cardenvs.goninkan.render import render

        return render(self)

    # ------------------------------------------------------------------ helpers
    def holder(self, card: int) -> int:
        """The player whose hand holds ``card`` (-1 if it has been played)."""
        return next((p for p in range(self.num_players) if self.hand_vec[p, card]), -1)

    def knowledge_changed(self) -> None:
        """Something happened that may teach players about the teams: their views must be recomputed."""
        self.views_stale = [True] * self.num_players
        self.pair_cache = {}

    def static_changed(self) -> None:
        """A rarely-changing observation feature (trump, points, …) changed."""
        self.static_version += 1

    def cards_text(self, cards: Sequence[int]) -> str:
        return " ".join(self.cards.text[c] for c in cards)


_COPIED_ARRAYS = ("match_points", "round_points", "hand_vec", "known", "team_view", "void_mat", "hand_sizes", "honours")
_COPIED_LISTS = (
    "person_at",
    "seat_of",
    "views_stale",
    "knows_all",
    "static_cache",
    "is_kankei",
    "side_honours",
    "voids",
    "who_played",
    "played_late",
    "declarations",
    "declared_by",
    "sweep_offered",
)
"""Members that :meth:`KankeiGame.clone` copies (besides the nested ones it copies by hand)."""

_BLOCK_OF_DECISION = {
    PLAY: "play",
    DECLARE: "declare",
    LEAD_CHOICE: "lead_choice",
    SHOW: "show",
    TRUMP: "trump",
    SWEEP: "sweep",
    BLIND_SWAP: "blind_swap",
}
