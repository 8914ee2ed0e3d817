"""Opt-in storage of the games played at the table, and their people's decisions as a data set."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardenvs.experiments.play import dataset
from cardenvs.experiments.play.session import PlaySession, TableSettings


def _play(session: PlaySession, seed: int) -> list[int]:
    """Play to the end with random moves at the people's seats; the actions the people's moves took."""
    rng = np.random.default_rng(seed)
    people: list[int] = []
    while not session.over:
        message = session.send()
        if message["waiting"]:
            session.advance(message["version"])
            continue
        seat = session.game.current_player
        before = len(session.actions)
        mine = session.send(seat)
        session.play(mine["version"], int(rng.integers(len(mine["moves"]))), seat)
        people += session.actions[before:]
    return people


def test_nothing_is_stored_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _play(PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, seed=1)), 0)
    assert list(tmp_path.iterdir()) == []


def test_stored_games_become_the_peoples_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = PlaySession(TableSettings("kyuuri-v0", {"num_players": 3}, humans=2, seed=1, record=str(tmp_path)))
    people = _play(session, 0)
    session.rematch(session.version)
    people += _play(session, 1)
    stored = sorted(tmp_path.glob("*.json"))
    assert len(stored) == 2 and json.loads(stored[0].read_text())["humans"] == [0, 1]
    out = tmp_path / "people.npz"
    assert dataset.main([str(tmp_path), "--out", str(out)]) == 0
    data = np.load(out)
    assert sorted(data["actions"].tolist()) == sorted(people)
    assert set(data["seats"].tolist()) == {0, 1} and set(data["games"].tolist()) == {0, 1}
    assert all(mask[action] for mask, action in zip(data["masks"], data["actions"], strict=True))
    assert json.loads(data["meta"].tobytes())["env_id"] == "kyuuri-v0"
    assert "decisions of people from 2 game(s)" in capsys.readouterr().out


def test_a_folder_without_games_or_with_two_kinds_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert dataset.main([str(tmp_path), "--out", str(tmp_path / "x.npz")]) == 2
    assert "no stored games" in capsys.readouterr().err
    for env_id, options in (("kyuuri-v0", {"num_players": 3}), ("kyuuri-v0", {"num_players": 4})):
        _play(PlaySession(TableSettings(env_id, options, seed=1, record=str(tmp_path))), 0)
    assert dataset.main([str(tmp_path), "--out", str(tmp_path / "x.npz")]) == 2
    assert "the others of" in capsys.readouterr().err
