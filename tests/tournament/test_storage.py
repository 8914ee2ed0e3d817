"""SQLite storage: one row per game, no duplicates, refused mismatches, and resuming after ``kill -9``."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardenvs.agents.tournament.runner import Tournament
from cardenvs.agents.tournament.storage import (
    DamagedDatabaseError,
    DatabaseBusyError,
    SettingsMismatchError,
    TournamentStore,
    TournamentStoreError,
)
from cardenvs.agents.tournament.worker import GamePlayer, GameRecord

ROOT = Path(__file__).resolve().parents[2]
POLICIES = ["random", "rule=verish_ne_verish/rule"]
OPTIONS = {"num_players": 4}


def record(deal: int, seating: int, score: float) -> GameRecord:
    return GameRecord(deal, seating, 7, ["a", "b"], [score, -score], [1.0, 2.0], False, 5, [{"games": 1.0}] * 2)


def test_rows_round_trip_and_a_replayed_game_is_not_stored_twice(tmp_path: Path) -> None:
    with TournamentStore(tmp_path / "t.sqlite") as store:
        assert store.add([record(0, 0, 1.0), record(0, 1, -1.0)]) == 2
        assert store.add([record(0, 1, 5.0), record(1, 0, 0.0)]) == 1  # (0, 1) exists: kept as it was
        rows = store.records()
        assert [(r.deal, r.seating, r.returns[0]) for r in rows] == [(0, 0, 1.0), (0, 1, -1.0), (1, 0, 0.0)]
        assert rows[0].seats == ["a", "b"] and rows[0].metrics == [{"games": 1.0}] * 2
        assert store.done() == {(0, 0), (0, 1), (1, 0)} and len(store) == 3
        view = store.db.execute("SELECT seat, policy, score, place FROM seat_results WHERE deal=0 AND seating=0")
        assert sorted(view.fetchall()) == [(0, "a", 1.0, 1.0), (1, "b", -1.0, 2.0)]


def test_other_settings_are_refused(tmp_path: Path) -> None:
    with TournamentStore(tmp_path / "t.sqlite") as store:
        store.claim({"env_id": "x", "seed": 0})
        store.claim({"env_id": "x", "seed": 0})  # the same settings: fine
        with pytest.raises(SettingsMismatchError, match="seed: stored 0, now 1"):
            store.claim({"env_id": "x", "seed": 1})


def count_rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=0.1) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not created yet
        return 0


def tournament_command(out: Path, games: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cardenvs.experiments.tournament",
        "--game",
        "verish_ne_verish-v0",
        "--players",
        "4",
        "--policies",
        *POLICIES,
        "--games",
        str(games),
        "--out",
        str(out),
        "--no-progress",
        "--no-report",
    ]


def test_kill_9_mid_run_then_resume_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    db = out / "tournament.sqlite"
    games = 240
    process = subprocess.Popen(
        tournament_command(out, games), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while count_rows(db) < 12 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert process.poll() is None, f"the run ended before it could be killed: {process.stderr.read()!r}"
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
        process.stderr.close()  # type: ignore[union-attr]
    assert process.returncode == -signal.SIGKILL

    tournament = Tournament("verish_ne_verish-v0", POLICIES, games=games, options=OPTIONS)
    everything = tournament.jobs()
    with TournamentStore(db) as store:
        before = {(r.deal, r.seating): r.outcome() for r in store.records()}
    assert 12 <= len(before) < len(everything)

    result = tournament.run(db)  # resume
    assert result.played_now == len(everything) - len(before)
    after = {(r.deal, r.seating): r for r in result.records}
    assert len(result.records) == len(after) == len(everything) == count_rows(db)
    assert set(after) == {(j.deal, j.seating) for j in everything}
    assert all(after[key].outcome() == outcome for key, outcome in before.items())  # stored games untouched

    player = GamePlayer(tournament.setup())  # and the games match a fresh replay, before and after the kill
    for job in [everything[0], everything[len(before) - 1], everything[len(before)], everything[-1]]:
        assert player.play(job).outcome() == after[(job.deal, job.seating)].outcome()


def test_a_second_process_on_the_same_database_is_refused_and_every_game_is_played_once(tmp_path: Path) -> None:
    db = tmp_path / "tournament.sqlite"
    games = 240
    first = subprocess.Popen(tournament_command(tmp_path, games), cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while count_rows(db) < 6 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert first.poll() is None, "the first run ended before the second started; give it more games"
        second = subprocess.run(tournament_command(tmp_path, games), cwd=ROOT, capture_output=True, text=True)
        out, _ = first.communicate(timeout=300)
    finally:
        first.kill()
    assert second.returncode == 2, second.stderr
    assert "is being written by another process" in second.stderr and str(db) in second.stderr
    assert "Traceback" not in second.stderr and "games played now" not in second.stdout
    assert first.returncode == 0 and f"{games} games played now" in out
    assert count_rows(db) == games
    again = subprocess.run(tournament_command(tmp_path, games), cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0 and "0 games played now" in again.stdout  # the lock went with the first process


def test_the_lock_is_held_until_the_store_is_closed(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with TournamentStore(db) as store:
        store.claim({"env_id": "x"})
        with TournamentStore(db) as reader:
            assert reader.settings() == {"env_id": "x"}  # reading needs no lock
            with pytest.raises(DatabaseBusyError, match=r"t.sqlite is being written by another process"):
                reader.claim({"env_id": "x"})
    with TournamentStore(db) as store:
        store.claim({"env_id": "x"})


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A finished tournament's database, checkpointed into the main file."""
    db = tmp_path / "t.sqlite"
    Tournament("verish_ne_verish-v0", POLICIES, games=24, options=OPTIONS).run(db)
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def _overwrite(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as f:
        f.seek(offset)
        f.write(data)


def _read_all(db: Path) -> None:
    with TournamentStore(db) as store:
        store.claim(Tournament("verish_ne_verish-v0", POLICIES, games=24, options=OPTIONS).settings())
        store.records()


@pytest.mark.parametrize(
    ("offset", "data"),
    [(0, b"not an sqlite file"), (16, b"\x00\x03"), (100, b"\xff" * 8), (4096, b"\xff" * 8), (3 * 4096, b"\xff" * 8)],
    ids=["magic", "page size", "schema page", "meta page", "games page"],
)
def test_a_damaged_file_names_itself_and_what_to_do(stored: Path, offset: int, data: bytes) -> None:
    _overwrite(stored, offset, data)
    with pytest.raises(DamagedDatabaseError, match=rf"(?i){stored}.*move it aside"):
        _read_all(stored)


@pytest.mark.parametrize(
    ("column", "value", "complaint"),
    [
        ("seats", "[", "Expecting value"),
        ("returns", '"x"', "returns must be a list of one entry per seat"),
        ("seats", '["random", "random"]', "seats must list the policy of each of the 4 seats"),
        ("seats", '["random", "random", "random", "nobody"]', r"seats name \['nobody'\]"),
        ("metrics", "[1, 2, 3, 4]", "metrics must be one JSON object per seat"),
    ],
)
def test_a_malformed_row_names_the_file_and_the_row(stored: Path, column: str, value: str, complaint: str) -> None:
    with sqlite3.connect(stored) as connection:
        connection.execute(f"UPDATE games SET {column} = ? WHERE deal = 1 AND seating = 0", (value,))
    row = "the game row deal=1, seating=0 is malformed"
    with pytest.raises(DamagedDatabaseError, match=rf"{stored}: {row}: {complaint}"):
        _read_all(stored)


def test_a_malformed_settings_row_names_the_file(stored: Path) -> None:
    with sqlite3.connect(stored) as connection:
        connection.execute("UPDATE meta SET value = '{oops' WHERE key = 'settings'")
    with pytest.raises(DamagedDatabaseError, match=rf"{stored}: the settings row is not valid JSON"):
        _read_all(stored)


def test_read_only_opening_refuses_a_foreign_database_without_writing_to_it(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = foreign.read_bytes()
    with pytest.raises(TournamentStoreError, match="not a tournament's"):
        TournamentStore(foreign, read_only=True)
    assert foreign.read_bytes() == before
    with sqlite3.connect(foreign) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"notes"}


def test_read_only_opening_reads_a_tournament(stored: Path) -> None:
    with TournamentStore(stored, read_only=True) as store:
        assert store.settings() is not None
        assert len(store.records()) == 24
