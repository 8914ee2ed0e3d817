"""What a policy writer reads first: the README's Python names and the benchmark's ``--help`` example are right."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_benchmark_help_runs_the_pages_example_on_the_game_it_was_written_for() -> None:
    from cardenvs.experiments import benchmark

    example = r'--game (\S+) --policy "?mybluff\.py:PBluffer'
    page_games = set(re.findall(example, (ROOT / "docs" / "benchmark.md").read_text()))
    help_games = set(re.findall(example, benchmark.__doc__ or ""))
    assert len(page_games) == 1 and help_games == page_games, (help_games, page_games)


def test_the_readme_names_policy_code_by_its_real_import_paths() -> None:
    readme = (ROOT / "README.md").read_text()
    bare = re.findall(r"(?<![\w.])agents\.\w+\.\w+\(", readme)
    assert not bare, f"README calls {bare}: the package is cardenvs.agents"
    for module, names in re.findall(r"^from (cardenvs\.agents[\w.]*) import ([\w, ]+)$", readme, flags=re.MULTILINE):
        imported = importlib.import_module(module)
        for name in names.split(","):
            assert hasattr(imported, name.strip()), f"README imports {name.strip()} from {module}, which lacks it"
