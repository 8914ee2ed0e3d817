"""A hostile client: another web page (foreign ``Origin``), a rebound domain name (foreign ``Host``), a request
without the table's token or with a wrong one, huge and malformed bodies, a rematch or the game's record asked
for mid-game. Each is refused with a sentence and leaves the table as it was."""

from __future__ import annotations

import contextlib
import json
import socket
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardenvs.experiments.play.browser import running
from cardenvs.experiments.play.server import MAX_BODY_BYTES, TableServer
from cardenvs.experiments.play.session import PlaySession, ReplaySession, TableSettings
from tests.play.clients import LOCAL, page_client


def _table() -> TableServer:
    return TableServer(PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, seed=2)), pace_ms=0)


def _replay_table() -> TableServer:
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, seed=2))
    return TableServer(None, ReplaySession(session.replay_record()))


def _unchanged(server: TableServer, before: dict[str, Any]) -> None:
    assert server.session is not None
    after = server.session.message()
    keys = ("version", "hand", "history")
    assert {k: after[k] for k in keys} == {k: before[k] for k in keys}


def _person_turn(client: TestClient) -> dict[str, Any]:
    message: dict[str, Any] = client.get("/api/view").json()
    if message["waiting"]:
        message = client.post("/api/advance", json={"version": message["version"]}).json()
    return message


HOSTILE = {
    "foreign Origin": ({"Origin": "http://evil.example"}, LOCAL, "requests from other web pages"),
    "null Origin": ({"Origin": "null"}, LOCAL, "requests from other web pages"),
    "foreign Host": ({}, "http://evil.example:8765", "answers only requests addressed to 127.0.0.1"),
    "no token": ({"X-Table-Token": ""}, LOCAL, "no table token"),
    "wrong token": ({"X-Table-Token": "guessed"}, LOCAL, "wrong table token"),
}


@pytest.mark.parametrize("who", HOSTILE)
def test_a_hostile_client_reads_nothing_and_moves_nothing(who: str) -> None:
    headers, base, why = HOSTILE[who]
    server = _table()
    before = _person_turn(page_client(server))
    hostile = TestClient(server.app(), base_url=base, headers={"X-Table-Token": server.token, **headers})
    for method, path in [("GET", "/api/view"), ("GET", "/api/export"), ("GET", "/api/config"), ("GET", "/api/replay")]:
        answer = hostile.request(method, path)
        assert answer.status_code == 403 and why in answer.json()["error"], (path, answer.text)
        assert answer.json()["state"] is None
    for kind, body in [("move", {"move": 0}), ("advance", {}), ("rematch", {})]:
        answer = hostile.post(f"/api/{kind}", json={**body, "version": before["version"]})
        assert answer.status_code == 403 and why in answer.json()["error"]
    _unchanged(server, before)


def test_requests_without_the_token_are_refused_and_the_page_is_not() -> None:
    server = _table()
    anonymous = TestClient(server.app(), base_url=LOCAL)
    answer = anonymous.get("/api/view")
    assert answer.status_code == 403
    assert "no table token: open the address the command printed" in answer.json()["error"]
    assert anonymous.get("/").status_code == 200  # the page holds no secret; its requests need the token
    assert anonymous.get("/api/view", params={"token": server.token}).status_code == 200
    assert anonymous.get("/api/view", params={"token": server.token + "x"}).status_code == 403


def test_the_page_opened_with_the_token_keeps_it_in_a_same_site_cookie() -> None:
    """So that links without the token (a tournament report's) work once the printed URL was opened."""
    server = _table()
    browser = TestClient(server.app(), base_url=LOCAL)
    assert browser.get("/").headers.get("set-cookie") is None
    opened = browser.get("/", params={"token": server.token})
    cookie = opened.headers["set-cookie"]
    assert cookie.startswith(f"cardenvs-table-8765={server.token};") and "SameSite=Strict" in cookie
    assert "HttpOnly" in cookie
    assert browser.get("/api/view").status_code == 200  # the client sends the cookie back
    other = TestClient(server.app(), base_url=LOCAL, cookies={"cardenvs-table-8765": "guessed"})
    assert other.get("/api/view").status_code == 403


def test_a_cross_origin_text_plain_post_does_not_move() -> None:
    """What a form or a ``fetch(..., {mode: "no-cors"})`` on another page sends: no CORS preflight is made."""
    server = _table()
    before = _person_turn(page_client(server))
    body = json.dumps({"version": before["version"], "move": 0})
    for headers in (
        {"Origin": "http://evil.example", "Content-Type": "text/plain"},
        {"Origin": "http://evil.example", "Content-Type": "text/plain", "X-Table-Token": server.token},
    ):
        answer = TestClient(server.app(), base_url=LOCAL).post("/api/move", content=body, headers=headers)
        assert answer.status_code == 403
    same_page = page_client(server).post("/api/move", content=body, headers={"Content-Type": "text/plain"})
    assert same_page.status_code == 400 and "must be sent as application/json" in same_page.json()["error"]
    _unchanged(server, before)


