"""Leaderboards: per game and gauntlet version, every shipped bot (and any entries added locally) ranked by its
overall margin over the gauntlet's opponents. Stored as JSON (the data) with a Markdown rendering beside it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from agents.benchmark.card import ScoreCard
from cardenvs.registry import game_name

LEADERBOARDS = Path(__file__).resolve().parents[2] / "docs" / "leaderboards"
"""The leaderboards shipped with the repository (``docs/leaderboards/<game>.json`` and ``.md``)."""


def default_path(env_id: str) -> Path:
    return LEADERBOARDS / f"{game_name(env_id)}.json"


def load(path: str | Path) -> dict[str, Any]:
    """A leaderboard file (an empty board if there is none)."""
    path = Path(path)
    if not path.exists():
        return {"rows": []}
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def row_of(card: ScoreCard, name: str, shipped: bool) -> dict[str, Any]:
    """A leaderboard row from a score card."""
    data = card.to_json()
    return {
        "name": name,
        "spec": card.policy,
        "shipped": shipped,
        "fingerprint": card.fingerprint,
        "games": data["overall"]["games"],
        "margin": data["overall"]["margin"],
        "score": data["overall"]["score"],
        "win_rate": data["overall"]["win_rate"],
        "opponents": {opponent: row["margin"] for opponent, row in data["opponents"].items()},
        "exploitability": card.exploitability,
    }


def with_row(board: dict[str, Any], card: ScoreCard, row: dict[str, Any], note: str = "") -> dict[str, Any]:
    """``board`` with ``row`` added (replacing a row of the same name), sorted by margin, and the suite's facts."""
    if board.get("suite", card.suite) != card.suite or board.get("env_id", card.env_id) != card.env_id:
        board_is = f"{board.get('env_id')} {board.get('suite')}"
        raise ValueError(f"the leaderboard is for {board_is}, the card for {card.env_id} {card.suite}")
    rows = [r for r in board.get("rows", []) if r["name"] != row["name"]] + [row]
    rows.sort(key=lambda r: -_margin(r))
    return {
        "suite": card.suite,
        "env_id": card.env_id,
        "options": card.options,
        "note": note or board.get("note", ""),
        "rows": rows,
    }


def rank(board: dict[str, Any], margin: float) -> tuple[int, int]:
    """Place of a policy with ``margin`` among the board's rows (1 = best; the policy counted in) and the size."""
    margins = [_margin(r) for r in board.get("rows", [])]
    return 1 + sum(m > margin for m in margins), len(margins) + 1


def _margin(row: dict[str, Any]) -> float:
    value = row["margin"]["value"]
    return -math.inf if value is None else float(value)


def save(board: dict[str, Any], path: str | Path) -> tuple[Path, Path]:
    """Write the board as JSON and its Markdown beside it; returns both paths."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(board, indent=2, allow_nan=False) + "\n")
    markdown = path.with_suffix(".md")
    markdown.write_text(render(board))
    return path, markdown


def render(board: dict[str, Any]) -> str:
    """The board as a Markdown page."""
    rows = board.get("rows", [])
    opponents = list(rows[0]["opponents"]) if rows else []
    game = str(board.get("env_id", "")).split("/")[-1]
    players = (board.get("options") or {}).get("num_players")
    lines = [
        f"# Leaderboard: {game} ({board.get('suite', '')})",
        "",
        f"{players} players, the game's default rules. Ranked by the margin over the gauntlet's opponents (the "
        "policy's mean score per seat minus theirs, every game pooled), with 95% intervals over deals. "
        "Regenerate with `python -m experiments.benchmark --leaderboard --game " + game + "`; add your own policy "
        "to a copy with `--add-to`. See [Benchmark a strategy](../benchmark.md).",
        "",
    ]
    if board.get("note"):
        lines += [board["note"], ""]
    header = ["rank", "policy", "margin", "score", "win rate", *(f"vs `{o}`" for o in opponents), "exploitability"]
    lines += ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    for place, row in enumerate(rows, 1):
        cells = [
            str(place),
            f"`{row['name']}`" + ("" if row.get("shipped") else " (local)"),
            _text(row["margin"]),
            _text(row["score"]),
            _text(row["win_rate"]),
            *(_text(row["opponents"][o]) if o in row["opponents"] else "—" for o in opponents),
            "—" if not row.get("exploitability") else json.dumps(row["exploitability"]),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _text(interval: dict[str, Any]) -> str:
    value, low, high = interval["value"], interval["low"], interval["high"]
    if value is None:
        return "—"
    return f"{value:.3f} [{low:.3f}, {high:.3f}]" if low is not None else f"{value:.3f} [n/a]"
