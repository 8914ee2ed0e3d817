"""The ``llm:`` spec: ``llm:<model>?base_url=…&temperature=…&max_retries=…&prompt=…`` read into settings."""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, fields
from pathlib import Path

MAX_PROMPT_FILE_BYTES = 64 * 1024


@dataclass(frozen=True)
class LlmSettings:
    """How an ``llm:`` player asks (every field but ``model`` is a spec parameter of the same name)."""

    model: str
    base_url: str = "http://127.0.0.1:8000/v1"
    """The server's API root: a local server by default (vLLM's), so no key travels anywhere unasked."""
    api_key_env: str = "OPENAI_API_KEY"
    """The environment variable the key is read from at each request (never stored)."""
    temperature: float = 0.0
    max_tokens: int = 256
    max_retries: int = 2
    """Further requests after an unparseable or illegal reply or a failed request; then a random legal move."""
    move_seconds: float = 8.0
    """Time limit per move, all requests together; past it the move is the fallback. Under the tournaments'
    default move limit (10 s, which stops a game that a policy holds longer): raise both for a slow model."""
    prompt: str = ""
    """A text file whose contents are sent first in the system message (instructions of your own); empty: none."""
    cache: str = ""
    """A JSON-lines file of replies (:mod:`agents.llm.cache`): a request already in it is answered from it, so a
    resumed or repeated run never asks it again; empty: no cache."""
    record: bool = True
    """Keep prompts, replies, tokens and latency for the tournament database (``record=false`` opts out)."""

    def instructions(self) -> str:
        """The contents of the ``prompt`` file ('' without one), read within a size limit."""
        if not self.prompt:
            return ""
        path = Path(self.prompt).expanduser()
        if not path.is_file():
            raise ValueError(f"llm: prompt file {self.prompt} not found")
        data = path.read_bytes()[: MAX_PROMPT_FILE_BYTES + 1]
        if len(data) > MAX_PROMPT_FILE_BYTES:
            raise ValueError(f"llm: prompt file {self.prompt} is over {MAX_PROMPT_FILE_BYTES} bytes")
        return data.decode("utf-8", errors="replace")


_FIELDS = {f.name: f for f in fields(LlmSettings) if f.name != "model"}


def parse_llm_spec(argument: str) -> LlmSettings:
    """Settings from the part of the spec after ``llm:``; raises :class:`ValueError` naming the problem."""
    model, _, query = argument.partition("?")
    if not model.strip():
        raise ValueError("llm: name the model, llm:<model>?base_url=…")
    values: dict[str, object] = {}
    for key, text in urllib.parse.parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)):
        if key not in _FIELDS:
            raise ValueError(f"llm: unknown parameter {key!r}; parameters: {', '.join(_FIELDS)}")
        values[key] = _value(key, text)
    settings = LlmSettings(model.strip(), **values)  # type: ignore[arg-type]
    if not settings.base_url.startswith(("http://", "https://")):
        raise ValueError(f"llm: base_url must start with http:// or https://, got {settings.base_url!r}")
    if settings.max_retries < 0 or settings.max_tokens < 1 or settings.move_seconds <= 0:
        raise ValueError("llm: max_retries must be >= 0, max_tokens >= 1 and move_seconds > 0")
    return settings


def _value(key: str, text: str) -> object:
    kind = _FIELDS[key].type
    try:
        if kind in ("float", float):
            return float(text)
        if kind in ("int", int):
            return int(text)
    except ValueError as error:
        raise ValueError(f"llm: parameter {key} must be a number, got {text!r}") from error
    if kind in ("bool", bool):
        if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"llm: parameter {key} must be true or false, got {text!r}")
        return text.lower() in ("true", "1", "yes")
    return text
