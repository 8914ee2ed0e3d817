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

from cardenvs.core.seating import agent_name
from cardenvs.experiments.play.bots import in_thread
from cardenvs.experiments.play.guard import LOCAL_HOSTS, TableGuard, new_token, request_tokens
from cardenvs.experiments.play.replays import parse_json, stored_game
from cardenvs.experiments.play.session import NotNow, PlaySession, Refused, ReplaySession, brief
from cardenvs.render.view import SPECTATOR

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
        host: str = LOCAL_HOSTS[0],
    ):
        """Serve ``session`` (a game being played), ``replay`` (one finished game) or ``store`` (any game of a
        tournament database, chosen by the page's ``?deal=D&seating=S``); ``token`` (the first person's) defaults
        to a fresh one, as do the other people's and the watchers'; ``host``: the name the links use (requests
        addressed to it are accepted besides this machine's own names)."""
        if sum(x is not None for x in (session, replay, store)) != 1:
            raise ValueError("a table server shows one of: a game being played, a replay, a tournament database")
        self.session = session
        self.replay = replay
        self.store = store
        self._stored: dict[tuple[int, int], ReplaySession] = {}
        self.pace_ms = pace_ms
        self.token = token or new_token()
        self.host = host
        humans = session.humans if session else [0]
        self.seats = {self.token: humans[0]} | {new_token(): seat for seat in humans[1:]}
        """Token → the seat whose page carries it (:data:`SPECTATOR` for the watchers' link)."""
        if session:
            self.seats[new_token()] = SPECTATOR
        self._acting = asyncio.Lock()  # one move, advance or rematch at a time

    def url(self, port: int, query: str = "", token: str | None = None) -> str:
        """The page's address, with a token (default: the first person's) and ``query`` (``deal=1&seating=0``)."""
        return f"http://{self.host}:{port}/?token={token or self.token}" + (f"&{query}" if query else "")

    def invites(self, port: int) -> list[tuple[str, str]]:
        """(who, address) for each person's seat, then the watchers' link (public information only)."""
        return [
            ("spectator" if seat == SPECTATOR else agent_name(seat), self.url(port, token=token))
            for token, seat in self.seats.items()
        ]

    def _seat(self, request: Request) -> int:
        """The seat of the page that sent ``request`` (the guard has checked that it carries a table token)."""
        headers = {k.lower(): v for k, v in request.headers.items()}
        for token in request_tokens(headers, request.url.query):
            if token in self.seats:
                return self.seats[token]
        raise Refused("the request carries no token of this table")

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

    def _refusal(self, error: Refused, seat: int | None = None) -> JSONResponse:
        state = self.session.send(seat) if self.session and seat is not None else None
        return JSONResponse({"error": str(error), "state": state}, status_code=error.status)

    async def page(self, request: Request) -> Response:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    async def get_config(self, request: Request) -> Response:
        return JSONResponse(self.config())

    async def view(self, request: Request) -> Response:
        seat = None
        try:
            session = self._play()
            seat = self._seat(request)
            return JSONResponse(session.send(seat))
        except Refused as error:
            return self._refusal(error, seat)

    async def act(self, request: Request) -> Response:
        """``POST /api/{move,advance,skip,rematch}`` with ``{"version": v, "move": i}`` (``move`` for moves only);
        ``skip`` lets the bots play on at once, to the person's next turn or the end."""
        kind = request.path_params["kind"]
        if kind not in ("move", "advance", "skip", "rematch"):
            known = "move, advance, skip, rematch"
            return JSONResponse({"error": f"unknown request /api/{brief(kind)}; known: {known}"}, 404)
        seat = None
        try:
            session = self._play()
            seat = self._seat(request)
            body = await self._body(request)
            async with self._acting:
                if kind == "move":
                    session.play(body.get("version"), body.get("move"), seat)
                elif kind in ("advance", "skip") and self._asked_by_another(session, seat, body.get("version")):
                    pass  # another page asked first: this one is shown the table as it is now
                elif kind in ("advance", "skip"):  # in a thread: the table answers requests while a policy thinks
                    skip = kind == "skip"
                    await asyncio.wrap_future(in_thread(self._advance, session, body.get("version"), skip))
                elif seat == SPECTATOR:
                    raise Refused("a watcher cannot deal a rematch; a person at the table can")
                else:
                    session.rematch(body.get("version"))
            return JSONResponse(session.send(seat))
        except Refused as error:
            return self._refusal(error, seat)

    def _advance(self, session: PlaySession, version: Any, skip: bool = False) -> None:
        session.advance(version)
        while (skip or self.pace_ms == 0) and session.bot_to_act():  # the bots play on at once
            session.advance(session.version)

    async def export(self, request: Request) -> Response:
        seat = None
        try:
            session = self._play()
            seat = self._seat(request)
            if not session.over:
                raise NotNow("the game is still being played: its record (every hand) is given once it has ended")
            record = session.replay_record()
        except Refused as error:
            return self._refusal(error, seat)
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
            middleware=[Middleware(TableGuard, token=self.token, hosts=self._hosts(), more=tuple(self.seats)[1:])],
        )

    @staticmethod
    def _asked_by_another(session: PlaySession, seat: int, version: Any) -> bool:
        """Several pages share the table (people, watchers), and this page's request to let the bots play comes
        after another page's (its version is old)."""
        shared = len(session.humans) > 1 or seat == SPECTATOR
        return shared and type(version) is int and version < session.version

    def _hosts(self) -> tuple[str, ...]:
        return LOCAL_HOSTS if self.host in LOCAL_HOSTS else (*LOCAL_HOSTS, self.host)


def _int_param(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not re.fullmatch("-?[0-9]{1,18}", text):
        raise Refused(f"{name} must be an integer of at most 18 digits, got {brief(text)}")
    return int(text)
