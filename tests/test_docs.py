"""Every registered game has a docs page whose observation and action tables match the code; the benchmark page's
code runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

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


def python_blocks(page: Path) -> list[str]:
    """The ```python blocks of a Markdown page, in order."""
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.DOTALL)


def test_the_benchmark_page_runs_from_a_policy_file_to_its_score_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardenvs.agents.benchmark import suites

    page = DOCS / "benchmark.md"
    blocks = python_blocks(page)
    files = {m.group(1): b for b in blocks if (m := re.match(r"# (\w+\.py)\n", b))}  # policy files of the page
    assert "mybluff.py" in files
    for name, source in files.items():
        (tmp_path / name).write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(suites, "GAMES_V2", dict.fromkeys(suites.GAMES_V2, 12))  # the page's code at a smoke budget
    namespace: dict[str, Any] = {}
    for block in blocks:
        if block not in files.values():
            assert len(block.strip().splitlines()) < 10
            exec(compile(block, str(page), "exec"), namespace)
    card = namespace["card"]
    assert card.overall.games == len(suites.OPPONENTS_V2["verish_ne_verish"]) * 12 and card.fingerprint
    assert "docs/benchmark.md" in (DOCS.parent / "README.md").read_text()
