"""The repository's layout as it installs: no links, and every package listed in pyproject.toml.

agents/ and experiments/ sit at the root and install as ``cardenvs.agents`` and ``cardenvs.experiments`` through
setuptools' ``package-dir`` mapping, which finds no packages by itself; the list has to name each one.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def packages_in(folder: Path, name: str) -> set[str]:
    """``name`` and the dotted name of every folder with an ``__init__.py`` below ``folder``."""
    return {
        ".".join([name, *init.parent.relative_to(folder).parts]) for init in folder.rglob("__init__.py")
    }


def test_pyproject_lists_every_package_of_the_tree() -> None:
    mapping: dict[str, str] = SETUPTOOLS["package-dir"]
    assert mapping == {"cardenvs.agents": "agents", "cardenvs.experiments": "experiments"}
    found = packages_in(ROOT / "cardenvs", "cardenvs")
    for package, folder in mapping.items():
        found |= packages_in(ROOT / folder, package)
    listed = set(SETUPTOOLS["packages"])
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert listed - found == set(), "pyproject.toml lists packages that are not in the tree"


def test_the_repository_holds_no_links() -> None:
    """Links check out as text files on Windows by default, and hide one tree under two names from tools."""
    files = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    links = [line.split("\t", 1)[1] for line in files.splitlines() if line.startswith("120000 ")]
    assert links == []


def test_the_short_names_refuse_to_import_in_a_checkout() -> None:
    """From the checkout's root, where the folders are importable under their own names, the short form
    (``experiments.tournament`` run with ``python -m``) would run every module twice (as ``experiments.…`` and
    ``cardenvs.experiments.…``): it stops with one line giving the long form."""
    short = "experiments.tournament"
    done = subprocess.run([sys.executable, "-m", short, "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "run python -m cardenvs.experiments.<recipe>" in done.stderr
    done = subprocess.run([sys.executable, "-c", "import agents"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 1 and "agents/ is the package cardenvs.agents" in done.stderr


def test_a_recipe_loads_everything_through_cardenvs() -> None:
    script = (
        "import runpy, sys\n"
        "sys.argv = ['x', '--help']\n"
        "try:\n"
        "    runpy.run_module('cardenvs.experiments.tournament', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "import cardenvs.agents.benchmark, cardenvs.experiments.benchmark\n"
        "print('TOP', sorted(m for m in sys.modules if m.split('.')[0] in ('agents', 'experiments')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "TOP []" in done.stdout
