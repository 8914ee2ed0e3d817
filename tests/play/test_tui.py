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
from cardenvs.experiments.play.session import PlaySession, TableSettings
from cardenvs.experiments.play.tui import run_tui

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
    # A test run started in the background (no job control) inherits an ignored SIGINT, and exec keeps it ignored;
    # a terminal's foreground program has the default, so the launcher restores it before exec'ing the program.
    launcher = "import os, signal as s, sys; s.signal(s.SIGINT, s.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
    argv = [sys.executable, "-c", launcher, *argv]
    process = subprocess.Popen(argv, stdin=terminal, stdout=terminal, stderr=terminal, start_new_session=True)
    os.close(terminal)
    return process, fdspawn(controller, encoding="utf-8", timeout=60)


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_play_every_game_to_the_end_in_a_terminal(env_id: str) -> None:
    argv = [sys.executable, "-m", "cardenvs.experiments.play", "--game", env_id, "--tui", "--pace", "0", "--seed", "3"]
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


@pytest.mark.parametrize("env_id", ["cardenvs/kyuuri-v0", "cardenvs/goninkan-v1", "cardenvs/zheng_shang_you-v0"])
def test_the_terminal_marks_the_playable_cards_says_why_others_are_refused_and_prints_bot_moves(env_id: str) -> None:
    """In-process, as a person types: at each prompt the cards marked ``*`` are those of the legal moves; typing
    an unmarked card is answered with the rule; each bot move is printed on its own as it is made."""
    session = PlaySession(TableSettings(env_id, seed=4))
    calls: list[str] = []  # each say() call
    pending: list[str] = []
    refused: list[str] = []  # the reasons expected after typing an unplayable card
    checked = 0

    def ask(prompt: str) -> str:
        nonlocal checked
        message = session.send()
        if prompt.startswith("r for a rematch"):
            return "q"
        if not prompt.startswith("Select cards"):
            return "a"
        if refused:  # the answer to the unplayable card just typed
            reason = refused.pop()
            assert reason in " ".join(" ".join(calls[-4:]).split())
            return pending.pop()
        screen = "\n".join(calls).rsplit("Your hand:", 1)[-1]
        legal = {c for move in message["moves"] for c in move["cards"]}
        assert re.findall(r"\b\d+:(\S+?)\*", screen) == [c for c in message["hand"] if c in legal]
        checked += 1
        move = next(m for m in message["moves"] if m["cards"])
        free = list(enumerate(message["hand"]))
        picks = []
        for card in move["cards"]:
            k = next(k for k, (_, c) in enumerate(free) if c == card)
            picks.append(str(free.pop(k)[0] + 1))
        unplayable = [i for i, ok in enumerate(message["playable"]) if not ok]
        if not unplayable:
            return " ".join(picks)
        refused.append(" ".join(message["why"][unplayable[0]].split()[:6]))
        pending.append(" ".join(picks))
        return str(unplayable[0] + 1)

    run_tui(session, pace=0, ask=ask, say=calls.append)
    assert checked > 3 and not refused
    live = [call.strip() for call in calls if "\n" not in call and call.startswith("  player_")]
    bots = [line for line in session.send()["history"] if re.match(r"player_[1-9] (played|plays|leads|passes)", line)]
    assert bots and all(line[:75] in " ".join(live) for line in bots)
