"""Tournament results in SQLite: one row per game, written as games finish, safe to kill and resume.

Each finished game is inserted and committed at once (WAL journal), keyed by ``(deal, seating)``: a run killed
at any moment (even ``kill -9``) keeps every committed game and loses at most the games in flight, and a
resumed run plays exactly the missing keys. ``INSERT OR IGNORE`` makes a replayed game a no-op, so no game is
ever stored twice. The tournament's settings are stored with the results; resuming with other settings is
refused.

One process at a time writes a database: :meth:`TournamentStore.claim` takes an exclusive lock on the file
``NAME.sqlite.lock`` beside it (an SQLite lock, released by the operating system when the process ends, even by
``kill -9``) and holds it until the store is closed; a second process is refused with :class:`DatabaseBusyError`
(two runs would otherwise both play every game). Reading a database (reports, ad-hoc SQL) needs no lock. A
damaged file or row raises :class:`DamagedDatabaseError`, naming the file and what to do.

Tables: ``meta`` (key, value: the settings as JSON, the schema version), ``games`` (one row per game; JSON
columns for per-seat lists), ``faults`` (one row per failed game: deal, seating, seats, the seat and entrant label
of the policy that failed if one did, the kind — ``exception``, ``timeout``, ``illegal``, ``worker-died`` — and
the message; see :mod:`agents.tournament.faults`) and the view ``seat_results`` (one row per seat of a game:
policy, score, place), for ad-hoc SQL.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament.faults import Fault
from cardenvs.agents.tournament.worker import GameRecord

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    deal INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    returns TEXT NOT NULL,
    places TEXT NOT NULL,
    truncated INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    metrics TEXT NOT NULL,
    seconds REAL NOT NULL,
    finished_at TEXT NOT NULL,
    events BLOB,
    PRIMARY KEY (deal, seating)
);
CREATE TABLE IF NOT EXISTS faults (
    deal INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    seats TEXT NOT NULL,
    seat INTEGER,
    policy TEXT,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    happened_at TEXT NOT NULL
);
CREATE VIEW IF NOT EXISTS seat_results AS
    SELECT g.deal, g.seating, CAST(s.key AS INTEGER) AS seat, s.value AS policy,
           json_extract(g.returns, '$[' || s.key || ']') AS score,
           json_extract(g.places, '$[' || s.key || ']') AS place
    FROM games AS g, json_each(g.seats) AS s;
CREATE TABLE IF NOT EXISTS llm_exchanges (
    deal INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    prompt TEXT NOT NULL,
    reply TEXT,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (deal, seating, seat, move, attempt)
);
"""

_COLUMNS = "deal, seating, seed, seats, returns, places, truncated, decisions, metrics, seconds, events"


class TournamentStoreError(Exception):
    """A tournament database that cannot be used as asked (the message names the file and what to do)."""


class SettingsMismatchError(TournamentStoreError, ValueError):
    """The database holds a tournament with other settings."""


class DatabaseBusyError(TournamentStoreError, RuntimeError):
    """Another process is writing the database."""


