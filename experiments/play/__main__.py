"""Play any cardenvs game at a table in the browser (or the terminal), or watch a replay.

    python -m cardenvs.experiments.play --game yukushi-v0 --players 4 --opponents yukushi/counter random
    python -m cardenvs.experiments.play --game kyuuri-v0 --tui
    python -m cardenvs.experiments.play --replay runs/tournaments/x/tournament.sqlite --deal 0 --seating 1
    python -m cardenvs.experiments.play --replay cardenvs-replay.json
    python -m cardenvs.experiments.play --game kyuuri-v0 --humans 2 --host 192.168.1.20

The server listens on 127.0.0.1 only (a free port unless ``--port``), prints the URL (with the table's secret
token, which every request of the page carries) and opens it unless ``--no-browser``; Ctrl-C stops it.
Opponent specs are anything a tournament accepts (registered names, ``ckpt:PATH``, ``py:module:Factory``,
``zoo:GAME/NAME``); they fill the other seats in order, repeated as needed; without ``--opponents``, the game's
zoo agent plays them where one is shipped for the options, else random play. A bot that raises, returns an
illegal action or thinks longer than ``--move-timeout`` seconds ends the game with a message naming it.
With ``--humans N`` people take ``--seat`` and the next seats: one link each (its own token) is printed, and
a spectator link that shows public information only; ``--host`` listens on that address (e.g. the machine's
address on a local network), so that others can join, with a warning.
See docs/play.md.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
import threading
import webbrowser
from dataclasses import dataclass, field
from typing import Any

from cardenvs.agents.tournament.report import REPLAY_PORT
from cardenvs.agents.zoo import fitting_zoo_names
from cardenvs.experiments.play.guard import LOCAL_HOSTS
from cardenvs.experiments.play.replays import load_replay_file, stored_game
from cardenvs.experiments.play.session import PlaySession, Refused, ReplaySession, TableSettings
from cardenvs.experiments.tournament import parse_option


@dataclass
class PlayArgs:
    game: str | None = None
    players: int | None = None
    option: list[str] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    """Policy specs for the other seats; none: the game's zoo agent, if one is shipped for these options."""
    seat: int = 0
    humans: int = 1
    host: str = "127.0.0.1"
    record: str = ""
    seed: int = 0
    pace: float = 0.6
    move_timeout: float = 10.0
    port: int = 0
    no_browser: bool = False
    tui: bool = False
    replay: str | None = None
    deal: int = 0
    seating: int = 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m cardenvs.experiments.play",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", help="env id, e.g. yukushi-v0 (default: verish_ne_verish-v0)")
    p.add_argument("--players", type=int, help="shorthand for --option num_players=N")
    p.add_argument("--option", action="append", default=[], help="game option key=value (repeatable)")
    p.add_argument(
        "--opponents",
        nargs="+",
        default=[],
        help="policy specs for the other seats (default: the game's zoo agent if one fits the options, else random)",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat (0 = player_0)")
    p.add_argument("--humans", type=int, default=1, help="people at the table: --seat and the seats after it")
    p.add_argument(
        "--record",
        default="",
        metavar="DIR",
        help="store each game played to its end in DIR (every hand, seeds, action ids; off by default)",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: this machine only; another is a risk)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first deal (a rematch takes the next)")
    p.add_argument("--pace", type=float, default=0.6, help="seconds a bot's move stays on screen")
    p.add_argument(
        "--move-timeout", type=float, default=10.0, help="seconds a bot may think about one action (slower: game ends)"
    )
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one; 8765 for a database)")
    p.add_argument("--no-browser", action="store_true", help="print the URL, do not open it")
    p.add_argument("--tui", action="store_true", help="play in this terminal instead of a browser")
    p.add_argument("--replay", help="a replay file (.json) or a tournament database (.sqlite) to watch")
    p.add_argument("--deal", type=int, default=0, help="with a database: the game's deal (the page opens it)")
    p.add_argument("--seating", type=int, default=0, help="with a database: the game's seating")
    return p


