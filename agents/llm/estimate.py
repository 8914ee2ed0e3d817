"""What an ``llm:`` run will cost, estimated before it starts from one random game of the same rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import cardenvs
from cardenvs.core.events import seen_by
from cardenvs.text import seat_prompt

CHARS_PER_TOKEN = 4.0
"""A rough rule for English-like text; the server's own counts replace it once the run has started."""


@dataclass(frozen=True)
class CostEstimate:
    """Moves the model will be asked for, and the prompt tokens they take (before any retry)."""

    moves: int
    prompt_tokens: int

    def text(self) -> str:
        return f"expected cost: about {self.moves} moves asked, about {self.prompt_tokens} prompt tokens"


def estimate_cost(env_id: str, options: dict[str, Any], seats: int, seed: int = 0, sampled: int = 20) -> CostEstimate:
    """The cost of ``seats`` seat-games (a game at one seat each) of ``env_id``, from one random game: the fresh
    moves (not sub-steps) per seat, and the mean prompt length of up to ``sampled`` of them."""
    env = cardenvs.make(env_id, raw=True, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves, lengths = 0, list[int]()
    for _ in env.agent_iter():
        game = env.game
        assert game is not None
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            env.step(None)
            continue
        if not game.move_in_progress():
            moves += 1
            if len(lengths) < sampled:
                seat = game.current_player
                lengths.append(len(seat_prompt(env_id, game, seat, [seen_by(e, seat) for e in game.events]).text))
        env.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    per_seat = moves / len(env.possible_agents)
    tokens_per_move = (sum(lengths) / max(len(lengths), 1)) / CHARS_PER_TOKEN
    return CostEstimate(round(per_seat * seats), round(per_seat * seats * tokens_per_move))
