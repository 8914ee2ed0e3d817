"""cardenvs on the oldest PettingZoo it supports (1.24, which has no environment registry) beside the newest
gymnasium, in a clean environment. The shared test environment covers the other end (the newest PettingZoo with
gymnasium 1.2, which Ray pins), so both supported ranges are run."""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

import pytest

OLDEST_PETTINGZOO = "pettingzoo==1.24.*"

SCRIPT = """
import gymnasium, numpy, pettingzoo
import cardenvs
import cardenvs.games
from cardenvs.registry import has_pettingzoo_registry
from cardenvs.testing import check_pettingzoo_api
from pettingzoo.test import render_test

print("versions", pettingzoo.__version__, gymnasium.__version__, numpy.__version__)
assert pettingzoo.__version__.startswith("1.24."), pettingzoo.__version__
assert not has_pettingzoo_registry()
for env_id in cardenvs.ENV_IDS:
    check_pettingzoo_api(env_id, {}, num_cycles=60)
    module = cardenvs.games.game_module(env_id)
    render_test(module.env)
    print("ok", env_id)
"""


@pytest.mark.slow
def test_api_test_on_the_oldest_pettingzoo_and_the_newest_gymnasium(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python = str(env / "bin" / "python")
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "--no-deps", str(wheel)], check=True, timeout=300)
    subprocess.run([*pip, OLDEST_PETTINGZOO, "gymnasium", "numpy"], check=True, timeout=600)
    done = subprocess.run([python, "-c", SCRIPT], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert done.stdout.count("\nok ") == 6, done.stdout
