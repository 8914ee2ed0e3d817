"""Named layouts: observation feature groups and action-id blocks.

An :class:`ObservationLayout` gives every feature group of a flat observation vector a name, an offset
and a size, so that policies, bots and docs can address ``obs[layout["hand"]]`` instead of magic
numbers. An :class:`ActionTable` does the same for action ids: named blocks of consecutive ids, each id
with a readable name. Both render the Markdown tables of the game docs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Feature:
    """One named group of an observation vector."""

    name: str
    offset: int
    size: int
    low: float
    high: float
    description: str

    @property
    def slice(self) -> slice:
        return slice(self.offset, self.offset + self.size)


class ObservationLayout:
    """An ordered list of named feature groups over one flat ``float32`` vector."""

    def __init__(self, groups: Iterable[tuple[str, int, float, str] | tuple[str, int, float, str, float]]):
        """``groups``: ``(name, size, upper bound, description[, lower bound])`` in vector order.

        Lower bounds default to 0."""
        self.features: dict[str, Feature] = {}
        offset = 0
        for name, size, high, description, *rest in groups:
            low = float(rest[0]) if rest else 0.0
            if name in self.features:
                raise ValueError(f"duplicate feature name {name!r}")
            if size <= 0:
                raise ValueError(f"feature {name!r} must have a positive size, got {size}")
            self.features[name] = Feature(name, offset, size, low, float(high), description)
            offset += size
        self.size = offset
        self.slices: dict[str, slice] = {f.name: f.slice for f in self.features.values()}
        """Slice of each group (precomputed: encoders use it on every step)."""
        self.offsets: dict[str, int] = {f.name: f.offset for f in self.features.values()}
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.zeros(self.size, dtype=np.float32)
        for f in self.features.values():
            self.low[f.slice] = f.low
            self.high[f.slice] = f.high

    def __getitem__(self, name: str) -> slice:
        """The slice of feature group ``name``."""
        try:
            return self.features[name].slice
        except KeyError:
            raise KeyError(f"no feature {name!r}; features: {', '.join(self.features)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self.features

    def view(self, observation: np.ndarray, name: str) -> np.ndarray:
        """The part of ``observation`` that holds feature group ``name``."""
        return observation[self[name]]

    def empty(self) -> np.ndarray:
        """A zero observation vector of the right size and dtype."""
        return np.zeros(self.size, dtype=np.float32)

    def markdown(self) -> str:
        """The layout as a Markdown table (name, offset, size, range, meaning)."""
        rows = ["| feature | offset | size | range | meaning |", "|---|---|---|---|---|"]
        for f in self.features.values():
            rows.append(f"| `{f.name}` | {f.offset} | {f.size} | {f.low:g}…{f.high:g} | {f.description} |")
        return "\n".join(rows)


@dataclass(frozen=True)
class ActionBlock:
    """A run of consecutive action ids that share a meaning, one id per label."""

    name: str
    offset: int
    labels: tuple[str, ...]
    description: str

    @property
    def size(self) -> int:
        return len(self.labels)

    def __getitem__(self, index: int) -> int:
        if not 0 <= index < self.size:
            raise IndexError(f"{self.name} has {self.size} ids, index {index} is out of range")
        return self.offset + index

    def __contains__(self, action: object) -> bool:
        return isinstance(action, int) and self.offset <= action < self.offset + self.size


class ActionTable:
    """The action ids of a game: named blocks laid out one after the other."""

    def __init__(self, blocks: Iterable[tuple[str, Sequence[str], str]]):
        """``blocks``: ``(block name, label per id, description)`` in id order."""
        self.blocks: dict[str, ActionBlock] = {}
        self.names: list[str] = []
        for name, labels, description in blocks:
            block = ActionBlock(name, len(self.names), tuple(labels), description)
            self.blocks[name] = block
            self.names.extend(f"{name}({label})" if label else name for label in block.labels)
        self.size = len(self.names)

    def __getitem__(self, name: str) -> ActionBlock:
        try:
            return self.blocks[name]
        except KeyError:
            raise KeyError(f"no action block {name!r}; blocks: {', '.join(self.blocks)}") from None

    def name(self, action: int) -> str:
        """Readable name of an action id, e.g. ``declare(7)``."""
        return self.names[action]

    def markdown(self) -> str:
        """The table of id ranges as Markdown."""
        rows = ["| ids | action | meaning |", "|---|---|---|"]
        for b in self.blocks.values():
            ids = str(b.offset) if b.size == 1 else f"{b.offset}–{b.offset + b.size - 1}"
            rows.append(f"| {ids} | `{b.name}` | {b.description} |")
        return "\n".join(rows)


def layout_hash(layout: ObservationLayout, actions: ActionTable) -> str:
    """A hash of what a network reads and writes: every feature group's name, place, size and bounds (so their
    scaling too), and every action id's name. Descriptions are left out: rewording a doc changes no input."""
    features = [[f.name, f.offset, f.size, f.low, f.high] for f in layout.features.values()]
    text = json.dumps({"observation": features, "actions": actions.names}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
