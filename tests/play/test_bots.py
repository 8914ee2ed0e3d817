"""Opponent policies that fail: one that raises, chooses an illegal or a fractional action, or never answers
ends the game with a message naming it and its error, and the table keeps answering (a hanging bot thinks in a
thread of its own, so even ``/api/config`` answers meanwhile)."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from cardenvs.experiments.play.browser import running
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, TableSettings
from tests.play import faulty_bots
from tests.play.clients import page_client


def _table(bot: str, timeout: float = 10.0) -> TableServer:
    spec = f"tests.play.faulty_bots:{bot}"
    settings = TableSettings("kyuuri-v0", {"num_players": 3}, seat=0, opponents=[spec], seed=1, move_timeout=timeout)
    return TableServer(PlaySession(settings), pace_ms=0)


def _bot_turn(client: Any) -> dict[str, Any]:
    """Play the person's moves until a bot is to act."""
    message: dict[str, Any] = client.get("/api/view").json()
    while not message["waiting"]:
        message = client.post("/api/move", json={"version": message["version"], "move": 0}).json()
    return message


@pytest.mark.parametrize(
    ("bot", "error"),
    [
        ("Raising", "failed: RuntimeError: boom at the table$"),
        ("Illegal", "chose the illegal action"),
        ("Fractional", "not an integer action id"),
    ],
)
def test_a_failing_bot_ends_the_game_with_its_name_and_error(bot: str, error: str) -> None:
    server = _table(bot)
    client = page_client(server)
    waiting = _bot_turn(client)
    answer = client.post("/api/advance", json={"version": waiting["version"]})
    assert answer.status_code == 200
    stopped = answer.json()
    assert stopped["over"] and stopped["moves"] == [] and not stopped["waiting"]
    assert re.search(f"policy 'tests.play.faulty_bots:{bot}' at player_[12] .*{error}", stopped["failure"])
    assert stopped["notice"] == stopped["failure"]
    again = client.post("/api/advance", json={"version": stopped["version"]})
    assert again.status_code == 400 and "no policy is to act" in again.json()["error"]
    record = client.get("/api/export")
    assert record.status_code == 200 and "seed" in record.json()  # the game has ended: its record is given
    fresh = client.post("/api/rematch", json={"version": stopped["version"]}).json()
    assert not fresh["over"] and fresh["failure"] is None


@pytest.fixture
def released() -> Iterator[None]:
    faulty_bots.ENTERED.clear()
    faulty_bots.RELEASE.clear()
    yield
    faulty_bots.RELEASE.set()


def _post(url: str, path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", "X-Table-Token": token}
    request = urllib.request.Request(url.split("?")[0] + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def test_a_hanging_bot_times_out_and_the_server_answers_meanwhile(released: None) -> None:
    server = _table("Hanging", timeout=3.0)
    waiting = _bot_turn(page_client(server))
    answers: list[dict[str, Any]] = []
    with running(server) as url:
        advancing = threading.Thread(
            target=lambda: answers.append(_post(url, "api/advance", {"version": waiting["version"]}, server.token))
        )
        started = time.monotonic()
        advancing.start()
        assert faulty_bots.ENTERED.wait(10), "the bot was never asked"
        config = urllib.request.Request(url.split("?")[0] + "api/config", headers={"X-Table-Token": server.token})
        with urllib.request.urlopen(config, timeout=2) as response:  # answered while the bot thinks
            assert json.loads(response.read())["mode"] == "play"
        view = urllib.request.Request(url.split("?")[0] + "api/view", headers={"X-Table-Token": server.token})
        with urllib.request.urlopen(view, timeout=2) as response:
            assert json.loads(response.read())["waiting"]
        assert time.monotonic() - started < 3.0, "the answers came only after the bot's time was up"
        advancing.join(20)
    assert answers and answers[0]["over"]
    failure = "policy 'tests.play.faulty_bots:Hanging' at player_[12] did not choose an action within 3 s"
    assert re.search(failure, answers[0]["failure"])
