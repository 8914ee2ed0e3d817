"""Benchmark a strategy: a policy from anywhere against a game's versioned gauntlet, as a score card with its
rank on the leaderboard. See ``docs/benchmark.md``.

>>> from cardenvs.agents.benchmark import evaluate
>>> card = evaluate("mybluff.py:PBluffer?p=0.3", "verish_ne_verish-v0")
>>> print(card.markdown())
"""

from __future__ import annotations

import time
from pathlib import Path

from cardenvs.agents.benchmark import leaderboard
from cardenvs.agents.benchmark.card import OpponentRow, ScoreCard
from cardenvs.agents.benchmark.scoring import POLICY, Summary, pooled, summarise
from cardenvs.agents.benchmark.suites import SUITE, SUITES, Gauntlet, gauntlet, shipped_policies
from cardenvs.agents.tournament.runner import DEFAULT_MOVE_TIMEOUT, TournamentResult

DEFAULT_OUT = Path("runs", "benchmark")


def evaluate(
    policy: str,
    env_id: str,
    *,
    suite: str = SUITE,
    games: int | None = None,
    workers: int = 2,
    out_dir: str | Path = DEFAULT_OUT,
    leaderboard_path: str | Path | None = None,
    progress: bool = False,
    move_timeout: float | None = DEFAULT_MOVE_TIMEOUT,
) -> ScoreCard:
    """Play ``policy`` (any spec, see :mod:`agents.specs`) through the gauntlet of ``env_id`` and return its
    score card, ranked on the leaderboard at ``leaderboard_path`` (default: the shipped one of the game).

    ``suite``: the gauntlet version (:data:`~agents.benchmark.suites.SUITES`). ``games`` overrides the suite's
    games per opponent (the card says how many it played). Games are stored under ``out_dir`` and found again by
    the next call with the same code (an edited policy plays anew).
    ``move_timeout``: seconds a policy may think over a move; a failing game stops the gauntlet with
    :class:`~agents.tournament.faults.TournamentStopped` (its fault stored with the games)."""
    suite_games = gauntlet(env_id, suite)
    start = time.perf_counter()
    results = suite_games.play(policy, out_dir, games, workers, progress, move_timeout)
    card = score_card(suite_games, policy, results, games)
    card.seconds = time.perf_counter() - start
    board_path = leaderboard_path or leaderboard.default_path(env_id, suite)
    board = leaderboard.load(board_path)
    same_suite = board.get("suite", suite) == suite  # a board of another version ranks nothing here
    others = {**board, "rows": [r for r in board.get("rows", []) if r["spec"] != policy and same_suite]}
    card.exploitability = leaderboard.exploitability_bound(suite_games.env_id, policy)
    stale = leaderboard.options_differing(board, suite_games.options)
    if same_suite and stale:
        card.notices.append(f"not ranked: the leaderboard {board_path} was played with {stale}, this gauntlet plays "
                            f"{suite_games.options}; regenerate it (--leaderboard) to rank against it")  # fmt: skip
        return card
    card.rank, card.leaderboard_size = leaderboard.rank(others, card.overall.margin.value)
    return card


def score_card(
    suite: Gauntlet, policy: str, results: dict[str, TournamentResult], games: int | None = None
) -> ScoreCard:
    """The card of a played gauntlet (``results`` by opponent, from :meth:`Gauntlet.play`)."""
    rows = [OpponentRow(opponent, summarise(r.tournament, r.records)) for opponent, r in results.items()]
    first = next(iter(results.values()))
    overall: Summary = summarise(first.tournament, pooled([r.records for r in results.values()]))
    fingerprint = next(e.fingerprint for e in first.tournament.entrants if e.label == POLICY)
    notices = [notice for r in results.values() for notice in r.notices]
    options = first.tournament.resolved_options
    card = ScoreCard(policy, suite.env_id, suite.version, options, fingerprint, overall, rows, notices=notices)
    card.suite_options = dict(suite.options)
    card.games_per_opponent = games or suite.games
    return card


__all__ = [
    "DEFAULT_OUT",
    "SUITE",
    "SUITES",
    "Gauntlet",
    "ScoreCard",
    "evaluate",
    "gauntlet",
    "leaderboard",
    "score_card",
    "shipped_policies",
]
