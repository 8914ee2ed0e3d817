"""Yukushi's play once the cards are dealt: turn actions (lead, play, pass, call), challenge windows, flushes,
runs, seats and the end of a game. :class:`~cardenvs.yukushi.rules.YukushiGame` adds the set-up, the decision
points and the engine protocol; this part never looks at masks or observations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardenvs.core.bluffing_game import BluffingGame, ranking_rewards
from cardenvs.core.challenge import ChallengeWindow
from cardenvs.core.engine import TERMINAL
from cardenvs.core.seating import next_seat
from cardenvs.yukushi.options import YukushiOptions


class YukushiPlay(BluffingGame[YukushiOptions]):
    """The state of a Yukushi game in play and how turns, windows and flushes change it."""

    leader: int
    """Holder of the initiative at the start of the game (it leads the first run)."""
    owner: int
    """Owner of the latest play (-1: none this run)."""
    turn: int
    passes: int
    pile_declared: int
    leading: bool
    window: ChallengeWindow | None
    flushed_counts: list[int]
    flushed_total: int
    counts_public: bool

    def _deal_from_deck(self) -> None:
        """Deal the next game of the match (the set-up, in :class:`~cardenvs.yukushi.rules.YukushiGame`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ turn actions
    def _declarable(self, seat: int) -> Sequence[int]:
        if not self.options.forbid_exhausted_rank:
            return range(self.num_ranks)
        public = self.table.known_held[self.num_players]
        elsewhere = public.sum(axis=0) - public[seat]
        return [k for k in range(self.num_ranks) if elsewhere[k] < 4]

    def _turn_call(self, seat: int) -> None:
        window = self.window
        assert window is not None
        window.decide(seat, True)
        self._close_window()

    def _turn_pass(self, seat: int) -> None:
        if self._window_voids_turn(seat):
            return
        self.events.add("pass", seat)
        self.passes += 1
        self.turn = self._next_active(seat)
        self._open_window()

    def _turn_play(self, seat: int) -> None:
        t = self.table
        if self._window_voids_turn(seat):
            return
        lead = self.leading
        rank = t.building_rank if lead else t.claim_rank
        seen = None if self.options.counts_public else self.options.max_play
        play = t.commit(seat, rank, seen)
        self._log_play(play, lead, self.options.counts_public)
        self.pile_declared += play.declared_count
        previous, self.owner = self.owner, seat
        self.passes = 0
        self.leading = False
        if previous >= 0 and t.hand_sizes[previous] == 0:
            self._go_out(previous)  # G1-a: a play on top makes the previous owner's last play safe
            if self._check_game_over():
                return
        self.turn = self._next_active(seat)
        self._open_window()

    def _window_voids_turn(self, seat: int) -> bool:
        """Close the window with the turn player's "no call"; a call by someone else voids the turn action
        (the cards being built go back to the hand unseen). Returns whether the turn was voided."""
        window = self.window
        if window is None:
            return False
        window.decide(seat, False)
        if window.challengers:
            self.table.clear_building()
        return self._close_window()

    # ------------------------------------------------------------------ windows, challenges, flushes
    def _open_window(self) -> None:
        """The sampling point before ``self.turn``'s action (the flush point if the turn is the owner's)."""
        self.window = ChallengeWindow.open(
            self.options.challenge_model,
            self.owner,
            self.turn,
            self._active(),
            at_flush=self.options.window_before_flush,
        )
        if self.window is None:
            if self.turn == self.owner:
                self._flush()
            else:  # nobody may call (cannot happen with two or more players in the game)
                self.current_player = self.turn
            return
        self._advance_window()

    def _advance_window(self) -> None:
        window = self.window
        assert window is not None
        if window.queue:
            self.current_player = window.asking
        elif window.resolved or not window.turn_may_challenge:
            if not self._close_window():
                self.current_player = self.turn  # model B, nobody called: the turn player plays or passes
        else:
            self.current_player = self.turn  # models A and C: the turn action may be a call

    def _close_window(self) -> bool:
        """Log the closed window and carry out a call or a flush; returns whether either happened."""
        window = self.window
        assert window is not None
        self.window = None
        self.events.add("window", public=window.public())
        winner = window.winner()
        if winner >= 0:
            self._challenge(winner)
            return True
        if window.flush_point:
            self._flush()
            return True
        return False

    def _challenge(self, challenger: int) -> None:
        owner = self.owner
        outcome = self._turn_over(challenger, self.options.counts_public)
        self._end_run()
        if self._check_game_over():
            return
        # Lie: the caller leads. Truth: the owner leads, or the next player in the game if the owner went out.
        self._start_run(challenger if outcome.lie else self._leader_from(owner))

    def _flush(self) -> None:
        owner, t = self.owner, self.table
        size = t.pile_size
        contributed = t.flush()
        per_seat = [int(c.sum()) for c in contributed]
        self.flushed_counts = [a + b for a, b in zip(self.flushed_counts, per_seat, strict=True)]
        self.flushed_total += size
        public: dict[str, Any] = {"pile_size": size} if self.options.counts_public else {"declared": self.pile_declared}
        private = {s: {"cards": self._ranks_text(contributed[s])} for s in range(self.num_players) if per_seat[s]}
        self.events.add("flush", owner, public=public, private=private)
        self._end_run()
        if t.hand_sizes[owner] == 0:
            self._go_out(owner)  # G1-b: nobody played on the last cards, so they are gone unseen
        if not self._check_game_over():
            self._start_run(self._leader_from(owner))

    def _end_run(self) -> None:
        self.owner = -1
        self.passes = 0
        self.pile_declared = 0

    def _start_run(self, leader: int) -> None:
        self.leading = True
        self.turn = leader
        self.window = None
        self.current_player = leader

    # ------------------------------------------------------------------ seats
    def _active(self) -> list[bool]:
        return [not o for o in self.out]

    def _next_active(self, seat: int) -> int:
        return next_seat(seat, self._active())

    def _leader_from(self, seat: int) -> int:
        """``seat`` if still in the game, else the next player clockwise in the game (spec A8)."""
        return seat if not self.out[seat] else self._next_active(seat)

    # ------------------------------------------------------------------ end of a game
    def _check_game_over(self) -> bool:
        remaining = [s for s in range(self.num_players) if not self.out[s]]
        if self.options.play_to_ranking:
            if len(remaining) > 1:
                return False
            order = [*self.exit_order, *remaining]
        elif not self.exit_order:
            return False
        else:
            order = self.exit_order[:1]
        rewards = self._game_rewards(order)
        self.match_points += rewards
        self._pay(rewards)
        winner = order[0]
        self.events.add(
            "game_over",
            public={"winner": winner, "order": order, "rewards": rewards.tolist(), "game": self.games_played},
        )
        self.games_played += 1
        self.window = None
        if self.games_played < self.options.n_games:
            self.leader = winner  # the previous winner leads (and is dealt to first)
            self._deal_from_deck()
        else:
            self.current_player = TERMINAL
        return True

    def _game_rewards(self, order: list[int]) -> np.ndarray:
        n = self.num_players
        if self.options.play_to_ranking:
            return ranking_rewards(order, n)
        rewards = np.full(n, -1.0 / (n - 1))
        rewards[order[0]] = 1.0
        return rewards
