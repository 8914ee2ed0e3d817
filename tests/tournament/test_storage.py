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

from agents.tournament.runner import Tournament
from agents.tournament.storage import SettingsMismatchError, TournamentStore
from agents.tournament.worker import GamePlayer, GameRecord

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


def test_kill_9_mid_run_then_resume_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    db = out / "tournament.sqlite"
    games = 240
    command = [
        sys.executable,
        "-m",
        "experiments.tournament",
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
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