def settings_of(args: PlayArgs) -> TableSettings:
    options: dict[str, Any] = dict(parse_option(o) for o in args.option)
    if args.players is not None:
        options["num_players"] = args.players
    game = args.game or "verish_ne_verish-v0"
    opponents = args.opponents or default_opponents(game, options)
    return TableSettings(game, options, args.seat, args.humans, opponents, args.seed, args.move_timeout, args.record)


def default_opponents(env_id: str, options: dict[str, Any]) -> list[str]:
    """The first zoo agent shipped for the game and these options, else random play."""
    return fitting_zoo_names(env_id, options)[:1] or ["random"]


def replay_of(args: PlayArgs) -> ReplaySession:
    assert args.replay is not None
    return ReplaySession(load_replay_file(args.replay))


def free_socket(port: int, host: str = "127.0.0.1") -> socket.socket:
    """A listening socket on ``host`` (port 0: the system picks a free one, with no race)."""
    if not 0 <= port <= 65535:
        raise Refused(f"--port must be in 0..65535 (0: any free port), got {port}")
    if host in ("0.0.0.0", "::", ""):
        raise Refused(f"--host must name the address people will use (e.g. 192.168.1.20), not {host!r}")
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # connections made before the server starts wait in the queue instead of being refused
    except OSError as error:
        sock.close()
        raise Refused(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


REMOTE_WARNING = (
    "warning: the table listens on {host}, beyond this machine: anyone who can reach it there and has a link "
    "can join that seat or watch; the traffic is not encrypted. Share each link only with its player."
)


def serve(args: PlayArgs) -> int:
    try:
        import uvicorn

        from cardenvs.experiments.play.server import TableServer
    except ImportError as error:
        raise SystemExit(f"the web table needs the play extra: pip install -e '.[play]' ({error})") from error

    if args.replay and args.replay.endswith((".sqlite", ".db")):
        server = TableServer(None, store=args.replay)
    elif args.replay:
        server = TableServer(None, replay_of(args))
    else:
        server = TableServer(PlaySession(settings_of(args)), pace_ms=round(args.pace * 1000), host=args.host)
    query = ""
    if args.replay and server.store is not None:
        stored_game(args.replay, args.deal, args.seating)  # refuse a bad database or game before serving
        query = f"deal={args.deal}&seating={args.seating}"
    # A database's replays listen where the tournament report's links point, unless told otherwise.
    remote = args.host not in LOCAL_HOSTS
    if remote and server.session is None:
        raise Refused("--host is for tables people play at; replays are served on this machine only")
    sock = free_socket(args.port or (REPLAY_PORT if server.store is not None else 0), args.host)
    port = sock.getsockname()[1]
    url = server.url(port, query)
    invites = server.invites(port) if server.session is not None and args.humans > 1 else []

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)  # from here on, uvicorn stops on Ctrl-C
            if remote:
                print(REMOTE_WARNING.format(host=args.host), flush=True)
            print(f"cardenvs table at {url}  (Ctrl-C to stop)", flush=True)
            for who, link in invites:
                print(f"  {who}: {link}", flush=True)
            if not args.no_browser:  # in a thread: a terminal browser would not return until closed
                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    # a policy still thinking does not hold the stop up for long (its thread is a daemon)
    config = uvicorn.Config(server.app(), log_level="warning", timeout_graceful_shutdown=2)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops on Ctrl-C, then raises it again
        Announcing(config).run(sockets=[sock])
    print("cardenvs table stopped", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = PlayArgs(**vars(build_parser().parse_args(argv)))
    try:
        if args.tui and args.humans != 1:
            raise Refused("the terminal table seats one person; --humans N is for the web table")
        if args.tui:
            from cardenvs.experiments.play.tui import run_tui

            return run_tui(PlaySession(settings_of(args)), pace=args.pace)
        return serve(args)
    except (Refused, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except EOFError:  # Ctrl-D at a prompt of the terminal table: the person leaves
        print()
        return 0
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
