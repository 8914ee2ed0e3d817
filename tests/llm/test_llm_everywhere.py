"""The llm: player (and the search: agent, which needs the same table) at the play table and as the policy
measured by experiments.exploitability, against the scripted chat-completions server."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.agents.llm import LlmPolicy
from cardenvs.experiments.play.server import TableServer
from cardenvs.experiments.play.session import PlaySession, TableSettings
from tests.llm.chat_server import chat_server
from tests.play.clients import page_client, play_to_the_end

OPTIONS = {"num_players": 3, "episode": "deal"}


@pytest.mark.parametrize("spec", ["llm:table-model?base_url={url}", "search:?simulations=8"])
def test_an_opponent_that_needs_the_table_plays_games_to_the_end_and_a_rematch(spec: str) -> None:
    with chat_server("prose", "correct") as (url, script):
        settings = TableSettings("kyuuri-v0", OPTIONS, seat=0, opponents=[spec.format(url=url)], seed=3)
        session = PlaySession(settings)
        client = page_client(TableServer(session, pace_ms=0))
        rng = np.random.default_rng(0)
        first = play_to_the_end(client, rng)
        assert first["failure"] is None and first["moves"] == []
        asked = len(script.requests)
        client.post("/api/rematch", json={"version": first["version"]})
        second = play_to_the_end(client, rng)
        assert second["failure"] is None  # the rematch's new game is handed to the bots again
    if spec.startswith("llm:"):  # both games asked the model, and every reply named a move
        assert 0 < asked < len(script.requests)
        players = [session.policies[s] for s in session.specs]
        assert all(isinstance(p, LlmPolicy) for p in players)
        counts = [p.game_metrics() for p in players if isinstance(p, LlmPolicy)]
        assert sum(c["llm_moves"] for c in counts) > 0 and sum(c["llm_fallbacks"] for c in counts) == 0


def test_the_exploitability_command_measures_an_llm_policy(capsys: pytest.CaptureFixture[str]) -> None:
    from cardenvs.experiments.exploitability import main

    with chat_server("correct", "garbage", "correct") as (url, script):
        spec = f"llm:exploited?base_url={url}"
        code = main(["--game", "kyuuri-v0", "--policy", spec, "--budget", "smoke", "--deals", "2",
                     "--max-moves", "2", "--rollout", "random", "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith(f"lbr exploitability of {spec} on cardenvs/kyuuri-v0")
    assert "2 deals" in out and '"rollouts": ' in out
    assert len(script.requests) > 0