@pytest.mark.parametrize("who", ["foreign Origin", "foreign Host", "no token", "wrong token"])
def test_the_replay_server_is_guarded_too(who: str) -> None:
    headers, base, why = HOSTILE[who]
    server = _replay_table()
    assert page_client(server).get("/api/replay", params={"seat": "all"}).status_code == 200
    hostile = TestClient(server.app(), base_url=base, headers={"X-Table-Token": server.token, **headers})
    answer = hostile.get("/api/replay", params={"seat": "all"})
    assert answer.status_code == 403 and why in answer.json()["error"]


MALFORMED = {
    "a 5000-digit integer": (b'{"version": ' + b"7" * 5000 + b', "move": 0}', "more than 4300 digits"),
    "JSON nested 30,000 deep": (b"[" * 30_000 + b"]" * 30_000, "nested too deeply"),
    "a nested object": (b'{"version": ' + b'{"a": ' * 9_000 + b"1" + b"}" * 9_001, "nested too deeply"),
    "JSON nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, "over 65536 bytes"),
    "not UTF-8": (b'{"version": "\xff"}', "not UTF-8"),
    "not JSON": (b"{not json", "is not JSON"),
    "a huge move index": (b'{"version": 0, "move": ' + b"9" * 4000 + b"}", "move must be an integer index"),
}


@pytest.mark.parametrize("what", MALFORMED)
def test_malformed_bodies_get_400_and_a_reason(what: str) -> None:
    body, why = MALFORMED[what]
    server = _table()
    client = page_client(server)
    before = _person_turn(client)
    if what == "a huge move index":
        body = body.replace(b'"version": 0', f'"version": {before["version"]}'.encode())
    answer = client.post("/api/move", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == (413 if "bytes" in why else 400) and why in answer.json()["error"], answer.text
    assert len(answer.json()["error"]) < 300
    _unchanged(server, before)


def test_malformed_query_parameters_get_400() -> None:
    client = page_client(_replay_table())
    for params in ({"step": "7" * 5000}, {"step": "²"}, {"seat": "1e3"}, {"step": "--1"}):
        answer = client.get("/api/replay", params=params)
        assert answer.status_code == 400 and "must be an integer" in answer.json()["error"]
        assert len(answer.json()["error"]) < 300


def test_a_body_over_the_limit_is_refused_unread() -> None:
    server = _table()
    client = page_client(server)
    before = _person_turn(client)
    big = b'{"pad": "' + b"x" * MAX_BODY_BYTES + b'"}'
    answer = client.post("/api/move", content=big, headers={"Content-Type": "application/json"})
    assert answer.status_code == 413 and f"over {MAX_BODY_BYTES} bytes" in answer.json()["error"]
    claimed = client.post(
        "/api/move", content=b"{}", headers={"Content-Type": "application/json", "Content-Length": "200000000"}
    )
    assert claimed.status_code == 413
    _unchanged(server, before)


def test_a_streamed_body_is_cut_off_at_the_limit() -> None:
    """A chunked body with no length: the answer comes while the client is still sending (nothing waits for the
    whole body, nor keeps it)."""
    server = _table()
    with running(server) as url:
        port = int(url.split(":")[2].split("/")[0])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            head = (
                f"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Table-Token: {server.token}\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            conn.sendall(head.encode())
            chunk = b"x" * 8192
            answer = b""
            for _ in range(4 * MAX_BODY_BYTES // len(chunk)):  # up to 4 times the limit, never the last chunk
                try:
                    conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                except OSError:  # the server closed the connection after answering
                    break
                conn.setblocking(False)
                with contextlib.suppress(BlockingIOError):  # no answer yet
                    answer += conn.recv(65536)
                conn.setblocking(True)
                if answer:
                    break
            conn.settimeout(10)
            while b"\r\n\r\n" not in answer:
                answer += conn.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_no_rematch_and_no_record_mid_game() -> None:
    server = _table()
    client = page_client(server)
    before = _person_turn(client)
    rematch = client.post("/api/rematch", json={"version": before["version"]})
    assert rematch.status_code == 409 and "still being played" in rematch.json()["error"]
    record = client.get("/api/export")
    assert record.status_code == 409 and "once it has ended" in record.json()["error"]
    assert "seed" not in record.json()["state"]
    _unchanged(server, before)
