"""Golden transcripts: one seeded game per env, rendered to text, to diff against a stored copy."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from cardenvs.testing.rollout import EnvSpec, build_env, random_legal_action


def transcript(env_id: EnvSpec, options: Mapping[str, Any], seed: int = 0) -> str:
    """A readable record of a seeded random game: opening table, every decision (with a digest of the
    actor's observation), every event's public part, the closing table and the rewards."""
    env = build_env(env_id, {**options, "render_mode": "ansi"})
    env.reset(seed=seed)
    rng = np.random.default_rng(seed + 1_000_003)
    lines = [
        f"# {env.definition.env_id} options={json.dumps(dict(options), sort_keys=True)} seed={seed}",
        env.render() or "",
    ]
    seen = 0

    def new_events() -> None:
        nonlocal seen
        for event in env.events.events[seen:]:
            who = "" if event["player"] is None else f" player_{event['player']}"
            lines.append(f"      · {event['kind']}{who} {json.dumps(event['public'], sort_keys=True, default=str)}")
        seen = len(env.events.events)

    new_events()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = random_legal_action(obs["action_mask"], rng)
        digest = hashlib.sha1(obs["observation"].tobytes()).hexdigest()[:10]
        lines.append(f"{env.num_steps:5d} {agent:9s} {env.action_name(action):20s} obs:{digest}")
        env.step(action)
        new_events()
    lines.append(env.render() or "")
    lines.append("rewards: " + json.dumps({a: round(r, 6) for a, r in totals.items()}))
    return "\n".join(lines) + "\n"
