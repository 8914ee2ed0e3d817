"""Tournament results in SQLite: one row per game, written as games finish, safe to kill and resume.

Each finished game is inserted and committed at once (WAL journal), keyed by ``(deal, seating)``: a run killed
at any moment (even ``kill -9``) keeps every committed game and loses at most the games in flight, and a
resumed run plays exactly the missing keys. ``INSERT OR IGNORE`` makes a replayed game a no-op, so no game is
ever stored twice. The tournament's settings are stored with the results; resuming with other settings is
refused.

Tables: ``meta`` (key, value: the settings as JSON, the schema version), ``games`` (one row per game; JSON
columns for per-seat lists) and the view ``seat_results`` (one row per seat of a game: policy, score, place),
for ad-hoc SQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agents.tournament.worker import GameRecord

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
CREATE VIEW IF NOT EXISTS seat_results AS
    SELECT g.deal, g.seating, CAST(s.key AS INTEGER) AS seat, s.value AS policy,
           json_extract(g.returns, '$[' || s.key || ']') AS score,
           json_extract(g.places, '$[' || s.key || ']') AS place
    FROM games AS g, json_each(g.seats) AS s;
"""

_COLUMNS = "deal, seating, seed, seats, returns, places, truncated, decisions, metrics, seconds, events"


class SettingsMismatchError(ValueError):
    """The database holds a tournament with other settings."""


class TournamentStore:
    """The SQLite file of one tournament."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # durable against a killed process; a power cut may lose the last
        self.db.executescript(_SCHEMA)
        self.db.commit()

    # ------------------------------------------------------------------ settings
    def settings(self) -> dict[str, Any] | None:
        """The settings stored by :meth:`claim`, or ``None`` for a new database."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def claim(self, settings: dict[str, Any]) -> None:
        """Store ``settings`` in a new database, or check they equal the stored ones."""
        stored = self.settings()
        if stored is None:
            with self.db:
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
        return {(d, s) for d, s in self.db.execute("SELECT deal, seating FROM games")}

    def add(self, records: Iterable[GameRecord]) -> int:
        """Insert and commit finished games (a game already stored is left as it is); returns how many were new."""
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        rows = [_row(r, stamp) for r in records]
        with self.db:
            before = self.db.total_changes
            self.db.executemany(f"INSERT OR IGNORE INTO games ({_COLUMNS}, finished_at) VALUES ({'?, ' * 11}?)", rows)
            return self.db.total_changes - before

    def records(self) -> list[GameRecord]:
        """Every stored game, ordered by (deal, seating): the same order whatever finished first."""
        rows = self.db.execute(f"SELECT {_COLUMNS} FROM games ORDER BY deal, seating").fetchall()
        return [_record(row) for row in rows]

    def __len__(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        self.db.close()

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
