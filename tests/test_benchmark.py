"""The gauntlet, score cards and leaderboards (small budgets: the numbers are not the point here)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import cardenvs
from cardenvs.agents.benchmark import evaluate, gauntlet, leaderboard, shipped_policies
from cardenvs.agents.benchmark.card import summary_json
from cardenvs.agents.benchmark.suites import OPPONENTS_V1
from cardenvs.agents.registry import POLICIES
from cardenvs.experiments import benchmark
from cardenvs.registry import game_name
from tests.user_policies import write_policy

ROOT = Path(__file__).resolve().parents[1]
GAME = "verish_ne_verish-v0"
GAMES = 24


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_every_game_has_a_v1_suite_with_random_and_every_rule_bot(env_id: str) -> None:
    suite = gauntlet(env_id)
    bots = {name for name, (game, _) in POLICIES.items() if game == game_name(env_id)}
    assert suite.opponents[0] == "random" and set(suite.opponents[1:]) == bots
    assert shipped_policies(env_id) == ["random", *sorted(bots, key=list(POLICIES).index)]
    assert set(OPPONENTS_V1) == {game_name(i) for i in cardenvs.ENV_IDS}


def test_a_score_card_for_a_policy_file(tmp_path: Path) -> None:
    spec = f"{write_policy(tmp_path / 'user')}:PBluffer?p=0.5"
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"rows": [{"name": "x", "spec": "x", "margin": {"value": 5.0}}]}))
    card = evaluate(spec, GAME, games=GAMES, workers=1, out_dir=tmp_path / "runs", leaderboard_path=board)
    assert [row.opponent for row in card.opponents] == ["random", "verish_ne_verish/rule"]
    assert all(row.summary.games == GAMES for row in card.opponents) and card.overall.games == 2 * GAMES
    assert card.overall.margin.low <= card.overall.margin.value <= card.overall.margin.high
    assert {"bluff_rate", "challenge_precision", "challenge_recall"} <= set(card.overall.metrics)
    assert (card.rank, card.leaderboard_size) == (2, 2) and card.exploitability is None
    text = card.markdown()
    assert "| `verish_ne_verish/rule` |" in text and "bluff_rate" in text and "Rank 2 of 2" in text
    data = json.loads(card.json_text())
    assert data["opponents"]["random"]["games"] == GAMES and data["exploitability"] is None
    again = evaluate(spec, GAME, games=GAMES, workers=1, out_dir=tmp_path / "runs", leaderboard_path=board)
    assert summary_json(again.overall) == summary_json(card.overall)  # the stored games, found again


def test_leaderboards_rank_rows_and_render(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leaderboard, "LEADERBOARDS", tmp_path / "boards")
    assert benchmark.main(["--leaderboard", "--game", GAME, "--games", "12", "--workers", "1",
                           "--out", str(tmp_path / "runs")]) == 0  # fmt: skip
    board = leaderboard.load(tmp_path / "boards" / "verish_ne_verish.json")
    assert board["rows"][0]["name"] == "verish_ne_verish/rule"
    assert {r["name"] for r in board["rows"]} == {"random", "verish_ne_verish/rule"}
    assert all(r["shipped"] and r["exploitability"]["deals"] >= 5 for r in board["rows"])  # the shipped table's
    assert "reduced budget: 12 games per opponent" in board["note"]
    page = (tmp_path / "boards" / "verish_ne_verish.md").read_text()
    assert "| 1 | `verish_ne_verish/rule` |" in page and "reduced budget" in page
    margins = [r["margin"]["value"] for r in board["rows"]]
    assert margins == sorted(margins, reverse=True) and leaderboard.rank(board, math.inf) == (1, 3)


def test_the_command_line_benchmarks_a_file_and_adds_it_to_a_local_board(tmp_path: Path) -> None:
    spec = f"{write_policy(tmp_path / 'user')}:PBluffer?p=0.3"
    board = tmp_path / "mine" / "board.json"
    command = [sys.executable, "-m", "cardenvs.experiments.benchmark", "--game", GAME, "--policy", spec,
               "--games", "12", "--workers", "1", "--out", str(tmp_path / "runs"), "--add-to", str(board),
               "--name", "my bluffer"]  # fmt: skip
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "## Score card" in out and "**overall**" in out and f"added to {board}" in out
    rows = leaderboard.load(board)["rows"]
    assert any(r["name"] == "my bluffer" and not r["shipped"] for r in rows)
    assert "`my bluffer` (local)" in board.with_suffix(".md").read_text()
    with pytest.raises(SystemExit, match="either --policy"):
        benchmark.main(["--game", GAME])


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_shipped_leaderboards_carry_the_exploitability_table(env_id: str) -> None:
    """Every shipped bot's row shows the lower bound measured in agents/benchmark/leaderboards/exploitability.json."""
    table = json.loads(leaderboard.EXPLOITABILITY.read_text())[env_id]
    board = leaderboard.load(leaderboard.default_path(env_id))
    assert leaderboard.with_exploitability(board) == board  # the stored board is up to date with the table
    for row in board["rows"]:
        bound = row["exploitability"]
        assert bound["value"] == table[row["spec"]]["lower_bound"]["value"] and bound["deals"] >= 5
        column = leaderboard._exploitability(bound)  # "≥ …" only where the interval lies above 0
        assert column in leaderboard.default_path(env_id).with_suffix(".md").read_text()


def test_a_local_row_without_a_measurement_keeps_no_bound() -> None:
    board = {"env_id": "cardenvs/kyuuri-v0", "rows": [{"spec": "mine.py:P", "exploitability": None}]}
    assert leaderboard.with_exploitability(board, {"cardenvs/kyuuri-v0": {}})["rows"][0]["exploitability"] is None


def test_a_shipped_bots_score_card_carries_its_exploitability_bound() -> None:
    bound = leaderboard.exploitability_bound("cardenvs/kyuuri-v0", "kyuuri/thrifty")
    assert bound is not None and bound["source"] == "kyuuri/rule" and bound["options"] == {"episode": "deal"}
    assert leaderboard.exploitability_bound("cardenvs/kyuuri-v0", "mine.py:P") is None


def test_every_leaderboard_cites_the_calibration_of_its_lower_bounds() -> None:
    root = Path(__file__).resolve().parents[1]
    docs = (root / "docs/exploitability.md").read_text()
    assert "## Calibration on small variants solved exactly" in docs
    boards = sorted((root / "agents/benchmark/leaderboards").glob("*.md"))
    assert len(boards) == 6
    for board in boards:
        assert "exploitability.md#calibration-on-small-variants-solved-exactly" in board.read_text(), board.name
