"""Shared fixtures and the list of (env id, options) cases the conformance tests cover."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardenvs
from tests.tiers import mark_slow_tests

ROOT = Path(__file__).resolve().parents[1]


def registry_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every registered id with every option set its definition asks the kit to cover."""
    return [(env_id, dict(v)) for env_id in cardenvs.ENV_IDS for v in cardenvs.definition(env_id).variants]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    env_id, options = case
    name = env_id.split("/")[-1]
    return name + ("[" + ",".join(f"{k}={v}" for k, v in sorted(options.items())) + "]" if options else "")


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once where cardenvs.agents or cardenvs.experiments would come from another checkout: they are mapped
    folders of the repository, which only an editable install of this checkout finds here."""
    import cardenvs.agents
    import cardenvs.experiments

    for package, folder in ((cardenvs.agents, "agents"), (cardenvs.experiments, "experiments")):
        found = Path(package.__file__ or "").resolve().parent
        if found != ROOT / folder:
            raise pytest.UsageError(
                f"{package.__name__} is imported from {found}, not from {ROOT / folder}: install this checkout in "
                "the environment that runs the tests (pip install --no-deps -e .)"
            )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests the quick tier leaves out (tests/tiers.py says which)."""
    mark_slow_tests(items)


def copy_of_the_checkout(destination: Path) -> Path:
    """The checkout's sources copied to ``destination``, for a test that builds or installs them: setuptools writes
    build/ inside the source tree, and test workers build at the same time."""
    skip = shutil.ignore_patterns(".git", ".venv", "runs", "build", "*.egg-info", "__pycache__", ".*_cache", "dist")
    shutil.copytree(ROOT, destination, ignore=skip)
    return destination


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout built as a wheel (no dependencies), for the tests that install it into clean environments."""
    out = tmp_path_factory.mktemp("wheel")
    source = copy_of_the_checkout(out / "source")
    pip = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation", "-q", "-w", str(out)]
    subprocess.run(pip, check=True, cwd=out)
    (built,) = out.glob("cardenvs-*.whl")
    return built
