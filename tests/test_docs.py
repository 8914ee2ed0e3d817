"""Every registered game has a docs page whose observation and action tables match the code."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardenvs
from cardenvs.tables import tables

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_docs_page_tables_match_the_code(env_id: str) -> None:
    definition = cardenvs.definition(env_id)
    page = DOCS / "games" / ((definition.docs_page or definition.name) + ".md")
    assert page.exists(), f"{env_id} has no docs page {page}"
    text = page.read_text()
    for table in tables(env_id):
        assert table in text, f"{page} is out of date: paste the tables of `python -m cardenvs.tables {env_id}`"
    headings = [line.lower() for line in text.splitlines() if line.startswith("## ")]
    for topic in ("rules", "options", "observation", "actions", "rewards", "version history"):
        assert any(topic in h for h in headings), f"{page} lacks a section on {topic}"
