"""The end of a deal and of a round in Goninkan and Yoninkan (spec §8): each deal's score lines paid out, the
round's points handed over as rewards, and the match's end."""

from __future__ import annotations

from typing import Any

from cardenvs.core.engine import TERMINAL
from cardenvs.goninkan.scoring import Line, settle
from cardenvs.goninkan.table import PLAY, KankeiTable


class Settlement:
    """Settles deals and rounds; the game deals on as they say."""

    def end_deal(self, table: KankeiTable[Any]) -> bool:
        """Pay the deal's lines; ``True`` when the round goes on to its next deal."""
        k, m = table.side_honours
        outcome = settle(table.rules.scores, table.deal, k, m, table.declarations)
        if outcome.cancels_round:
            table.round_points[:] = 0
        for line in outcome.lines:
            _pay(table, line)
        table.team_public = True  # Yoninkan: the teams are revealed at the end of deal 1
        table.knowledge_changed()
        table.static_changed()
        table.events.add(
            "deal_over",
            public={
                "round": table.round_number,
                "deal": table.deal,
                "kankei": list(table.kankei),
                "honours": {"kankei": k, "mukan": m},
                "success": outcome.success,
                "lines": [[line.side, line.points, line.label] for line in outcome.lines],
                "cancelled": outcome.cancels_round,
                "round_points": table.round_points.tolist(),
            },
        )
        return outcome.success and table.deal < 3

    def end_round(self, table: KankeiTable[Any]) -> bool:
        """Hand over the round's points; ``True`` when the match goes on (the next dealer and round are set), else
        the game is over."""
        points = table.round_points.copy()
        table.static_changed()
        table.match_points += points
        table._rewards = points if table._rewards is None else table._rewards + points
        table.rounds_played += 1
        table.events.add("round_over", public={"round": table.round_number, "points": points.tolist()})
        if table.options.episode == "match" and table.rounds_played < table.options.n_rounds:
            table.dealer = table.orders[table.dealer][1]
            table.round_number += 1
            return True
        table.current_player = TERMINAL
        table.phase = PLAY
        best = table.match_points.max()
        table.events.add(
            "game_over",
            public={
                "rewards": table.match_points.tolist(),
                "rounds": table.rounds_played,
                "winners": [p for p in range(table.num_players) if table.match_points[p] == best],  # ties share (A16)
            },
        )
        return False


def _pay(table: KankeiTable[Any], line: Line) -> None:
    for p in range(table.num_players):
        on_side = table.scores_with_kankei(p) == (line.side == "kankei")
        table.round_points[p] += line.points if on_side else -line.points
