"""Run (or resume) a tournament of policies on a cardenvs game and write its report.

    python -m cardenvs.experiments.tournament --game verish_ne_verish-v0 --players 4 \\
        --policies random rule=verish_ne_verish/rule --games 2000 --workers 2

Results go to ``--out`` (default ``runs/tournaments/<game>-<hash of the settings>``): ``tournament.sqlite``
(one row per game, written as games finish) and ``tournament-report.md`` / ``.html`` with plots. Run the same
command again to resume an interrupted tournament, or with a larger ``--games`` to extend it (the settings
hash leaves the number of games out). After an entrant's code changed (its file, module, parameters or
checkpoint: the fingerprint), the same command says which entrant changed and plays into ``code-<hash>/`` inside
that folder, leaving the old games apart. ``--ray-address auto`` plays on a Ray cluster. Policy specs
(``agents.specs``): registered names, ``path/to/file.py:Name``, ``package.module:Name``, with ``?key=value``
parameters, ``ckpt:PATH``, ``zoo:NAME``; each optionally ``label=spec``. A ``ckpt:`` spec reads the pickle-free
``.npz``; a bare SB3 ``.zip`` only with ``--trust-checkpoint`` (unpickling it can run code). Each policy has
``--move-timeout`` seconds per move (default 10); a policy that fails (raises, plays an illegal or non-integer action,
runs out of time) or a worker that dies stops the tournament with ``error: …`` naming the game and the policy, after
storing the fault in the database and writing the report of the games so far (exit status 1; bad input: 2).
See docs/tournaments.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardenvs.agents.learned.weights import TRUST_VARIABLE
from cardenvs.agents.specs import SpecError
from cardenvs.agents.tournament import DB_NAME, Tournament, write_report
from cardenvs.agents.tournament.faults import GameFault, TournamentStopped
from cardenvs.agents.tournament.intervals import METHODS, Method
from cardenvs.agents.tournament.runner import DEFAULT_MOVE_TIMEOUT
from cardenvs.agents.tournament.schedule import SCHEMES, Scheme
from cardenvs.agents.tournament.storage import TournamentStore, TournamentStoreError

SHIPPED_CODE = {"working_dir": ".", "excludes": [".venv/", "runs/", ".git/", "*.sqlite"]}
"""Ray runtime env that uploads this checkout to every node (which still needs the dependencies installed)."""


@dataclass
class TournamentArgs:
    game: str
    policies: list[str]
    games: int = 200
    players: int | None = None
    option: list[str] = field(default_factory=list)
    scheme: Scheme = "auto"
    lineup: list[str] = field(default_factory=list)
    no_teams: bool = False
    seed: int = 0
    workers: int = 1
    ray_address: str | None = None
    ray_ship_code: bool = False
    chunk_size: int | None = None
    out: str | None = None
    target_width: float = 0.1
    interval: Method = "t"
    resamples: int = 1000
    independent_seeds: bool = False
    store_events: bool = False
    no_progress: bool = False
    no_report: bool = False
    trust_checkpoint: bool = False
    move_timeout: float = DEFAULT_MOVE_TIMEOUT


USER_ERRORS = (ValueError, OSError, TournamentStoreError, GameFault)
"""What bad input (a spec, a checkpoint, an option, a database) or a failing policy raises: the commands print
it as one ``error: …`` line, not a traceback."""


def run_command(main: Callable[[list[str] | None], int], argv: list[str] | None = None) -> int:
    """``main(argv)``, with :data:`USER_ERRORS` printed as one line: exit status 1 for a failed game, 2 else."""
    try:
        return main(argv)
    except USER_ERRORS as error:
        text = (
            f"{error.problem} (see the accepted specs in docs/tournaments.md)"
            if isinstance(error, SpecError)
            else str(error)
        )
        print(f"error: {' '.join(text.split())}", file=sys.stderr)
        return 1 if isinstance(error, GameFault) else 2


def move_timeout(text: str) -> float:
    """``--move-timeout``: seconds above 0, or 0 for no limit."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"the move time limit is a number of seconds (0: no limit), got {text!r}")
    return seconds


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value``; the value is read as JSON when it parses (``3``, ``true``, ``null``), else as text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"an option is written key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", required=True, help="env id, e.g. verish_ne_verish-v0")
    p.add_argument("--policies", nargs="+", required=True, help="policy specs, each optionally label=spec")
    p.add_argument("--games", type=int, default=TournamentArgs.games, help="games at least (whole deals)")
    p.add_argument("--players", type=int, help="shorthand for --option num_players=N")
    p.add_argument("--option", action="append", default=[], help="game option key=value (repeatable)")
    p.add_argument("--scheme", choices=SCHEMES, default=TournamentArgs.scheme, help="duplicate seating scheme")
    p.add_argument(
        "--lineup", action="append", default=[], help="comma-separated labels, one per seat or side (repeatable)"
    )
    p.add_argument("--no-teams", action="store_true", help="seat partners independently in team games")
    p.add_argument("--seed", type=int, default=TournamentArgs.seed)
    p.add_argument("--workers", type=int, default=TournamentArgs.workers, help="local processes (0: all cores)")
    p.add_argument("--ray-address", help="play on Ray: 'auto', 'ray://host:10001', or 'local' for a local Ray")
    p.add_argument(
        "--ray-ship-code", action="store_true", help="send this checkout to the Ray nodes (runtime_env working_dir)"
    )
    p.add_argument("--chunk-size", type=int, help="games per task sent to a worker")
    p.add_argument("--out", help="output folder (default runs/tournaments/<game>-<hash of the settings>)")
    p.add_argument("--target-width", type=float, default=TournamentArgs.target_width, help="for 'games needed'")
    p.add_argument("--interval", choices=METHODS, default=TournamentArgs.interval, help="interval method")
    p.add_argument("--resamples", type=int, default=TournamentArgs.resamples, help="with --interval bootstrap")
    p.add_argument(
        "--independent-seeds",
        action="store_true",
        help="each entrant draws its own random numbers (default: common random numbers per deal and seat)",
    )
    p.add_argument("--store-events", action="store_true", help="keep every game's event log in the database")
    p.add_argument(
        "--move-timeout",
        type=move_timeout,
        default=TournamentArgs.move_timeout,
        metavar="SECONDS",
        help="time limit of a policy per move; over it the game fails as a 'timeout' fault (0: no limit)",
    )
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--no-report", action="store_true")
    p.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="load ckpt: specs from SB3 .zip files (unpickling, which can run code): only for files you trust",
    )
    return p


