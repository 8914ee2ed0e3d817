"""Making envs by id, and their registration with PettingZoo's registry (the list of games: :mod:`cardenvs.games`)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pettingzoo

from cardenvs.core.aec import CardGameEnv
from cardenvs.games import (
    ENV_IDS,
    GAMES,
    NAMESPACE,
    RETIRED,
    definition,
    definition_of,
    definitions,
    game_module,
    game_name,
)

__all__ = [
    "ENV_IDS",
    "GAMES",
    "NAMESPACE",
    "RETIRED",
    "definition",
    "definition_of",
    "definitions",
    "game_name",
    "has_pettingzoo_registry",
    "make",
    "make_raw",
    "register_all",
]


def has_pettingzoo_registry() -> bool:
    """Whether the installed PettingZoo has its environment registry (``pettingzoo.register``, from 1.27 on)."""
    return hasattr(pettingzoo, "register") and hasattr(pettingzoo, "aec_registry")


def register_all() -> None:
    """Register every game with PettingZoo (``pettingzoo.make("aec", "cardenvs/<game>-vN")``); a retired id is
    registered too, to an entry point that raises the error of :func:`make`. An older PettingZoo has no registry:
    nothing is registered, and :func:`make` and the game modules' ``env()`` work all the same."""
    if not has_pettingzoo_registry():
        return
    for env_id, (_, module) in zip(ENV_IDS, GAMES.values(), strict=True):
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=f"{module}:env")
    for old in RETIRED:
        if f"{NAMESPACE}/{old}" not in pettingzoo.aec_registry:
            pettingzoo.register("aec", f"{NAMESPACE}/{old}", entry_point=partial(_refuse_retired, old))


def _refuse_retired(env_id: str, **_options: Any) -> Any:
    """PettingZoo's entry point for a retired id (it passes the options along): raises what :func:`make` raises."""
    return game_module(env_id)


def make(env_id: str, *, raw: bool = False, **options: Any) -> Any:
    """Create an env by id (namespace optional). ``raw=True`` skips PettingZoo's order-enforcing wrapper."""
    module = game_module(env_id)
    return module.raw_env(**options) if raw else module.env(**options)


def make_raw(env_id: str, **options: Any) -> CardGameEnv:
    """The unwrapped :class:`CardGameEnv` for an id."""
    return make(env_id, raw=True, **options)
