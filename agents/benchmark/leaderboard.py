"""Leaderboards: per game and gauntlet version, every shipped bot (and any entries added locally) ranked by its
overall margin over the gauntlet's opponents. Stored as JSON (the data) with a Markdown rendering beside it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from cardenvs.agents.benchmark.card import ScoreCard
from cardenvs.agents.benchmark.suites import SUITE, gauntlet, rules_text
from cardenvs.agents.exploitability.verdict import verdict_text
from cardenvs.registry import game_name

LEADERBOARDS = Path(__file__).resolve().with_name("leaderboards")
"""The shipped leaderboards, package data (``agents/benchmark/leaderboards/<game>.json`` and ``.md``)."""


EXPLOITABILITY = LEADERBOARDS / "exploitability.json"
"""The shipped bots' exploitability table (``python -m cardenvs.experiments.exploitability --table``)."""


def default_path(env_id: str, suite: str = SUITE, folder: str | Path | None = None) -> Path:
    """Where a game's board of ``suite`` lives: ``<game>.json`` for the default version, ``<game>-<suite>.json``
    for another, in ``folder`` (default: the shipped boards)."""
    name = game_name(env_id) + ("" if suite == SUITE else f"-{suite}")
    return Path(folder or LEADERBOARDS) / f"{name}.json"


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
    """``board`` with ``row`` added (replacing a row of the same name), sorted by margin, and the suite's facts
    (its opponents with their style lines among them)."""
    if board.get("suite", card.suite) != card.suite or board.get("env_id", card.env_id) != card.env_id:
        board_is = f"{board.get('env_id')} {board.get('suite')}"
        raise ValueError(f"the leaderboard is for {board_is}, the card for {card.env_id} {card.suite}")
    rows = [r for r in board.get("rows", []) if r["name"] != row["name"]] + [row]
    rows.sort(key=lambda r: -_margin(r))
    return {
        "suite": card.suite,
        "env_id": card.env_id,
        "options": card.options,
        "suite_options": card.suite_options,
        "note": note or board.get("note", ""),
        "opponents": gauntlet(card.env_id, card.suite).described(),
        "rows": rows,
    }


def options_differing(board: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
    """The board's values of the options its suite now sets otherwise (``chosen``): games of another game, which
    no card of the suite is ranked against (empty where the board agrees, or holds no options)."""
    played = board.get("options") or {}
    return {key: played[key] for key, value in chosen.items() if key in played and played[key] != value}


def rank(board: dict[str, Any], margin: float) -> tuple[int, int]:
    """Place of a policy with ``margin`` among the board's rows (1 = best; the policy counted in) and the size."""
    margins = [_margin(r) for r in board.get("rows", [])]
    return 1 + sum(m > margin for m in margins), len(margins) + 1


def _margin(row: dict[str, Any]) -> float:
    value = row["margin"]["value"]
    return -math.inf if value is None else float(value)


def exploitability_bound(env_id: str, spec: str, table: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The shipped table's lower bound on ``spec``'s exploitability in ``env_id`` (the larger of the local best
    response's gain and the best gauntlet responder's, with its interval, budget and game options), if measured."""
    if table is None:
        table = json.loads(EXPLOITABILITY.read_text()) if EXPLOITABILITY.exists() else {}
    entry = table.get(env_id, {}).get(spec)
    if entry is None:
        return None
    return {
        **entry["lower_bound"],
        "budget": entry["budget_name"],
        "deals": entry["deals"],
        "options": entry["options"],
    }


def with_exploitability(board: dict[str, Any], table: dict[str, Any] | None = None) -> dict[str, Any]:
    """``board`` with each row that the exploitability table measured given its bound (:func:`exploitability_bound`)."""
    env_id = str(board.get("env_id"))
    rows = []
    for row in board.get("rows", []):
        bound = exploitability_bound(env_id, row["spec"], table)
        rows.append(row if bound is None else {**row, "exploitability": bound})
    return {**board, "rows": rows}


def save(board: dict[str, Any], path: str | Path) -> tuple[Path, Path]:
    """Write the board, with the exploitability bounds of its measured rows (:func:`with_exploitability`), as JSON
    and its Markdown beside it; returns both paths."""
    board = with_exploitability(board)
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
    rules = rules_text(board.get("suite_options") or {})
    budgets = sorted({str(r["exploitability"]["budget"]) for r in rows if r.get("exploitability")})
    lines = [
        f"# Leaderboard: {game} ({board.get('suite', '')})",
        "",
        f"{players} players, {rules}. Ranked by the margin over the gauntlet's opponents (the "
        "policy's mean score per seat minus theirs, every game pooled), with 95% intervals over deals. "
        "Regenerate with `python -m cardenvs.experiments.benchmark --leaderboard --game " + game + "`; add your own "
        "policy to a copy with `--add-to`. See [Benchmark a strategy](../../../docs/benchmark.md). Exploitability: the "
        "stronger of two gains over the policy's self-play, a local best response's and the best gauntlet "
        "responder's (see [exploitability](../../../docs/exploitability.md)), measured at the "
        f"{' and '.join(budgets) or 'named'} budget, on one-deal episodes where named; `≥` marks a lower bound "
        "shown by an interval above 0, anything else is not shown exploitable at that budget. How much of the true "
        "value such a bound finds was measured on small variants solved exactly (59–98% for most policies, as "
        "little as 18% for one rule bot): see [the calibration]"
        "(../../../docs/exploitability.md#calibration-on-small-variants-solved-exactly).",
        "",
    ]
    if board.get("note"):
        lines += [board["note"], ""]
    if board.get("opponents"):
        lines += ["Opponents:", "", *(_opponent_line(o) for o in board["opponents"]), ""]
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
            _exploitability(row.get("exploitability")),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _opponent_line(opponent: dict[str, str]) -> str:
    """``- `label`: style`` (with the spec where the label is not one)."""
    spec = "" if opponent["spec"] == opponent["name"] else f" (`{opponent['spec']}`)"
    return f"- `{opponent['name']}`{spec}: {opponent['style']}"


def _exploitability(bound: dict[str, Any] | None) -> str:
    """``≥ value [low, high] (source; options)`` where the interval shows a lower bound, else "not shown
    exploitable at this budget" with the interval (:mod:`agents.exploitability.verdict`)."""
    if not bound:
        return "—"
    options = ", ".join(f"{k}={v}" for k, v in (bound.get("options") or {}).items())
    where = bound["source"] + (f"; {options}" if options else "")
    return f"{verdict_text(bound['value'], bound['low'], bound['high'])} ({where})"


def _text(interval: dict[str, Any]) -> str:
    value, low, high = interval["value"], interval["low"], interval["high"]
    if value is None:
        return "—"
    return f"{value:.3f} [{low:.3f}, {high:.3f}]" if low is not None else f"{value:.3f} [n/a]"
