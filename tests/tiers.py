"""The quick test tier: everything not marked ``slow``; ``python3 run.py test --quick`` runs it (``-m "not slow"``).

Besides the tests that carry ``@pytest.mark.slow`` themselves, ``tests/conftest.py`` marks as slow, at collection:

- every test in the files and folders of ``SLOW_PATHS`` (training, JAX compiling, browsers, Ray, clean installs,
  solvers and exploitability), listed from ``pytest --durations`` timings;
- the conformance kit's cases beyond each id's first declared option set, so the quick tier keeps every test of
  the kit once per registered id (a new id or kit test joins it with no edit here).

A new test file is quick until it is listed here: time it (``pytest --durations=30 FILE``) when you add it.

Measured 2026-11-27 at load 13-17 on 2 cores, so counted in CPU seconds (what an idle core spends as wall seconds):
the quick tier's 1,225 of 2,007 tests take 141 CPU s in one process, mypy 30 (cold cache), ruff under 1; about
2 minutes on 2 idle cores with the suite's ``-n 2`` (half the tests' seconds, plus each worker's 10 s start).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import cardenvs

TESTS = Path(__file__).resolve().parent

SLOW_PATHS = frozenset(
    {
        "training",
        "fast",
        "fast_bots",
        "openspiel",
        "exploitability",
        "yardstick",
        "play/test_browser.py",
        "tournament/test_backends.py",
        "test_experiments.py",
        "interop/test_pettingzoo_conventions.py",
        "test_install.py",
        "test_old_versions.py",
        "test_notebooks.py",
    }
)
"""Files and folders (relative to tests/) whose every test is slow."""

CONFORMANCE = "test_conformance.py"


def in_slow_path(relative: Path) -> bool:
    """Whether a test file (relative to tests/) is one of, or lies under one of, ``SLOW_PATHS``."""
    return any(str(part) in SLOW_PATHS for part in (relative, *relative.parents))


def beyond_the_smoke(item: pytest.Item) -> bool:
    """A conformance case with options other than its id's first declared set (the smoke keeps that one)."""
    params = getattr(item, "callspec", None)
    if params is None or "options" not in params.params:
        return False
    env_id, options = params.params["env_id"], params.params["options"]
    return bool(options != dict(cardenvs.definition(env_id).variants[0]))


def is_slow(item: pytest.Item) -> bool:
    """Whether the collected test stays out of the quick tier."""
    relative = item.path.relative_to(TESTS)
    if in_slow_path(relative):
        return True
    return str(relative) == CONFORMANCE and beyond_the_smoke(item)


def mark_slow_tests(items: list[pytest.Item]) -> None:
    """Add the ``slow`` marker to every collected test the quick tier leaves out."""
    for item in items:
        if item.path.is_relative_to(TESTS) and is_slow(item):
            item.add_marker(pytest.mark.slow)
