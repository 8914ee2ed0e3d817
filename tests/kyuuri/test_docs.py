"""The Kyuuri docs page carries the current observation and action tables and documents every option."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cardenvs
from cardenvs.kyuuri.options import KyuuriOptions

PAGE = Path(__file__).resolve().parents[2] / "docs" / "games" / "kyuuri.md"


def test_docs_tables_match_the_code() -> None:
    text = PAGE.read_text()
    env = cardenvs.make_raw("kyuuri-v0")
    assert env.layout.markdown() in text
    assert env.action_table.markdown() in text


def test_docs_list_every_option_with_its_default() -> None:
    text = PAGE.read_text()
    for field in dataclasses.fields(KyuuriOptions):
        default = f'"{field.default}"' if isinstance(field.default, str) else str(field.default)
        assert f"| `{field.name}` | `{default}` |" in text, field.name
