"""Policies as a user writes them, in files of their own (tests write them to folders outside the repository)."""

from __future__ import annotations

from pathlib import Path

BLUFFER = '''"""A Verish' ne verish' bluffer: a plain class (no cardenvs import) with a bluff probability p."""

import numpy as np


class PBluffer:
    """Lies about the claimed rank with probability p (always when it holds none), never challenges."""

    name = "pbluffer"

    def __init__(self, context, seed=None, p=0.3):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p is a probability, got {p}")
        self.p = p
        self.rng = np.random.default_rng(seed)
        self.pick = context.actions["pick"]
        self.challenge = context.actions["challenge"].offset
        self.claim_rank = context.layout["claim_rank"]

    def reset(self, seed=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation):
        legal = np.flatnonzero(observation["action_mask"])
        claim = int(np.argmax(observation["observation"][self.claim_rank]))
        picks = [int(a) for a in legal if self.pick.offset <= a < self.pick.offset + self.pick.size]
        truthful = [a for a in picks if a == self.pick[claim]]
        lies = [a for a in picks if a != self.pick[claim]]
        if lies and (not truthful or self.rng.random() < self.p):
            return int(self.rng.choice(lies))
        if truthful:
            return truthful[0]
        others = [int(a) for a in legal if a != self.challenge] or [int(a) for a in legal]
        return int(self.rng.choice(others))


def first_legal(observation, offset=0):
    """A function policy: the first legal action (or the one `offset` further on, wrapping round)."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(legal[offset % len(legal)])
'''

WATCHER = '''"""A policy that wants its seat's public view: it records what it was shown."""

import numpy as np

SHOWN = []


class Watcher:
    wants_public_view = True

    def act(self, observation, view):
        SHOWN.append((len(view), view[0]["kind"] if len(view) else None))
        return int(np.flatnonzero(observation["action_mask"])[0])
'''

MISBEHAVING = '''"""Policies that fail the way real ones do: a process killed (out of memory), a move that never comes,
an action that is not an integer. Each plays the first legal action until it misbehaves."""

import os
import time

import numpy as np


def first(observation):
    return int(np.flatnonzero(observation["action_mask"])[0])


class Crasher:
    """Ends its process with os._exit (what an out-of-memory kill looks like to the parent) in its game number
    CRASH_AFTER + 1 of this process, if that environment variable is set."""

    def __init__(self):
        self.games = 0

    def reset(self, seed=None):
        self.games += 1

    def act(self, observation):
        after = os.environ.get("CRASH_AFTER")
        if after is not None and self.games > int(after):
            os._exit(3)
        return first(observation)


class Sleeper:
    """Sleeps for an hour in act() from its game number after + 1 on (first writing its process id to the file
    SLEEPER_PID names, if that environment variable is set)."""

    def __init__(self, after=0):
        self.after, self.games = after, 0

    def reset(self, seed=None):
        self.games += 1

    def act(self, observation):
        if self.games > self.after:
            if os.environ.get("SLEEPER_PID"):
                with open(os.environ["SLEEPER_PID"], "w") as file:
                    file.write(str(os.getpid()))
            time.sleep(3600)
        return first(observation)


def floater(observation):
    """A legal action id plus 0.9: int() would play it silently."""
    return float(np.flatnonzero(observation["action_mask"])[0]) + 0.9


def yes(observation):
    """True for an action (a bool, not an id)."""
    return True
'''


def write_policy(folder: Path, source: str = BLUFFER, name: str = "mybluff.py") -> Path:
    """Write a policy file into ``folder`` (created) and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(source)
    return path
