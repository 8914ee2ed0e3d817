"""The web table's requests: moves made as a person makes them, and every bad request refused with a message
that leaves the table unchanged."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, ReplaySession, TableSettings
from tests.play.clients import page_client, play_to_the_end


@pytest.fixture
def client() -> TestClient:
    session = PlaySession(TableSettings("verish_ne_verish-v0", {"num_players": 3}, seat=0, seed=4))
    return page_client(TableServer(session, pace_ms=0))


def _to_person(client: TestClient) -> dict[str, Any]:
    message: dict[str, Any] = client.get("/api/view").json()
    if message["waiting"]:
        message = client.post("/api/advance", json={"version": message["version"]}).json()
    assert not message["waiting"] and message["moves"]
    return message


def _refused(client: TestClient, path: str, body: Any, before: dict[str, Any], why: str) -> None:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = client.post(path, content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert why in response.json()["error"]
    after = client.get("/api/view").json()
    assert {k: after[k] for k in ("version", "hand", "history", "moves")} == {
        k: before[k] for k in ("version", "hand", "history", "moves")
    }


def test_the_page_is_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<script>" in page.text
    assert client.get("/api/config").json() == {"mode": "play", "pace_ms": 0}


def test_a_move_changes_the_table(client: TestClient) -> None:
    message = _to_person(client)
    after = client.post("/api/move", json={"version": message["version"], "move": 0}).json()
    assert after["version"] > message["version"]
    assert after["notice"].startswith("you:")


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"{not json", "must be a JSON object"),
        ([1, 2], "must be a JSON object"),
        ({"move": 0}, "version must be an integer"),
        ({"version": "x", "move": 0}, "version must be an integer"),
        ({"version": -5, "move": 0}, "old view"),
        ({"move": 10**6}, "move must be an integer index"),
        ({"move": "0"}, "move must be an integer index"),
        ({"move": -1}, "move must be an integer index"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(client: TestClient, body: Any, why: str) -> None:
    before = _to_person(client)
    if isinstance(body, dict) and "version" not in body:
        body = {**body, "version": before["version"]} if why != "version must be an integer" else body
    _refused(client, "/api/move", body, before, why)


def test_a_stale_move_is_refused(client: TestClient) -> None:
    before = _to_person(client)
    client.post("/api/move", json={"version": before["version"], "move": 0})
    now = _to_person(client)
    _refused(client, "/api/move", {"version": before["version"], "move": 0}, now, "old view")


def test_no_bot_move_on_the_persons_turn_and_unknown_requests(client: TestClient) -> None:
    before = _to_person(client)
    _refused(client, "/api/advance", {"version": before["version"]}, before, "no policy is to act")
    assert client.post("/api/undo", json={}).status_code == 404


def test_play_to_the_end_then_rematch_and_replay(client: TestClient) -> None:
    message = play_to_the_end(client, np.random.default_rng(0))
    assert message["moves"] == [] and len(message["returns"]) == 3
    record = client.get("/api/export").json()
    replay = page_client(TableServer(None, ReplaySession(record)))
    last = replay.get("/api/replay", params={"step": 0}).json()["steps"] - 1
    end = replay.get("/api/replay", params={"step": last, "seat": "all"}).json()
    assert end["history"][-1].startswith(message["history"][-1])  # omniscient lines add the private parts
    assert replay.get("/api/replay", params={"step": last + 1}).status_code == 400
    assert replay.get("/api/replay", params={"step": 0, "seat": "x"}).status_code == 400
    fresh = client.post("/api/rematch", json={"version": message["version"]}).json()
    assert not fresh["over"] and fresh["version"] > message["version"]


def test_the_command_serves_on_localhost_and_refuses_bad_settings(capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys
    import urllib.request

    from cardenvs.experiments.play.__main__ import main

    assert main(["--game", "nope-v0", "--no-browser"]) == 2
    assert "unknown environment id 'nope-v0'" in capsys.readouterr().err
    command = [sys.executable, "-m", "cardenvs.experiments.play", "--game", "kyuuri-v0", "--no-browser", "--pace", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = line.split(" at ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and "/?token=" in url
        with urllib.request.urlopen(url.replace("/?", "/api/config?"), timeout=20) as response:
            assert json.loads(response.read()) == {"mode": "play", "pace_ms": 0}
    finally:
        server.terminate()
        server.wait(10)


def test_skip_lets_the_bots_play_on_to_the_persons_turn_or_the_end() -> None:
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 4}, seat=0, seed=4))
    client = page_client(TableServer(session, pace_ms=600))  # with a pace, advance makes one bot move
    message = _to_person(client)
    message = client.post("/api/move", json={"version": message["version"], "move": 0}).json()
    assert message["waiting"]
    skipped = client.post("/api/skip", json={"version": message["version"]}).json()
    assert skipped["over"] or not skipped["waiting"]
    assert len(skipped["history"]) >= len(message["history"]) + 3  # the three bots have played
    assert client.post("/api/skip", json={"version": skipped["version"]}).status_code == 400  # no bot to act
