"""The end of a deal and of a round in Goninkan and Yoninkan: each deal's score lines paid out, the next deal or
round, and the match's end."""

from __future__ import annotations

from cardenvs.core.engine import TERMINAL
from cardenvs.goninkan.play import KankeiPlay
from cardenvs.goninkan.scoring import Line, settle
from cardenvs.goninkan.table import PLAY, OptionsT


class KankeiResults(KankeiPlay[OptionsT]):
    """Settles deals and rounds (spec §8)."""

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
