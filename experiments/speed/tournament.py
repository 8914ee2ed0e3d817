"""Tournament throughput: games/s of a rule-bot tournament on 1, 2, … local worker processes.

Every run plays the same games (same seeds) into a fresh database and must give the same outcomes (a
determinism check). Wall-clock games/s (storing every game and the final statistics included) shows only the
cores that were free; the CPU time per game, summed over the main process and its workers, shows whether the
work itself scales. Worker counts take turns over the repetitions so that load drift hits them alike.
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from cardenvs.agents.tournament import Tournament

GAME = "verish_ne_verish-v0"
OPTIONS = {"num_players": 4}
POLICIES = ["verish_ne_verish/rule", "rule2=verish_ne_verish/rule", "rule3=verish_ne_verish/rule", "random"]


def cpu_seconds() -> float:
    """User + system CPU time of this process and of its finished children (the worker processes)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


@dataclass
class Scaling:
    """Per-repetition figures of each worker count."""

    games: int
    games_per_s: dict[int, list[float]] = field(default_factory=dict)
    cpu_ms_per_game: dict[int, list[float]] = field(default_factory=dict)
    decisions_per_s: dict[int, list[float]] = field(default_factory=dict)

    def markdown(self) -> str:
        workers = list(self.games_per_s)
        base = statistics.median(self.games_per_s[workers[0]])
        rows = [
            f"Rule-bot tournament: `{GAME}` {OPTIONS}, {', '.join(POLICIES)}; {self.games} games per run, "
            f"{len(self.games_per_s[workers[0]])} interleaved runs per worker count, median.",
            "",
            "| workers | games/s (wall) | speed-up | CPU ms per game (all processes) | decisions/s |",
            "|---|---|---|---|---|",
        ]
        for w in workers:
            rate = statistics.median(self.games_per_s[w])
            cpu = statistics.median(self.cpu_ms_per_game[w])
            decisions = statistics.median(self.decisions_per_s[w])
            rows.append(f"| {w} | {rate:,.1f} | {rate / base:.2f}× | {cpu:.1f} | {decisions:,.0f} |")
        return "\n".join(rows)


def measure_tournament(games: int, workers: list[int], reps: int) -> Scaling:
    """Play the same tournament ``reps`` times on each worker count, taking turns."""
    tournament = Tournament(GAME, POLICIES, games=games, options=OPTIONS, resamples=50)
    scaling = Scaling(games=len(tournament.jobs()))
    reference = None
    with tempfile.TemporaryDirectory() as folder:
        for rep in range(reps):
            for w in workers:
                cpu_start, start = cpu_seconds(), time.perf_counter()
                result = tournament.run(Path(folder) / f"r{rep}w{w}.sqlite", workers=w)
                seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
                outcomes = [r.outcome() for r in result.records]
                reference = reference or outcomes
                if outcomes != reference:
                    raise RuntimeError(f"{w} workers played other games than {workers[0]}: a determinism bug")
                scaling.games_per_s.setdefault(w, []).append(len(outcomes) / seconds)
                scaling.cpu_ms_per_game.setdefault(w, []).append(1000 * cpu / len(outcomes))
                decisions = sum(r.decisions for r in result.records)
                scaling.decisions_per_s.setdefault(w, []).append(decisions / seconds)
    return scaling
