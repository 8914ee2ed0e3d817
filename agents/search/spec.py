"""The ``search:`` policy spec: ``search:?simulations=200&rollout=kyuuri/rule&prior=kyuuri/rule`` (every key
optional; see :class:`~agents.search.ismcts.SearchSettings`)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any
from urllib.parse import parse_qsl

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.registry import policy_names
from cardenvs.agents.search.ismcts import POLICY_KEYS, IsmctsPolicy, PolicyMaker, SearchSettings

KEYS = {f.name: f.type for f in fields(SearchSettings)}


def parse_settings(argument: str, context: PolicyContext) -> SearchSettings:
    """The settings a ``search:`` spec's argument names; errors name the bad key or value and what is valid."""
    query = argument[1:] if argument.startswith("?") else argument
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError as error:
        raise ValueError(f"a search spec is search:?key=value&…, got search:{argument} ({error})") from error
    values: dict[str, Any] = {}
    for key, text in pairs:
        if key not in KEYS:
            raise ValueError(f"unknown search setting {key!r} in search:{argument}; valid: {sorted(KEYS)}")
        if key in values:
            raise ValueError(f"search setting {key!r} is given twice in search:{argument}")
        values[key] = text if key in POLICY_KEYS else _number(key, text, integer="int" in str(KEYS[key]))
    if "milliseconds" in values and "simulations" not in values:
        values["simulations"] = None
    for key, plain in POLICY_KEYS.items():
        name = values.get(key, plain)
        if name != plain:
            names = policy_names(context.env_id)
            if name not in names:
                raise ValueError(
                    f"{key} {name!r} is not a registered policy for {context.env_id}; valid: {[plain, *names]}"
                )
    return SearchSettings(**values)


def _number(key: str, text: str, integer: bool) -> float | int:
    try:
        return int(text) if integer else float(text)
    except ValueError:
        kind = "a whole number" if integer else "a number"
        raise ValueError(f"search setting {key} must be {kind}, got {text!r}") from None


def search_policy(argument: str, context: PolicyContext, seed: int | None, make_policy: PolicyMaker) -> Policy:
    """Build the search agent of a ``search:`` spec, its rollout and prior policies built by ``make_policy`` (the
    ``search:`` loader of :mod:`agents.specs` passes its resolver)."""
    return IsmctsPolicy(context, seed, parse_settings(argument, context), make_policy)