def make_tournament(args: TournamentArgs, options: dict[str, Any]) -> Tournament:
    """The tournament the command line describes (resolving every policy once, so bad specs fail here)."""
    return Tournament(
        args.game,
        args.policies,
        games=args.games,
        options=options,
        scheme=args.scheme,
        seed=args.seed,
        lineups=[[label.strip() for label in lineup.split(",")] for lineup in args.lineup] or None,
        teams=not args.no_teams,
        store_events=args.store_events,
        target_width=args.target_width,
        interval=args.interval,
        resamples=args.resamples,
        policy_seeds="independent" if args.independent_seeds else "common",
    )


def main(argv: list[str] | None = None) -> int:
    args = TournamentArgs(**vars(build_parser().parse_args(argv)))
    options = dict(parse_option(o) for o in args.option)
    if args.players is not None:
        options["num_players"] = args.players
    if args.trust_checkpoint:  # through the environment, so that worker processes trust the same files
        os.environ[TRUST_VARIABLE] = "1"
    tournament = make_tournament(args, options)
    game = tournament.env_id.split("/")[-1]
    out = Path(args.out or Path("runs", "tournaments", f"{game}-{tournament.digest()}"))
    use_ray = args.ray_address is not None
    address = None if args.ray_address in (None, "local") else args.ray_address
    try:
        result = tournament.run(
            out / DB_NAME,
            workers=args.workers,
            use_ray=use_ray,
            ray_address=address,
            ray_runtime_env=SHIPPED_CODE if args.ray_ship_code else None,
            chunk_size=args.chunk_size,
            progress=not args.no_progress,
            move_timeout=args.move_timeout or None,
        )
    except TournamentStopped as stopped:
        if not args.no_report:
            print(f"report of the games so far: {report_stored(tournament, stopped.db_path)}")
        raise
    for notice in result.notices:
        print(notice)
    rate = result.played_now / result.seconds if result.seconds > 0 and result.played_now else 0.0
    stored = f"{len(result.records)} stored in {result.db_path}"
    print(f"{result.played_now} games played now ({rate:.1f} games/s), {stored}")
    for label in result.stats.entrants:
        s, r = result.stats.entrant_stats[label], result.ratings[label]
        print(f"  {label:28s} score {s.score.text()}  win {s.win_rate.text()}  μ {r.mu:6.2f} ± {r.sigma:.2f}")
    if not args.no_report:
        print(f"report: {write_report(result.stats, result.ratings, tournament.settings(), result.db_path)}")
    return 0


def report_stored(tournament: Tournament, db_path: Path) -> Path:
    """Write the report of the games stored in ``db_path`` (with its faults); returns the Markdown path."""
    with TournamentStore(db_path) as store:
        records = store.records()
    return write_report(*tournament.analyse(records), tournament.settings(), db_path)


if __name__ == "__main__":
    sys.exit(run_command(main))
