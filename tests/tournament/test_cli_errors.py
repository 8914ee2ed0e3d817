"""Bad input to ``experiments.tournament`` and ``experiments.benchmark`` (a spec naming nothing, a missing or
broken checkpoint, a database file that is not one) ends in one ``error: …`` line and a non-zero exit, not a
traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardenvs.agents.benchmark.suites import SUITE, slug

ROOT = Path(__file__).resolve().parents[2]
GAME = "verish_ne_verish-v0"


def bad_input(kind: str, folder: Path) -> tuple[str, str]:
    """A policy spec (and the text its error must hold) for each kind of bad input."""
    if kind == "spec":
        return "no_such_bot", "unknown policy 'no_such_bot'"
    if kind == "missing checkpoint":
        return f"ckpt:{folder / 'gone.npz'}", "no checkpoint at"
    if kind == "garbage checkpoint":
        (folder / "junk.npz").write_bytes(b"not an npz at all" * 10)
        return f"ckpt:{folder / 'junk.npz'}", "junk.npz"
    return "verish_ne_verish/rule", "is not a readable tournament database"  # with a damaged database, below


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def damaged_database(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x07 this is no SQLite file " * 200)


KINDS = ["spec", "missing checkpoint", "garbage checkpoint", "damaged database"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_tournament_command(kind: str, tmp_path: Path) -> None:
    spec, expected = bad_input(kind, tmp_path)
    if kind == "damaged database":
        damaged_database(tmp_path / "out" / "tournament.sqlite")
    command = [sys.executable, "-m", "cardenvs.experiments.tournament", "--game", GAME, "--policies", "random", spec,
               "--games", "3", "--out", str(tmp_path / "out"), "--no-progress"]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert expected in one_line_error(done)


@pytest.mark.parametrize("kind", KINDS)
def test_the_benchmark_command(kind: str, tmp_path: Path) -> None:
    spec, expected = bad_input(kind, tmp_path)
    if kind == "damaged database":
        folder = tmp_path / "runs" / "verish_ne_verish" / SUITE / slug(spec)
        damaged_database(folder / slug("random") / "tournament.sqlite")
    command = [sys.executable, "-m", "cardenvs.experiments.benchmark", "--game", GAME, "--policy", spec,
               "--games", "12", "--workers", "1", "--out", str(tmp_path / "runs")]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert expected in one_line_error(done)
