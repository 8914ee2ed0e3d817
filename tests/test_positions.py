"""Positions through the env: round trips over every id and option set that has a notation (Hypothesis), the
reset-option protocol and its errors."""

from __future__ import annotations

from typing import Any

import pytest

import cardenvs
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.position import PositionError
from cardenvs.testing.positions import position_round_trip_property
from tests.conftest import case_id, registry_cases

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
