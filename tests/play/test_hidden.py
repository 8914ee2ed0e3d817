"""The play server sends a seat nothing it may not see: re-dealing every card hidden from that seat (the
conformance kit's re-deal, ``resample_hidden``) leaves every message to the page unchanged, and every answer of
the server over HTTP during a game."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

import cardenvs
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, TableSettings
from cardenvs.render import tables
from tests.play.clients import page_client

CASES = [
    (env_id, options, seat)
    for env_id in cardenvs.ENV_IDS
    for options, seat in zip(cardenvs.definition(env_id).variants[:2], (0, 1), strict=False)
] + [("cardenvs/yukushi-v0", {"num_players": 4, "allow_count_mismatch": True, "max_play": 2}, 2)]


def _text(message: dict[str, Any]) -> str:
    return json.dumps(message, sort_keys=True, ensure_ascii=False)


def play_and_compare(session: PlaySession, seed: int, max_messages: int = 400) -> tuple[int, int]:
    """Play ``session`` with random moves for the person; at every message, re-deal what the person cannot see
    and compare. Returns (messages compared, re-deals that changed the full state)."""
    rng = np.random.default_rng(seed)
    seat = session.settings.seat
    compared = changed = 0
    while compared < max_messages:
        message = session.send()
        other = session.game.resample_hidden(seat, rng)
        again = session.message(other)
        assert _text(again) == _text(message), f"message {compared} changed under a re-deal of hidden cards"
        changed += json.dumps(other.privileged_state()) != json.dumps(session.game.privileged_state())
        compared += 1
        if message["over"]:
            break
        if message["waiting"]:
            session.advance(message["version"])
        else:
            session.play(message["version"], int(rng.integers(len(message["moves"]))))
    return compared, changed


@pytest.mark.parametrize(("env_id", "options", "seat"), CASES, ids=lambda x: str(x))
def test_messages_do_not_change_when_hidden_cards_are_redealt(env_id: str, options: dict[str, Any], seat: int) -> None:
    session = PlaySession(TableSettings(env_id, dict(options), seat=seat, seed=7))
    compared, changed = play_and_compare(session, seed=1)
    assert compared > 5
    assert changed > 0, "no re-deal changed anything: the check would pass whatever the messages hold"


def test_a_leaky_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check fails when the table shows another player's hand (so the test above can fail)."""
    honest = tables.kyuuri_table

    def leaky(state: dict[str, Any], seat: int | None) -> tables.Table:
        table = honest(state, seat)
        table.lines.append("next hand: " + state["hands"][(seat or 0) + 1])
        return table

    monkeypatch.setattr(tables, "kyuuri_table", leaky)  # the reader Kyuuri's definition names
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, seed=3))
    with pytest.raises(AssertionError, match="changed under a re-deal"):
        play_and_compare(session, seed=0)


VARIANTS = [(env_id, options) for env_id in cardenvs.ENV_IDS for options in cardenvs.definition(env_id).variants]


@pytest.mark.parametrize(("env_id", "options"), VARIANTS, ids=lambda x: str(x))
def test_every_variant_and_player_count_sits_at_a_table(env_id: str, options: dict[str, Any]) -> None:
    """Every option set the conformance kit covers, at the last seat: the first 40 messages, each re-dealt."""
    probe = cardenvs.make(env_id, raw=True, **options)
    seat = len(probe.possible_agents) - 1
    session = PlaySession(TableSettings(env_id, dict(options), seat=seat, seed=11))
    compared, _ = play_and_compare(session, seed=2, max_messages=40)
    assert compared > 1


def _answers(client: TestClient, version: int) -> dict[str, str]:
    """Every answer a seat can get from the table without changing the game (status and body)."""
    answers = {
        "view": client.get("/api/view"),
        "export": client.get("/api/export"),
        "config": client.get("/api/config"),
        "replay": client.get("/api/replay", params={"step": 0, "seat": "all"}),
        "rematch": client.post("/api/rematch", json={"version": version}),
        "stale advance": client.post("/api/advance", json={"version": version - 1}),
        "bad move": client.post("/api/move", json={"version": version, "move": -1}),
    }
    return {name: f"{answer.status_code} {answer.text}" for name, answer in answers.items()}


HTTP_CASES = [
    ("yoninkan-v1", {}, 1),  # who the partner is stays hidden until the partner card is played
    ("kyuuri-v0", {"num_players": 3}, 0),  # the undealt stock
    ("verish_ne_verish-v0", {"num_players": 3}, 2),  # the card set aside
    ("goninkan-v1", {}, 3),
    ("zheng_shang_you-v0", {"num_players": 4, "episode": "deal"}, 0),
    ("yukushi-v0", {"num_players": 4}, 1),
]


@pytest.mark.parametrize(("env_id", "options", "seat"), HTTP_CASES, ids=lambda x: str(x))
def test_nothing_the_server_answers_mid_game_changes_when_hidden_cards_are_redealt(
    env_id: str, options: dict[str, Any], seat: int
) -> None:
    """Over HTTP, at every decision of a game: each answer (the export and refusals included) is the same when
    every card the seat cannot see is re-dealt and the seed and the action ids are replaced; the answers that
    move the game are the seat's view."""
    session = PlaySession(TableSettings(env_id, dict(options), seat=seat, seed=5))
    client = page_client(TableServer(session, pace_ms=0))
    rng = np.random.default_rng(3)
    message = client.get("/api/view").json()
    compared = 0
    while not message["over"] and compared < 30:
        honest = (session.env.game, session.deal_seed, session.actions)
        before = _answers(client, message["version"])
        session.env.game = session.game.resample_hidden(seat, rng)
        session.deal_seed, session.actions = session.deal_seed + 1_000, [a + 1 for a in session.actions]
        try:
            again = _answers(client, message["version"])
            leaked = [name for name in before if again[name] != before[name]]
            assert not leaked, f"answers that changed under a re-deal at decision {compared}: {leaked}"
        finally:
            session.env.game, session.deal_seed, session.actions = honest
        compared += 1
        if message["waiting"]:
            message = client.post("/api/advance", json={"version": message["version"]}).json()
        else:
            move = int(rng.integers(len(message["moves"])))
            message = client.post("/api/move", json={"version": message["version"], "move": move}).json()
        assert message == client.get("/api/view").json()
    assert compared > 3
