"""Failing games never hang a tournament or the benchmark: a worker that dies or a policy that does not answer stops
the run with one line naming the game, the fault is stored and reported, and a re-run resumes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardenvs.agents.tournament import Tournament
from cardenvs.agents.tournament.faults import TournamentStopped
from cardenvs.agents.tournament.report import faults_section
from cardenvs.agents.tournament.storage import stored_faults
from tests.user_policies import MISBEHAVING, write_policy

ROOT = Path(__file__).resolve().parents[2]
GAME = "verish_ne_verish-v0"
HANG = 90
"""Seconds after which a command counts as hung (the runs below take a few seconds)."""


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    return write_policy(tmp_path / "user", MISBEHAVING, "bad.py")


def command(module: str, *args: str, crash_after: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CRASH_AFTER"}
    if crash_after is not None:
        env["CRASH_AFTER"] = str(crash_after)
    return subprocess.run(
        [sys.executable, "-m", module, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=HANG
    )


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The command's stderr, which must be a single ``error: …`` line."""
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def games_and_faults(db: Path) -> tuple[set[tuple[int, int]], list[tuple[object, ...]]]:
    with sqlite3.connect(db) as connection:
        games = {(d, s) for d, s in connection.execute("SELECT deal, seating FROM games")}
    return games, stored_faults(db)


def test_a_worker_killed_mid_game_stops_the_tournament_and_a_rerun_resumes(bad: Path, tmp_path: Path) -> None:
    args = ["--game", GAME, "--players", "3", "--policies", "random", f"crash={bad}:Crasher", "--games", "60",
            "--workers", "2", "--out", str(tmp_path / "t"), "--no-progress", "--resamples", "50"]  # fmt: skip
    died = command("cardenvs.experiments.tournament", *args, crash_after=4)  # each worker's crasher dies in game 5
    assert died.returncode == 1
    line = one_error_line(died)
    assert "worker-died" in line and "the worker process playing it died (exit code 3)" in line
    games, faults = games_and_faults(tmp_path / "t" / "tournament.sqlite")
    assert 0 < len(games) < 60
    deal, seating, seat, policy, kind, _message, _when, played = faults[0]
    assert f"deal {deal} seating {seating}" in line and f"seat {seat} ('crash')" in line
    assert (kind, policy, played) == ("worker-died", "crash", 0) and (deal, seating) not in games
    report = (tmp_path / "t" / "tournament-report.md").read_text()
    assert "## Faults" in report and "| crash | worker-died |" in report

    resumed = command("cardenvs.experiments.tournament", *args)  # the crash is gone: the same command finishes the rest
    assert resumed.returncode == 0, resumed.stderr
    assert f"{60 - len(games)} games played now" in resumed.stdout and "60 stored" in resumed.stdout
    games_after, faults_after = games_and_faults(tmp_path / "t" / "tournament.sqlite")
    assert len(games_after) == 60 and faults_after[0][-1] == 1  # the failed game was played since
    assert "| crash | worker-died |" in (tmp_path / "t" / "tournament-report.md").read_text()


def test_a_policy_that_sleeps_in_act_times_out_in_the_single_worker_path(bad: Path, tmp_path: Path) -> None:
    tournament = Tournament(GAME, ["random", f"sleepy={bad}:Sleeper?after=2"], games=18, options={"num_players": 3})
    db = tmp_path / "t.sqlite"
    with pytest.raises(TournamentStopped, match=r"seat \d \('sleepy'\): timeout: no move within the limit of 0.5 s"):
        tournament.run(db, workers=1, move_timeout=0.5)
    games, faults = games_and_faults(db)
    assert len(faults) == 1 and faults[0][3:5] == ("sleepy", "timeout") and faults[0][:2] not in games
    assert 2 <= len(games) < 18  # the games before the sleeper's third game are kept
    [section] = faults_section(db)
    assert section.title == "Faults" and section.tables[0].rows[0][3:5] == ["sleepy", "timeout"]


def test_a_float_action_is_a_fault_of_the_policy(bad: Path, tmp_path: Path) -> None:
    tournament = Tournament(GAME, ["random", f"floats={bad}:floater"], games=6, options={"num_players": 3})
    with pytest.raises(TournamentStopped, match=r"\('floats'\): illegal: .*returned \d\.9 of type float"):
        tournament.run(tmp_path / "t.sqlite")
    assert [fault[3:5] for fault in stored_faults(tmp_path / "t.sqlite")] == [("floats", "illegal")]


def test_the_benchmark_stops_on_a_policy_that_sleeps(bad: Path, tmp_path: Path) -> None:
    done = command("cardenvs.experiments.benchmark", "--game", GAME, "--policy", f"{bad}:Sleeper?after=1",
                   "--games", "12", "--workers", "2", "--move-timeout", "0.5",
                   "--out", str(tmp_path / "runs"))  # fmt: skip
    assert done.returncode == 1
    line = one_error_line(done)
    assert "('policy'): timeout: no move within the limit of 0.5 s" in line and "tournament.sqlite" in line
    [db] = (tmp_path / "runs").rglob("tournament.sqlite")
    assert [fault[3:5] for fault in stored_faults(db)] == [("policy", "timeout")]


def test_the_benchmark_stops_on_a_worker_that_dies_and_resumes(bad: Path, tmp_path: Path) -> None:
    args = ["--game", GAME, "--policy", f"{bad}:Crasher", "--games", "12", "--workers", "2",
            "--out", str(tmp_path / "runs")]  # fmt: skip
    died = command("cardenvs.experiments.benchmark", *args, crash_after=2)
    assert died.returncode == 1
    line = one_error_line(died)
    assert "('policy'): worker-died: the worker process playing it died (exit code 3)" in line
    resumed = command("cardenvs.experiments.benchmark", *args)
    assert resumed.returncode == 0 and "## Score card" in resumed.stdout, resumed.stderr
    faults = [fault[3:5] for db in (tmp_path / "runs").rglob("tournament.sqlite") for fault in stored_faults(db)]
    assert faults == [("policy", "worker-died")]


def test_a_move_time_limit_must_be_a_number_of_seconds(tmp_path: Path) -> None:
    tournament = Tournament(GAME, ["random", "verish_ne_verish/rule"], games=3, options={"num_players": 3})
    with pytest.raises(ValueError, match="move_timeout is a number of seconds above 0"):
        tournament.run(tmp_path / "t.sqlite", move_timeout=0)
    done = command("cardenvs.experiments.tournament", "--game", GAME, "--policies", "random", "--move-timeout", "soon")
    assert done.returncode == 2 and "a number of seconds (0: no limit), got 'soon'" in done.stderr


def test_a_worker_stuck_in_a_move_dies_with_a_killed_tournament(bad: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "sleeper.pid"
    command = [sys.executable, "-m", "cardenvs.experiments.tournament", "--game", GAME, "--players", "3", "--policies",
               "random", f"{bad}:Sleeper", "--games", "6", "--move-timeout", "600", "--out", str(tmp_path / "t"),
               "--no-progress"]  # fmt: skip
    env = {**os.environ, "SLEEPER_PID": str(pid_file)}
    tournament = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + HANG
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and tournament.poll() is None, "the sleeper never started"
            time.sleep(0.1)
        worker = int(pid_file.read_text())
    finally:
        tournament.kill()  # as the out-of-memory killer would
        tournament.wait()
    assert worker != tournament.pid
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)
    assert not alive, "the worker outlived the tournament that was killed"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return state != "Z"
