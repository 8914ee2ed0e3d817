"""Games people played at the table as a warm start: ``imitate = "people:PATH"`` copies their decisions.

``PATH`` is a data set written by ``python -m cardenvs.experiments.play.dataset`` (the decisions of the people's seats
in games stored with ``python -m cardenvs.experiments.play --record``). It is read without pickle and within the size
limit of checkpoints, and refused unless it was played with the run's game and options: its rows share the run's
observation layout. There is no teacher to label the copy's own play, so DAgger rounds (``imitate_rounds``) are refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.npz_reader import NpzReadError, read_npz
from cardenvs.agents.specs import make_policy
from cardenvs.registry import definition

PEOPLE = "people:"
"""The prefix of an ``imitate`` teacher that is a data set of people's decisions."""

FIELDS = ("observations", "masks", "actions", "rewards", "last", "games", "seats", "meta")


def check_teacher(
    teacher: str, game: str, options: Mapping[str, Any], rounds: int, known: list[str], context: PolicyContext
) -> None:
    """Raise a ``ValueError`` saying why ``teacher`` cannot be imitated in ``game`` with ``options``: a data set
    of people's decisions, a registered name or any policy spec (a module path, a file; built once here, so a bad
    spec fails with its own message)."""
    if teacher.startswith(PEOPLE):
        if rounds:
            raise ValueError(f"imitate {teacher!r} has no teacher to label the copy's own play: set imitate_rounds 0")
        read_people(teacher, game, options)
    elif teacher:
        if teacher not in known and ":" not in teacher:
            raise ValueError(
                f"unknown imitate teacher {teacher!r} for {game}; available: {known}, any policy spec, or {PEOPLE}PATH"
            )
        make_policy(teacher, context, seed=0)


def read_people(teacher: str, game: str, options: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The arrays of the data set ``teacher`` names, checked against the run's game and options."""
    path = teacher.removeprefix(PEOPLE)
    try:
        data = read_npz(path)
    except (NpzReadError, FileNotFoundError) as error:
        raise ValueError(f"imitate {teacher!r}: cannot read the data set {path}: {error}") from error
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise ValueError(
            f"imitate {teacher!r}: {path} lacks {missing}; write it with python -m cardenvs.experiments.play.dataset"
        )
    try:
        meta = json.loads(data["meta"].astype(np.uint8).tobytes())
        played = (definition(meta["env_id"]).env_id, dict(meta["options"]))
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"imitate {teacher!r}: {path} has no readable meta ({error})") from error
    wanted = (definition(game).env_id, dict(options))
    if played != wanted:
        raise ValueError(
            f"imitate {teacher!r}: its games are {played[0]} {played[1]}, this run's {wanted[0]} {wanted[1]}"
        )
    return data


def people_rows(
    teacher: str, game: str, options: Mapping[str, Any], scale: np.ndarray, gamma: float, reward_scale: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Scaled observations, masks, actions, discounted returns (each seat's own decisions in each game, in the
    run's reward scale) and the number of games of the data set ``teacher`` names."""
    data = read_people(teacher, game, options)
    if data["observations"].shape[1] != len(scale):
        raise ValueError(f"imitate {teacher!r}: observations of size {data['observations'].shape[1]}, not {len(scale)}")
    returns = np.zeros(len(data["actions"]), dtype=np.float32)
    running: dict[tuple[int, int], float] = {}
    for i in range(len(returns) - 1, -1, -1):
        key = (int(data["games"][i]), int(data["seats"][i]))
        later = 0.0 if data["last"][i] else running.get(key, 0.0)
        running[key] = float(data["rewards"][i]) * reward_scale + gamma * later
        returns[i] = running[key]
    observations = (data["observations"] * scale).astype(np.float16)
    games = len(np.unique(data["games"]))
    return observations, data["masks"].astype(bool), data["actions"].astype(np.int64), returns, games
