"""Every registered id has a readable playthrough, and replaying it still gives the stored text exactly."""

from __future__ import annotations

import difflib
from typing import Any

import pytest

import cardenvs
from tests.playthroughs import CASES, path_for, text_for


def test_every_registered_id_has_a_playthrough() -> None:
    assert {cardenvs.definition(env_id).env_id for env_id, _, _ in CASES} == set(cardenvs.ENV_IDS)


@pytest.mark.parametrize(("env_id", "options", "position"), CASES, ids=[path_for(*c[:2]).stem for c in CASES])
def test_playthrough_matches(env_id: str, options: dict[str, Any], position: str | None) -> None:
    path = path_for(env_id, options)
    assert path.exists(), f"{env_id} has no playthrough; run `python -m tests.playthroughs --update`"
    expected, actual = path.read_text(), text_for(env_id, options, position)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), n=1))[:60])
        pytest.fail(f"{path.name} no longer matches:\n{diff}")
