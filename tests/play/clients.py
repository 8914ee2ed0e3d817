"""A test client as the table's own page talks: addressed to 127.0.0.1, with the table's token."""

from __future__ import annotations

from starlette.testclient import TestClient

from cardenvs.experiments.play.server import TableServer

LOCAL = "http://127.0.0.1:8765"


def page_client(server: TableServer) -> TestClient:
    """A client of ``server`` that sends what the page sends (its own host, the token)."""
    return TestClient(server.app(), base_url=LOCAL, headers={"X-Table-Token": server.token})
