"""Positions through the env: round trips over every id and option set that has a notation (Hypothesis), the
reset-option protocol and its errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import cardenvs
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.position import PositionError
from cardenvs.testing.positions import position_round_trip_property
from tests.conftest import case_id, registry_cases

DOCS = Path(__file__).resolve().parent.parent / "docs"
CASES = [c for c in registry_cases() if cardenvs.definition(c[0]).read_position is not None]


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=[case_id(c) for c in CASES])
def test_positions_round_trip(env_id: str, options: dict[str, Any]) -> None:
    position_round_trip_property(env_id, options, examples=6)


def test_reset_rejects_unknown_reset_options() -> None:
    env = cardenvs.make("verish_ne_verish-v0")
    with pytest.raises(InvalidOptionError, match="position"):
        env.reset(seed=0, options={"deal": "x"})


def test_a_position_of_other_options_or_another_game_is_refused() -> None:
    env = cardenvs.make("verish_ne_verish-v0", num_players=3)
    env.reset(seed=0)
    text = env.unwrapped.position()
    other = cardenvs.make("verish_ne_verish-v0", num_players=4)
    with pytest.raises(PositionError, match="num_players"):
        other.reset(seed=0, options={"position": text})
    with pytest.raises(PositionError, match="is of"):
        other.reset(seed=0, options={"position": text.replace("verish_ne_verish", "yukushi", 1)})


def test_misspelt_lines_are_not_ignored() -> None:
    env = cardenvs.make("verish_ne_verish-v0", num_players=3)
    env.reset(seed=0)
    text = env.unwrapped.position() + "dealr: 1\n"
    with pytest.raises(PositionError, match=r"unknown position line.*dealr"):
        env.reset(seed=0, options={"position": text})


@pytest.mark.parametrize("page", ["verish_ne_verish", "kyuuri", "yukushi", "zheng_shang_you"])
def test_the_position_examples_of_the_docs_run(page: str) -> None:
    text = (DOCS / "games" / f"{page}.md").read_text()
    section = text.split("## Positions", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert blocks, f"docs/games/{page}.md has no position example"
    for block in blocks:
        exec(compile(block, f"docs/games/{page}.md", "exec"), {})
