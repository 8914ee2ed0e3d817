"""Ship a trained checkpoint in the zoo: its weights (float16 where the greedy actions stay equal) and its card.

    python -m cardenvs.experiments.zoo_export runs/train/kyuuri/seed0/final.npz --name ppo \\
        --command "python -m cardenvs.experiments.train --game kyuuri-v0" --budget "600k learner steps, 254 s" \\
        --results runs/eval/kyuuri.md

Writes ``agents/zoo/<game>/<name>.npz`` and ``<name>.json`` (or under ``--root``); ``--table`` prints the
table of ``docs/zoo.md`` from the shipped cards. The game and its options
come from the run's ``args.json`` (beside the checkpoint, or one folder up for ``checkpoints/step_N``).

The float16 check: the checkpoint plays ``--games`` games (at every other seat; the game's rule bots and random
play at the others), and at every one of its decisions the float16 copy's greedy action is compared with the
float32 network's. The weights are stored as float16 only if every action was the same; the card records how
many decisions were compared and how many agreed. ``--results`` is the Markdown printed by
``experiments.training_results`` for that checkpoint: its table rows become the card's results.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.learned.players import weights_policy
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.agents.play import play_episode
from cardenvs.agents.registry import registered_names
from cardenvs.agents.specs import make_policy
from cardenvs.agents.zoo import ZOO_ROOT, ZooCard, zoo_cards
from cardenvs.registry import definition, game_name


def as_float16(weights: ActorWeights) -> ActorWeights:
    """The same actor with every weight rounded to float16 (the observation scale too)."""

    def half(array: np.ndarray) -> np.ndarray:
        return array.astype(np.float16)

    hidden = tuple((half(w), half(b)) for w, b in weights.hidden)
    action = (half(weights.action[0]), half(weights.action[1]))
    return dataclasses.replace(weights, hidden=hidden, action=action, obs_scale=half(weights.obs_scale))


class ComparingPolicy(Policy):
    """Plays the float32 network's player and counts the decisions where the float16 copy's player would play the
    same (for an actor, its greedy action; for a network that scores moves, the agent built on it)."""

    name = "compare-float16"

    def __init__(self, context: PolicyContext, full: ActorWeights, half: ActorWeights):
        super().__init__(context)
        self.full = weights_policy(full, context, seed=0, greedy=True)
        self.half = weights_policy(_as_float32(half), context, seed=0, greedy=True)
        self.decisions = 0
        self.equal = 0

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.full.reset(seed)
        self.half.reset(seed)

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        action = self.full.act(observation)
        self.decisions += 1
        self.equal += int(self.half.act(observation) == action)
        return action


def _as_float32(weights: ActorWeights) -> ActorWeights:
    """Float16 arrays widened back to float32, as :meth:`ActorWeights.load` reads them."""
    hidden = tuple((w.astype(np.float32), b.astype(np.float32)) for w, b in weights.hidden)
    action = (weights.action[0].astype(np.float32), weights.action[1].astype(np.float32))
    scale = weights.obs_scale.astype(np.float32)
    return dataclasses.replace(weights, hidden=hidden, action=action, obs_scale=scale)


def float16_check(env_id: str, options: Mapping[str, Any], weights: ActorWeights, games: int) -> dict[str, int]:
    """Play ``games`` games with the network at every other seat; count its decisions and the float16 copy's
    agreement with them."""
    env = cardenvs.make(env_id, **options)
    context = PolicyContext.from_env(env)
    agent = ComparingPolicy(context, weights, as_float16(weights))
    others = registered_names(env_id)
    for game in range(games):
        seats: list[Policy] = []
        for seat in range(context.num_players):
            opponent = others[(game + seat // 2) % len(others)]
            seats.append(agent if (seat + game) % 2 == 0 else make_policy(opponent, context, seed=game))
        play_episode(env, seats, seed=game)
    return {"games": games, "decisions": agent.decisions, "greedy_actions_equal": agent.equal}


def results_rows(markdown: str) -> list[dict[str, str]]:
    """The opponent rows of an ``experiments.training_results`` table, as dicts keyed by its header."""
    keys = ["opponent", "agent_score", "opponent_score", "agent_minus_opponent", "agent_win_rate", "games"]
    rows = []
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == len(keys):
            rows.append(dict(zip(keys, [cells[0].strip("`"), *cells[1:]], strict=True)))
    if not rows:
        raise ValueError("no results rows found: pass the Markdown that experiments.training_results printed")
    return list({row["opponent"]: row for row in rows}.values())  # a table printed twice: its last rows


def run_args(checkpoint: Path) -> dict[str, Any]:
    """The ``args.json`` of the run a checkpoint belongs to."""
    for folder in (checkpoint.parent, checkpoint.parent.parent):
        if (folder / "args.json").is_file():
            args: dict[str, Any] = json.loads((folder / "args.json").read_text())
            return args
    raise FileNotFoundError(f"no args.json beside {checkpoint} or one folder up: which game did it train on?")


def export(
    checkpoint: Path,
    name: str,
    command: str,
    budget: str,
    results: str,
    games: int,
    root: Path,
    notes: str = "",
    evaluation: str = "",
) -> Path:
    """Write the agent's weights and card under ``root/<game>/``; returns the card's path."""
    args = run_args(checkpoint)
    env_id = definition(args["game"]).env_id
    options = dict(args.get("options", {}))
    weights = ActorWeights.load(checkpoint)
    check = float16_check(env_id, options, weights, games)
    half = check["greedy_actions_equal"] == check["decisions"]
    stored = as_float16(weights) if half else weights
    context = PolicyContext.from_env(cardenvs.make(env_id, **options))
    folder = root / game_name(env_id)
    folder.mkdir(parents=True, exist_ok=True)
    npz = stored.save(folder / f"{name}.npz")
    card = {
        "name": f"{game_name(env_id)}/{name}",
        "env_id": env_id,
        "options": options,
        "layout_hash": context_layout_hash(context),
        "greedy": True,
        "dtype": "float16" if half else "float32",
        "float16_check": check,
        "weights_sha256": hashlib.sha256(npz.read_bytes()).hexdigest(),
        "training": {"command": command, "budget": budget, "checkpoint": str(checkpoint), "args": args},
        "results": results_rows(results),
        "evaluation": evaluation,
        "notes": notes,
    }
    path = npz.with_suffix(".json")
    path.write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def zoo_table(cards: Mapping[str, ZooCard] | None = None) -> str:
    """The Markdown table of the shipped agents for ``docs/zoo.md``
    (``python -m cardenvs.experiments.zoo_export --table``): per agent its game and options, budget, margin over
    random and over the bot it beats by least."""
    rows = [
        "| agent | trained on | budget | agent − `random` | closest bot: agent − bot | weights |",
        "|---|---|---|---|---|---|",
    ]
    for card in (cards or zoo_cards()).values():
        results = {row["opponent"]: row["agent_minus_opponent"] for row in card.data["results"]}
        hardest = card.closest_bot()
        options = ", ".join(f"{key}={value}" for key, value in card.data["options"].items()) or "default options"
        closest = f"`{hardest[0]}`: {hardest[1]}" if hardest else "–"
        budget = card.data["training"]["budget"]
        rows.append(
            f"| `{card.spec}` | `{card.env_id}` {options} | {budget} | {results.get('random', '–')} | {closest} "
            f"| {card.data['dtype']} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkpoint", type=Path, nargs="?", help="the run's .npz (final.npz or checkpoints/step_N.npz)")
    p.add_argument("--name", help="the agent's name within its game (zoo:<game>/<name>)")
    p.add_argument("--command", help="the command(s) that trained it")
    p.add_argument("--budget", help="its training budget, in a few words (steps, decisions, minutes)")
    p.add_argument("--results", type=Path, help="the output of experiments.training_results")
    p.add_argument("--evaluation", default="", help="the command that printed the results")
    p.add_argument("--notes", default="", help="anything else a user should know")
    p.add_argument("--games", type=int, default=300, help="games of the float16 check")
    p.add_argument("--root", type=Path, default=ZOO_ROOT, help="the zoo folder (default: the package's)")
    p.add_argument("--table", action="store_true", help="print docs/zoo.md's table of the shipped agents instead")
    ns = p.parse_args(argv)
    if ns.table:
        print(zoo_table(zoo_cards(None if ns.root == ZOO_ROOT else ns.root)))
        return
    missing = [flag for flag in ("checkpoint", "name", "command", "budget", "results") if getattr(ns, flag) is None]
    if missing:
        p.error(f"exporting needs {', '.join(missing)} (or --table)")
    results = ns.results.read_text(encoding="utf-8")
    card = export(ns.checkpoint, ns.name, ns.command, ns.budget, results, ns.games, ns.root, ns.notes, ns.evaluation)
    data = json.loads(card.read_text())
    check = data["float16_check"]
    print(f"{card}: {data['dtype']} ({check['greedy_actions_equal']} of {check['decisions']} greedy actions equal)")


if __name__ == "__main__":
    main()
