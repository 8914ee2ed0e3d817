"""The installed distribution takes no generic top-level name: its wheel holds only ``cardenvs``, and it installs
beside the OpenAI Agents SDK (whose top-level package is ``agents``) with both importable."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import copy_of_the_checkout

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_only_the_cardenvs_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"cardenvs"}
    for module in (
        "cardenvs/agents/specs.py",
        "cardenvs/agents/benchmark/leaderboards/yukushi.json",
        "cardenvs/agents/zoo/kyuuri/ppo.npz",
        "cardenvs/agents/zoo/kyuuri/ppo.json",
        "cardenvs/experiments/tournament.py",
        "cardenvs/experiments/play/page.html",
    ):
        assert module in names, module


@pytest.mark.slow
def test_installs_and_imports_beside_the_openai_agents_sdk(wheel: Path, tmp_path: Path) -> None:
    """A clean environment gets the wheel and ``openai-agents`` (from the package registry); both import, each its
    own, and a benchmark entry point runs from the installed package."""
    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python = str(env / "bin" / "python")
    install = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel), "openai-agents"]
    subprocess.run(install, check=True, timeout=900)
    script = (
        "import agents, cardenvs, cardenvs.agents\n"
        "from cardenvs.agents.benchmark import gauntlet\n"
        "from cardenvs.agents.benchmark.leaderboard import default_path, load\n"
        "assert hasattr(agents, 'Agent') and hasattr(agents, 'Runner'), agents.__file__\n"
        "assert 'site-packages/agents/' in agents.__file__, agents.__file__\n"
        "assert cardenvs.agents.__file__.endswith('site-packages/cardenvs/agents/__init__.py')\n"
        "assert load(default_path('yukushi-v0'))['rows'], 'the shipped leaderboard is package data'\n"
        "print(gauntlet('yukushi-v0').opponents)\n"
    )
    done = subprocess.run([python, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "yukushi/honest" in done.stdout
    cli = [python, "-m", "cardenvs.experiments.tournament", "--help"]
    assert subprocess.run(cli, capture_output=True, text=True, cwd=tmp_path, timeout=300).returncode == 0


@pytest.mark.slow
def test_an_editable_install_maps_the_folders_from_any_directory(tmp_path: Path) -> None:
    """``pip install -e`` (what run.py does) serves the checkout's agents/ and experiments/ as cardenvs.agents and
    cardenvs.experiments wherever Python starts, and takes no top-level name for them."""
    source = copy_of_the_checkout(tmp_path / "checkout")
    env = tmp_path / "env"
    venv.create(env, with_pip=False)
    # The dependencies (and pip, setuptools) come from this environment's folders, listed without running its .pth.
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)}))
    (purelib / "outer.pth").write_text("\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    python = str(env / "bin" / "python")
    install = [python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "-e", str(source)]
    subprocess.run(install, check=True, cwd=tmp_path, timeout=600, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = (
        "import importlib.util, sys\n"
        "import cardenvs.agents.zoo, cardenvs.experiments.tournament\n"
        "print(cardenvs.agents.zoo.__file__, cardenvs.experiments.tournament.__file__)\n"
        "print(importlib.util.find_spec('agents'), importlib.util.find_spec('experiments'))\n"
    )
    done = subprocess.run([python, "-c", script], capture_output=True, text=True, cwd=elsewhere, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        str(source / "agents" / "zoo" / "__init__.py"),
        str(source / "experiments" / "tournament.py"),
        "None",
        "None",
    ]
    cli = [python, "-m", "cardenvs.experiments.tournament", "--help"]
    assert "--policies" in subprocess.run(cli, capture_output=True, text=True, cwd=elsewhere, timeout=300).stdout

