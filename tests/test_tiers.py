"""The quick tier (``python3 run.py test --quick``) keeps the conformance smoke of every id and leaves out the slow
files; the plain ``test`` task still runs the whole suite."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import cardenvs
import run
from tests.conftest import case_id
from tests.tiers import CONFORMANCE, SLOW_PATHS, TESTS


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
    "tests/interop/test_pettingzoo_conventions.py",
    "tests/test_install.py",
    "tests/test_notebooks.py",
)
"""Files measured slow (training, JAX compiling, a browser, clean installs, the notebook), named here on their own."""


@pytest.fixture(scope="module")
def quick() -> set[str]:
    return collected("-m", "not slow", f"tests/{CONFORMANCE}", *KNOWN_SLOW)


def test_every_slow_path_exists() -> None:
    assert sorted(path for path in SLOW_PATHS if not (TESTS / path).exists()) == []


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

