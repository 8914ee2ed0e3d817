"""Replies kept on disk by request, so a resumed or repeated run never asks a stored request again.

A JSON-lines file, one reply a line, appended as each reply arrives (by every worker process). A request is keyed
by the model, the sampling settings, the policy's seed for the game, the move number and every message sent;
a replayed game (a resumed tournament replays an interrupted game from its seed) sends the same requests and
is answered from the file. Failed requests are not kept.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from cardenvs.agents.llm.client import Completion

MAX_CACHE_BYTES = 512 * 1024 * 1024


class ReplyCache:
    """The replies of one cache file (see the module docstring)."""

    def __init__(self, path: str | Path):
        self.path = Path(path).expanduser()
        self.replies: dict[str, Completion] = {}
        if self.path.is_file():
            self._read()

    def _read(self) -> None:
        if self.path.stat().st_size > MAX_CACHE_BYTES:
            raise ValueError(f"llm: cache {self.path} is over {MAX_CACHE_BYTES} bytes; start a new one")
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), start=1):
            try:
                row = json.loads(line)
                self.replies[str(row["key"])] = Completion(
                    str(row["text"]), int(row["prompt_tokens"]), int(row["completion_tokens"]), float(row["seconds"])
                )
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"llm: cache {self.path} line {number} is not a stored reply ({error})") from None

    @staticmethod
    def key(request: dict[str, Any]) -> str:
        return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()

    def get(self, key: str) -> Completion | None:
        return self.replies.get(key)

    def add(self, key: str, completion: Completion) -> None:
        """Keep a reply, appended in one write (workers append to the same file)."""
        self.replies[key] = completion
        row = {"key": key, "text": completion.text, "prompt_tokens": completion.prompt_tokens,
               "completion_tokens": completion.completion_tokens, "seconds": completion.seconds}  # fmt: skip
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(descriptor, (json.dumps(row) + "\n").encode())
        finally:
            os.close(descriptor)
