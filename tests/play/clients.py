"""A test client as the table's own page talks: addressed to 127.0.0.1, with the table's token."""

from __future__ import annotations

from typing import Any

import numpy as np
from starlette.testclient import TestClient

from cardenvs.experiments.play.server import TableServer

LOCAL = "http://127.0.0.1:8765"


def page_client(server: TableServer) -> TestClient:
    """A client of ``server`` that sends what the page sends (its own host, the token)."""
    return TestClient(server.app(), base_url=LOCAL, headers={"X-Table-Token": server.token})


def play_to_the_end(client: TestClient, rng: np.random.Generator) -> dict[str, Any]:
    """Let the bots move and the person make random moves until the game is over; the last message."""
    message: dict[str, Any] = client.get("/api/view").json()
    while not message["over"]:
        if message["waiting"]:
            message = client.post("/api/advance", json={"version": message["version"]}).json()
        else:
            move = int(rng.integers(len(message["moves"])))
            message = client.post("/api/move", json={"version": message["version"], "move": move}).json()
    return message
