"""``python -m cardenvs.experiments.play`` from the command line: every bad setting ends with one ``error: …`` line
and a non-zero exit, never a traceback; Ctrl-C stops the web table and Ctrl-C or Ctrl-D the terminal table cleanly."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from cardenvs.experiments.play.__main__ import main
from tests.play.test_tui import PROMPTS, _in_a_terminal


def _error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main([*argv, "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def test_a_port_in_use_or_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert f"cannot listen on 127.0.0.1:{port}" in _error_line(capsys, ["--game", "kyuuri-v0", "--port", str(port)])
    for port in ("70000", "-1"):
        assert "--port must be in 0..65535" in _error_line(capsys, ["--game", "kyuuri-v0", "--port", port])


def _replay_file(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "replay.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def test_broken_replay_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = {"format": "cardenvs-replay/1", "env_id": "kyuuri-v0", "seed": 0, "actions": []}
    cases = [
        (json.dumps({**record, "options": [1, 2]}), "the replay's options must be a JSON dict, got list"),
        (json.dumps({**record, "actions": 5}), "the replay's actions must be a JSON list, got int"),
        (json.dumps({**record, "labels": ["a"]}), "labels must be 4 strings"),
        (json.dumps({**record, "options": {"num_players": 99}}), "the replay's game cannot be set up"),
        ('{"options": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"seed": ' + "1" * 5000 + "}", "more than 4300 digits"),
        (b"\xff\xfe", "not UTF-8"),
    ]
    for text, why in cases:
        assert why in _error_line(capsys, ["--replay", _replay_file(tmp_path, text)])


def test_a_database_that_is_not_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"these are no games " * 200)
    assert "is not a readable tournament database" in _error_line(capsys, ["--replay", str(path)])


def test_ctrl_c_stops_the_web_table() -> None:
    command = [sys.executable, "-m", "cardenvs.experiments.play", "--game", "kyuuri-v0", "--no-browser"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stdout is not None
    assert "cardenvs table at http://127.0.0.1:" in server.stdout.readline()
    server.send_signal(signal.SIGINT)
    out, err = server.communicate(timeout=30)
    assert server.returncode == 0 and "Traceback" not in err and err == "", err
    assert "stopped" in out


@pytest.mark.parametrize(("key", "status"), [("ctrl-d", 0), ("ctrl-c", 130)])
def test_ctrl_c_and_ctrl_d_leave_the_terminal_table(key: str, status: int) -> None:
    argv = [sys.executable, "-m", "cardenvs.experiments.play", "--game", "kyuuri-v0", "--tui", "--pace", "0"]
    process, child = _in_a_terminal(argv, rows=40, columns=80)
    assert child.expect(PROMPTS[:3]) == 0
    if key == "ctrl-d":
        child.send("\x04")  # Ctrl-D: the end of input, at the start of a line
    else:
        process.send_signal(signal.SIGINT)  # what the terminal sends the foreground program on Ctrl-C
    child.expect(pexpect.EOF)
    assert process.wait(timeout=30) == status
    assert "Traceback" not in child.before
    child.close()
