"""Tournaments and the benchmark through llm: against the scripted chat-completions server."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import cardenvs
from cardenvs.agents.tournament.runner import Tournament
from cardenvs.agents.tournament.storage import TournamentStore
from tests.llm.chat_server import chat_server

OPTIONS = {"episode": "deal"}


def _tournament(url: str, games: int) -> Tournament:
    return Tournament("kyuuri-v0", [f"llm=llm:m?base_url={url}", "random"], games=games, options=OPTIONS, seed=1)


def test_a_tournament_stores_every_exchange_and_counts_and_a_resumed_run_asks_nothing_again(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with chat_server("garbage", "correct", "illegal", "prose", "http500", "correct") as (url, script):
        first = _tournament(url, 4).run(db, workers=2)
        asked = len(script.requests)
        again = _tournament(url, 4).run(db, workers=2)
        assert again.played_now == 0 and len(script.requests) == asked
        more = _tournament(url, 8).run(db, workers=1)
        assert more.played_now == len(more.records) - len(first.records) > 0
    with TournamentStore(db) as store:
        exchanges = store.exchanges()
    assert len(exchanges) == len(script.requests) > 0
    outcomes = {e["outcome"] for e in exchanges}
    assert {"ok", "unparseable", "illegal", "error"} <= outcomes
    assert all(e["prompt"] for e in exchanges)
    llm_seats = [r.metrics[s] for r in more.records for s, label in enumerate(r.seats) if label == "llm"]
    assert sum(m["llm_requests"] for m in llm_seats) == len(exchanges)
    assert sum(m["llm_unparseable"] + m["llm_illegal"] + m["llm_errors"] for m in llm_seats) >= 3
    with sqlite3.connect(db) as raw:
        (games,) = raw.execute("SELECT COUNT(DISTINCT deal || '-' || seating) FROM llm_exchanges").fetchone()
    assert games == len(more.records)


def test_record_false_keeps_the_counts_but_stores_no_exchanges(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with chat_server("correct") as (url, script):
        spec = f"llm=llm:m?base_url={url}&record=false"
        result = Tournament("kyuuri-v0", [spec, "random"], games=2, options=OPTIONS).run(db)
    with TournamentStore(db) as store:
        assert store.exchanges() == []
    moves = sum(r.metrics[s]["llm_moves"] for r in result.records for s, label in enumerate(r.seats) if label == "llm")
    assert moves == len(script.requests) > 0


def test_the_benchmark_card_of_an_llm_player_reports_its_failure_rates_tokens_and_latency(tmp_path: Path) -> None:
    from cardenvs.agents.benchmark import evaluate

    with chat_server("correct", "garbage", "correct") as (url, script):
        card = evaluate(f"llm:m?base_url={url}", "kyuuri-v0", games=2, workers=1, out_dir=tmp_path)
    metrics = card.overall.metrics
    moves = sum(o.summary.games for o in card.opponents)
    assert moves > 0 and len(script.requests) > 0
    assert metrics["llm unparseable rate"].value == 1 / len(script.requests)
    assert metrics["llm retries per move"].value > 0
    assert metrics["llm prompt tokens per move"].value > 100  # one retry: a move asked twice
    assert metrics["llm fallback rate"].value == 0
    assert "llm seconds per move" in card.markdown()


def test_the_benchmark_command_prints_the_expected_cost_before_an_llm_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardenvs.experiments.benchmark import main

    with chat_server("correct") as (url, script):
        main(["--game", "kyuuri-v0", "--policy", f"llm:m?base_url={url}", "--games", "2", "--workers", "1",
              "--out", str(tmp_path)])  # fmt: skip
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("expected cost: about ") and "prompt tokens" in first
    moves = int(first.split("about ")[1].split()[0])
    assert 0.5 * len(script.requests) <= moves <= 2 * len(script.requests)  # one random game's length, roughly


def test_with_a_cache_a_game_played_again_is_answered_from_it_without_a_request(tmp_path: Path) -> None:
    cache = tmp_path / "replies.jsonl"
    with chat_server("garbage", "correct", "prose", "correct") as (url, script):
        spec = f"llm=llm:m?base_url={url}&cache={cache}&temperature=0.7"
        first = Tournament("kyuuri-v0", [spec, "random"], games=4, options=OPTIONS, seed=2).run(tmp_path / "a.sqlite")
        asked = len(script.requests)
        # The games lost (as if the run had been killed before storing them) and played again from their seeds:
        again = Tournament("kyuuri-v0", [spec, "random"], games=4, options=OPTIONS, seed=2).run(tmp_path / "b.sqlite")
    assert asked > 0 and len(script.requests) == asked
    def played(records: list) -> list:  # type: ignore[type-arg]
        return [(r.returns, [{k: v for k, v in m.items() if k != "llm_cached"} for m in r.metrics]) for r in records]

    assert played(again.records) == played(first.records)
    llm = [r.metrics[s] for r in again.records for s, label in enumerate(r.seats) if label == "llm"]
    assert sum(m["llm_cached"] for m in llm) == sum(m["llm_requests"] for m in llm) >= asked  # every one from the file
    assert len(cache.read_text().splitlines()) == asked


def test_a_damaged_cache_is_refused_naming_the_line(tmp_path: Path) -> None:
    from cardenvs.agents import make_policy
    from cardenvs.agents.specs import SpecError

    cache = tmp_path / "replies.jsonl"
    stored = '{"key": "k", "text": "1", "prompt_tokens": 1, "completion_tokens": 1, "seconds": 0.1}'
    cache.write_text(f"{stored}\nnot json\n")
    with pytest.raises(SpecError, match="line 2 is not a stored reply"):
        make_policy(f"llm:m?cache={cache}", cardenvs.make("kyuuri-v0"))
