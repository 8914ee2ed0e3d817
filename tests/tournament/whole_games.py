"""What a finished tournament must show, for the tests that enter a policy into one."""

from __future__ import annotations

from collections import Counter

from cardenvs.agents.tournament.runner import TournamentResult


def assert_whole_games(result: TournamentResult, labels: list[str], games: int) -> None:
    """At least ``games`` games were played now and stored, each to its end by these entrants only; every entrant
    sat in some, as many seats as the statistics count, and was rated."""
    records = result.records
    assert len(records) == result.played_now == result.stats.num_games >= games
    assert [r for r in records if r.truncated or r.decisions <= 0 or not set(r.seats) <= set(labels)] == []
    seated = Counter(label for r in records for label in r.seats)
    assert sorted(seated) == sorted(labels) == sorted(result.ratings) == sorted(result.stats.entrants)
    assert seated == {label: result.stats.entrant_stats[label].seat_games for label in labels}
