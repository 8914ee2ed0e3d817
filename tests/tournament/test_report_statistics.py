"""What the report says about its statistics: floored intervals, Holm verdicts, which kind of interval it prints,
the forecast's range and the games to detect a difference; and the notice when a finished tournament is extended."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.agents.tournament import Tournament
from cardenvs.agents.tournament.ratings import rate_games
from cardenvs.agents.tournament.report import build_sections, markdown_text, render_markdown
from cardenvs.agents.tournament.stats import TournamentStats, analyse
from cardenvs.agents.tournament.worker import GameRecord

SETTINGS = {"entrants": [], "env_id": "kyuuri-v0", "options": {}, "scheme": "auto", "slots": [], "seed": 0}


def _records(rng: np.random.Generator, deals: int, edge: float = 0.0) -> list[GameRecord]:
    """Three entrants at three seats, one seating per deal; A's score is shifted by ``edge``."""
    records = []
    for d in range(deals):
        returns = [float(x) for x in rng.normal(0.0, 1.0, 3) + np.array([edge, 0.0, 0.0])]
        places = [1.0 + sum(r > mine for r in returns) for mine in returns]
        records.append(GameRecord(d, 0, 0, ["A", "B", "C"], returns, places, False, 1, [{}, {}, {}]))
    return records


def _markdown(stats: TournamentStats, records: list[GameRecord]) -> str:
    return render_markdown("t", build_sections(stats, rate_games(records, stats.entrants), SETTINGS, {}))


def test_verdicts_are_holm_adjusted_and_intervals_stay_unadjusted() -> None:
    for seed in range(300):
        records = _records(np.random.default_rng(seed), 12)
        stats = analyse(records, ["A", "B", "C"])
        raw = [pair for pair, e in stats.differences.items() if e.excludes_zero]
        if raw and not any(stats.separated(*pair) for pair in raw):
            break
    else:
        raise AssertionError("no tournament with an unadjusted separation that Holm withdraws")
    a, b = raw[0]
    text = _markdown(stats, records)
    assert "| p (Holm) | verdict (Holm) |" in text
    first, second = (a, b) if stats.ranked().index(a) < stats.ranked().index(b) else (b, a)
    row = next(line for line in text.splitlines() if line.startswith(f"| {first} − {second} |"))
    assert markdown_text(stats.difference(first, second).text()) in row and row.endswith("| not separated |")


def test_the_report_says_which_kind_of_interval_it_prints() -> None:
    records = _records(np.random.default_rng(1), 20, edge=1.0)
    fixed = _markdown(analyse(records, ["A", "B", "C"]), records)
    anytime = _markdown(analyse(records, ["A", "B", "C"], method="sequence"), records)
    assert "fixed in advance" in fixed and "--interval sequence" in fixed
    assert "anytime-valid confidence sequences" in anytime and "hold at every number of games" in anytime
    assert "1/√games" not in fixed and "over the deals both played" not in fixed
    assert "| policy | score interval width now | games for width 0.1 | 80% range |" in fixed
    assert "games to detect ±0.1" in fixed


def test_floored_intervals_are_marked() -> None:
    records = [
        GameRecord(
            d, s, 0, seats, [1.0 if seat == "T" else -0.5 for seat in seats], [1.0, 2.5, 2.5], False, 1, [{}] * 3
        )
        for d in range(10)
        for s, seats in enumerate((["T", "R", "R"], ["R", "T", "R"], ["R", "R", "T"]))
    ]
    stats = analyse(records, ["T", "R"])
    text = _markdown(stats, records)
    assert markdown_text(f"{stats.entrant_stats['R'].score.text()} †") in text and "boundary floor" in text
    assert markdown_text("[-0.500, -0.500]") not in text and markdown_text("[0.000, 0.000]") not in text


def test_extending_a_finished_tournament_says_which_intervals_it_prints(tmp_path: Path) -> None:
    def run(games: int, interval: str) -> list[str]:
        t = Tournament("kyuuri-v0", ["random", "kyuuri/rule"], games, KYUURI_DEAL, interval=interval)  # type: ignore[arg-type]
        return t.run(tmp_path / "t.sqlite").notices

    assert run(6, "t") == []
    extended = run(12, "t")
    assert any("extended a finished tournament of 6 games to 12" in n and "--interval sequence" in n for n in extended)
    assert any("anytime-valid" in n for n in run(18, "sequence"))


KYUURI_DEAL = {"num_players": 3, "episode": "deal"}
