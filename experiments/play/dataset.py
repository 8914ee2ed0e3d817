"""Games people played at the table, as a data set of their decisions.

    python -m cardenvs.experiments.play --game kyuuri-v0 --record runs/people/kyuuri       # opt in: store each game
    python -m cardenvs.experiments.play.dataset runs/people/kyuuri --out people-kyuuri.npz

Each stored game (a replay file with the people's seats, written by ``--record``) is re-played on a fresh env
with its seed and action ids; at every decision of a person's seat the row holds what that seat observed
(``observation``, ``action_mask``: the env's own arrays, as policies and training see them) and the action
taken. The ``.npz`` holds ``observations``, ``masks``, ``actions``, ``seats``, ``games`` (the game each row
comes from), ``rewards`` (what the seat earned from that action until its next decision or the game's end) and
``last`` (the seat's last decision of its game), and ``meta`` (JSON as UTF-8 bytes: the env id, options, files;
no pickle anywhere). ``experiments.train --imitate people:PATH`` warm-starts a run from it
(:mod:`experiments.people_data`). All games of one data set share the env id and
options, so that the rows share one observation layout.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.experiments.play.replays import load_replay_file
from cardenvs.experiments.play.session import Refused, ReplaySession

Row = tuple[np.ndarray, np.ndarray, int, int, float, bool]
"""(observation, mask, action, seat, reward, last) of one decision of a person."""


def decisions(record: dict[str, Any]) -> list[Row]:
    """Each decision of the record's people, in order of play: what the seat saw, the action, the seat, the reward
    the seat earned from that action until its next decision (or the game's end), and whether it was its last."""
    ReplaySession(record)  # refuses a record that is not a legal game, with the reason
    humans = record.get("humans", [0])
    if not isinstance(humans, list) or not all(type(s) is int for s in humans):
        raise Refused(f"the record's humans must be a list of seats, got {humans!r}")
    env = cardenvs.make(record["env_id"], raw=True, **record.get("options", {}))
    env.reset(seed=record["seed"])
    rows: list[list[Any]] = []
    latest: dict[int, int] = {}  # seat -> its latest row
    for action in record["actions"]:
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        if seat in humans:
            seen = env.observe(agent)
            latest[seat] = len(rows)
            rows.append([np.asarray(seen["observation"]), np.asarray(seen["action_mask"]), action, seat, 0.0, False])
        env.step(action)
        for held, row in latest.items():
            rows[row][4] += float(env.rewards.get(env.possible_agents[held], 0.0))
    for row in latest.values():
        rows[row][5] = True
    return [tuple(row) for row in rows]


def build(folder: Path) -> dict[str, Any]:
    """The data set of every stored game in ``folder`` (``*.json``)."""
    files = sorted(folder.glob("*.json"))
    if not files:
        raise Refused(f"no stored games (*.json) in {folder}; play with --record {folder} first")
    rows: list[tuple[Any, ...]] = []
    kind = None
    for number, path in enumerate(files):
        record = load_replay_file(path)
        this = (record.get("env_id"), json.dumps(record.get("options", {}), sort_keys=True))
        if kind is not None and this != kind:
            raise Refused(f"{path.name} is a game of {this[0]} {this[1]}, the others of {kind[0]} {kind[1]}")
        kind = this
        try:
            rows += [(*row, number) for row in decisions(record)]
        except Refused as error:
            raise Refused(f"{path.name}: {error}") from error
    if not rows:
        raise Refused(f"the games in {folder} hold no decision of a person")
    assert kind is not None
    meta = {"env_id": kind[0], "options": json.loads(kind[1]), "files": [f.name for f in files]}
    return {
        "observations": np.stack([r[0] for r in rows]).astype(np.float32),
        "masks": np.stack([r[1] for r in rows]).astype(bool),
        "actions": np.array([r[2] for r in rows], dtype=np.int64),
        "seats": np.array([r[3] for r in rows], dtype=np.int64),
        "rewards": np.array([r[4] for r in rows], dtype=np.float64),
        "last": np.array([r[5] for r in rows], dtype=bool),
        "games": np.array([r[6] for r in rows], dtype=np.int64),
        "meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="the folder given to --record")
    parser.add_argument("--out", required=True, help="the data set to write (.npz)")
    args = parser.parse_args(argv)
    try:
        data = build(Path(args.folder))
    except Refused as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    np.savez_compressed(args.out, **data)
    games = len(json.loads(data["meta"].tobytes())["files"])
    print(f"{len(data['actions'])} decisions of people from {games} game(s) written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
