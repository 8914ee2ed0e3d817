"""The same seeds give the same games in this process, in worker processes and on Ray."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardenvs.agents.tournament.runner import Tournament, TournamentResult

POLICIES = ["random", "rule=verish_ne_verish/rule", "cautious=py:tests.tournament.test_backends:cautious_bot"]


def cautious_bot(context: Any, seed: int | None) -> Any:
    """A differently tuned rule bot, loaded through a ``py:`` spec."""
    from cardenvs.agents.bots.verish_ne_verish import VerishRuleBot

    return VerishRuleBot(context, seed, challenge_threshold=0.9)


def tournament() -> Tournament:
    return Tournament("verish_ne_verish-v0", POLICIES, games=30, options={"num_players": 3}, seed=11, resamples=200)


def outcomes(result: TournamentResult) -> list[tuple[Any, ...]]:
    return [r.outcome() for r in result.records]


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> TournamentResult:
    return tournament().run(tmp_path_factory.mktemp("serial") / "t.sqlite", workers=1)


def test_worker_processes_match_this_process(serial: TournamentResult, tmp_path: Path) -> None:
    parallel = tournament().run(tmp_path / "t.sqlite", workers=2, chunk_size=2)
    assert len(serial.records) == 30
    assert outcomes(parallel) == outcomes(serial)
    assert parallel.ratings == serial.ratings
    assert parallel.stats.entrant_stats == serial.stats.entrant_stats


def test_ray_matches_this_process(serial: TournamentResult, tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = tournament().run(tmp_path / "t.sqlite", use_ray=True, chunk_size=3)
    finally:
        ray.shutdown()
    assert outcomes(on_ray) == outcomes(serial)
    assert on_ray.ratings == serial.ratings
