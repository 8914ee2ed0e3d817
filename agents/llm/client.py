"""A minimal client of the OpenAI-compatible chat-completions API (vLLM, llama.cpp, Ollama, hosted providers),
on the standard library: one POST to ``{base_url}/chat/completions`` per request, the key read from an
environment variable at each request and never kept."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

MAX_RESPONSE_BYTES = 1 << 20
"""A reply body larger than this is refused (a chat completion of one move is a few kilobytes)."""


class ChatError(RuntimeError):
    """A request that gave no usable reply: an HTTP error, a timeout, a body that is not a chat completion."""


class ChatTimeout(ChatError):
    """No reply within the time left for the move."""


@dataclass(frozen=True)
class Completion:
    """One reply: its text, the token counts the server reported (0 if it reported none), and the wall time."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float


@dataclass(frozen=True)
class ChatClient:
    """Where to ask and whom: ``base_url`` (e.g. ``http://127.0.0.1:8000/v1``), the model name, and the name of
    the environment variable holding the API key (unset or empty: no ``Authorization`` header)."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"

    def complete(
        self, messages: list[dict[str, str]], temperature: float, max_tokens: int, timeout: float
    ) -> Completion:
        """Ask for one completion of ``messages``; raises :class:`ChatError` naming what went wrong."""
        body = {"model": self.model, "messages": messages, "temperature": temperature, "max_tokens": max_tokens}
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env, "")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(
            self.base_url.rstrip("/") + "/chat/completions", json.dumps(body).encode(), headers, method="POST"
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=max(timeout, 0.001)) as response:
                raw = response.read(MAX_RESPONSE_BYTES + 1)
        except urllib.error.HTTPError as error:
            raise ChatError(f"HTTP {error.code} from {self.base_url}: {error.reason}") from error
        except TimeoutError as error:
            raise ChatTimeout(f"no reply from {self.base_url} within {timeout:.1f} s") from error
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError):
                raise ChatTimeout(f"no reply from {self.base_url} within {timeout:.1f} s") from error
            raise ChatError(f"no reply from {self.base_url}: {reason}") from error
        seconds = time.perf_counter() - start
        if len(raw) > MAX_RESPONSE_BYTES:
            raise ChatError(f"the reply from {self.base_url} is larger than {MAX_RESPONSE_BYTES} bytes")
        return _completion(raw, seconds, self.base_url)


def _completion(raw: bytes, seconds: float, where: str) -> Completion:
    try:
        data: Any = json.loads(raw)
        text = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise ChatError(f"the reply from {where} is not a chat completion ({type(error).__name__})") from error
    if not isinstance(text, str):
        raise ChatError(f"the reply from {where} has no text content")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return Completion(text, _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")), seconds)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
