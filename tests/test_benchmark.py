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
from cardenvs.agents.registry import POLICIES, ZOO
from cardenvs.agents.zoo import fitting_zoo_names, zoo_names
from cardenvs.experiments import benchmark
from cardenvs.registry import game_name
from tests.user_policies import write_policy

ROOT = Path(__file__).resolve().parents[1]
GAME = "verish_ne_verish-v0"
GAMES = 24
V1 = "gauntlet-v1"


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_every_game_has_a_v1_suite_with_random_and_every_rule_bot(env_id: str) -> None:
    suite = gauntlet(env_id, "gauntlet-v1")
    bots = {name for name, (game, _) in POLICIES.items() if game == game_name(env_id)}
    assert suite.opponents[0] == "random" and set(suite.opponents[1:]) == bots
    assert set(OPPONENTS_V1) == {game_name(i) for i in cardenvs.ENV_IDS}


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_the_leaderboard_rows_are_random_the_rule_bots_and_the_shipped_zoo_agents(env_id: str) -> None:
    bots = [name for name, (game, _) in POLICIES.items() if game == game_name(env_id)]
    rows = shipped_policies(env_id)
    zoo = rows[len(bots) + 1 :]
    assert rows[: len(bots) + 1] == ["random", *bots] and zoo == list(ZOO[game_name(env_id)].values())
    assert zoo[0] == fitting_zoo_names(env_id)[0] and set(zoo) <= set(zoo_names(env_id))  # the strongest first


def test_a_score_card_for_a_policy_file(tmp_path: Path) -> None:
    spec = f"{write_policy(tmp_path / 'user')}:PBluffer?p=0.5"
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"rows": [{"name": "x", "spec": "x", "margin": {"value": 5.0}}]}))
    card = evaluate(spec, GAME, suite=V1, games=GAMES, workers=1, out_dir=tmp_path / "runs", leaderboard_path=board)
    assert [row.opponent for row in card.opponents] == ["random", "verish_ne_verish/rule"]
    assert all(row.summary.games == GAMES for row in card.opponents) and card.overall.games == 2 * GAMES
    assert card.overall.margin.low <= card.overall.margin.value <= card.overall.margin.high
    assert {"bluff_rate", "challenge_precision", "challenge_recall"} <= set(card.overall.metrics)
    assert (card.rank, card.leaderboard_size) == (2, 2) and card.exploitability is None
    text = card.markdown()
    assert "| `verish_ne_verish/rule` |" in text and "bluff_rate" in text and "Rank 2 of 2" in text
    data = json.loads(card.json_text())
    assert data["opponents"]["random"]["games"] == GAMES and data["exploitability"] is None
    again = evaluate(spec, GAME, suite=V1, games=GAMES, workers=1, out_dir=tmp_path / "runs", leaderboard_path=board)
    assert summary_json(again.overall) == summary_json(card.overall)  # the stored games, found again


def test_leaderboards_rank_rows_and_render(tmp_path: Path) -> None:
    shipped = leaderboard.default_path(GAME).read_bytes()
    assert benchmark.main(["--leaderboard", "--game", GAME, "--games", "12", "--workers", "1",
                           "--out", str(tmp_path / "runs"), "--boards", str(tmp_path / "boards")]) == 0  # fmt: skip
    assert leaderboard.default_path(GAME).read_bytes() == shipped  # --boards: the shipped board is left alone
    board = leaderboard.load(tmp_path / "boards" / "verish_ne_verish.json")
    assert board["suite"] == "gauntlet-v2"
    assert [r["name"] for r in board["rows"]] == [r["name"] for r in board["rows"] if r["shipped"]]
    assert {r["name"] for r in board["rows"]} == {"random", "verish_ne_verish/rule", *zoo_names(GAME)}
    assert all(r["exploitability"]["deals"] >= 5 for r in board["rows"] if r["name"] in POLICIES)  # the table's
    assert "reduced budget: 12 games per opponent" in board["note"]
    page = (tmp_path / "boards" / "verish_ne_verish.md").read_text()
    assert "reduced budget" in page and "| `zoo:verish_ne_verish/truthful_ppo` |" in page
    assert board["opponents"] == gauntlet(GAME).described()
    for opponent in board["opponents"]:  # the page names every opponent with its style, above the table
        line = f"- `{opponent['name']}`"
        assert line in page and opponent["style"] in page and page.index(line) < page.index("| rank |")
        assert all(opponent["name"] in row["opponents"] for row in board["rows"])
    margins = [r["margin"]["value"] for r in board["rows"]]
    assert margins == sorted(margins, reverse=True) and leaderboard.rank(board, math.inf) == (1, len(board["rows"]) + 1)


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
        if row["spec"] not in table:  # a zoo agent the table has not measured yet
            assert bound is None and row["spec"].startswith("zoo:")
            continue
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
