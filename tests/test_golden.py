"""Every registered env has a golden transcript, and a seeded game still reproduces it exactly."""

from __future__ import annotations

import difflib

import pytest

import cardenvs
from cardenvs.testing import transcript
from tests.golden import SEED, path_for


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_golden_transcript(env_id: str) -> None:
    path = path_for(env_id)
    assert path.exists(), f"{env_id} has no golden transcript; run `python -m tests.golden --update`"
    expected = path.read_text()
    actual = transcript(env_id, {}, SEED)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), n=1))[:60])
        pytest.fail(f"{env_id} no longer reproduces its golden transcript:\n{diff}")
