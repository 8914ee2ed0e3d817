"""The play server sends a seat nothing it may not see: re-dealing every card hidden from that seat (the
conformance kit's re-deal, ``resample_hidden``) leaves every message to the page unchanged."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.experiments.play.session import PlaySession, TableSettings
from cardenvs.render import tables

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
    honest = tables.TABLES["kyuuri"]

    def leaky(state: dict[str, Any], seat: int | None) -> tables.Table:
        table = honest(state, seat)
        table.lines.append("next hand: " + state["hands"][(seat or 0) + 1])
        return table

    monkeypatch.setitem(tables.TABLES, "kyuuri", leaky)
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
