"""A real chat-completions server on 127.0.0.1 for the tests, answering from a script.

Each request is answered by the next entry of the script (the last one repeats): ``correct`` (the first listed
move's number), ``written`` (the example or first move written out, in odd case), ``prose`` (a move inside a
sentence), ``illegal`` (a number off the list), ``garbage``, ``slow`` (sleeps ``slow_seconds`` first, then a
correct reply), ``http500``, ``not_json``, and ``model`` (the reply of the ``model`` function given to
:func:`chat_server`, e.g. a real language model's ``generate``). The server reads the legal moves from the prompt
as a client would.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Model = Callable[[dict[str, Any]], tuple[str, int, int]]
"""A model behind the ``model`` reply: the request body in, (reply text, prompt tokens, completion tokens) out."""


@dataclass
class Script:
    replies: Sequence[str]
    slow_seconds: float = 2.0
    model: Model | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if "model" in self.replies and self.model is None:
            raise ValueError("the 'model' reply needs a model: chat_server('model', model=...)")

    def next_kind(self, body: dict[str, Any], headers: dict[str, str]) -> str:
        with self.lock:
            kind = self.replies[min(len(self.requests), len(self.replies) - 1)]
            self.requests.append(body)
            self.headers.append(headers)
        return kind


def _moves_in(messages: list[dict[str, str]]) -> tuple[str | None, str | None]:
    """(the first numbered move's number, a move written out) from the prompt."""
    prompt = next(m["content"] for m in messages if m["role"] == "user")
    numbered = re.search(r"^1\. (.+)$", prompt, re.MULTILINE)
    example = re.search(r"for example: (.+)$", prompt, re.MULTILINE)
    written = example.group(1) if example else (numbered.group(1) if numbered else None)
    return ("1" if numbered else None), written


def _content(kind: str, messages: list[dict[str, str]]) -> str:
    number, written = _moves_in(messages)
    if kind in ("correct", "slow"):
        return number or str(written)
    if kind == "written":
        return str(written).upper().replace(" ", "  ")
    if kind == "prose":
        return f"Let me think. The position favours caution, so my move is {written}. Good luck!"
    if kind == "illegal":
        return "999"
    return "I would rather talk about the weather."


def _reply(script: Script, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The completion for ``kind``: the model's own text and token counts, or a scripted text."""
    if kind == "model":
        assert script.model is not None  # Script checks it
        text, prompt_tokens, completion_tokens = script.model(body)
    else:
        text, prompt_tokens, completion_tokens = _content(kind, body["messages"]), 100, 7
    return {
        "choices": [{"message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
    }


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            kind = script.next_kind(body, dict(self.headers))
            if self.path != "/v1/chat/completions":
                self._send(404, b'{"error": "no such endpoint"}')
            elif kind == "http500":
                self._send(500, b'{"error": "scripted failure"}')
            elif kind == "not_json":
                self._send(200, b"<html>surprise</html>")
            else:
                if kind == "slow":
                    time.sleep(script.slow_seconds)
                self._send(200, json.dumps(_reply(script, kind, body)).encode())

        def _send(self, status: int, data: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timed-out move)
                pass

    return Handler


@contextmanager
def chat_server(*replies: str, slow_seconds: float = 2.0, model: Model | None = None) -> Iterator[tuple[str, Script]]:
    """Serve ``replies`` (see the module docstring); yields the base URL (``http://127.0.0.1:PORT/v1``) and the
    script, whose ``requests`` list grows with every request."""
    script = Script(replies or ("correct",), slow_seconds, model)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", script
    finally:
        server.shutdown()
        server.server_close()


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.llm.chat_server [KIND …] [--port N]``: serve the script until Ctrl-C (for the docs' demo)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("kinds", nargs="*", default=["correct"], help="the replies in order (the last repeats)")
    parser.add_argument("--port", type=int, default=8000)
    ns = parser.parse_args(argv)
    if "model" in ns.kinds:
        parser.error("the 'model' reply needs a model in Python (chat_server(..., model=...)), not on the command line")
    script = Script(ns.kinds)
    server = ThreadingHTTPServer(("127.0.0.1", ns.port), _handler(script))
    print(f"serving scripted chat completions on http://127.0.0.1:{ns.port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print(f"\n{len(script.requests)} requests answered")
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
