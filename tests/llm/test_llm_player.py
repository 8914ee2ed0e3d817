"""The llm: player against a real chat-completions server on 127.0.0.1 (tests/llm/chat_server.py)."""

from __future__ import annotations

import pytest

import cardenvs
from cardenvs.agents import make_policy
from cardenvs.agents.llm import LlmPolicy
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import SpecError
from tests.llm.chat_server import chat_server

GAME = "kyuuri-v0"
OPTIONS = {"episode": "deal"}


def _play(base_url: str, params: str = "", game: str = GAME, **options: object) -> LlmPolicy:
    env = cardenvs.make(game, **(options or OPTIONS))
    llm = make_policy(f"llm:test-model?base_url={base_url}{params}", env)
    assert isinstance(llm, LlmPolicy)
    seats = len(env.unwrapped.possible_agents)
    result = play_episode(env, [llm, *(make_policy("random", env) for _ in range(seats - 1))], seed=5)
    assert not result.truncated
    return llm


@pytest.mark.parametrize("kind", ["correct", "written", "prose"])
def test_replies_naming_a_legal_move_are_played_without_retries(kind: str) -> None:
    with chat_server(kind) as (url, script):
        llm = _play(url)
    counts = llm.game_metrics()
    assert counts["llm_moves"] >= 1 and counts["llm_requests"] == counts["llm_moves"] == len(script.requests)
    assert counts["llm_retries"] == counts["llm_fallbacks"] == counts["llm_illegal"] == 0
    assert counts["llm_prompt_tokens"] == 100 * counts["llm_requests"]
    assert counts["llm_completion_tokens"] == 7 * counts["llm_requests"]
    assert all(e["outcome"] == "ok" for e in llm.exchanges)


@pytest.mark.parametrize(
    ("kind", "counter"),
    [("garbage", "unparseable"), ("illegal", "illegal"), ("http500", "errors"), ("not_json", "errors")],
)
def test_failing_replies_are_retried_then_a_random_legal_move_is_played(kind: str, counter: str) -> None:
    with chat_server(kind) as (url, script):
        llm = _play(url, "&max_retries=2")
    c = llm.game_metrics()
    assert c["llm_requests"] == 3 * c["llm_moves"] == len(script.requests)
    assert c["llm_retries"] == 2 * c["llm_moves"]
    assert c[f"llm_{counter}"] == c["llm_requests"]
    assert c["llm_fallbacks"] == c["llm_moves"]


def test_an_illegal_reply_is_answered_with_the_reason_and_the_next_reply_counts() -> None:
    with chat_server("illegal", "correct") as (url, script):
        llm = _play(url)
    c = llm.game_metrics()
    assert c["llm_illegal"] == 1 and c["llm_retries"] == 1 and c["llm_fallbacks"] == 0
    retry = script.requests[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "999"}
    assert "not a listed move number" in retry[-1]["content"]


def test_a_slow_server_hits_the_move_time_limit_and_the_move_falls_back() -> None:
    with chat_server("slow", "correct", slow_seconds=2.0) as (url, script):
        llm = _play(url, "&move_seconds=0.3")
    c = llm.game_metrics()
    assert c["llm_timeouts"] >= 1 and c["llm_fallbacks"] == 1
    assert c["llm_requests"] == c["llm_moves"] == len(script.requests)
    assert llm.exchanges[0]["outcome"] == "timeout"


def test_the_key_comes_from_the_named_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_TEST_KEY", "sk-secret-123")
    with chat_server("correct") as (url, script):
        llm = _play(url, "&api_key_env=MY_TEST_KEY")
    assert script.headers[0]["Authorization"] == "Bearer sk-secret-123"
    assert "sk-secret-123" not in repr(llm.settings) + repr(llm.exchanges)


def test_every_game_is_playable_by_the_llm_player() -> None:
    with chat_server("correct") as (url, _):
        for env_id in cardenvs.ENV_IDS:
            env = cardenvs.make(env_id)
            llm = make_policy(f"llm:m?base_url={url}", env)
            seats = len(env.unwrapped.possible_agents)
            result = play_episode(env, [llm] + [make_policy("random", env)] * (seats - 1), seed=1)
            assert not result.truncated and llm.game_metrics()["llm_fallbacks"] == 0, env_id  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("llm:", "name the model"),
        ("llm:m?colour=red", "unknown parameter 'colour'"),
        ("llm:m?temperature=warm", "temperature must be a number"),
        ("llm:m?base_url=ftp://x", "base_url must start with http"),
        ("llm:m?max_retries=-1", "max_retries must be >= 0"),
        ("llm:m?record=maybe", "record must be true or false"),
        ("llm:m?prompt=/no/such/file.txt", "prompt file /no/such/file.txt not found"),
    ],
)
def test_bad_llm_specs_name_the_problem(spec: str, problem: str) -> None:
    with pytest.raises(SpecError, match=problem):
        make_policy(spec, cardenvs.make(GAME))
