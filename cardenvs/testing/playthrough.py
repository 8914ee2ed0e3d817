"""Readable playthroughs (as OpenSpiel's): a scripted start, then each decision with its actor, the legal actions by
name, the action taken, and per seat the observation's feature groups that changed, by name.

Where the game has a position notation the playthrough starts from a written position (shown in full); otherwise
from a seeded deal. Random legal actions are drawn from a generator of their own, so the text is reproducible and
a diff shows what changed in the rules, the masks or the observations.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from cardenvs.core.aec import CardGameEnv
from cardenvs.testing.positions import supports_positions
from cardenvs.testing.rollout import EnvSpec, build_env, random_legal_action

LEGAL_SHOWN = 16
"""Legal action names listed per decision (the rest are counted)."""


def _changed_groups(env: CardGameEnv, before: np.ndarray, after: np.ndarray) -> list[str]:
    return [name for name, part in env.layout.slices.items() if (before[part] != after[part]).any()]


def playthrough(
    env_id: EnvSpec, options: Mapping[str, Any], position: str | None = None, seed: int = 0, steps: int = 30
) -> str:
    """The playthrough of ``steps`` decisions from ``position`` (or a seeded deal), as text."""
    env = build_env(env_id, options)
    env.reset(seed=seed, options=None if position is None else {"position": position})
    rng = np.random.default_rng(seed + 1_000_003)
    lines = [f"# {env.definition.env_id} options={json.dumps(dict(options), sort_keys=True)} seed={seed}"]
    if supports_positions(env):
        lines += ["## start", env.position().rstrip()]
    else:
        lines += ["## start (seeded deal)", (env.game.render_text() if env.game is not None else "").rstrip()]
    lines.append("## decisions")
    seen = {a: env.observe(a)["observation"] for a in env.possible_agents}
    for step in range(steps):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        legal = [env.action_name(int(a)) for a in np.flatnonzero(mask)]
        more = f", … ({len(legal)} in all)" if len(legal) > LEGAL_SHOWN else ""
        action = random_legal_action(mask, rng)
        lines.append(f"{step:3d} {agent} legal: {', '.join(legal[:LEGAL_SHOWN])}{more}")
        lines.append(f"    takes {env.action_name(action)}")
        env.step(action)
        for a in env.possible_agents:
            now = env.observe(a)["observation"] if env.game is not None else seen[a]
            changed = _changed_groups(env, seen[a], now)
            if changed:
                lines.append(f"    {a} sees changes in: {', '.join(changed)}")
            seen[a] = now
        rewards = {a: r for a, r in env.rewards.items() if r}
        if rewards:
            lines.append(f"    rewards: {json.dumps({a: round(r, 6) for a, r in rewards.items()})}")
    return "\n".join(lines) + "\n"
