"""The quick tier (``python3 run.py test --quick``) keeps the conformance smoke of every id and leaves out the slow
files; the plain ``test`` task still runs the whole suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

import cardenvs
import run
from tests.conftest import case_id
from tests.tiers import (
    CONFORMANCE,
    QUICK_FILES,
    SLOW_PATHS,
    TESTS,
    collectable_files,
    in_slow_path,
    is_slow,
    unclassified,
)


def collected(*args: str) -> set[str]:
    """The node ids pytest collects from tests/ with these arguments."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args]
    out = subprocess.run(command, cwd=TESTS.parent, capture_output=True, text=True, check=True).stdout
    return {line for line in out.splitlines() if "::" in line}


KNOWN_SLOW = (
    "tests/training/test_learning.py",
    "tests/training/test_bench.py",
    "tests/fast/test_backends.py",
    "tests/openspiel/test_small_variants.py",
    "tests/play/test_browser.py",
    "tests/play/test_table_ux.py",
    "tests/interop/test_pettingzoo_conventions.py",
    "tests/test_install.py",
    "tests/test_notebooks.py",
)
"""Files measured slow (training, JAX compiling, a browser, clean installs, the notebook), named here on their own."""


@pytest.fixture(scope="module")
def quick() -> set[str]:
    return collected("-m", "not slow", f"tests/{CONFORMANCE}", *KNOWN_SLOW)


def test_every_listed_path_exists() -> None:
    assert sorted(path for path in SLOW_PATHS | QUICK_FILES if not (TESTS / path).exists()) == []


def test_every_test_file_is_in_exactly_one_tier() -> None:
    files = collectable_files()
    assert unclassified(files) == [], "time these files and list them in tests/tiers.py"
    assert sorted(path for path in QUICK_FILES if in_slow_path(Path(path))) == []


def test_a_new_file_fails_the_check_and_stays_out_of_the_quick_tier() -> None:
    new, slow_folder, listed = Path("play/test_new.py"), Path("training/test_new.py"), Path("test_cards.py")
    assert unclassified([new, slow_folder, listed]) == [new.as_posix()]
    in_file = {path: cast(pytest.Item, SimpleNamespace(path=TESTS / path)) for path in (new, slow_folder, listed)}
    assert [is_slow(item) for item in in_file.values()] == [True, True, False]


def test_the_quick_tier_runs_every_conformance_test_on_every_id(quick: set[str]) -> None:
    functions = {node.split("::")[1].split("[")[0] for node in collected(f"tests/{CONFORMANCE}")}
    for env_id in cardenvs.ENV_IDS:
        smoke = case_id((env_id, dict(cardenvs.definition(env_id).variants[0])))
        for function in functions:
            wanted = {f"tests/{CONFORMANCE}::{function}[{name}]" for name in (smoke, env_id)}
            assert wanted & quick, f"{function} on {env_id} is missing from the quick tier"
    conformance = [node for node in quick if node.startswith(f"tests/{CONFORMANCE}")]
    assert len(conformance) == len(functions) * len(cardenvs.ENV_IDS)  # one case per id: the smoke, not the sweep


def test_the_quick_tier_leaves_out_the_slow_files_and_the_full_suite_keeps_them(quick: set[str]) -> None:
    assert sorted(node for node in quick if not node.startswith(f"tests/{CONFORMANCE}")) == []
    full = collected(*KNOWN_SLOW)
    assert {node.split("::")[0] for node in full} == set(KNOWN_SLOW)


def run_task(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> list[list[str]]:
    """The commands ``run.py`` would start for ``argv``, with nothing installed or run."""
    started: list[list[str]] = []

    def record(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        started.append(command[1:])
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(run, "ensure_venv", lambda: None)
    monkeypatch.setattr(run.subprocess, "run", record)
    assert run.main(argv) == 0
    return started


def test_run_py_quick_deselects_the_slow_tests_and_the_plain_task_runs_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    full = run_task(monkeypatch, ["test"])
    assert full == run.TASKS["test"] and "not slow" not in full[-1]
    quick = run_task(monkeypatch, ["test", "--quick", "-x"])
    assert quick[:-1] == full[:-1]
    assert quick[-1] == [*full[-1], "-x", "-m", "not slow"]


def test_run_py_passes_quick_through_to_other_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_task(monkeypatch, ["bench", "--quick"]) == [[*run.TASKS["bench"][0], "--quick"]]
