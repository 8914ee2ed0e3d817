"""The language-model player: each move, the seat's prompt (:mod:`cardenvs.text`) goes to a chat-completions
server and the reply is read back into a legal move.

Failure modes are bounded and counted: an unparseable or illegal reply is answered with what was wrong and
asked again, a failed request (HTTP error, garbage body) is asked again, up to ``max_retries`` further requests
within ``move_seconds`` for the whole move; then the move is a random legal one (the fallback, counted).
The prompt is written from a world the seat cannot tell from the true one (the search agents' information sets),
so the model sees exactly what the seat may know.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.llm.cache import ReplyCache
from cardenvs.agents.llm.client import ChatClient, ChatError, ChatTimeout, Completion
from cardenvs.agents.llm.settings import LlmSettings
from cardenvs.agents.search.information import InformationSets
from cardenvs.agents.tournament.metrics import Ratio
from cardenvs.core.views import PublicView
from cardenvs.text import SeatPrompt, TextMove, parse_reply, seat_prompt

LLM_RATIOS = tuple(
    Ratio(name, f"llm_{numerator}", f"llm_{denominator}", description)
    for name, numerator, denominator, description in (
        ("llm unparseable rate", "unparseable", "requests", "replies that named no move, per request"),
        ("llm illegal rate", "illegal", "requests", "replies that named a move not legal now, per request"),
        ("llm error rate", "errors", "requests", "requests that failed (HTTP error, not a completion)"),
        ("llm retries per move", "retries", "moves", "requests after the first, per move"),
        ("llm fallback rate", "fallbacks", "moves", "moves played at random after every request failed"),
        ("llm timeouts per move", "timeouts", "moves", "moves that ran past move_seconds"),
        ("llm prompt tokens per move", "prompt_tokens", "moves", "as the server counted them"),
        ("llm completion tokens per move", "completion_tokens", "moves", "as the server counted them"),
        ("llm seconds per move", "seconds", "moves", "waiting for replies"),
    )
)
"""What the tournament reports for an ``llm:`` entrant (ratios of the per-game counters)."""

COUNTERS = ("moves", "requests", "cached", "retries", "unparseable", "illegal", "errors", "timeouts", "fallbacks")
"""What every game counts per seat (as ``llm_<name>`` metrics), with ``llm_prompt_tokens``,
``llm_completion_tokens`` and ``llm_seconds``."""


class LlmPolicy(Policy):
    """Plays a seat by asking a language model for each complete move (see the module docstring)."""

    wants_public_view = True

    def __init__(self, context: PolicyContext, settings: LlmSettings, seed: int | None = None):
        super().__init__(context, seed)
        self.settings = settings
        self.name = f"llm:{settings.model}"
        self.client = ChatClient(settings.base_url, settings.model, settings.api_key_env)
        self.instructions = settings.instructions()
        self.cache = ReplyCache(settings.cache) if settings.cache else None
        self.seed = seed
        self._tables: InformationSets | None = None
        self.plan: list[int] = []
        self.counts: Counter[str] = Counter()
        self.seconds = 0.0
        """This game's time waiting for replies."""
        self.exchanges: list[dict[str, Any]] = []
        """This game's requests: seat, move number, attempt, the last message sent, reply, outcome, tokens, seconds."""

    def sit(self, tables: InformationSets) -> None:
        self._tables = tables

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.seed = seed if seed is not None else self.seed
        self.plan, self.counts, self.exchanges, self.seconds = [], Counter(), [], 0.0

    def game_metrics(self) -> dict[str, float]:
        """This game's counters (``llm_moves``, ``llm_retries``, … ``llm_seconds``), for the tournament."""
        counts = {f"llm_{k}": float(self.counts[k]) for k in (*COUNTERS, "prompt_tokens", "completion_tokens")}
        return {**counts, "llm_seconds": self.seconds}

    def act(self, observation: Mapping[str, np.ndarray], view: PublicView | None = None) -> int:
        if self.plan and observation["action_mask"][self.plan[0]]:
            return self.plan.pop(0)
        if self._tables is None or view is None:
            raise RuntimeError(
                f"{self.name} needs the table and its view: a game loop hands them over with agents.play.seat_policies"
            )
        prompt = seat_prompt(self.context.env_id, self._tables.sample(self.rng), view.seat, view.to_list())
        move = self._ask(prompt, view.seat)
        self.plan = list(move.actions[1:])
        return move.actions[0]

    def _ask(self, prompt: SeatPrompt, seat: int) -> TextMove:
        self.counts["moves"] += 1
        messages = [
            {"role": "system", "content": "\n\n".join(p for p in (self.instructions, prompt.rules) if p)},
            {"role": "user", "content": prompt.situation},
        ]
        deadline = time.perf_counter() + self.settings.move_seconds
        for attempt in range(1 + self.settings.max_retries):
            left = deadline - time.perf_counter()
            if left <= 0:
                self.counts["timeouts"] += 1
                break
            self.counts["requests"] += 1
            self.counts["retries"] += attempt > 0
            answer = self._request(messages, left, prompt)
            self._record(seat, attempt, messages[-1]["content"], answer)
            if answer.move is not None:
                return answer.move
            if answer.outcome == "timeout":
                break
            if answer.completion is not None:
                correction = f"That is not a legal move ({answer.detail}). Answer with one legal move."
                messages = [
                    *messages,
                    {"role": "assistant", "content": answer.completion.text},
                    {"role": "user", "content": correction},
                ]
        self.counts["fallbacks"] += 1
        return prompt.moves[int(self.rng.integers(len(prompt.moves)))]

    def _request(self, messages: list[dict[str, str]], left: float, prompt: SeatPrompt) -> Answer:
        settings = self.settings
        request = {"model": settings.model, "temperature": settings.temperature, "max_tokens": settings.max_tokens,
                   "seed": self.seed, "move": self.counts["moves"], "messages": messages}  # fmt: skip
        key = ReplyCache.key(request)
        completion = None if self.cache is None else self.cache.get(key)
        if completion is not None:
            self.counts["cached"] += 1
        else:
            try:
                completion = self.client.complete(messages, settings.temperature, settings.max_tokens, left)
            except ChatTimeout as error:
                self.counts["timeouts"] += 1
                return Answer("timeout", str(error))
            except ChatError as error:
                self.counts["errors"] += 1
                return Answer("error", str(error))
            if self.cache is not None:
                self.cache.add(key, completion)
        self.counts["prompt_tokens"] += completion.prompt_tokens
        self.counts["completion_tokens"] += completion.completion_tokens
        self.seconds += completion.seconds
        parsed = parse_reply(completion.text, prompt.moves, prompt.listed)
        if parsed.move is None:
            self.counts[parsed.status] += 1
        return Answer(parsed.status, parsed.reason, completion, parsed.move)

    def _record(self, seat: int, attempt: int, prompt: str, answer: Answer) -> None:
        if not self.settings.record:
            return
        completion = answer.completion
        self.exchanges.append(
            {
                "seat": seat,
                "move": self.counts["moves"],
                "attempt": attempt,
                "prompt": prompt,
                "reply": None if completion is None else completion.text,
                "outcome": answer.outcome,
                "detail": answer.detail,
                "prompt_tokens": 0 if completion is None else completion.prompt_tokens,
                "completion_tokens": 0 if completion is None else completion.completion_tokens,
                "seconds": 0.0 if completion is None else round(completion.seconds, 4),
            }
        )


@dataclass(frozen=True)
class Answer:
    """One request's result: ``ok``, ``illegal``, ``unparseable``, ``error`` or ``timeout``, with why."""

    outcome: str
    detail: str
    completion: Completion | None = None
    move: TextMove | None = None
