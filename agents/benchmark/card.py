"""The score card of one policy on one game's gauntlet: text/Markdown for people, JSON for machines."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cardenvs.agents.benchmark.scoring import Interval, Summary
from cardenvs.agents.benchmark.suites import rules_text


@dataclass(frozen=True)
class OpponentRow:
    """The policy against one gauntlet opponent."""

    opponent: str
    summary: Summary


@dataclass
class ScoreCard:
    """A policy's results on a gauntlet: against each opponent and overall, with 95% intervals over deals."""

    policy: str
    env_id: str
    suite: str
    options: dict[str, Any]
    fingerprint: str
    """Of the code that played (see :func:`agents.specs.fingerprint`)."""
    overall: Summary
    """Every game of the gauntlet pooled (each opponent's games count alike when the budgets are equal)."""
    opponents: list[OpponentRow]
    games_per_opponent: int = 0
    """The budget played (the suite's own unless the caller asked for another)."""
    rank: int | None = None
    """Place on the leaderboard by overall margin (1 = best), with the policy counted in."""
    leaderboard_size: int = 0
    exploitability: dict[str, Any] | None = None
    """A lower bound on exploitability from the shipped table (``docs/exploitability.md``) for a policy it
    measured (the shipped bots); ``None`` for others: run ``python -m cardenvs.experiments.exploitability`` on them."""
    seconds: float = 0.0
    notices: list[str] = field(default_factory=list)
    suite_options: dict[str, Any] = field(default_factory=dict)
    """The options the suite sets (the rest of ``options`` are the game's defaults)."""

    def markdown(self) -> str:
        """The card as Markdown (also readable as plain text)."""
        o = self.overall
        lines = [
            f"## Score card: `{self.policy}` on {self.env_id.split('/')[-1]} ({self.suite})",
            "",
            f"{self.options.get('num_players')} players, {rules_text(self.suite_options)}; code fingerprint "
            f"`{self.fingerprint}`; {o.games} games "
            f"({self.games_per_opponent} per opponent){f' in {self.seconds:.0f} s' if self.seconds else ''}.",
            "",
            "| opponent | score | opponent score | margin (policy − opponent) | win rate | games |",
            "|---|---|---|---|---|---|",
        ]
        for row in [*self.opponents, OpponentRow("**overall**", o)]:
            s = row.summary
            lines.append(
                f"| {_code(row.opponent)} | {s.score.text()} | {s.opponent_score.text()} | {s.margin.text()} | "
                f"{s.win_rate.text()} | {s.games} |"
            )
        if o.metrics:
            lines += ["", "| metric | overall | " + " | ".join(_code(r.opponent) for r in self.opponents) + " |"]
            lines.append("|---" * (2 + len(self.opponents)) + "|")
            for name, value in o.metrics.items():
                per = [r.summary.metrics.get(name, Interval(float("nan"), 0, 0)).text() for r in self.opponents]
                lines.append(f"| {name} | {value.text()} | " + " | ".join(per) + " |")
        lines.append("")
        if self.rank is not None:
            lines.append(f"Rank {self.rank} of {self.leaderboard_size} on the {self.suite} leaderboard (by margin).")
        lines.append(f"Exploitability: {_exploitability_text(self.exploitability)}.")
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        return self.markdown()

    def __str__(self) -> str:
        return self.markdown()

    def to_json(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "env_id": self.env_id,
            "suite": self.suite,
            "options": self.options,
            "fingerprint": self.fingerprint,
            "games_per_opponent": self.games_per_opponent,
            "overall": summary_json(self.overall),
            "opponents": {row.opponent: summary_json(row.summary) for row in self.opponents},
            "rank": self.rank,
            "leaderboard_size": self.leaderboard_size,
            "exploitability": self.exploitability,
            "seconds": self.seconds,
        }

    def json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2, allow_nan=False) + "\n"


def summary_json(summary: Summary) -> dict[str, Any]:
    return {
        "games": summary.games,
        "score": summary.score.to_json(),
        "opponent_score": summary.opponent_score.to_json(),
        "margin": summary.margin.to_json(),
        "win_rate": summary.win_rate.to_json(),
        "metrics": {name: value.to_json() for name, value in summary.metrics.items()},
    }


def _code(name: str) -> str:
    return name if name.startswith("**") else f"`{name}`"


def _exploitability_text(value: dict[str, Any] | None) -> str:
    if not value:
        return "not in the shipped table (python -m cardenvs.experiments.exploitability --game … --policy …)"
    return ", ".join(f"{k} {v}" for k, v in value.items())
