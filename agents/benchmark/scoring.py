"""The one place where the benchmark reads tournament statistics (:mod:`agents.tournament.stats`): a policy's
score, win rate and game metrics against one opponent or the whole gauntlet, and its margin over the opponents,
each with the tournament's 95% interval over deals."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardenvs.agents.tournament.intervals import Estimate
from cardenvs.agents.tournament.runner import Tournament
from cardenvs.agents.tournament.worker import GameRecord

POLICY, OPPONENT = "policy", "opponent"
"""The labels of the two entrants of every gauntlet tournament."""
DEAL_STRIDE = 1_000_000
"""Deals of the ``j``-th opponent's tournament are numbered ``j * DEAL_STRIDE + deal`` when pooled, so every
(opponent, deal) is its own deal of the pooled statistics."""


@dataclass(frozen=True)
class Interval:
    """A value with its interval, as stored in score cards and leaderboards (JSON-friendly)."""

    value: float
    low: float
    high: float

    @classmethod
    def of(cls, estimate: Estimate) -> Interval:
        return cls(float(estimate.value), float(estimate.low), float(estimate.high))

    def text(self, digits: int = 3) -> str:
        if math.isnan(self.value):
            return "—"
        if math.isnan(self.low):
            return f"{self.value:.{digits}f} [n/a]"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def to_json(self) -> dict[str, float | None]:
        return {k: (None if math.isnan(v) else v) for k, v in dataclasses.asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Interval:
        return cls(*(math.nan if data[k] is None else float(data[k]) for k in ("value", "low", "high")))


@dataclass(frozen=True)
class Summary:
    """What the games of one or several gauntlet tournaments say about the policy."""

    games: int
    score: Interval
    """The policy's mean score per seat."""
    opponent_score: Interval
    margin: Interval
    """Policy − opponent mean score per seat, both resampled from the same deals."""
    win_rate: Interval
    metrics: dict[str, Interval]


def summarise(tournament: Tournament, records: Sequence[GameRecord]) -> Summary:
    """The :class:`Summary` of ``records`` (labelled :data:`POLICY` / :data:`OPPONENT`), with the tournament's
    statistics settings (metrics, sides, lineup strata, confidence)."""
    stats, _ = tournament.analyse(records)
    mine, theirs = stats.entrant_stats[POLICY], stats.entrant_stats[OPPONENT]
    margin = stats.difference(POLICY, OPPONENT)
    return Summary(
        games=len(records),
        score=Interval.of(mine.score),
        opponent_score=Interval.of(theirs.score),
        margin=Interval.of(margin),
        win_rate=Interval.of(mine.win_rate),
        metrics={name: Interval.of(estimate) for name, estimate in mine.metrics.items()},
    )


def pooled(records_per_opponent: Sequence[Sequence[GameRecord]]) -> list[GameRecord]:
    """The records of several tournaments as one, each (opponent, deal) a deal of its own."""
    return [
        dataclasses.replace(record, deal=j * DEAL_STRIDE + record.deal)
        for j, records in enumerate(records_per_opponent)
        for record in records
    ]
