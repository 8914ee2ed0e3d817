"""Policies stored as tables: the equilibria of the small variants solved exactly, played as
``equilibrium:<game>-small`` (``docs/openspiel.md``, "Small variants solved exactly").

A table file is NumPy ``.npz`` (no pickle) beside a JSON card. Its rows are keyed by a digest (16-byte BLAKE2b, hex)
of a text: the OpenSpiel information-state string (``info_*`` arrays: the exact solution, perfect recall), and of
the seat's observation vector (``obs_*`` arrays: what a :class:`TablePolicy` plays, since a policy is shown the
observation only). Each row lists actions and their probabilities (``*_offsets`` delimit rows).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.core.errors import InvalidOptionError
from cardenvs.registry import game_name

ROOT = Path(__file__).parent
MAX_FILE_BYTES = 64 << 20
"""Largest table file read (a shipped one is a few MB)."""

Row = Mapping[int, float]


def digest(text: str | bytes) -> str:
    """The row key of a text (an information-state string) or of an observation vector's bytes."""
    data = text.encode() if isinstance(text, str) else text
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def observation_key(observation: np.ndarray) -> str:
    """The row key of an observation vector (as float32)."""
    return digest(np.ascontiguousarray(observation, dtype=np.float32).tobytes())


def pack(rows: Mapping[str, Row], prefix: str) -> dict[str, np.ndarray]:
    """``rows`` (key → action → probability) as flat arrays named ``<prefix>_keys`` / ``_offsets`` / ``_actions``
    / ``_probs``."""
    keys = sorted(rows)
    offsets = np.zeros(len(keys) + 1, dtype=np.int64)
    actions: list[int] = []
    probs: list[float] = []
    for i, key in enumerate(keys):
        for action, p in sorted(rows[key].items()):
            actions.append(action)
            probs.append(p)
        offsets[i + 1] = len(actions)
    return {
        f"{prefix}_keys": np.asarray(keys, dtype="S32"),
        f"{prefix}_offsets": offsets,
        f"{prefix}_actions": np.asarray(actions, dtype=np.int32),
        f"{prefix}_probs": np.asarray(probs, dtype=np.float32),
    }


def unpack(arrays: Mapping[str, np.ndarray], prefix: str) -> dict[str, dict[int, float]]:
    """The inverse of :func:`pack`."""
    keys = arrays[f"{prefix}_keys"]
    offsets, actions, probs = (arrays[f"{prefix}_{part}"] for part in ("offsets", "actions", "probs"))
    return {
        key.decode(): {int(a): float(p) for a, p in zip(actions[lo:hi], probs[lo:hi], strict=True)}
        for key, lo, hi in zip(keys, offsets[:-1], offsets[1:], strict=True)
    }


def read_table(path: Path, prefix: str) -> dict[str, dict[int, float]]:
    """One table of a ``.npz`` file, read within :data:`MAX_FILE_BYTES` and without pickle."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise InvalidOptionError(f"{path}: {path.stat().st_size} bytes, more than a table file may have")
    with np.load(path, allow_pickle=False) as arrays:
        return unpack(arrays, prefix)


class TablePolicy(Policy):
    """Plays a table keyed by the observation: samples the row of the observation it is shown. An observation the
    table lacks (the table was made for one variant's observations) is an error, or with ``unknown="uniform"`` is
    played uniformly at random (a search that samples worlds the game cannot reach shows the policy such
    observations)."""

    def __init__(
        self,
        context: PolicyContext,
        seed: int | None = None,
        *,
        rows: Mapping[str, Row],
        name: str,
        unknown: Literal["error", "uniform"] = "error",
    ):
        super().__init__(context, seed)
        self.rows = rows
        self.name = name
        self.unknown = unknown

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        row = self.rows.get(observation_key(observation["observation"]))
        if row is None:
            if self.unknown == "error":
                raise InvalidOptionError(
                    f"{self.name}: an observation its table does not hold (it plays {self.context.env_id} only with "
                    "the options it was made for)"
                )
            legal = np.flatnonzero(observation["action_mask"])
            return int(legal[self.rng.integers(len(legal))])
        actions: Sequence[int] = list(row)
        probs = np.asarray([row[a] for a in actions], dtype=np.float64)
        return int(actions[int(self.rng.choice(len(actions), p=probs / probs.sum()))])


def card(game: str) -> dict[str, Any]:
    """The JSON card of ``<game>-small``'s equilibrium: variant, NashConv, solver budget, tree size."""
    path = ROOT / f"{game}-small.json"
    if not path.is_file():
        raise InvalidOptionError(f"no equilibrium for {game}-small; shipped: {', '.join(equilibrium_names())}")
    result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return result


def table_file(name: str) -> Path:
    """The ``.npz`` of ``<game>-small`` (what an entrant's fingerprint hashes)."""
    return ROOT / f"{card(name.removesuffix('-small'))['name']}.npz"


def equilibrium_names() -> list[str]:
    """``<game>-small`` of every shipped equilibrium."""
    return sorted(p.stem for p in ROOT.glob("*-small.json"))


def equilibrium_policy(argument: str, context: PolicyContext, seed: int | None) -> Policy:
    """``equilibrium:<game>-small``: the shipped equilibrium played from the observation."""
    game = argument.removesuffix("-small")
    info = card(game)
    options = {k: v for k, v in info["options"].items() if k != "max_steps"}
    if game_name(context.env_id) != game_name(info["env_id"]) or context.options != type(context.options)(**options):
        raise InvalidOptionError(
            f"equilibrium:{argument} plays {info['env_id']} with options {info['options']} only, not "
            f"{context.env_id} with {context.options}"
        )
    rows = read_table(table_file(argument), "obs")
    return TablePolicy(context, seed, rows=rows, name=f"equilibrium:{argument}")
