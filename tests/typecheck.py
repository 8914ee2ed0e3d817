"""Type-check the package as it installs: ``python -m tests.typecheck [mypy arguments]`` (``run.py test`` runs it).

mypy knows no ``package-dir`` mapping, so on its own it finds no ``cardenvs.agents`` or ``cardenvs.experiments`` in
a checkout. This links each mapped package of pyproject.toml under ``build/typecheck`` (the ``mypy_path`` there;
git ignores ``build/``) and then runs mypy, which reads ``agents/`` as ``cardenvs.agents`` and so on. Where links
cannot be made (Windows without the right), it copies the folders instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "typecheck"


def mapped_packages() -> dict[str, str]:
    """pyproject.toml's package-dir: package name -> folder of the repository."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    return mapping


def write_tree() -> None:
    """Put each mapped package at the place its name gives under build/typecheck (a link, else a copy)."""
    for package, folder in mapped_packages().items():
        place = TREE.joinpath(*package.split("."))
        place.parent.mkdir(parents=True, exist_ok=True)
        target = Path(os.path.relpath(ROOT / folder, place.parent))
        if place.is_symlink() and place.readlink() == target:
            continue
        if place.is_symlink():
            place.unlink()
        elif place.exists():
            shutil.rmtree(place)
        try:
            place.symlink_to(target, target_is_directory=True)
        except OSError:
            shutil.copytree(ROOT / folder, place, ignore=shutil.ignore_patterns("__pycache__"))


def main(argv: list[str]) -> int:
    write_tree()
    return subprocess.run([sys.executable, "-m", "mypy", *argv], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
