"""The table of Goninkan and Yoninkan: the state every phase reads and writes (seating, the round, the deal's
hands and records), the interface of a phase, and the cheap clone. The phases are objects that hold no state
(:mod:`.deal`, :mod:`.calls`, :mod:`.trump_choice`, :mod:`.play`, :mod:`.results`); the game
(:class:`~cardenvs.goninkan.game.KankeiGame`) composes them and moves from one to the next.

Spec: ``shared/rules/goninkan.md``. A player index is a *person* and never changes; people sit on physical
seats (``person_at[seat]``), play passes to the next seat on the right (``seat + 1``) and, with six players,
skips the dealer, who sits the round out. Goninkan's seat swap moves people between seats permanently.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, Self, TypeVar

import numpy as np

from cardenvs.core.cards import rank_index
from cardenvs.core.copying import shallow_copy
from cardenvs.core.engine import TERMINAL, RulesEngine
from cardenvs.core.events import EventLog
from cardenvs.core.tricks import PlayedCards, Trick
from cardenvs.goninkan.actions import action_table
from cardenvs.goninkan.options import KankeiOptions
from cardenvs.goninkan.ruleset import DEAL1_TRUMP_CYCLE, LAST_ROUND_TRUMP, Ruleset, ruleset
from cardenvs.goninkan.scoring import Declaration, Kind

HAND_SIZE = 10
ACE = rank_index("A")
PLAY, DECLARE, LEAD_CHOICE, SHOW, TRUMP, SWEEP, BLIND_SWAP = range(7)
PHASES = ("play", "declare", "lead_choice", "show", "trump", "sweep", "blind_swap")
"""Decision types; ``declare`` is the first sub-step of a Yoninkan trick-1 turn."""
UPGRADES = {Kind.SKUNK: Kind.JUROKU, Kind.REV_SKUNK: Kind.REV_JUROKU}
OptionsT = TypeVar("OptionsT", bound=KankeiOptions)


class Phase(Protocol):
    """What the game asks of a phase at the decisions it owns (``table.phase``): the exact mask, the effect of an
    action, the complete moves and the action ids of a move (``None`` for a move of another phase)."""

    def mask(self, table: KankeiTable[Any], mask: np.ndarray) -> None:
        """Set the legal action ids of the player to act in ``mask`` (all zeros when given)."""

    def apply(self, table: KankeiTable[Any], action: int) -> bool:
        """Perform a legal ``action`` of the player to act; ``True`` when it ended the deal (the game settles it)."""

    def moves(self, table: KankeiTable[Any]) -> list[Hashable]:
        """Every complete move of the player to act."""

    def move_actions(self, table: KankeiTable[Any], move: Hashable) -> list[int] | None:
        """The action ids that make ``move`` from here, or ``None`` if ``move`` belongs to another phase."""


class KankeiTable(RulesEngine[OptionsT]):
    """The state of a Goninkan or Yoninkan episode, and the small changes to it that several phases make."""

    round_number: int
    """This round's place in the match, from 1 (it fixes deal 1's trump)."""
    dealer: int
    phase: int
    """The decision type at hand, an index into ``PHASES`` (``PLAY`` covers Yoninkan's trick-1 declaration)."""
    decl_choice: int | None
    """The declaration chosen at a Yoninkan trick-1 turn's first sub-step, until its card is played."""

    def _setup(self, options: OptionsT, rng: np.random.Generator) -> None:
        self.options = options
        self.rng = rng
        self.rules: Ruleset = ruleset(options)
        self.cards = self.rules.cards
        self.num_players = n = self.rules.num_players
        self.deck_size = d = self.cards.size
        self.joker = self.cards.joker
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

    def _new_round_state(self) -> None:
        last = self.round_number == self.options.n_rounds
        self.deal1_trump = LAST_ROUND_TRUMP if last else DEAL1_TRUMP_CYCLE[(self.round_number - 1) % 3]
        self.deal1_keys = (self.joker, self.cards.find(self.rules.key_rank, self.deal1_trump))
        """(joker, key trump card) of this round's deal 1: the cards that make 関係."""
        self.deal = 1
        self.round_points[:] = 0
        self.kankei: tuple[int, ...] = ()
        self.is_kankei = [False] * self.num_players
        self.team_public = False
        self.double_announced = False
        self.deal1_holders = (-1, -1)
        self.nijukan_pending = -1
        """The 二重関 holder while the exchange is pending, else -1."""

    def open_trick(self, leader: int) -> None:
        """Open a trick led by ``leader``: the play of the tricks decides next."""
        self.trick = Trick(leader)
        self.trick_leading = -1
        self.in_trick.clear()
        self.phase = PLAY
        self.current_player = leader
        self.decl_choice = None

    def key_cards(self) -> tuple[int, int]:
        """(joker, key trump card) of this round's deal 1: the cards that make 関係."""
        return self.deal1_keys

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
        self.decl_choice = None
        self.forced_lead = -1
        self.chooser = -1
        self.swap_slots: tuple[list[int], list[int]] = ([], [])
        self.team_view[:] = -1
        self.knowledge_changed()
        self.static_changed()

    def _set_team(self, members: list[int]) -> None:
        self.kankei = tuple(sorted(members))
        self.is_kankei = [p in self.kankei for p in range(self.num_players)]
        self.knowledge_changed()

    def kankei_partner(self, person: int) -> int:
        """The other member of a two-player 関係 team."""
        return next(p for p in self.kankei if p != person)

    def _move_card(self, card: int, giver: int, receiver: int) -> None:
        self.hands[giver].remove(card)
        self.hands[receiver] = sorted([*self.hands[receiver], card])
        self.hand_vec[giver, card] = 0
        self.hand_vec[receiver, card] = 1
        self.hand_sizes[giver] -= 1
        self.hand_sizes[receiver] += 1

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

    def card_multiset(self) -> list[int]:
        held = [c for h in self.hands for c in h]
        played = [int(c) for c in np.flatnonzero(self.played.all_played())]
        return sorted(self.cards.ids[c] for c in held + played)

    def clone(self) -> Self:
        """An independent copy, made cheaply (search clones at every simulation): options, rules, layout, action
        table and the seating orders (rebuilt, never changed in place) are shared, as are the logged events
        (never changed once added); the members of ``_COPIED_ARRAYS`` and ``_COPIED_LISTS`` and the nested ones
        below are copied (a test checks that no other mutable member exists)."""
        new = shallow_copy(self)
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
            twin = shallow_copy(mine[record])
            twin.by_seat = twin.by_seat.copy()
            values[record] = twin
        new.pair_cache = dict(self.pair_cache)
        new.events = self.events.fork()
        self.share_generator(new)
        return new


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
