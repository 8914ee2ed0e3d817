"""The tournament designs of the coverage study, and their games: real tournaments through the schedule, played
once and kept (gzipped JSON rows, no pickle) so the intervals can be studied again without replaying.

Each of a design's tournaments has its own seed (0, 1, …) and plays ``max(sizes)`` deals (whole lineup cycles);
the truth of a design with unequal entrants is the estimate of a separate run of many deals (another seed), and
that of an A/A design (copies of one stochastic policy, each with its own random numbers, in a zero-sum game)
is known: every mean score and paired difference 0, every win rate one over the sides.
"""

from __future__ import annotations

import gzip
import json
import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament.runner import Tournament
from cardenvs.agents.tournament.stats import analyse
from cardenvs.agents.tournament.worker import GamePlayer, GameRecord

NOISY_RULE = "cardenvs.experiments.research.stats_study.noisy:NoisyBot?base='kyuuri/rule'&epsilon=0.1"
"""The Kyuuri rule bot with 10% random moves: copies that differ by chance."""
KYUURI_DEAL = {"num_players": 3, "episode": "deal"}
KYUURI_GAME = {"num_players": 3}
TRUTH_SEED = 1_000_000
MAX_CACHED_BYTES = 200_000_000
"""Largest cached run read back (gzipped)."""


@dataclass(frozen=True)
class Design:
    """A tournament design: its game, its entrants (policy specs) and whether partners are one entrant."""

    name: str
    env_id: str
    options: dict[str, Any]
    policies: tuple[str, ...]
    teams: bool = False
    truth_deals: int = 10_000
    """Deals of the separate run that estimates the truth (designs with unequal entrants)."""
    tags: tuple[str, ...] = field(default=())

    @property
    def copies(self) -> bool:
        """An A/A design: every entrant the same policy, so every true score and difference is known."""
        return len(set(self.policies)) == 1

    @property
    def slug(self) -> str:
        return "".join(c if c.isalnum() else "-" for c in self.name.lower()).strip("-")

    def tournament(self, seed: int) -> Tournament:
        labels = [f"e{i}={spec}" for i, spec in enumerate(self.policies)]
        return Tournament(
            self.env_id, labels, options=self.options, seed=seed, teams=self.teams, policy_seeds="independent"
        )


DESIGNS = (
    Design("A/A random, all at the table (3 of 3 seats)", "kyuuri-v0", KYUURI_DEAL, ("random",) * 3),
    Design("A/A random, rotating lineups (2 at 3 seats)", "kyuuri-v0", KYUURI_DEAL, ("random",) * 2),
    Design("A/A random, 4 entrants at 3 seats", "kyuuri-v0", KYUURI_DEAL, ("random",) * 4),
    Design(
        "A/A random, teams (2 v 2)",
        "zheng_shang_you-v0",
        {"num_players": 4, "team_mode": "partners", "episode": "deal"},
        ("random",) * 2,
        teams=True,
    ),
    Design("A/A noisy rule bots, whole games (3 of 3 seats)", "kyuuri-v0", KYUURI_GAME, (NOISY_RULE,) * 3),
    Design("A/A random, many strata (6 entrants at 3 seats)", "kyuuri-v0", KYUURI_DEAL, ("random",) * 6),
    Design("lopsided: thrifty vs random, whole games", "kyuuri-v0", KYUURI_GAME, ("kyuuri/thrifty", "random")),
    Design(
        "lopsided: thrifty, rule, random, whole games",
        "kyuuri-v0",
        KYUURI_GAME,
        ("kyuuri/thrifty", "kyuuri/rule", "random"),
    ),
)


def whole_cycles(design: Design, deals: int) -> int:
    """``deals`` rounded up to whole lineup cycles."""
    cycle = design.tournament(0).schedule.cycle_length()
    return math.ceil(deals / cycle) * cycle


def play(design: Design, seed: int, deals: int) -> list[GameRecord]:
    """The games of one tournament of ``deals`` deals (rounded up to whole lineup cycles)."""
    tournament = design.tournament(seed)
    player = GamePlayer(tournament.setup())
    jobs = [job for deal in range(whole_cycles(design, deals)) for job in tournament.schedule.deal_jobs(deal)]
    return [player.play(job) for job in jobs]


def tournaments(
    design: Design, count: int, deals: int, cache: Path, workers: int = 1, first_seed: int = 0
) -> list[list[GameRecord]]:
    """``count`` tournaments (seeds ``first_seed`` on) of ``deals`` deals, from ``cache`` where it holds them."""
    path = cache / f"{design.slug}-{first_seed}-{count}x{deals}.json.gz"
    if path.exists():
        return _read(path)
    arguments = ([design] * count, range(first_seed, first_seed + count), [deals] * count)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            runs = list(pool.map(play, *arguments, chunksize=4))
    else:
        runs = list(map(play, *arguments))
    _write(path, runs)
    return runs


def truth(design: Design, cache: Path, workers: int = 1) -> dict[tuple[str, str], float]:
    """(kind, name) → the true value of every entrant's score and win rate and every pair's difference."""
    labels = [f"e{i}" for i in range(len(design.policies))]
    if design.copies:
        sides = len(design.tournament(0).sides)
        found = {("score", label): 0.0 for label in labels} | {("win", label): 1 / sides for label in labels}
        return found | {("difference", f"{a} − {b}"): 0.0 for i, a in enumerate(labels) for b in labels[i + 1 :]}
    chunk = 500
    pieces = math.ceil(design.truth_deals / chunk)
    runs = tournaments(design, pieces, chunk, cache, workers, first_seed=TRUTH_SEED)
    records = [_renumbered(r, i * whole_cycles(design, chunk)) for i, run in enumerate(runs) for r in run]
    tournament = design.tournament(0)
    stats = analyse(records, labels, cycle_length=tournament.schedule.cycle_length(), sides=tournament.sides)
    found = {("score", label): stats.entrant_stats[label].score.value for label in labels}
    found |= {("win", label): stats.entrant_stats[label].win_rate.value for label in labels}
    return found | {("difference", f"{a} − {b}"): e.value for (a, b), e in stats.differences.items()}


def _renumbered(record: GameRecord, offset: int) -> GameRecord:
    """``record`` as deal ``deal + offset`` (pieces of the truth run joined as one; the lineup cycle stays)."""
    return GameRecord(
        record.deal + offset, record.seating, record.seed, record.seats, record.returns, record.places,
        record.truncated, record.decisions, record.metrics,
    )  # fmt: skip


def _write(path: Path, runs: list[list[GameRecord]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [[[r.deal, r.seating, r.seats, r.returns, r.places, r.truncated] for r in run] for run in runs]
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump(rows, f)


def _read(path: Path) -> list[list[GameRecord]]:
    if path.stat().st_size > MAX_CACHED_BYTES:
        raise ValueError(f"{path} is over {MAX_CACHED_BYTES} bytes: not a cache this study wrote; delete it")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = json.load(f)
    return [[_record(*row) for row in run] for run in rows]


def _record(
    deal: int, seating: int, seats: list[str], returns: list[float], places: list[float], cut: bool
) -> GameRecord:
    return GameRecord(deal, seating, 0, seats, returns, places, bool(cut), 0, [{} for _ in seats])
