"""docs/interop.md runs: each Python block on the page (the checkers over every game, short rollouts per library)."""

from __future__ import annotations

import pytest

from tests.test_docs import DOCS, python_blocks

PAGE = DOCS / "interop.md"
BLOCKS = python_blocks(PAGE)
NEEDS = {"tianshou": "tianshou", "torchrl": "torchrl", "stable_baselines3": "stable_baselines3"}
"""A block that imports one of these libraries is skipped where it is not installed (the ``interop`` extra)."""


def block_id(block: str) -> str:
    return next((name for name in NEEDS if f"from {name}" in block), "pettingzoo")


def test_the_page_has_a_block_per_library() -> None:
    assert sorted(block_id(b) for b in BLOCKS) == ["pettingzoo", "stable_baselines3", "tianshou", "torchrl"]


@pytest.mark.parametrize("block", BLOCKS, ids=[block_id(b) for b in BLOCKS])
def test_the_block_runs(block: str, capsys: pytest.CaptureFixture[str]) -> None:
    library = block_id(block)
    if library in NEEDS:
        pytest.importorskip(NEEDS[library])
    exec(compile(block, str(PAGE), "exec"), {})
    if library == "pettingzoo":
        assert "player_0" in capsys.readouterr().out  # render_mode="human" printed the table
