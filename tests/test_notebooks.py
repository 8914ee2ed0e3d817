"""The tour notebook runs from top to bottom and shows what each step produced."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import cardenvs

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_the_tour_is_the_notebook_checked_here() -> None:
    assert [path.name for path in NOTEBOOKS] == ["tour.ipynb"], "a new notebook needs its own checks here"


@pytest.mark.slow
def test_the_tour_executes_and_shows_its_results(tmp_path: Path) -> None:
    notebook = nbformat.read(NOTEBOOKS[0], as_version=4)
    # Run in a scratch folder so that checkpoints and reports never land in the checkout.
    client = NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    outputs = [output for cell in code for output in cell.get("outputs", [])]
    assert [o for o in outputs if o.get("output_type") == "error"] == []
    assert all(cell.execution_count for cell in code)
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert all(env_id in printed for env_id in cardenvs.ENV_IDS)
    episode = re.search(r"… (\d+) decisions; returns", printed)
    assert episode and int(episode.group(1)) > 0
    trained = re.search(r"^(\d+) steps in .*; final checkpoint (\S+)$", printed, re.M)
    assert trained and int(trained.group(1)) >= 40_000  # the budget the notebook asks for
    checkpoint = next(line for line in printed.splitlines() if line.endswith("final.zip") and " " not in line)
    assert checkpoint == trained.group(2)
    assert (tmp_path / checkpoint).is_file()
    for label in ("random", "rule", "trained"):  # the tournament's three entrants, each with a score and rating
        number = r"[+-]\d+\.\d{3}"
        assert re.search(rf"^{label}\s+score {number} \[{number}, {number}\]  OpenSkill", printed, re.M)
    assert (tmp_path / "runs/notebook-tournament/tournament.sqlite").is_file()
    assert (tmp_path / "runs/notebook-tournament/summary.png").stat().st_size > 0
