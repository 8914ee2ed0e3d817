"""Running a tournament end to end: settings → schedule → games (stored as they finish) → statistics.

>>> from cardenvs.agents.tournament import Tournament
>>> t = Tournament("verish_ne_verish-v0", ["random", "verish_ne_verish/rule"], games=200, options={"num_players": 4})
>>> result = t.run("runs/tournaments/demo/tournament.sqlite", workers=2)
>>> print(result.stats.entrant_stats["verish_ne_verish/rule"].score.text())
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.tournament.backends import available_cores, run_processes, run_ray, run_serial
from cardenvs.agents.tournament.faults import GameFault, TournamentStopped
from cardenvs.agents.tournament.hooks import hooks_for, validate_partner_groups
from cardenvs.agents.tournament.intervals import METHODS, Method
from cardenvs.agents.tournament.metrics import Ratio
from cardenvs.agents.tournament.notes import extension_notice
from cardenvs.agents.tournament.ratings import Rating, rate_games
from cardenvs.agents.tournament.schedule import Job, Schedule, Scheme
from cardenvs.agents.tournament.specs import Entrant, fingerprinted_policy, parse_entrants
from cardenvs.agents.tournament.stats import TournamentStats, analyse
from cardenvs.agents.tournament.storage import TournamentStore
from cardenvs.agents.tournament.worker import POLICY_SEEDS, GameRecord, GameSetup, PolicySeeds

DEFAULT_MOVE_TIMEOUT = 10.0
"""Seconds a policy may think over one move, unless the caller says otherwise (``--move-timeout``)."""


@dataclass
class TournamentResult:
    """The stored games of a tournament and their statistics."""

    tournament: Tournament
    db_path: Path
    records: list[GameRecord]
    stats: TournamentStats
    ratings: dict[str, Rating]
    played_now: int
    """Games played by this call (the rest were already stored)."""
    seconds: float
    """Wall time of this call's games."""
    notices: list[str] = field(default_factory=list)
    """What the caller should tell the user (e.g. that an entrant's code changed and where its games went)."""


