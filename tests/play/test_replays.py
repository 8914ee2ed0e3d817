"""Replays: a tournament game stored with ``--store-events`` re-plays to the very same event log, the report
links to it, and the page's server opens it by deal and seating; broken replays are refused with a reason."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

import pytest

from cardenvs.agents.tournament import DB_NAME, run_and_report
from cardenvs.agents.tournament.report import REPLAY_PORT
from cardenvs.experiments.play.replays import load_replay_file, stored_game
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, Refused, ReplaySession, TableSettings
from tests.play.clients import page_client


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tournament")
    run_and_report(
        "yukushi-v0", ["random", "yukushi/honest"], games=4, out_dir=out, options={"num_players": 3}, store_events=True
    )
    return out


def test_a_stored_game_replays_to_its_own_event_log(tournament: Path) -> None:
    record = stored_game(tournament / DB_NAME, 1, 1)
    replay = ReplaySession(record)
    assert replay.snapshots[-1].is_terminal
    assert json.loads(json.dumps(replay.snapshots[-1].events.events)) == record["events"]
    first, last = replay.message(0, None), replay.message(len(replay.snapshots) - 1, 2)
    assert first["step"] == 0 and last["over"] and last["seat"] == 2 and last["moves"] == []
    assert all(p["hand"] == [] for i, p in enumerate(last["players"]) if i != 2)


def test_the_report_links_to_the_stored_games(tournament: Path) -> None:
    page = (tournament / "tournament-report.html").read_text(encoding="utf-8")
    assert f"<a href='http://127.0.0.1:{REPLAY_PORT}/?deal=1&amp;seating=1'>" in page
    assert f"--replay {tournament / DB_NAME}" in page


def test_the_server_opens_a_stored_game_by_deal_and_seating(tournament: Path) -> None:
    client = page_client(TableServer(None, store=tournament / DB_NAME))
    message = client.get("/api/replay", params={"deal": 1, "seating": 0, "step": 3, "seat": 1}).json()
    assert message["step"] == 3 and message["seat"] == 1
    missing = client.get("/api/replay", params={"deal": 99, "seating": 0})
    assert missing.status_code == 400 and "no game deal 99" in missing.json()["error"]


def test_a_database_stored_before_actions_were_kept_is_refused(tournament: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    old.write_bytes((tournament / DB_NAME).read_bytes())
    with sqlite3.connect(old) as db:
        blob = db.execute("SELECT events FROM games WHERE deal=0 AND seating=0").fetchone()[0]
        bare = zlib.compress(json.dumps(json.loads(zlib.decompress(blob))["events"]).encode())
        db.execute("UPDATE games SET events=? WHERE deal=0 AND seating=0", (bare,))
    with pytest.raises(Refused, match="before tournaments kept the action ids"):
        stored_game(old, 0, 0)


def test_broken_replay_files_are_refused(tmp_path: Path) -> None:
    session = PlaySession(TableSettings("kyuuri-v0", seed=0))
    session.advance(session.version) if session.bot_to_act() else session.play(session.version, 0)
    record = session.replay_record()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert ReplaySession(load_replay_file(path)).snapshots
    for broken, why in [
        ({**record, "format": "x"}, "format"),
        ({k: v for k, v in record.items() if k != "seed"}, "lacks seed"),
        ({**record, "actions": [*record["actions"], 10**6]}, "illegal"),
        ({**record, "actions": ["a"]}, "cannot be played"),
    ]:
        with pytest.raises(Refused, match=why):
            ReplaySession(broken)
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(Refused, match="cannot read the replay"):
        load_replay_file(path)
