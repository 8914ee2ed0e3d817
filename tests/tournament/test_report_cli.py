"""The command line, the demo entry point and the report files."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from cardenvs.agents.tournament import Tournament, run_and_report
from cardenvs.agents.tournament.storage import SettingsMismatchError
from cardenvs.agents.tournament.worker import decode_events
from cardenvs.experiments import tournament as cli


def test_cli_runs_extends_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "--game",
        "verish_ne_verish-v0",
        "--players",
        "3",
        "--policies",
        "random",
        "rule=verish_ne_verish/rule",
        "--lineup",
        "rule,random,random",
        "--out",
        str(tmp_path),
        "--no-progress",
        "--resamples",
        "100",
    ]
    assert cli.main([*args, "--games", "9"]) == 0
    first = capsys.readouterr().out
    assert "9 games played now" in first and "report:" in first
    few = (tmp_path / "tournament-report.md").read_text()
    assert "n/a (3 deals)" in few  # 9 games are 3 deals: too few for an interval, and the report says so
    assert cli.main([*args, "--games", "15"]) == 0  # resume with more games: only the new ones are played
    second = capsys.readouterr().out
    assert "6 games played now" in second and "15 stored" in second
    with sqlite3.connect(tmp_path / "tournament.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 15
        # the lineup: one rule bot and two copies of random at every table, the bot in every seat
        seats = [row[0] for row in db.execute("SELECT seats FROM games")]
        assert all(s.count('"rule"') == 1 for s in seats)
    report = (tmp_path / "tournament-report.md").read_text()
    headings = ("## Results", "## Paired differences", "## Head-to-head", "## Seat-position bias", "## Game metrics")
    for heading in (*headings, "## Games needed"):
        assert heading in report
    assert "Ranking by mean score: " in report and "| rank | policy | against the next |" in report
    assert "| rule − random | " in report or "| random − rule | " in report
    assert "| rule | 15 |" in report  # 15 seats played by the bot
    for image in ("ratings", "head_to_head", "metrics"):
        assert (tmp_path / f"tournament-{image}.png").stat().st_size > 1000
        assert f"tournament-{image}.png" in report
    assert "<table>" in (tmp_path / "tournament-report.html").read_text()
    with pytest.raises(SettingsMismatchError, match="seed"):
        cli.main([*args, "--games", "15", "--seed", "1"])


def test_run_and_report_returns_the_report_path(tmp_path: Path) -> None:
    path = run_and_report(
        "verish_ne_verish-v0",
        ["random", "verish_ne_verish/rule"],
        games=8,
        out_dir=tmp_path,
        options={"num_players": 2},
        resamples=100,
    )
    assert path == tmp_path / "tournament-report.md" and path.exists()
    assert "verish_ne_verish/rule" in path.read_text()


def test_option_parsing() -> None:
    assert cli.parse_option("num_players=5") == ("num_players", 5)
    assert cli.parse_option("quad_discard_optional=true") == ("quad_discard_optional", True)
    assert cli.parse_option("reward_mode=exit_order") == ("reward_mode", "exit_order")


def test_stored_event_logs_replay_the_metrics(tmp_path: Path) -> None:
    tournament = Tournament("verish_ne_verish-v0", ["random", "verish_ne_verish/rule"], games=6, store_events=True)
    records = tournament.run(tmp_path / "t.sqlite").records
    family = tournament.hooks.metrics
    assert family is not None
    for r in records:
        assert r.events is not None
        events = decode_events(r.events)
        assert events[-1]["kind"] == "game_over"
        assert [{**c, "games": 1.0} for c in family.count(events, 4)] == r.metrics


def test_default_options_and_spelled_out_defaults_are_the_same_tournament() -> None:
    spelled = Tournament("verish_ne_verish-v0", ["random"], options={"num_players": 4, "reward_mode": "loser"})
    assert spelled.digest() == Tournament("cardenvs/verish_ne_verish-v0", ["random"]).digest()
    assert spelled.digest() != Tournament("verish_ne_verish-v0", ["random"], options={"num_players": 3}).digest()


def _cells(line: str) -> int:
    """Cells of a Markdown table row: pipes not escaped by a backslash, minus the outer two."""
    return len(re.findall(r"(?<!\\)\|", line.replace("\\\\", ""))) - 1


def test_labels_with_markup_are_written_as_plain_text(tmp_path: Path) -> None:
    """A ``$…$`` label is not matplotlib mathtext (it crashed the plots); a ``|`` does not break a Markdown table
    and HTML in a label does not pass through."""
    labels = ["$\\alpha^$", "a|b <script>x</script>"]
    args = ["--game", "kyuuri-v0", "--players", "3", "--out", str(tmp_path), "--no-progress", "--resamples", "50"]
    policies = ["--policies", f"{labels[0]}=random", f"{labels[1]}=random", "kyuuri/rule", "--games", "6"]
    assert cli.main(args + policies) == 0
    report = (tmp_path / "tournament-report.md").read_text()
    assert "<script>" not in report and "\\<script\\>" in report and "\\$\\\\alpha^\\$" in report
    tables = [block.splitlines() for block in report.split("\n\n") if block.startswith("|")]
    assert len(tables) >= 4
    for table in tables:  # every row has as many cells as the header
        assert {_cells(row) for row in table} == {_cells(table[0])}, table
    assert "&lt;script&gt;" in (tmp_path / "tournament-report.html").read_text()