@dataclass
class Tournament:
    """A tournament of policies on one game.

    Args:
        env_id: a registered id (``verish_ne_verish-v0``, namespace optional).
        policies: specs or ``label=spec`` strings (see :mod:`agents.tournament.specs`).
        games: games to play at least (rounded up to whole deals).
        options: the game's options (``num_players`` …).
        scheme: seating scheme of the duplicate deals (see :mod:`agents.tournament.schedule`).
        seed: the tournament seed; every deal seed derives from it.
        lineups: explicit lineups, lists of labels, one per slot (seat, or side in a team game).
        teams: seat each side of a fixed-partnership game with one policy (the game's partner hook).
        store_events: keep each game's compressed event log in the database.
        target_width: requested width of the mean-score interval, for the "games needed" estimate.
        confidence: of the intervals.
        interval: ``"t"`` (default) or ``"bootstrap"`` (percentile, ``resamples`` draws); see
            :mod:`agents.tournament.intervals`.
        policy_seeds: ``"common"`` (default): a policy's random numbers depend on the deal and the seat only, so
            two entrants in the same seat of the same deal draw the same numbers (common random numbers: two
            copies of one policy play identical games, and the comparison of two policies is not blurred by
            their dice); ``"independent"``: each entrant draws its own (an A/A check of copies of one policy).
    """

    env_id: str
    policies: Sequence[str]
    games: int = 100
    options: dict[str, Any] = field(default_factory=dict)
    scheme: Scheme = "auto"
    seed: int = 0
    lineups: Sequence[Sequence[str]] | None = None
    teams: bool = True
    store_events: bool = False
    target_width: float = 0.1
    confidence: float = 0.95
    interval: Method = "t"
    resamples: int = 1000
    policy_seeds: PolicySeeds = "common"

    def __post_init__(self) -> None:
        if self.interval not in METHODS:
            raise ValueError(f"unknown interval {self.interval!r}; choose one of {', '.join(METHODS)}")
        if self.policy_seeds not in POLICY_SEEDS:
            raise ValueError(f"unknown policy_seeds {self.policy_seeds!r}; choose one of {', '.join(POLICY_SEEDS)}")
        self.entrants: list[Entrant] = parse_entrants(self.policies)
        env = cardenvs.make(self.env_id, **self.options)
        self.env_id = env.unwrapped.definition.env_id
        self.num_players = len(env.unwrapped.possible_agents)
        self.resolved_options = _jsonable_options(env.unwrapped.options)
        """Every option of the game with its value (defaults included), as stored with the results."""
        self.hooks = hooks_for(self.env_id)
        groups = self.hooks.partners(env.unwrapped.options, self.num_players)
        if groups is not None:
            validate_partner_groups(groups, self.num_players)
        singles: list[tuple[int, ...]] = [(s,) for s in range(self.num_players)]
        self.sides: list[tuple[int, ...]] = groups if groups is not None else singles
        """The game's sides (partners win together), whoever sits in them."""
        self.slots = self.sides if self.teams else singles
        """What the schedule seats: a side (one policy plays all its seats) or a seat."""
        self.schedule = Schedule(len(self.entrants), self.slots, self.scheme, self.seed, self._lineup_indices())
        context = PolicyContext.from_env(env)
        # Fail now, with the spec's own error, rather than in a worker; and fingerprint the code that plays.
        self.entrants = [
            dataclasses.replace(e, fingerprint=fingerprinted_policy(e.spec, context, seed=0)[1]) for e in self.entrants
        ]

    def _lineup_indices(self) -> list[list[int]] | None:
        if self.lineups is None:
            return None
        index = {e.label: i for i, e in enumerate(self.entrants)}
        unknown = sorted({label for lineup in self.lineups for label in lineup if label not in index})
        if unknown:
            raise ValueError(f"lineups name unknown policies {unknown}; the labels are {list(index)}")
        return [[index[label] for label in lineup] for lineup in self.lineups]

    @property
    def metric_ratios(self) -> list[Ratio]:
        ratios = list(self.hooks.metrics.ratios) if self.hooks.metrics else []
        if any(e.spec.startswith("llm:") for e in self.entrants):  # a language model's failure modes and costs
            from cardenvs.agents.llm import LLM_RATIOS

            ratios += LLM_RATIOS
        return ratios

    def settings(self) -> dict[str, Any]:
        """What a stored tournament must agree with to be resumed (the number of games may grow): the
        entrants' code fingerprints included, so games of other code are never resumed or mixed in."""
        return {
            **self.settings_without_code(),
            "fingerprints": {e.label: e.fingerprint for e in self.entrants},
        }

    def settings_without_code(self) -> dict[str, Any]:
        """:meth:`settings` but the fingerprints: the same tournament, whatever version of the code plays."""
        return {
            "env_id": self.env_id,
            "options": self.resolved_options,
            "entrants": [[e.label, e.spec] for e in self.entrants],
            "scheme": self.schedule.scheme,
            "seed": self.seed,
            "slots": [list(s) for s in self.slots],
            "lineups": [list(x) for x in self.lineups] if self.lineups is not None else None,
            "store_events": self.store_events,
            "policy_seeds": self.policy_seeds,
        }

    def digest(self) -> str:
        """A short hash of :meth:`settings_without_code`: names a default output folder that the same settings
        find again (games of other code go to a folder inside it, see :meth:`database_for_code`)."""
        return _short_hash(self.settings_without_code())

    def code_digest(self) -> str:
        """A short hash of the entrants' fingerprints."""
        return _short_hash({e.label: e.fingerprint for e in self.entrants})

    def database_for_code(self, db_path: str | Path) -> tuple[Path, list[str]]:
        """Where this tournament's games go: ``db_path``, unless it holds games of this tournament played by other
        code; then ``code-<code digest>/`` beside it (the old database is left as it is). Also returns notices
        naming the entrants whose code changed."""
        path = Path(db_path)
        if not path.exists():
            return path, []
        with TournamentStore(path) as store:
            stored = store.settings()
        if stored is None or stored.get("fingerprints") == self.settings()["fingerprints"]:
            return path, []
        if {k: v for k, v in stored.items() if k != "fingerprints"} != _canonical(self.settings_without_code()):
            return path, []  # another tournament: TournamentStore.claim refuses it with its own message
        keyed = path.parent / f"code-{self.code_digest()}" / path.name
        old = stored.get("fingerprints") or {}
        changed = [
            f"entrant {e.label!r} ({e.spec}) changed: code fingerprint {old.get(e.label, 'not recorded')} -> "
            f"{e.fingerprint}"
            for e in self.entrants
            if old.get(e.label) != e.fingerprint
        ]
        return keyed, [*changed, f"the games of the old code stay in {path}; this code's games go to {keyed}"]

    def jobs(self) -> list[Job]:
        """Every game of the tournament."""
        return self.schedule.jobs(self.games)

    def setup(self) -> GameSetup:
        return GameSetup(self.env_id, dict(self.options), tuple(self.entrants), self.store_events, self.policy_seeds)

    def run(
        self,
        db_path: str | Path,
        *,
        workers: int = 1,
        ray_address: str | None = None,
        use_ray: bool = False,
        ray_runtime_env: dict[str, Any] | None = None,
        chunk_size: int | None = None,
        progress: bool = False,
        move_timeout: float | None = DEFAULT_MOVE_TIMEOUT,
    ) -> TournamentResult:
        """Play the games not yet in ``db_path`` and return the statistics of all of them.

        ``workers``: local processes (0 means every available core). With ``use_ray`` or a ``ray_address`` the
        games run on Ray instead (``workers`` then caps the actors). ``move_timeout``: seconds a policy may take
        over one call of ``act()`` or ``reset()`` (``None``: no limit; with one worker the games are then played in
        this process). A game that fails (a policy raises, plays an illegal action or runs out of time, a worker
        dies) stops the tournament with :class:`~agents.tournament.faults.TournamentStopped`, after storing the
        fault in the database; the games stored before it are kept."""
        if move_timeout is not None and not move_timeout > 0:
            raise ValueError(f"move_timeout is a number of seconds above 0 (or None for no limit), got {move_timeout}")
        db_path, notices = self.database_for_code(db_path)
        with TournamentStore(db_path) as store:
            store.claim(self.settings())
            done = store.done()
            todo = [job for job in self.jobs() if (job.deal, job.seating) not in done]
            if done and todo and all(job.deal > max(deal for deal, _ in done) for job in todo):
                notices.append(extension_notice(len(done), len(done) + len(todo), self.interval))
            bar = _ProgressBar(len(todo) + len(done), len(done), self.env_id) if progress else None

            def on_records(records: list[GameRecord]) -> None:
                store.add(records)
                if bar is not None:
                    bar.update(len(records))

            start = time.perf_counter()
            try:
                if todo and (use_ray or ray_address):
                    run_ray(self.setup(), todo, on_records, ray_address, workers or None, chunk_size, ray_runtime_env)
                elif todo and ((workers or available_cores()) > 1 or move_timeout is not None):
                    count = workers or available_cores()
                    run_processes(self.setup(), todo, on_records, count, chunk_size, move_timeout)
                elif todo:
                    run_serial(self.setup(), todo, on_records)
            except GameFault as failed:
                store.add_fault(failed.fault)
                raise TournamentStopped(failed.fault, db_path) from failed
            finally:
                if bar is not None:
                    bar.close()
            seconds = time.perf_counter() - start
            records = store.records()
        return TournamentResult(self, db_path, records, *self.analyse(records), len(todo), seconds, notices)

    def analyse(self, records: Sequence[GameRecord]) -> tuple[TournamentStats, dict[str, Rating]]:
        """Statistics and ratings of stored games."""
        labels = [e.label for e in self.entrants]
        stats = analyse(
            records,
            labels,
            self.metric_ratios,
            cycle_length=self.schedule.cycle_length(),
            confidence=self.confidence,
            target_width=self.target_width,
            sides=self.sides,
            method=self.interval,
            resamples=self.resamples,
            seed=self.seed,
        )
        return stats, rate_games(records, labels)


def _canonical(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return dict(json.loads(json.dumps(value, sort_keys=True)))


def _short_hash(value: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:8]


def _jsonable_options(options: Any) -> dict[str, Any]:
    is_instance = dataclasses.is_dataclass(options) and not isinstance(options, type)
    values = dataclasses.asdict(options) if is_instance else dict(vars(options))
    return dict(json.loads(json.dumps(values, default=str)))


class _ProgressBar:
    """A tqdm bar (if tqdm is installed) opened at the first finished games: tqdm starts a monitor thread, and
    worker processes are best forked before any thread exists."""

    def __init__(self, total: int, initial: int, title: str):
        self.total, self.initial, self.title = total, initial, title.split("/")[-1]
        self.bar: Any = None

    def update(self, games: int) -> None:
        if self.bar is None:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=self.total, initial=self.initial, unit="game", desc=self.title, file=sys.stderr)
        self.bar.update(games)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
