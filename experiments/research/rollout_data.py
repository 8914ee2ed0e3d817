"""The rollouts of :mod:`experiments.research.rollout_improvement`: every legal action's advantage at the base bot's
decisions, stored as pickle-free ``rollouts_seed<seed>.npz`` shards that
:mod:`experiments.research.advantage_fit` reads."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class Rollouts:
    """Decisions of the base bot, one row each, with every legal action's advantage in the world it was made in."""

    observations: np.ndarray
    """Raw observation vectors (float16) of the deciding seat."""
    masks: np.ndarray
    base_actions: np.ndarray
    """The bot's action (the one played at the table)."""
    advantages: np.ndarray
    """``(rows, actions)`` float32: return after the action minus return after the bot's; NaN where illegal."""
    rounds: int
    game: str
    options: dict[str, Any]
    policy: str = ""
    """The base policy's spec (every seat's at the table, the mover's in the rollouts); empty: the game's rule bot."""
    opponents: str = ""
    """The spec the other seats play in the rollouts; empty: the base policy."""

    def __len__(self) -> int:
        return len(self.base_actions)

    def save(self, path: Path) -> Path:
        """Write the rows as ``.npz`` (no pickle; the game and options as a JSON header)."""
        return save_shard(path, self, _ROWS)

    @classmethod
    def load(cls, path: Path) -> Rollouts:
        """Read a shard written by :meth:`save` (no pickle)."""
        return cls(**load_shard(path, _ROWS))

    @classmethod
    def concatenate(cls, parts: Sequence[Rollouts]) -> Rollouts:
        """One set of the rows of ``parts`` (all of one game, options, base policy and opponents), in order."""
        check_joinable(parts)
        rows = {name: np.concatenate([getattr(p, name) for p in parts]) for name in _ROWS}
        first = parts[0]
        rounds = sum(p.rounds for p in parts)
        return cls(**rows, rounds=rounds, game=first.game, options=first.options, policy=first.policy,
                   opponents=first.opponents)  # fmt: skip


_ROWS = ("observations", "masks", "base_actions", "advantages")


def check_joinable(parts: Sequence[Any]) -> None:
    """Refuse to join shards of different games, options, base policies or opponents."""
    kinds = {(p.game, json.dumps(p.options, sort_keys=True), p.policy, p.opponents) for p in parts}
    if len(kinds) != 1:
        problem = "rollouts of different games, options, base policies or opponents cannot be joined"
        raise ValueError(f"{problem}: {sorted(kinds)}")


def save_shard(path: Path, shard: Any, rows: Sequence[str]) -> Path:
    """Write ``shard``'s arrays named ``rows`` as ``.npz`` (no pickle), its rounds, game, options, base policy and
    opponents as a JSON header."""
    fields = {
        "rounds": shard.rounds,
        "game": shard.game,
        "options": shard.options,
        "policy": shard.policy,
        "opponents": shard.opponents,
    }
    header = json.dumps(fields).encode()
    arrays = {name: getattr(shard, name) for name in rows}
    np.savez(path, allow_pickle=False, header=np.frombuffer(header, dtype=np.uint8), **arrays)
    return path


def load_shard(path: Path, rows: Sequence[str]) -> dict[str, Any]:
    """The arrays named ``rows`` and the header's fields of a shard written by :func:`save_shard` (no pickle)."""
    with np.load(path, allow_pickle=False) as data:
        return {**{name: data[name] for name in rows}, **json.loads(data["header"].tobytes())}


def load_rollouts(folder: Path) -> list[Rollouts]:
    """Every ``rollouts_seed*.npz`` shard of ``folder``, by seed."""
    paths = sorted(folder.glob("rollouts_seed*.npz"), key=lambda p: int(p.stem.removeprefix("rollouts_seed")))
    if not paths:
        raise FileNotFoundError(f"no rollouts_seed*.npz in {folder}: run the collect command into it first")
    return [Rollouts.load(p) for p in paths]
