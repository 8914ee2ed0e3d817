"""The web table: a Starlette app over one :class:`PlaySession` (or one :class:`ReplaySession`).

The page (``page.html``, plain JS, no build step) only asks; the server decides what the person sees. Every
answer is a message of :meth:`PlaySession.message`; a refused request is answered ``400`` with ``error`` (why)
and ``state`` (the unchanged table).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from cardenvs.experiments.play.replays import stored_game
from cardenvs.experiments.play.session import PlaySession, Refused, ReplaySession

PAGE = Path(__file__).with_name("page.html")


class TableServer:
    """Holds the table (or replay) a page talks to."""

    def __init__(
        self,
        session: PlaySession | None,
        replay: ReplaySession | None = None,
        pace_ms: int = 600,
        store: str | Path | None = None,
    ):
        """Serve ``session`` (a game being played), ``replay`` (one finished game) or ``store`` (any game of a
        tournament database, chosen by the page's ``?deal=D&seating=S``)."""
        if sum(x is not None for x in (session, replay, store)) != 1:
            raise ValueError("a table server shows one of: a game being played, a replay, a tournament database")
        self.session = session
        self.replay = replay
        self.store = store
        self._stored: dict[tuple[int, int], ReplaySession] = {}
        self.pace_ms = pace_ms

    def config(self) -> dict[str, Any]:
        return {"mode": "play" if self.session else "replay", "pace_ms": self.pace_ms}

    def _play(self) -> PlaySession:
        if self.session is None:
            raise Refused("this table shows a replay; nothing can be played")
        return self.session

    async def _body(self, request: Request) -> dict[str, Any]:
        try:
            body = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise Refused(f"the request body must be a JSON object: {error}") from error
        if not isinstance(body, dict):
            raise Refused(f"the request body must be a JSON object, got {type(body).__name__}")
        return body

    def _refusal(self, error: Refused) -> JSONResponse:
        state = self.session.send() if self.session else None
        return JSONResponse({"error": str(error), "state": state}, status_code=400)

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
        """``POST /api/{move,advance,rematch}`` with ``{"version": v, "move": i}`` (``move`` for moves only)."""
        kind = request.path_params["kind"]
        if kind not in ("move", "advance", "rematch"):
            return JSONResponse({"error": f"unknown request /api/{kind}; known: move, advance, rematch"}, 404)
        try:
            session = self._play()
            body = await self._body(request)
            if kind == "move":
                session.play(body.get("version"), body.get("move"))
            elif kind == "advance":
                session.advance(body.get("version"))
                while self.pace_ms == 0 and session.bot_to_act():  # no pace: the bots play on at once
                    session.advance(session.version)
            else:
                session.rematch(body.get("version"))
            return JSONResponse(session.send())
        except Refused as error:
            return self._refusal(error)

    async def export(self, request: Request) -> Response:
        try:
            record = self._play().replay_record()
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
            return JSONResponse({"error": str(error), "state": None}, status_code=400)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/", self.page),
                Route("/api/config", self.get_config),
                Route("/api/view", self.view),
                Route("/api/export", self.export),
                Route("/api/replay", self.replay_view),
                Route("/api/{kind:str}", self.act, methods=["POST"]),
            ]
        )


def _int_param(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise Refused(f"{name} must be an integer, got {text!r}") from None
