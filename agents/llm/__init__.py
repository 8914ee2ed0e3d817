"""The ``llm:`` player: a language model behind an OpenAI-compatible chat-completions server plays a seat.

``llm:<model>?base_url=…&temperature=…&max_retries=…&move_seconds=…&prompt=…&api_key_env=…&record=…``
(:class:`~agents.llm.settings.LlmSettings` lists every parameter and its default). The prompts are
:mod:`cardenvs.text`'s; docs: ``docs/llm.md``.
"""

from __future__ import annotations

from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.llm.client import ChatClient, ChatError, Completion
from cardenvs.agents.llm.policy import COUNTERS, LLM_RATIOS, LlmPolicy
from cardenvs.agents.llm.settings import LlmSettings, parse_llm_spec


def llm_policy(argument: str, context: PolicyContext, seed: int | None = None) -> Policy:
    """The policy of an ``llm:`` spec (the part after ``llm:``); raises :class:`ValueError` on a bad spec."""
    return LlmPolicy(context, parse_llm_spec(argument), seed)


__all__ = [
    "COUNTERS",
    "LLM_RATIOS",
    "ChatClient",
    "ChatError",
    "Completion",
    "LlmPolicy",
    "LlmSettings",
    "llm_policy",
    "parse_llm_spec",
]
