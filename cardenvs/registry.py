"""The list of cardenvs games and their registration with PettingZoo's registry."""

from __future__ import annotations

import importlib
from functools import partial
from typing import Any

import pettingzoo

from cardenvs.core.aec import CardGameEnv
from cardenvs.core.engine import GameDefinition
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
"""Game name → (current version, module providing ``DEFINITION``, ``raw_env`` and ``env``)."""

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


def has_pettingzoo_registry() -> bool:
    """Whether the installed PettingZoo has its environment registry (``pettingzoo.register``, from 1.27 on)."""
    return hasattr(pettingzoo, "register") and hasattr(pettingzoo, "aec_registry")


def register_all() -> None:
    """Register every game with PettingZoo (``pettingzoo.make("aec", "cardenvs/<game>-vN")``); a retired id is
    registered too, to an entry point that raises the error of :func:`make`. An older PettingZoo has no registry:
    nothing is registered, and :func:`make` and the game modules' ``env()`` work all the same."""
    if not has_pettingzoo_registry():
        return
    for env_id, (_, module) in zip(ENV_IDS, GAMES.values(), strict=False):
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=f"{module}:env")
    for old in RETIRED:
        if f"{NAMESPACE}/{old}" not in pettingzoo.aec_registry:
            pettingzoo.register("aec", f"{NAMESPACE}/{old}", entry_point=partial(_refuse_retired, old))


def _refuse_retired(env_id: str, **_options: Any) -> Any:
    """PettingZoo's entry point for a retired id (it passes the options along): raises what :func:`make` raises."""
    return _module_of(env_id)


def _module_of(env_id: str) -> Any:
    if not isinstance(env_id, str):
        raise InvalidOptionError(
            f"an environment id is a string, got {env_id!r} of type {type(env_id).__name__}; "
            f"registered ids: {', '.join(ENV_IDS)}"
        )
    full = env_id if env_id.startswith(f"{NAMESPACE}/") else f"{NAMESPACE}/{env_id}"
    for known, (_, module) in zip(ENV_IDS, GAMES.values(), strict=False):
        if known == full:
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
    return _module_of(env_id).DEFINITION


def make(env_id: str, *, raw: bool = False, **options: Any) -> Any:
    """Create an env by id (namespace optional). ``raw=True`` skips PettingZoo's order-enforcing wrapper."""
    module = _module_of(env_id)
    return module.raw_env(**options) if raw else module.env(**options)


def make_raw(env_id: str, **options: Any) -> CardGameEnv:
    """The unwrapped :class:`CardGameEnv` for an id."""
    return make(env_id, raw=True, **options)
