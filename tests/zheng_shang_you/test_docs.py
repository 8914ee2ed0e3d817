"""The docs page carries the current observation, action and move-feature tables and the provisional table."""

from __future__ import annotations

from pathlib import Path

from cardenvs.zheng_shang_you.actions import action_table
from cardenvs.zheng_shang_you.encoding import observation_layout
from cardenvs.zheng_shang_you.features import move_layout
from cardenvs.zheng_shang_you.options import provisional_sjx_table

DOC = Path(__file__).parents[2] / "docs" / "games" / "zheng_shang_you.md"


def test_docs_tables_match_the_code() -> None:
    text = DOC.read_text()
    assert observation_layout(4).markdown() in text
    assert action_table().markdown() in text
    assert move_layout().markdown() in text
    for key, points in provisional_sjx_table().items():
        assert f"| `{key}` | {points} |" in text
    assert "UNVERIFIED" in text
