"""The lazy parts of a game's manifest (:class:`~cardenvs.core.engine.GameDefinition`).

A definition names what lives behind optional dependencies or in other layers (the JAX fast path, the table
reader, the OpenSpiel deal) by a **reference**, ``"package.module:attribute"``, loaded on first use: declaring a
game imports neither JAX nor OpenSpiel, and ``cardenvs.core`` imports no layer above it.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Reference = str
"""``"package.module:attribute"``; ``""`` where a game has no such part."""

_REFERENCE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def check_reference(reference: Reference, what: str) -> None:
    """Raise ``ValueError`` unless ``reference`` is ``""`` or ``"package.module:attribute"``."""
    if reference and not _REFERENCE.fullmatch(reference):
        raise ValueError(f"{what} must be 'package.module:attribute' (or empty), got {reference!r}")


def load(reference: Reference) -> Any:
    """The object a reference names (its module imported now, if it was not yet)."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Utility:
    """What an episode's returns are declared to be (OpenSpiel's game type); checked on every state."""

    zero_sum: bool
    low: float
    high: float
    paid_at_end: bool = True
    """Rewards come only with the last decision (OpenSpiel's reward model ``TERMINAL``, which its ``MCTSBot``
    needs); a reward paid before the end then raises. ``False`` for episodes that pay as they go (a match)."""


WIN_LOSE = Utility(zero_sum=True, low=-1.0, high=1.0)
"""Returns of a zero-sum game paid within ±1 (every game's default)."""


@dataclass(frozen=True)
class OpenSpielTraits:
    """How :mod:`cardenvs.openspiel` presents a game."""

    utility: Utility = WIN_LOSE
    """The returns at the default options (other options may need a :class:`Utility` of their own)."""
    explicit_deal: Reference = ""
    """``options → DealRules`` (:mod:`cardenvs.openspiel.deals`): every deal of a small variant listed at the chance
    node; ``""``: the deal is sampled only."""
    small_variant: Mapping[str, Any] = field(default_factory=dict)
    """Options of the two-player variant OpenSpiel solves exactly (``cardenvs.openspiel.small``); empty: none."""

    def __post_init__(self) -> None:
        check_reference(self.explicit_deal, "explicit_deal")
        if self.small_variant and not self.explicit_deal:
            raise ValueError("a small variant needs an explicit_deal to be solved exactly")
