#!/usr/bin/env python3
"""Set-up and tasks with nothing but Python 3.11 and pip.

    python3 run.py demo    # the main job
    python3 run.py test    # lint, type checks and the test suite
    python3 run.py test --quick   # the same, with the quick tier of the suite (tests/tiers.py)
    python3 run.py play    # a table in the browser (arguments: python3 run.py play --help)

Each task first makes sure the local virtual environment ``.venv`` exists and holds the project with its
extras (idempotent: it reinstalls only when pyproject.toml changes). torch==2.13.0, the CPU wheel, is
installed before anything that depends on torch.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
TORCH = "torch==2.13.0"
EXTRAS = "train,dev,bench,tournament,play,interop,cluster,fast,textarena"

TASKS: dict[str, list[list[str]]] = {
    "demo": [["-m", "cardenvs.experiments.demo"]],
    "test": [
        ["-m", "ruff", "check", "cardenvs", "agents", "experiments", "tests"],
        ["-m", "tests.typecheck"],  # mypy, with the package-dir mapping laid out for it
        ["-m", "pytest", "-n", "2", "--dist", "worksteal", "-q"],
    ],
    "bench": [["-m", "cardenvs.experiments.speed"]],
    "play": [["-m", "cardenvs.experiments.play"]],
    "golden": [["-m", "tests.golden", "--update"]],
}
QUICK = {"test": ["-m", "not slow"]}
"""What ``--quick`` adds to a task's last step: the test suite leaves out the tests marked slow."""


def ensure_venv() -> None:
    """Create .venv and install the project unless it is already up to date."""
    stamp = VENV / ".cardenvs-installed"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + TORCH.encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted and PY.exists():
        return
    if not PY.exists():
        print("creating .venv …", flush=True)
        venv.create(VENV, with_pip=True)
    pip = [str(PY), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, TORCH], check=True)
    subprocess.run([*pip, "-e", f".[{EXTRAS}]"], check=True, cwd=ROOT)
    stamp.write_text(wanted)


def main(argv: list[str]) -> int:
    if len(argv) < 1 or argv[0] not in TASKS:
        print(f"usage: python3 run.py {{{'|'.join(TASKS)}}} [extra arguments for the last step]", file=sys.stderr)
        return 2
    task, extra = argv[0], argv[1:]
    if task in QUICK and "--quick" in extra:
        extra = [arg for arg in extra if arg != "--quick"] + QUICK[task]
    ensure_venv()
    steps = TASKS[task]
    for i, step in enumerate(steps):
        args = step + (extra if i == len(steps) - 1 else [])
        code = subprocess.run([str(PY), *args], cwd=ROOT).returncode
        if code:
            return code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
