"""Tournaments of policies on any cardenvs game: duplicate deals, bootstrap intervals, OpenSkill ratings,
game metrics from the event log, SQLite storage that survives being killed, local or Ray parallelism with a time
limit per move (a failed game stops the run and is recorded, never a hang), and a Markdown/HTML report. See
``docs/tournaments.md``.

>>> from cardenvs.agents.tournament import run_and_report
>>> report = run_and_report("verish_ne_verish-v0", ["random", "verish_ne_verish/rule"], games=200,
...                         out_dir="runs/tournaments/verish", options={"num_players": 4})
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament.faults import TournamentStopped
from cardenvs.agents.tournament.report import write_report
from cardenvs.agents.tournament.runner import DEFAULT_MOVE_TIMEOUT, Tournament, TournamentResult
from cardenvs.agents.tournament.schedule import Schedule
from cardenvs.agents.tournament.specs import Entrant, register_spec_prefix, resolve_policy

DB_NAME = "tournament.sqlite"


def run_and_report(
    env_id: str,
    policies: Sequence[str],
    games: int,
    out_dir: str | Path,
    *,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    seed: int = 0,
    progress: bool = False,
    move_timeout: float | None = DEFAULT_MOVE_TIMEOUT,
    **settings: Any,
) -> Path:
    """Run (or resume) a tournament of ``policies`` on ``env_id`` into ``out_dir/tournament.sqlite`` and write
    its report there; returns the path of the Markdown report (the HTML one sits beside it).

    ``settings`` are further :class:`Tournament` fields (``scheme``, ``lineups``, ``target_width`` …); a failed
    game raises :class:`~agents.tournament.faults.TournamentStopped` (see :meth:`Tournament.run`)."""
    tournament = Tournament(env_id, list(policies), games=games, options=dict(options or {}), seed=seed, **settings)
    result = tournament.run(Path(out_dir) / DB_NAME, workers=workers, progress=progress, move_timeout=move_timeout)
    return write_report(result.stats, result.ratings, tournament.settings(), result.db_path)


__all__ = [
    "DB_NAME",
    "Entrant",
    "Schedule",
    "Tournament",
    "TournamentResult",
    "TournamentStopped",
    "register_spec_prefix",
    "resolve_policy",
    "run_and_report",
    "write_report",
]
