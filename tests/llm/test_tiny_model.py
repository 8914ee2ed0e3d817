"""One full game through ``llm:`` against a real (tiny, randomly initialised) language model served on 127.0.0.1.

The model and its character tokenizer are built here from nothing (no download); the server runs ``generate``
on every prompt, so the whole path from prompt to parsed move meets real model output, however poor.
"""

from __future__ import annotations

import string
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch", reason="the train extra is not installed")
transformers = pytest.importorskip("transformers", reason="the dev extra is not installed")
tokenizers = pytest.importorskip("tokenizers", reason="the dev extra is not installed")

from cardenvs.agents.tournament.runner import Tournament  # noqa: E402
from cardenvs.agents.tournament.storage import TournamentStore  # noqa: E402
from tests.llm.chat_server import chat_server  # noqa: E402

CONTEXT = 128
"""Prompt tokens the model sees: the prompt's tail (its legal moves), to keep the test fast."""
NEW_TOKENS = 3
OPTIONS = {"episode": "deal", "num_players": 2}


class TinyModel:
    """A one-layer GPT-2 over printable characters with random weights, answering chat requests greedily."""

    def __init__(self, seed: int = 0) -> None:
        torch.manual_seed(seed)
        chars = ["?", *sorted(set(string.printable) - set("\t\r\x0b\x0c"))]
        self.tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel({c: i for i, c in enumerate(chars)}, "?"))
        self.tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Split(tokenizers.Regex("."), "isolated")
        self.tokenizer.decoder = tokenizers.decoders.Fuse()
        config = transformers.GPT2Config(
            vocab_size=len(chars),
            n_positions=CONTEXT + NEW_TOKENS,
            n_layer=1,
            n_head=2,
            n_embd=32,
            bos_token_id=0,
            eos_token_id=0,
        )
        self.model = transformers.GPT2LMHeadModel(config).eval()
        self.lock = threading.Lock()
        self.generated: list[str] = []

    def __call__(self, body: dict[str, Any]) -> tuple[str, int, int]:
        prompt = "\n\n".join(message["content"] for message in body["messages"])
        ids = self.tokenizer.encode(prompt).ids[-CONTEXT:]
        new = min(NEW_TOKENS, int(body["max_tokens"]))
        with self.lock, torch.no_grad():
            out = self.model.generate(
                torch.tensor([ids]), max_new_tokens=new, min_new_tokens=new, do_sample=False, pad_token_id=0
            )
            text = self.tokenizer.decode(out[0, len(ids) :].tolist())
            self.generated.append(text)
        return text, len(ids), new


@pytest.fixture
def one_thread() -> Iterator[None]:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_a_full_game_against_a_tiny_random_model_is_played_asked_and_counted(tmp_path: Path, one_thread: None) -> None:
    model = TinyModel()
    db = tmp_path / "t.sqlite"
    with chat_server("model", model=model) as (url, script):
        spec = f"llm=llm:tiny?base_url={url}&max_retries=1"
        result = Tournament("kyuuri-v0", [spec, "random"], games=1, options=OPTIONS, seed=3).run(db)
    with TournamentStore(db) as store:
        exchanges = store.exchanges()
    llm = [r.metrics[s] for r in result.records for s, label in enumerate(r.seats) if label == "llm"]
    assert len(llm) == len(result.records) == 2  # the deal, played from each seat
    metrics = {name: sum(m[name] for m in llm) for name in llm[0]}
    assert len(model.generated) == len(script.requests) == len(exchanges) == metrics["llm_requests"] > 0
    assert sorted(e["reply"] for e in exchanges) == sorted(model.generated)  # every reply stored as written
    outcomes = Counter(e["outcome"] for e in exchanges)
    assert set(outcomes) <= {"ok", "unparseable", "illegal"}  # a real model's replies: never a failed request
    assert metrics["llm_unparseable"] == outcomes["unparseable"] and metrics["llm_illegal"] == outcomes["illegal"]
    assert metrics["llm_errors"] == metrics["llm_timeouts"] == 0
    moves: dict[tuple[int, int, int], list[str]] = {}
    for e in exchanges:
        moves.setdefault((e["seating"], e["seat"], e["move"]), []).append(e["outcome"])
    assert metrics["llm_moves"] == len(moves) and metrics["llm_retries"] == len(exchanges) - len(moves)
    assert metrics["llm_fallbacks"] == sum("ok" not in tries for tries in moves.values())  # every try failed
    assert metrics["llm_fallbacks"] > 0  # random weights do not play cards: seed 0 never names a move
    assert all(len(tries) == 2 or tries[-1] == "ok" for tries in moves.values())  # max_retries=1
    assert metrics["llm_completion_tokens"] == NEW_TOKENS * len(exchanges)
    assert metrics["llm_prompt_tokens"] == sum(e["prompt_tokens"] for e in exchanges) <= CONTEXT * len(exchanges)
