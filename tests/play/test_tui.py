"""Terminal play through a pseudo-terminal, as a person types: every game to the end, 80 columns at most."""

from __future__ import annotations

import fcntl
import itertools
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pexpect
import pytest
from pexpect.fdpexpect import fdspawn

import cardenvs

PROMPTS = [r"Select cards \(numbers.*> ", r"Move \(letter.*> ", r"r for a rematch.*> ", pexpect.EOF]


def _attempts(hand_size: int) -> list[str]:
    """What a person tries in turn: no card (a button move), each single card, then each pair (Goninkan shows
    two cards)."""
    singles = [str(i) for i in range(1, hand_size + 1)]
    pairs = [f"{i} {j}" for i, j in itertools.combinations(range(1, hand_size + 1), 2)]
    return ["", *singles, *pairs]


def _in_a_terminal(argv: list[str], rows: int, columns: int) -> tuple[subprocess.Popen[bytes], fdspawn]:
    """``argv`` started on a fresh pseudo-terminal of ``rows`` × ``columns``, and an expect handle on its other end.

    subprocess starts it (fork and exec in C) rather than pexpect's ``pty.fork`` in Python: the worker running
    this test may have imported JAX, whose threads make a Python-level fork unsafe (and JAX warns)."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    process = subprocess.Popen(argv, stdin=terminal, stdout=terminal, stderr=terminal, start_new_session=True)
    os.close(terminal)
    return process, fdspawn(controller, encoding="utf-8", timeout=60)


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_play_every_game_to_the_end_in_a_terminal(env_id: str) -> None:
    argv = [sys.executable, "-m", "experiments.play", "--game", env_id, "--tui", "--pace", "0", "--seed", "3"]
    process, child = _in_a_terminal(argv, rows=40, columns=80)
    screens: list[str] = []
    attempts: list[str] = []
    decisions = 0
    while True:
        which = child.expect(PROMPTS)
        screens.append(child.before)
        if "Your hand:" in child.before:  # a fresh table: start the attempts again
            attempts = _attempts(len(re.findall(r"\b\d+:", child.before.rsplit("Your hand:", 1)[-1])))
        if which == 0:
            assert attempts, "no legal move found by selecting one or two cards"
            child.sendline(attempts.pop(0))
        elif which == 1:
            if "a) " in child.before:
                child.sendline("a")
                decisions += 1
            else:
                child.sendline("")
        elif which == 2:
            child.sendline("q")
        else:
            break
    assert process.wait(timeout=60) == 0 and decisions > 0
    child.close()
    text = "".join(screens)
    assert re.search(r"Game over\. (You won, place \d of \d|You lost, place \d of \d|Drawn)\. Returns:", text)
    too_wide = [line for line in text.splitlines() if len(line.rstrip("\r")) > 80]
    assert not too_wide, f"lines over 80 columns: {too_wide[:3]}"
