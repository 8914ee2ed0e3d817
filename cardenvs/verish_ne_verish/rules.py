"""Pure rules engine of Verish' ne verish' (spec: ``shared/rules/verish_ne_verish.md``).

Players ``0..n-1`` sit clockwise and play passes to ``i + 1``. Hands are rank-count vectors over the
deck's ranks (suits never matter). One engine plays one match of ``n_games`` games (default 1).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

import numpy as np

from cardenvs.core.bluffing import ClaimTable
from cardenvs.core.bluffing_game import BluffingGame, rank_totals, ranking_rewards
from cardenvs.core.cards import SMALL_DECK_SIZES, Deck, highest_ranks_deck
from cardenvs.core.claim_moves import ClaimMove, claim_actions, claim_moves
from cardenvs.core.engine import TERMINAL
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.layout import ObservationLayout
from cardenvs.core.options import deal_seat, require
from cardenvs.core.seating import next_seat
from cardenvs.verish_ne_verish.actions import Challenge, QuadDecision, action_table

MAX_PLAY = 3
RewardMode = Literal["loser", "exit_order"]


@dataclass(frozen=True)
class VerishOptions:
    """Options of ``cardenvs/verish_ne_verish-v0`` (defaults follow the spec)."""

    num_players: int = 4
    """2–6 players."""
    deck_size: int | None = None
    """36 (6…A) or 52; ``None``: 36 for two players, 52 otherwise (spec A1). A smaller deck of the highest ranks
    (8 = K and A, 12, …, 32; four cards a rank) makes the small variants that OpenSpiel solves exactly."""
    quad_discard_optional: bool = False
    """Four of a kind is discarded automatically (seed) or, if true, at the holder's choice (pagat)."""
    forbid_discarded_rank: bool = False
    """Forbid declaring a rank whose quad has been discarded (草場's rule, spec A3)."""
    reward_mode: RewardMode = "loser"
    """``loser``: loser −1, others +1/(n−1). ``exit_order``: linear in the order of going out, zero-sum."""
    n_games: int = 1
    """Games in one episode (a match); rewards are paid at the end of each game."""
    loser_deals_next: bool = False
    """In a match, the loser deals the next game (else the deal passes to the left)."""
    dealer: int | None = None
    """Dealer of the first game; ``None`` draws one at random."""

    def __post_init__(self) -> None:
        require(2 <= self.num_players <= 6, f"num_players must be 2–6 for Verish' ne verish', got {self.num_players}")
        require(
            self.deck_size in (None, 52) or self.deck_size in SMALL_DECK_SIZES[:8],
            f"deck_size must be None, 52, 36 (6…A) or a smaller deck of the highest ranks (8, 12, …, 32), "
            f"got {self.deck_size}",
        )
        require(self.n_games >= 1, f"n_games must be at least 1, got {self.n_games}")
        require(
            self.dealer is None or 0 <= self.dealer < self.num_players,
            f"dealer must be None or a seat 0..{self.num_players - 1}, got {self.dealer}",
        )

    @property
    def deck(self) -> Deck:
        size = self.deck_size if self.deck_size is not None else (36 if self.num_players == 2 else 52)
        return highest_ranks_deck(size // 4)


class VerishGame(BluffingGame[VerishOptions]):
    """One Verish' ne verish' match (``n_games`` games) from the first deal to the last loser."""

    def __init__(self, options: VerishOptions, rng: np.random.Generator):
        self._setup(options, rng)
        self.dealer = options.dealer if options.dealer is not None else int(rng.integers(self.num_players))
        self._deal_from_deck()

    def _setup(self, options: VerishOptions, rng: np.random.Generator) -> None:
        deck = options.deck
        self._init_common(options, rng, options.num_players, deck)
        self.layout: ObservationLayout = self._observer().layout(self)
        a = self._init_claim_actions(action_table(self.rank_labels))
        self.DISCARD = a["discard_quad"].offset
        self.KEEP = a["keep_quads"].offset

    # ------------------------------------------------------------------ set-up
    @classmethod
    def from_deal(
        cls,
        options: VerishOptions,
        hands: Sequence[str],
        *,
        set_aside: str,
        dealer: int | None = None,
        rng: np.random.Generator | None = None,
    ) -> Self:
        """A game from an explicit deal: ``hands[i]`` lists player ``i``'s ranks as text (``"7 7 K A"``),
        ``set_aside`` the rank of the card put aside. Together they must make up the deck exactly. ``dealer``
        defaults to the options' dealer (else seat 0); ``rng`` deals the later games of a match."""
        game = cls.__new__(cls)
        game._setup(options, rng if rng is not None else np.random.default_rng(0))
        game.dealer = deal_seat("dealer", dealer, options.dealer, game.num_players)
        aside = game._counts_from_text(set_aside)
        if aside.sum() != 1:
            raise InvalidOptionError(f"exactly one card is set aside, got {set_aside!r}")
        counts = game._hands_from_text(hands, aside, "the hands plus the set-aside card")
        game._start_game(counts, aside)
        return game

    def _deal_from_deck(self) -> None:
        hands, aside = self._deal_counts((self.dealer + 1) % self.num_players, skip=1)
        self._start_game(hands, aside)

    def _start_game(self, hands: Sequence[np.ndarray], aside: np.ndarray) -> None:
        n = self.num_players
        self.table = ClaimTable(n, self.num_ranks, rank_totals(self.deck), MAX_PLAY)
        for seat, counts in enumerate(hands):
            self.table.set_hand(seat, counts)
        self.aside = aside
        self.discarded = np.zeros(self.num_ranks, dtype=bool)
        self.out = [False] * n
        self.exit_order: list[int] = []
        self.quad_queue: list[int] = []
        self.quad_min = 0
        self.next_starter = -1
        self.leading = False
        self.current_player = TERMINAL
        self.events.add(
            "deal",
            public={"dealer": self.dealer, "hand_sizes": list(self.table.hand_sizes), "game": self.games_played},
            private={s: {"hand": self._ranks_text(self.table.hands[s])} for s in range(n)},
            secret={"set_aside": self._ranks_text(aside)},
        )
        self.next_starter = (self.dealer + 1) % n
        seats = self._seats_from(self.next_starter)
        if self.options.quad_discard_optional:
            # every player is asked (keep_quads is then forced for one without a quad): being asked is public
            self.quad_queue = seats
        else:
            for s in seats:
                self._discard_all_quads(s)
        self._advance_quad_queue()

    # ------------------------------------------------------------------ engine protocol
    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.actions.size, dtype=np.int8)
        seat = self.current_player
        if seat == TERMINAL:
            return mask
        t = self.table
        if self.quad_queue:
            for k in self._quads(seat):
                if k >= self.quad_min:
                    mask[self.DISCARD + k] = 1
            mask[self.KEEP] = 1
            return mask
        if self.leading and t.building_rank < 0:
            for k in self._declarable():
                mask[self.DECLARE + k] = 1
            return mask
        if not self.leading and t.building_count == 0:
            mask[self.CHALLENGE] = 1
        return self._mask_picks(mask)

    def _why_illegal(self, action: int) -> str:
        t, a = self.table, action
        if self.quad_queue:
            return "the player must first decide which quads to discard (discard_quad or keep_quads)"
        if a in (self.KEEP,) or self.DISCARD <= a < self.KEEP:
            return "quads can only be discarded right after the deal or a pick-up, with quad_discard_optional"
        if a == self.CHALLENGE and self.leading:
            return "the round's first play cannot be challenged: there is nothing to challenge yet"
        if a == self.CHALLENGE:
            return "a challenge replaces a play: it is not possible once cards have been picked"
        if self.DECLARE <= a < self.PICK:
            if not self.leading or t.building_rank >= 0:
                return "the rank is declared once, by the round's first player; later plays repeat it"
            return "declaring a rank whose quad was discarded is forbidden (forbid_discarded_rank)"
        if self.leading and t.building_rank < 0:
            return "the round's first player must declare a rank first"
        return self._pick_reason(a)

    def _apply(self, action: int) -> None:
        seat = self.current_player
        if self.quad_queue:
            if action == self.KEEP:
                self._end_quad_decision()
            else:
                rank = action - self.DISCARD
                self._discard_quad(seat, rank)
                self.quad_min = rank + 1  # keep_quads ends the decision, even with no quad left (a public count)
        elif action == self.CHALLENGE:
            self._challenge(seat)
        else:
            self._build_step(action, self._commit)

    def legal_moves(self) -> list[Hashable]:
        seat = self.current_player
        if seat == TERMINAL:
            return []
        if self.quad_queue:
            quads = [k for k in self._quads(seat) if k >= self.quad_min]
            return [
                QuadDecision(tuple(k for i, k in enumerate(quads) if bits >> i & 1)) for bits in range(1 << len(quads))
            ]
        moves: list[Hashable] = []
        if not self.leading and self.table.building_count == 0:
            moves.append(Challenge())
        moves.extend(claim_moves(self.table, seat, self._declarable()))
        return moves

    def move_actions(self, move: Hashable) -> list[int]:
        if isinstance(move, Challenge):
            return [self.CHALLENGE]
        if isinstance(move, QuadDecision):
            return [*(self.DISCARD + k for k in move.discard), self.KEEP]
        if isinstance(move, ClaimMove):
            return claim_actions(self.table, self.current_player, move, self.DECLARE, self.PICK, self.DONE)
        raise TypeError(f"not a Verish' ne verish' move: {move!r}")

    def move_in_progress(self) -> bool:
        t = self.table
        return t.building_rank >= 0 or t.building_count > 0 or (bool(self.quad_queue) and self.quad_min > 0)

    def privileged_state(self) -> dict[str, Any]:
        t = self.table
        return {
            "game": self.games_played,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "hands": [self._ranks_text(t.hands[s]) for s in range(self.num_players)],
            "set_aside": self._ranks_text(self.aside),
            "claim": self.rank_labels[t.claim_rank] if t.claim_rank >= 0 else None,
            "pile": [
                {"player": p.seat, "cards": self._ranks_text(p.cards), "declared": self.rank_labels[p.declared_rank]}
                for p in t.plays
            ],
            "building": self._ranks_text(t.building),
            "discarded": [self.rank_labels[k] for k in np.flatnonzero(self.discarded)],
            "out": list(self.out),
            "exit_order": list(self.exit_order),
            "match_points": self.match_points.tolist(),
        }

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        copy = self.clone()
        copy.table.redeal_hidden(observer, copy.current_player, rng, extra=[copy.aside])
        return copy

    def card_multiset(self) -> list[int]:
        return self._multiset(self._table_cards() + self.aside + 4 * self.discarded)

    # ------------------------------------------------------------------ moves
    def _declarable(self) -> list[int]:
        if self.options.forbid_discarded_rank:
            return [k for k in range(self.num_ranks) if not self.discarded[k]]
        return list(range(self.num_ranks))

    def _commit(self, seat: int) -> None:
        t = self.table
        previous = t.plays[-1].seat if t.plays else -1
        rank = t.building_rank if self.leading else t.claim_rank
        self._log_play(t.commit(seat, rank), self.leading)
        self.leading = False
        if previous >= 0 and t.hand_sizes[previous] == 0:
            self._go_out(previous)  # trusted: the previous player's last play is safe
        if not self._check_game_over():
            self.current_player = next_seat(seat, [h > 0 for h in t.hand_sizes])

    def _challenge(self, challenger: int) -> None:
        outcome = self._turn_over(challenger)
        # Lie: the challenger starts. Truthful: the player after the challenger (skipping the empty-handed, A4).
        self.next_starter = challenger if outcome.lie else (challenger + 1) % self.num_players
        if self.options.quad_discard_optional:
            self.quad_queue = [outcome.taker]  # asked with or without a quad, as after the deal
        else:
            self._discard_all_quads(outcome.taker)
        self._advance_quad_queue()

    def _start_round(self, starter: int) -> None:
        self.leading = True
        self.current_player = starter

    # ------------------------------------------------------------------ quads
    def _quads(self, seat: int) -> list[int]:
        hand = self.table.hands[seat]
        return [k for k in range(self.num_ranks) if hand[k] == 4]

    def _discard_quad(self, seat: int, rank: int) -> None:
        counts = np.zeros(self.num_ranks, dtype=np.int16)
        counts[rank] = 4
        self.table.remove_cards(seat, counts, public=True)
        self.discarded[rank] = True
        self.events.add("discard_quad", seat, public={"rank": self.rank_labels[rank]})

    def _discard_all_quads(self, seat: int) -> None:
        for k in self._quads(seat):
            self._discard_quad(seat, k)

    def _advance_quad_queue(self) -> None:
        self.quad_min = 0
        if self.quad_queue:
            self.current_player = self.quad_queue[0]
            return
        # Quads are settled: players left without cards (and with no play at risk) are out; a round starts.
        for s in self._seats_from(self.next_starter):
            if self.table.hand_sizes[s] == 0 and not self.out[s]:
                self._go_out(s)
        if not self._check_game_over():
            starter = self.next_starter
            if self.table.hand_sizes[starter] == 0:
                starter = next_seat(starter, [h > 0 for h in self.table.hand_sizes])
            self._start_round(starter)

    def _end_quad_decision(self) -> None:
        seat = self.quad_queue.pop(0)
        kept = [self.rank_labels[k] for k in self._quads(seat)]
        self.events.add("keep_quads", seat, private={seat: {"kept": kept}})  # a kept quad stays a secret
        self._advance_quad_queue()

    # ------------------------------------------------------------------ end of a game
    def _check_game_over(self) -> bool:
        remaining = [s for s in range(self.num_players) if not self.out[s]]
        if len(remaining) > 1:
            return False
        loser = remaining[0]
        order = [*self.exit_order, loser]
        rewards = self._game_rewards(order)
        self.match_points += rewards
        self._pay(rewards)
        self.events.add(
            "game_over",
            public={"loser": loser, "order": order, "rewards": rewards.tolist(), "game": self.games_played},
        )
        self.games_played += 1
        if self.games_played < self.options.n_games:
            self.dealer = loser if self.options.loser_deals_next else (self.dealer + 1) % self.num_players
            self._deal_from_deck()
        else:
            self.current_player = TERMINAL
            self.quad_queue = []
        return True

    def _game_rewards(self, order: list[int]) -> np.ndarray:
        n = self.num_players
        rewards = np.zeros(n, dtype=np.float64)
        if self.options.reward_mode == "loser":
            rewards[:] = 1.0 / (n - 1)
            rewards[order[-1]] = -1.0
        else:
            rewards[:] = ranking_rewards(order, n)
        return rewards
