"""Pure rules engine of Yukushi (ゆくし; spec ``shared/rules/yukushi.md``).

Players ``0..n-1`` sit clockwise and play passes to ``i + 1``. Hands are rank-count vectors (suits never matter).
The initiative holder leads a *run*: it must play, naming the run's rank; each next player plays 1–``max_play``
cards claiming that rank, or passes. A play gives the initiative to its owner. When the passes come round to
the owner the pile is flushed unseen and the owner leads again. Before every turn action (and at the flush
point) a challenge window (:mod:`cardenvs.core.challenge`) lets players call ゆくし on the latest play.
One engine plays one match of ``n_games`` games (default 1).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Self

import numpy as np

from cardenvs.core.bluffing import ClaimTable
from cardenvs.core.bluffing_game import rank_totals
from cardenvs.core.claim_moves import Challenge, ClaimMove, claim_actions, claim_moves
from cardenvs.core.engine import TERMINAL
from cardenvs.core.layout import ObservationLayout
from cardenvs.core.options import deal_seat
from cardenvs.yukushi.actions import Decline, Pass, action_table
from cardenvs.yukushi.options import YukushiOptions
from cardenvs.yukushi.turns import YukushiPlay

DECLARE, DECLARE_COUNT, WINDOW, TURN, PICKING = range(5)
"""Decision phases (the encoding's ``phase`` one-hot)."""


class YukushiGame(YukushiPlay):
    """One Yukushi match (``n_games`` games) from the first deal to the last winner."""

    def __init__(self, options: YukushiOptions, rng: np.random.Generator):
        self._setup(options, rng)
        self.leader = options.leader if options.leader is not None else int(rng.integers(self.num_players))
        self._deal_from_deck()

    def _setup(self, options: YukushiOptions, rng: np.random.Generator) -> None:
        self._init_common(options, rng, options.num_players, options.deck)
        self.layout: ObservationLayout = self._observer().layout(self)
        a = self._init_claim_actions(action_table(self.rank_labels, options.max_play))
        self.DECLINE = a["decline"].offset
        self.PASS = a["pass"].offset
        self.COUNT = a["count"].offset
        self.counts = tuple(range(1, options.max_play + 1)) if options.allow_count_mismatch else ()
        self.counts_public = options.counts_public

    # ------------------------------------------------------------------ set-up
    @classmethod
    def from_deal(
        cls,
        options: YukushiOptions,
        hands: Sequence[str],
        *,
        leader: int | None = None,
        rng: np.random.Generator | None = None,
    ) -> Self:
        """A game from an explicit deal: ``hands[i]`` lists player ``i``'s ranks as text (``"2 2 10 K"``); the
        hands must make up the deck exactly (any sizes). ``leader`` holds the initiative (default: the
        options' leader, else seat 0): Yukushi has no dealer, so it takes the place of the others' ``dealer``;
        ``rng`` deals the later games of a match."""
        game = cls.__new__(cls)
        game._setup(options, rng if rng is not None else np.random.default_rng(0))
        game.leader = deal_seat("leader", leader, options.leader, game.num_players)
        game._start_game(game._hands_from_text(hands))
        return game

    def _deal_from_deck(self) -> None:
        first = self.leader if self.options.deal_from == "leader" else (self.leader - 1) % self.num_players
        hands, _ = self._deal_counts(first)
        self._start_game(hands)

    def _start_game(self, hands: Sequence[np.ndarray]) -> None:
        n = self.num_players
        hidden_count = not self.options.counts_public
        self.table = ClaimTable(n, self.num_ranks, rank_totals(self.deck), self.options.max_play, hidden_count)
        for seat, counts in enumerate(hands):
            self.table.set_hand(seat, counts)
        self.out = [False] * n
        self.exit_order = []
        self.owner = -1
        self.turn = self.leader
        self.passes = 0
        self.pile_declared = 0
        self.leading = True
        self.window = None
        self.flushed_counts = [0] * n
        self.flushed_total = 0
        self.events.add(
            "deal",
            public={"leader": self.leader, "hand_sizes": list(self.table.hand_sizes), "game": self.games_played},
            private={s: {"hand": self._ranks_text(self.table.hands[s])} for s in range(n)},
        )
        self._start_run(self.leader)

    # ------------------------------------------------------------------ decision points
    def phase(self) -> int:
        """The current decision's phase (see :data:`PHASES`)."""
        t = self.table
        if self.window is not None and self.window.queue:
            return WINDOW
        if self.leading and t.building_rank < 0:
            return DECLARE
        if self.counts and t.building_declared_count < 0 and (self.leading or t.building_count == 0):
            return DECLARE_COUNT if self.leading else TURN
        if not self.leading and t.building_count == 0 and t.building_declared_count < 0:
            return TURN
        return PICKING

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.actions.size, dtype=np.int8)
        seat = self.current_player
        if seat == TERMINAL:
            return mask
        phase, t = self.phase(), self.table
        if phase == WINDOW:
            mask[self.CHALLENGE] = mask[self.DECLINE] = 1
            return mask
        if phase == DECLARE:
            for k in self._declarable(seat):
                mask[self.DECLARE + k] = 1
            return mask
        if phase == TURN:
            mask[self.PASS] = 1
            if self.window is not None:
                mask[self.CHALLENGE] = 1
        if self.counts and t.building_declared_count < 0:
            mask[self.COUNT : self.COUNT + len(self.counts)] = 1
            return mask
        return self._mask_picks(mask)

    def _why_illegal(self, action: int) -> str:
        phase, t, a = self.phase(), self.table, action
        if phase == WINDOW:
            return "in a challenge window the only choices are challenge (ゆくし) and decline"
        if a == self.DECLINE:
            return "decline is a choice of challenge windows only; the player to act plays or passes"
        if a == self.CHALLENGE:
            if self.leading:
                return "the pile is empty: there is no play to challenge"
            if phase != TURN:
                return "a call replaces the turn action: it is not possible once a play is under way"
            return f"under challenge_model {self.options.challenge_model} the turn player was asked in the window"
        if a == self.PASS:
            return (
                "the initiative holder must lead: no pass on an empty pile"
                if self.leading
                else ("a pass replaces the play: it is not possible once a play is under way")
            )
        if self.DECLARE <= a < self.PICK:
            if not self.leading or t.building_rank >= 0:
                return "the rank is named once, by the lead; later plays of the run claim the same rank"
            return "its four cards are publicly known to be in other hands (forbid_exhausted_rank)"
        if a >= self.COUNT:
            if not self.counts:
                return "counts are declared apart only with allow_count_mismatch"
            if phase == DECLARE:
                return "the lead names the rank first"
            return "the count is declared once, before the cards are picked"
        if phase == DECLARE:
            return "the lead must name the rank first"
        if self.counts and t.building_declared_count < 0:
            return "declare the count first (allow_count_mismatch)"
        return self._pick_reason(a)

    def _apply(self, action: int) -> None:
        seat, t = self.current_player, self.table
        if self.window is not None and self.window.queue:
            self.window.decide(seat, action == self.CHALLENGE)
            self._advance_window()
        elif action == self.CHALLENGE:
            self._turn_call(seat)
        elif action == self.PASS:
            self._turn_pass(seat)
        elif self._voided_at_first_step():
            self._window_voids_turn(seat)
        elif action >= self.COUNT:
            t.building_declared_count = action - self.COUNT + 1
        else:
            self._build_step(action, self._turn_play)

    def legal_moves(self) -> list[Hashable]:
        seat = self.current_player
        if seat == TERMINAL:
            return []
        phase = self.phase()
        if phase == WINDOW:
            return [Challenge(), Decline()]
        moves: list[Hashable] = []
        if phase == TURN:
            moves.append(Pass())
            if self.window is not None:
                moves.append(Challenge())
        moves.extend(claim_moves(self.table, seat, self._declarable(seat), self.counts))
        return moves

    def _voided_at_first_step(self) -> bool:
        """Whether the turn player is about to start a play that another player's call in the open window voids:
        the turn then ends at that first step, so the number of steps never tells how many cards it would have
        had (the cards go back unseen; the turn player learns of the call no sooner than the window closes)."""
        w = self.window
        return w is not None and not w.queue and bool(w.challengers) and not self.move_in_progress()

    def move_actions(self, move: Hashable) -> list[int]:
        if type(move) is ClaimMove:  # the most frequent, first
            ids = claim_actions(self.table, self.current_player, move, self.DECLARE, self.PICK, self.DONE, self.COUNT)
            return ids[:1] if self._voided_at_first_step() else ids
        if isinstance(move, Challenge):
            return [self.CHALLENGE]
        if isinstance(move, Decline):
            return [self.DECLINE]
        if isinstance(move, Pass):
            return [self.PASS]
        if isinstance(move, ClaimMove):
            return self.move_actions(ClaimMove(move.declared_rank, move.cards, move.declared_count))
        raise TypeError(f"not a Yukushi move: {move!r}")

    def move_in_progress(self) -> bool:
        t = self.table
        return t.building_rank >= 0 or t.building_count > 0 or t.building_declared_count >= 0

    def privileged_state(self) -> dict[str, Any]:
        t, w = self.table, self.window
        return {
            "game": self.games_played,
            "leader": self.leader,
            "current_player": self.current_player,
            "turn": self.turn,
            "owner": self.owner,
            "passes": self.passes,
            "hands": [self._ranks_text(t.hands[s]) for s in range(self.num_players)],
            "claim": self.rank_labels[t.claim_rank] if t.claim_rank >= 0 else None,
            "pile": [
                {"player": p.seat, "cards": self._ranks_text(p.cards), "declared_count": p.declared_count}
                for p in t.plays
            ],
            "building": self._ranks_text(t.building),
            "window": None if w is None else {**w.public(), "queue": list(w.queue)},
            "flushed": [self._ranks_text(t.removed_own[s]) for s in range(self.num_players)],
            "out": list(self.out),
            "exit_order": list(self.exit_order),
            "match_points": self.match_points.tolist(),
        }

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        copy = self.clone()
        t = copy.table
        flushed_by_others = [t.removed_own[s] for s in range(self.num_players) if s != observer]
        t.redeal_hidden(observer, copy.current_player, rng, extra=flushed_by_others)
        return copy

    def _clone_into(self, new: Self) -> None:
        if self.window is not None:
            new.window = self.window.copy()

    def card_multiset(self) -> list[int]:
        return self._multiset(self._table_cards() + self.table.removed_own.sum(axis=0))
