"""A table for several people: one link (token) per person's seat and one for watchers; each page sees only
its own seat, the watchers only what is public; the command prints the links and listens beyond this machine
only when asked, with a warning."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from cardenvs.experiments.play import __main__ as command
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, TableSettings
from cardenvs.render.view import SPECTATOR
from tests.play.clients import LOCAL


def _clients(server: TableServer, base: str = LOCAL) -> dict[int, TestClient]:
    return {
        seat: TestClient(server.app(), base_url=base, headers={"X-Table-Token": t}) for t, seat in server.seats.items()
    }


def _hands(session: PlaySession) -> list[list[str]]:
    return [h.split() for h in session.game.privileged_state()["hands"]]


def test_each_person_sees_only_their_own_seat_and_the_watchers_see_no_hand() -> None:
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 4}, seat=0, humans=2, seed=3))
    server = TableServer(session, pace_ms=0)
    assert sorted(server.seats.values()) == [SPECTATOR, 0, 1] and len(set(server.seats)) == 3
    clients = _clients(server)
    rng = np.random.default_rng(0)
    moves = {0: 0, 1: 0}
    for _ in range(400):
        views = {seat: client.get("/api/view").json() for seat, client in clients.items()}
        if views[0]["over"]:
            break
        hands = _hands(session)
        for seat in (0, 1):
            assert views[seat]["hand"] == hands[seat] and views[seat]["players"][seat]["label"] == "you"
            other = 1 - seat
            assert views[seat]["players"][other]["hand"] == [] and views[seat]["players"][other]["label"] == "person"
        assert views[SPECTATOR]["hand"] == [] and all(p["hand"] == [] for p in views[SPECTATOR]["players"])
        assert views[SPECTATOR]["moves"] == [] and "[you:" not in json.dumps(views[SPECTATOR]["history"])
        if views[0]["waiting"]:
            clients[SPECTATOR].post("/api/advance", json={"version": views[0]["version"]})
            continue
        mover = session.game.current_player
        idle = 1 - mover
        assert views[idle]["moves"] == [] and views[idle]["others_turn"]
        refused = clients[idle].post("/api/move", json={"version": views[idle]["version"], "move": 0})
        assert refused.status_code == 400 and "not your turn" in refused.json()["error"]
        pick = int(rng.integers(len(views[mover]["moves"])))
        answer = clients[mover].post("/api/move", json={"version": views[mover]["version"], "move": pick})
        assert answer.status_code == 200 and answer.json()["notice"].startswith("you: ")
        assert clients[idle].get("/api/view").json()["notice"].startswith(f"player_{mover}: ")
        moves[mover] += 1
    assert moves[0] > 2 and moves[1] > 2


def test_the_watchers_view_does_not_change_when_any_hidden_card_is_redealt() -> None:
    session = PlaySession(TableSettings("goninkan-v1", seat=0, humans=2, seed=5))
    rng = np.random.default_rng(1)
    for _ in range(60):
        message = session.send(SPECTATOR)
        for seat in range(session.game.num_players):
            again = session.message(session.game.resample_hidden(seat, rng), SPECTATOR)
            assert json.dumps(again, sort_keys=True) == json.dumps(message, sort_keys=True)
        if message["over"]:
            break
        if message["waiting"]:
            session.advance(message["version"])
        else:
            seat = session.game.current_player
            session.play(message["version"], int(rng.integers(len(session.send(seat)["moves"]))), seat)


def test_a_watcher_cannot_deal_a_rematch_and_a_stale_advance_is_answered_quietly() -> None:
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, seat=0, humans=2, seed=3))
    clients = _clients(TableServer(session, pace_ms=600))
    version = session.version
    while session.bot_to_act() or not session.over:
        if session.over:
            break
        if session.bot_to_act():
            session.advance(session.version)
        else:
            seat = session.game.current_player
            session.play(session.version, 0, seat)
    stale = clients[1].post("/api/advance", json={"version": version})
    assert stale.status_code == 200 and stale.json()["version"] == session.version
    refused = clients[SPECTATOR].post("/api/rematch", json={"version": session.version})
    assert refused.status_code == 400 and "watcher" in refused.json()["error"]


def test_another_host_is_accepted_only_when_named() -> None:
    session = PlaySession(TableSettings("kyuuri-v0", seed=3))
    lan = TableServer(session, host="192.168.1.20")
    assert _clients(lan, "http://192.168.1.20:8765")[0].get("/api/view").status_code == 200
    assert lan.url(8765).startswith("http://192.168.1.20:8765/?token=")
    local = TableServer(PlaySession(TableSettings("kyuuri-v0", seed=3)))
    assert _clients(local, "http://192.168.1.20:8765")[0].get("/api/view").status_code == 403


def test_the_command_prints_one_link_per_person_and_a_watchers_link() -> None:
    """Two people on 127.0.0.2 (an address other than the default): a warning, three links with their own
    tokens, and each link opens its own seat's view over the network."""
    argv = ["-m", "cardenvs.experiments.play", "--game", "kyuuri-v0", "--humans", "2", "--no-browser"]
    argv += ["--host", "127.0.0.2"]
    server = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    try:
        lines = [server.stdout.readline() for _ in range(5)]
        assert lines[0].startswith("warning: the table listens on 127.0.0.2, beyond this machine")
        links = dict(re.findall(r"^ {2}(\S+): (http://\S+)$", "".join(lines), re.MULTILINE))
        assert sorted(links) == ["player_0", "player_1", "spectator"]
        assert len({link.split("token=")[1] for link in links.values()}) == 3
        views = {}
        for who, link in links.items():
            base, token = link.split("?token=")
            request = urllib.request.Request(base + "api/view", headers={"X-Table-Token": token})
            with urllib.request.urlopen(request, timeout=30) as answer:
                views[who] = json.loads(answer.read())
        assert views["player_0"]["players"][0]["label"] == "you" and views["player_0"]["hand"]
        assert views["player_1"]["players"][1]["label"] == "you" and views["player_1"]["hand"]
        assert views["spectator"]["hand"] == [] and views["spectator"]["seat"] == SPECTATOR
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)


@pytest.mark.parametrize("argv", [["--humans", "5"], ["--humans", "2", "--tui"], ["--host", "0.0.0.0"]])
def test_bad_table_options_are_refused_with_a_reason(argv: list[str], capsys: Any) -> None:
    assert command.main(["--game", "kyuuri-v0", "--no-browser", *argv]) == 2
    assert capsys.readouterr().err.startswith("error: ")
