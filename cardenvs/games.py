"""The list of cardenvs games and their manifests (:class:`~cardenvs.core.engine.GameDefinition`).

Adding a game is one line of :data:`GAMES` (docs/architecture.md, "Adding a game"). A game's module is imported
when its definition is first asked for, so ``import cardenvs`` loads no rules engine. Making envs and registering
them with PettingZoo is :mod:`cardenvs.registry`'s.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from cardenvs.core.engine import GameDefinition, RulesEngine
from cardenvs.core.errors import InvalidOptionError

NAMESPACE = "cardenvs"
GAMES: dict[str, tuple[int, str]] = {
    "verish_ne_verish": (0, "cardenvs.verish_ne_verish.env"),
    "yukushi": (0, "cardenvs.yukushi.env"),
    "kyuuri": (0, "cardenvs.kyuuri.env"),
    "zheng_shang_you": (0, "cardenvs.zheng_shang_you.env"),
    "goninkan": (1, "cardenvs.goninkan.env"),
    "yoninkan": (1, "cardenvs.goninkan.yoninkan_env"),
}
"""Game name → (current version, module providing ``DEFINITION``, ``raw_env`` and ``env``): the registration
line of each game (the version is here so that listing the ids imports no game; a test checks it against the
definition's)."""

RETIRED: dict[str, str] = {
    "goninkan-v0": "its observation gained `trick_winner` in v1",
    "yoninkan-v0": "its observation gained `trick_winner` in v1",
}
"""Ids of earlier versions → what changed; making one raises an error that names the current id."""

ENV_IDS: tuple[str, ...] = tuple(f"{NAMESPACE}/{name}-v{v}" for name, (v, _) in GAMES.items())
"""Every registered id, e.g. ``cardenvs/verish_ne_verish-v0``."""


def game_name(env_id: str) -> str:
    """The game part of an id: ``cardenvs/verish_ne_verish-v0`` (namespace optional) → ``verish_ne_verish``."""
    return env_id.split("/")[-1].rsplit("-v", 1)[0]


def game_module(env_id: str) -> ModuleType:
    """The module of a registered id (``DEFINITION``, ``raw_env``, ``env``); a clear error for any other id."""
    if not isinstance(env_id, str):
        raise InvalidOptionError(
            f"an environment id is a string, got {env_id!r} of type {type(env_id).__name__}; "
            f"registered ids: {', '.join(ENV_IDS)}"
        )
    full = env_id if env_id.startswith(f"{NAMESPACE}/") else f"{NAMESPACE}/{env_id}"
    for name, (version, module) in GAMES.items():
        if full == f"{NAMESPACE}/{name}-v{version}":
            return importlib.import_module(module)
    short = full.removeprefix(f"{NAMESPACE}/")
    if short in RETIRED:
        name = game_name(short)
        raise InvalidOptionError(
            f"{full} is retired ({RETIRED[short]}): use {NAMESPACE}/{name}-v{GAMES[name][0]}; "
            f"docs/games/ has each game's version history"
        )
    raise InvalidOptionError(f"unknown environment id {env_id!r}; registered ids: {', '.join(ENV_IDS)}")


def definition(env_id: str) -> GameDefinition[Any]:
    """The :class:`GameDefinition` behind an id (``"verish_ne_verish-v0"`` or with the namespace)."""
    found: GameDefinition[Any] = game_module(env_id).DEFINITION
    return found


def definitions() -> tuple[GameDefinition[Any], ...]:
    """Every registered game's definition, in :data:`GAMES` order (imports every game)."""
    return tuple(definition(f"{name}-v{version}") for name, (version, _) in GAMES.items())


def definition_of(game: RulesEngine[Any]) -> GameDefinition[Any]:
    """The definition of the game an engine plays, known by its options' type (each game has its own, so
    Yoninkan's is told from Goninkan's though they share one engine)."""
    for known in definitions():
        if type(game.options) is known.options_type:
            return known
    raise InvalidOptionError(
        f"{type(game).__name__} with {type(game.options).__name__} is no registered game's engine; "
        f"registered ids: {', '.join(ENV_IDS)}"
    )