class DamagedDatabaseError(TournamentStoreError, RuntimeError):
    """The file is not a readable tournament database, or a stored row is malformed."""


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    """Turn SQLite's errors about a damaged file into a :class:`DamagedDatabaseError` naming ``path``."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
            raise DatabaseBusyError(
                f"{path} is locked by another process ({error}); try again when it is done"
            ) from None
        raise DamagedDatabaseError(
            f"{path} is not a readable tournament database ({error}). Move it aside (its games cannot be trusted) "
            "and run the tournament again, or write to another database."
        ) from None


class TournamentStore:
    """The SQLite file of one tournament."""

    def __init__(self, path: str | Path, read_only: bool = False):
        """``read_only``: open an existing database without writing to it (a file that holds no tournament
        tables is refused rather than given them)."""
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self._lock: sqlite3.Connection | None = None
        if read_only:
            self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            self._check_tables()
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path)
        try:
            with _reading(self.path):
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")  # durable against a killed process, not a power cut
                self.db.executescript(_SCHEMA)
                self.db.commit()
        except TournamentStoreError:
            self.db.close()
            raise

    def _check_tables(self) -> None:
        try:
            with _reading(self.path):
                names = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except TournamentStoreError:
            self.db.close()
            raise
        if not {"meta", "games"} <= names:
            self.db.close()
            raise TournamentStoreError(f"{self.path} is an SQLite database but not a tournament's (no games table)")

    # ------------------------------------------------------------------ settings
    def settings(self) -> dict[str, Any] | None:
        """The settings stored by :meth:`claim`, or ``None`` for a new database."""
        with _reading(self.path):
            row = self.db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
        if row is None:
            return None
        settings = _json(row[0], self.path, "the settings row")
        if not isinstance(settings, dict):
            raise self._damaged("the settings row is not a JSON object")
        return settings

    def lock(self) -> None:
        """Become the one process that writes this database, or raise :class:`DatabaseBusyError`."""
        if self._lock is not None:
            return
        lock = sqlite3.connect(self.lock_path, timeout=0, isolation_level=None)
        try:
            lock.execute("BEGIN EXCLUSIVE")  # held until close(); the OS drops it if the process dies
        except sqlite3.OperationalError as error:
            lock.close()
            raise DatabaseBusyError(
                f"{self.path} is being written by another process (it holds the lock {self.lock_path.name}). "
                "Wait for that run to finish and run again (it resumes), or write to another database."
            ) from error
        self._lock = lock

    def claim(self, settings: dict[str, Any]) -> None:
        """Take the writer's lock (:meth:`lock`), then store ``settings`` in a new database, or check they equal
        the stored ones."""
        self.lock()
        stored = self.settings()
        if stored is None:
            with _reading(self.path), self.db:
                self.db.execute("INSERT INTO meta VALUES ('settings', ?)", (json.dumps(settings, sort_keys=True),))
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            return
        wanted = json.loads(json.dumps(settings, sort_keys=True))
        if stored != wanted:
            changed = sorted(k for k in set(stored) | set(wanted) if stored.get(k) != wanted.get(k))
            details = "; ".join(f"{k}: stored {stored.get(k)!r}, now {wanted.get(k)!r}" for k in changed)
            raise SettingsMismatchError(
                f"{self.path} holds a tournament with other settings ({details}). Resume it with the same settings "
                "(only the number of games may grow), or write to another database."
            )

    # ------------------------------------------------------------------ games
    def done(self) -> set[tuple[int, int]]:
        """Keys ``(deal, seating)`` of the stored games."""
        with _reading(self.path):
            return {(d, s) for d, s in self.db.execute("SELECT deal, seating FROM games")}

    def add(self, records: Iterable[GameRecord]) -> int:
        """Insert and commit finished games (a game already stored is left as it is); returns how many were new."""
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        records = list(records)
        rows = [_row(r, stamp) for r in records]
        with _reading(self.path), self.db:
            before = self.db.total_changes
            self.db.executemany(f"INSERT OR IGNORE INTO games ({_COLUMNS}, finished_at) VALUES ({'?, ' * 11}?)", rows)
            added = self.db.total_changes - before
            self.db.executemany(f"INSERT OR IGNORE INTO llm_exchanges VALUES ({'?, ' * 11}?)", _exchange_rows(records))
            return added

    def exchanges(self) -> list[dict[str, Any]]:
        """The stored model exchanges (:attr:`GameRecord.exchanges`, with ``deal`` and ``seating``), in order."""
        with _reading(self.path):
            cursor = self.db.execute("SELECT * FROM llm_exchanges ORDER BY deal, seating, seat, move, attempt")
            names = [c[0] for c in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def add_fault(self, fault: Fault) -> None:
        """Record and commit a failed game."""
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        row = (fault.deal, fault.seating, json.dumps(list(fault.seats)), fault.seat, fault.policy, fault.kind)
        with _reading(self.path), self.db:
            self.db.execute("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (*row, fault.message, stamp))

    def records(self) -> list[GameRecord]:
        """Every stored game, ordered by (deal, seating): the same order whatever finished first."""
        with _reading(self.path):
            rows = self.db.execute(f"SELECT {_COLUMNS} FROM games ORDER BY deal, seating").fetchall()
        settings = self.settings()
        labels = None if settings is None else {str(e[0]) for e in settings.get("entrants", [])}
        seats = None if settings is None else sum(len(slot) for slot in settings.get("slots", []))
        records = []
        for row in rows:
            try:
                records.append(_checked(_record(row), labels, seats or None))
            except (ValueError, TypeError) as error:
                raise self._damaged(f"the game row deal={row[0]}, seating={row[1]} is malformed: {error}") from None
        return records

    def __len__(self) -> int:
        with _reading(self.path):
            return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _damaged(self, what: str) -> DamagedDatabaseError:
        return DamagedDatabaseError(
            f"{self.path}: {what}. The file was changed outside cardenvs or damaged: move it aside and run the "
            "tournament again, or write to another database."
        )

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _row(r: GameRecord, stamp: str) -> tuple[Any, ...]:
    return (
        r.deal,
        r.seating,
        r.seed,
        json.dumps(r.seats),
        json.dumps(r.returns),
        json.dumps(r.places),
        int(r.truncated),
        r.decisions,
        json.dumps(r.metrics),
        r.seconds,
        r.events,
        stamp,
    )


_EXCHANGE_FIELDS = ("seat", "move", "attempt", "prompt", "reply", "outcome", "detail")
_EXCHANGE_COUNTS = ("prompt_tokens", "completion_tokens", "seconds")


def _exchange_rows(records: Iterable[GameRecord]) -> list[tuple[Any, ...]]:
    return [
        (r.deal, r.seating, *(e[k] for k in _EXCHANGE_FIELDS), *(e.get(k, 0) for k in _EXCHANGE_COUNTS))
        for r in records
        for e in r.exchanges
    ]


def _json(text: Any, path: Path, what: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError) as error:
        raise DamagedDatabaseError(
            f"{path}: {what} is not valid JSON ({error}); move the file aside and run the tournament again"
        ) from None


def _checked(record: GameRecord, labels: set[str] | None, seats: int | None) -> GameRecord:
    """``record`` if its per-seat columns agree with each other and with the tournament; else ``ValueError``."""
    if not isinstance(record.seats, list) or (seats is not None and len(record.seats) != seats):
        raise ValueError(f"seats must list the policy of each of the {seats} seats, got {record.seats!r}")
    n = len(record.seats)
    for name, value in {"returns": record.returns, "places": record.places, "metrics": record.metrics}.items():
        if not isinstance(value, list) or len(value) != n:
            raise ValueError(f"{name} must be a list of one entry per seat ({n} seats), got {value!r}")
    if labels is not None and not set(record.seats) <= labels:
        raise ValueError(f"seats name {sorted(set(map(str, record.seats)) - labels)}, not among {sorted(labels)}")
    if not all(isinstance(x, (int, float)) for x in [*record.returns, *record.places]):
        raise ValueError("returns and places must be numbers")
    if not all(isinstance(m, dict) for m in record.metrics):
        raise ValueError("metrics must be one JSON object per seat")
    return record


def _record(row: tuple[Any, ...]) -> GameRecord:
    deal, seating, seed, seats, returns, places, truncated, decisions, metrics, seconds, events = row
    return GameRecord(
        deal=deal,
        seating=seating,
        seed=seed,
        seats=json.loads(seats),
        returns=json.loads(returns),
        places=json.loads(places),
        truncated=bool(truncated),
        decisions=decisions,
        metrics=json.loads(metrics),
        seconds=seconds,
        events=events,
    )


def stored_faults(path: str | Path) -> list[tuple[Any, ...]]:
    """The ``faults`` rows of a database, oldest first (read-only, no lock: for reports), as
    ``(deal, seating, seat, policy, kind, message, happened_at, played_since)``, the last whether a later run
    stored the game; none for a database written before faults were recorded."""
    query = (
        "SELECT deal, seating, seat, policy, kind, message, happened_at, "
        "EXISTS (SELECT 1 FROM games AS g WHERE g.deal = f.deal AND g.seating = f.seating) "
        "FROM faults AS f ORDER BY f.rowid"
    )
    with _reading(Path(path)), contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'faults'").fetchone() is None:
            return []
        return [tuple(row) for row in db.execute(query)]
