"""Shared fixtures and the list of (env id, options) cases the conformance tests cover."""

from __future__ import annotations

from typing import Any

import cardenvs


def registry_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every registered id with every option set its definition asks the kit to cover."""
    return [(env_id, dict(v)) for env_id in cardenvs.ENV_IDS for v in cardenvs.definition(env_id).variants]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    env_id, options = case
    name = env_id.split("/")[-1]
    return name + ("[" + ",".join(f"{k}={v}" for k, v in sorted(options.items())) + "]" if options else "")
