"""The web table: a Starlette app over one :class:`PlaySession` (or one :class:`ReplaySession`).

The page (``page.html``, plain JS, no build step) only asks; the server decides what the person sees. Every
answer is a message of :meth:`PlaySession.message`; a refused request is answered with ``error`` (why) and
``state`` (the unchanged table): ``400`` for a malformed or illegal request, ``409`` for one made at the wrong
moment of the game, ``413`` for a body over :data:`MAX_BODY_BYTES`. Requests from anywhere but the table's own
page are refused before they arrive here (:mod:`~cardenvs.experiments.play.guard`).

During a game nothing a seat is sent holds what that seat may not see: the full record of the game (seed,
actions, every hand) is handed out only once the game has ended. Opponent policies think in threads of their
own, so the table keeps answering while one thinks, however long.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from cardenvs.experiments.play.bots import in_thread
from cardenvs.experiments.play.guard import LOCAL_HOSTS, TableGuard, new_token
from cardenvs.experiments.play.replays import parse_json, stored_game
from cardenvs.experiments.play.session import NotNow, PlaySession, Refused, ReplaySession, brief

PAGE = Path(__file__).with_name("page.html")
MAX_BODY_BYTES = 64 * 1024
"""The largest request body read; the page's requests are a few dozen bytes."""


class TooLarge(Refused):
    status = 413


class TableServer:
    """Holds the table (or replay) a page talks to, and the secret token the page must send."""

    def __init__(
        self,
        session: PlaySession | None,
        replay: ReplaySession | None = None,
        pace_ms: int = 600,
        store: str | Path | None = None,
        token: str | None = None,
    ):
        """Serve ``session`` (a game being played), ``replay`` (one finished game) or ``store`` (any game of a
        tournament database, chosen by the page's ``?deal=D&seating=S``); ``token`` defaults to a fresh one."""
        if sum(x is not None for x in (session, replay, store)) != 1:
            raise ValueError("a table server shows one of: a game being played, a replay, a tournament database")
        self.session = session
        self.replay = replay
        self.store = store
        self._stored: dict[tuple[int, int], ReplaySession] = {}
        self.pace_ms = pace_ms
        self.token = token or new_token()
        self._acting = asyncio.Lock()  # one move, advance or rematch at a time

    def url(self, port: int, query: str = "") -> str:
        """The page's address, with the token (and ``query``, e.g. ``deal=1&seating=0``)."""
        return f"http://127.0.0.1:{port}/?token={self.token}" + (f"&{query}" if query else "")

    def config(self) -> dict[str, Any]:
        return {"mode": "play" if self.session else "replay", "pace_ms": self.pace_ms}

    def _play(self) -> PlaySession:
        if self.session is None:
            raise Refused("this table shows a replay; nothing can be played")
        return self.session

    async def _body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, read up to :data:`MAX_BODY_BYTES`."""
        kind = request.headers.get("content-type", "").split(";")[0].strip()
        if kind != "application/json":
            raise Refused(f"the request body must be sent as application/json, not {brief(kind or 'nothing')}")
        too_large = TooLarge(f"the request body is over {MAX_BODY_BYTES} bytes; the table's requests are small")
        length = request.headers.get("content-length", "0")
        if not re.fullmatch("[0-9]+", length):
            raise Refused(f"the Content-Length header must be a number of bytes, got {brief(length)}")
        if len(length) > 9 or int(length) > MAX_BODY_BYTES:
            raise too_large
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY_BYTES:
                raise too_large
        try:
            body = parse_json(bytes(data))
        except Refused as error:
            raise Refused(f"the request body must be a JSON object, but {error}") from error
        if not isinstance(body, dict):
            raise Refused(f"the request body must be a JSON object, got {type(body).__name__}")
        return body

    def _refusal(self, error: Refused) -> JSONResponse:
        state = self.session.send() if self.session else None
        return JSONResponse({"error": str(error), "state": state}, status_code=error.status)

    async def page(self, request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def get_config(self, request: Request) -> Response:
        return JSONResponse(self.config())

    async def view(self, request: Request) -> Response:
        try:
            return JSONResponse(self._play().send())
        except Refused as error:
            return self._refusal(error)

    async def act(self, request: Request) -> Response:
        """``POST /api/{move,advance,skip,rematch}`` with ``{"version": v, "move": i}`` (``move`` for moves only);
        ``skip`` lets the bots play on at once, to the person's next turn or the end."""
        kind = request.path_params["kind"]
        if kind not in ("move", "advance", "skip", "rematch"):
            known = "move, advance, skip, rematch"
            return JSONResponse({"error": f"unknown request /api/{brief(kind)}; known: {known}"}, 404)
        try:
            session = self._play()
            body = await self._body(request)
            async with self._acting:
                if kind == "move":
                    session.play(body.get("version"), body.get("move"))
                elif kind in ("advance", "skip"):  # in a thread: the table answers requests while a policy thinks
                    skip = kind == "skip"
                    await asyncio.wrap_future(in_thread(self._advance, session, body.get("version"), skip))
                else:
                    session.rematch(body.get("version"))
            return JSONResponse(session.send())
        except Refused as error:
            return self._refusal(error)

    def _advance(self, session: PlaySession, version: Any, skip: bool = False) -> None:
        session.advance(version)
        while (skip or self.pace_ms == 0) and session.bot_to_act():  # the bots play on at once
            session.advance(session.version)

    async def export(self, request: Request) -> Response:
        try:
            session = self._play()
            if not session.over:
                raise NotNow("the game is still being played: its record (every hand) is given once it has ended")
            record = session.replay_record()
        except Refused as error:
            return self._refusal(error)
        headers = {"Content-Disposition": 'attachment; filename="cardenvs-replay.json"'}
        return JSONResponse(record, headers=headers)

    def _replay(self, request: Request) -> ReplaySession:
        if self.store is not None:
            key = (_int_param(request, "deal", 0), _int_param(request, "seating", 0))
            if key not in self._stored:
                self._stored[key] = ReplaySession(stored_game(self.store, *key))
            return self._stored[key]
        if self.replay is None:
            raise Refused("this table has no replay loaded")
        return self.replay

    async def replay_view(self, request: Request) -> Response:
        try:
            replay = self._replay(request)
            step = _int_param(request, "step", 0)
            seat_text = request.query_params.get("seat", "")
            seat = None if seat_text in ("", "all") else _int_param(request, "seat", 0)
            return JSONResponse(replay.message(step, seat))
        except Refused as error:
            return JSONResponse({"error": str(error), "state": None}, status_code=error.status)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/", self.page),
                Route("/api/config", self.get_config),
                Route("/api/view", self.view),
                Route("/api/export", self.export),
                Route("/api/replay", self.replay_view),
                Route("/api/{kind:str}", self.act, methods=["POST"]),
            ],
            middleware=[Middleware(TableGuard, token=self.token, hosts=LOCAL_HOSTS)],
        )


def _int_param(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not re.fullmatch("-?[0-9]{1,18}", text):
        raise Refused(f"{name} must be an integer of at most 18 digits, got {brief(text)}")
    return int(text)
