"""Where replays come from: a file saved from the play page, or a game stored by a tournament (``--store-events``).

Both become the same record: ``{"format", "env_id", "options", "seed", "labels", "actions", "events"}``. The
states are rebuilt by re-playing ``actions`` on a fresh env reset with ``seed`` (the event log alone does not say
which action ids made it). Nothing read here runs code: JSON and SQLite only, a replay file within
:data:`MAX_REPLAY_BYTES`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament.storage import TournamentStore, TournamentStoreError
from cardenvs.agents.tournament.worker import decode_actions, decode_events
from cardenvs.experiments.play.session import REPLAY_FORMAT, Refused

MAX_REPLAY_BYTES = 16 * 2**20
"""A replay file of one game holds a few hundred kilobytes at most; a larger file is refused unread."""


def parse_json(data: bytes) -> Any:
    """The JSON value in ``data`` (from anyone): :class:`Refused` says what is wrong with it."""
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise Refused("its JSON is nested too deeply") from None
    except UnicodeDecodeError as error:
        raise Refused(f"it is not UTF-8 text ({error})") from None
    except json.JSONDecodeError as error:
        raise Refused(f"it is not JSON ({error})") from None
    except ValueError:  # Python refuses to read an integer this long (a guard against slow conversions)
        raise Refused(f"it holds a number of more than {sys.get_int_max_str_digits()} digits") from None


def load_replay_file(path: str | Path) -> dict[str, Any]:
    """A replay saved from the play page (``save this game as a replay``)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_REPLAY_BYTES + 1)
    except OSError as error:
        raise Refused(f"cannot read the replay {path}: {error}") from error
    if len(data) > MAX_REPLAY_BYTES:
        raise Refused(f"{path} is over {MAX_REPLAY_BYTES // 2**20} MiB: no replay of one game is that large")
    try:
        record = parse_json(data)
    except Refused as error:
        raise Refused(f"cannot read the replay {path}: {error}") from error
    if not isinstance(record, dict):
        raise Refused(f"{path} is not a replay: a replay is a JSON object with format {REPLAY_FORMAT!r}")
    return record


def stored_game(db_path: str | Path, deal: int, seating: int) -> dict[str, Any]:
    """Game ``(deal, seating)`` of a tournament database as a replay record."""
    if not Path(db_path).is_file():
        raise Refused(f"no tournament database at {db_path}")
    try:
        with TournamentStore(db_path, read_only=True) as store:
            settings = store.settings()
            records = {(r.deal, r.seating): r for r in store.records()}
    except TournamentStoreError as error:
        raise Refused(str(error)) from error
    if settings is None:
        raise Refused(f"{db_path} holds no tournament")
    record = records.get((deal, seating))
    if record is None:
        keys = ", ".join(f"{d}/{s}" for d, s in sorted(records)[:10])
        raise Refused(f"{db_path} has no game deal {deal} seating {seating}; stored (deal/seating): {keys} …")
    if record.events is None:
        raise Refused(f"{db_path} was played without --store-events: its games cannot be replayed")
    actions = decode_actions(record.events)
    if actions is None:
        raise Refused(f"{db_path} was stored before tournaments kept the action ids: play it again to replay it")
    return {
        "format": REPLAY_FORMAT,
        "env_id": settings["env_id"],
        "options": settings["options"],
        "seed": record.seed,
        "labels": record.seats,
        "actions": actions,
        "events": decode_events(record.events),
    }
