"""Who may talk to a table: only the page the command opened, on this machine.

A table listens on 127.0.0.1, but any web page the player has open can send requests there, and a page on a
rebound domain name can even read the answers. So every request must name this machine (``Host``), may come
only from the table's own page (``Origin``, when the browser sends one), and every API call must carry the
table's secret token (made by :func:`new_token`, printed and opened in the table's URL): as the header
``X-Table-Token``, the query parameter ``token``, or the cookie the page receives when opened with the token
(so that links without it, such as a tournament report's, work once the printed URL was opened). Anything else
is answered ``403`` with the reason, before the table sees it.

A table for several people has one token per person and one for watchers (:func:`request_tokens` tells the
table which one a request carries); it listens beyond this machine only when asked (``--host``), and then
accepts that host name too.
"""

from __future__ import annotations

import json
import secrets
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOCAL_HOSTS = ("127.0.0.1", "localhost")
TOKEN_HEADER = "x-table-token"


def new_token() -> str:
    """A fresh secret for one table."""
    return secrets.token_urlsafe(24)


class TableGuard:
    """ASGI middleware in front of a table's app: checks ``Host``, ``Origin`` and the token."""

    def __init__(self, app: ASGIApp, token: str, hosts: tuple[str, ...] = LOCAL_HOSTS, more: tuple[str, ...] = ()):
        """``token``: the token of the table's first page (its cookie); ``more``: the other pages' tokens."""
        self.app = app
        self.token = token
        self.tokens = (token, *more)
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        reason = self.refusal(scope["path"], headers, scope.get("query_string", b"").decode("latin-1"))
        if reason is not None:
            await _forbidden(send, reason)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        if scope["path"] == "/" and self._query_token(query):
            token = next(t for t in parse_qs(query)["token"] if self._matches(t))
            send = self._setting_cookie(send, headers["host"], token)
        await self.app(scope, receive, send)

    def refusal(self, path: str, headers: dict[str, str], query: str) -> str | None:
        """Why this request is refused, or ``None``."""
        host = headers.get("host", "")
        if _hostname(host) not in self.hosts:
            return f"this table answers only requests addressed to {' or '.join(self.hosts)}, not {host!r}"
        origin = headers.get("origin")
        if origin is not None and origin != f"http://{host}":
            return f"requests from other web pages ({origin}) are refused; use the table's own page"
        if not path.startswith("/api/"):
            return None
        if self._query_token(query) or self._matches(headers.get(TOKEN_HEADER)):
            return None
        if self._matches(_cookie(headers.get("cookie", ""), _cookie_name(host))):
            return None
        given = bool(headers.get(TOKEN_HEADER)) or "token=" in query
        return (
            f"{'wrong' if given else 'no'} table token: open the address the command printed "
            "(it ends with ?token=…) or send the token as the X-Table-Token header"
        )

    def _matches(self, candidate: str | None) -> bool:
        if candidate is None:
            return False
        return any(secrets.compare_digest(candidate.encode(), token.encode()) for token in self.tokens)

    def _query_token(self, query: str) -> bool:
        return any(self._matches(t) for t in parse_qs(query).get("token", []))

    def _setting_cookie(self, send: Send, host: str, token: str) -> Send:
        cookie = f"{_cookie_name(host)}={token}; Path=/; HttpOnly; SameSite=Strict"

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode("latin-1"))]
            await send(message)

        return sending


def request_tokens(headers: dict[str, str], query: str) -> list[str]:
    """The tokens a request carries, in the order they count: header, query, cookie (unchecked)."""
    cookie = _cookie(headers.get("cookie", ""), _cookie_name(headers.get("host", "")))
    given = [headers.get(TOKEN_HEADER), *parse_qs(query).get("token", []), cookie]
    return [t for t in given if t]


def _hostname(host: str) -> str:
    """``host`` without its port."""
    name, _, port = host.rpartition(":")
    return name if name and port.isdigit() else host


def _cookie_name(host: str) -> str:
    """One cookie per port: cookies are shared by every port of a host."""
    _, _, port = host.rpartition(":")
    return f"cardenvs-table-{port if port.isdigit() else 80}"


def _cookie(header: str, name: str) -> str | None:
    try:
        morsel = SimpleCookie(header).get(name)
    except CookieError:
        return None
    return morsel.value if morsel is not None else None


async def _forbidden(send: Send, reason: str) -> None:
    body = json.dumps({"error": reason, "state": None}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})
