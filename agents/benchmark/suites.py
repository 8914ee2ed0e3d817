"""The gauntlet: a fixed, versioned suite of opponents per game, and the tournaments that measure a policy on it.

``gauntlet-v1``, per game at its default player count: random play and every rule-bot style of the game (the
zoo's trained agents join in a later version, once they are shipped), each met in its own duplicate-deal
tournament of the policy against that opponent (the two fill the seats alternately, every seating of each deal
is played), on fixed deal seeds. A version never changes once published: new opponents or budgets make a new
version, so scores of one version stay comparable.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardenvs.agents.benchmark.scoring import OPPONENT, POLICY
from cardenvs.agents.registry import POLICIES
from cardenvs.agents.tournament.runner import DEFAULT_MOVE_TIMEOUT, Tournament, TournamentResult
from cardenvs.registry import definition, game_name

SUITE = "gauntlet-v1"
SEED = 20261125
"""The tournament seed of every gauntlet-v1 tournament: the same deals for every policy and opponent."""

OPPONENTS_V1: dict[str, tuple[str, ...]] = {
    "verish_ne_verish": ("random", "verish_ne_verish/rule"),
    "yukushi": ("random", "yukushi/honest", "yukushi/bluffer", "yukushi/counter"),
    "kyuuri": ("random", "kyuuri/rule", "kyuuri/thrifty"),
    "goninkan": ("random", "goninkan/rule"),
    "yoninkan": ("random", "yoninkan/rule"),
    "zheng_shang_you": ("random", "zheng_shang_you/rule", "zheng_shang_you/greedy"),
}
GAMES_V1: dict[str, int] = {
    "verish_ne_verish": 1200,
    "yukushi": 1200,
    "kyuuri": 1200,
    "goninkan": 1200,
    "yoninkan": 900,
    "zheng_shang_you": 600,
}
"""Games per opponent (whole deals' seatings), chosen for a margin interval of about ±0.04 points a seat against
each rule bot of the bluffing games (measured on Yukushi: ±0.034 and ±0.037) within the budget of 5 minutes on 2
cores for a policy as fast as the rule bots. Measured per game with the rule bot and 2 workers (docs/benchmark.md):
Yoninkan's and Zheng Shang You's games are long (133 and 125 ms a game against 9–16 ms elsewhere), so they play
900 and 600 games, about 4 minutes each; their leaderboards show the intervals that gives."""


@dataclass(frozen=True)
class Gauntlet:
    """One game's suite of a version."""

    version: str
    env_id: str
    opponents: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    """Game options (empty: the default player count and rules)."""

    def tournament(self, policy: str, opponent: str, games: int | None = None) -> Tournament:
        """The tournament of ``policy`` against one opponent (``games`` overrides the suite's budget)."""
        if opponent not in self.opponents:
            raise ValueError(f"{opponent!r} is not in {self.version} for {self.env_id}; it has {self.opponents}")
        entrants = [f"{POLICY}={policy}", f"{OPPONENT}={opponent}"]
        return Tournament(self.env_id, entrants, games=games or self.games, options=dict(self.options), seed=self.seed)

    def play(
        self,
        policy: str,
        out_dir: str | Path,
        games: int | None = None,
        workers: int = 2,
        progress: bool = False,
        move_timeout: float | None = DEFAULT_MOVE_TIMEOUT,
    ) -> dict[str, TournamentResult]:
        """Play (or resume, or find stored) every tournament of ``policy``; results by opponent. A failed game
        (see :meth:`Tournament.run <agents.tournament.runner.Tournament.run>`) stops it with its fault."""
        folder = Path(out_dir) / game_name(self.env_id) / self.version / slug(policy)
        results = {}
        for opponent in self.opponents:
            tournament = self.tournament(policy, opponent, games)
            db = folder / slug(opponent) / "tournament.sqlite"
            results[opponent] = tournament.run(db, workers=workers, progress=progress, move_timeout=move_timeout)
        return results


def gauntlet(env_id: str, version: str = SUITE) -> Gauntlet:
    """The suite of ``version`` for a game."""
    if version != SUITE:
        raise ValueError(f"unknown gauntlet version {version!r}; there is {SUITE}")
    env_id = definition(env_id).env_id
    game = game_name(env_id)
    if game not in OPPONENTS_V1:
        raise ValueError(f"{SUITE} has no suite for {game}; it covers {sorted(OPPONENTS_V1)}")
    return Gauntlet(SUITE, env_id, OPPONENTS_V1[game], GAMES_V1[game], SEED)


def shipped_policies(env_id: str) -> list[str]:
    """Every policy shipped for a game: random, its rule bots and its zoo agents (the leaderboard's rows)."""
    from cardenvs.agents.registry import ZOO

    game = game_name(env_id)
    bots = [name for name, (g, _) in POLICIES.items() if g == game]
    return ["random", *bots, *(f"zoo:{name}" for name in sorted(ZOO.get(game, {})))]


def slug(spec: str) -> str:
    """A folder name for a spec: readable, and unique through a hash of the whole spec."""
    readable = re.sub(r"[^0-9A-Za-z]+", "_", spec.rsplit("/", 1)[-1])[-40:].strip("_")
    return f"{readable}-{hashlib.sha256(spec.encode()).hexdigest()[:8]}"
