"""The gauntlet: a fixed, versioned suite of opponents per game, and the tournaments that measure a policy on it.

Each opponent is met in its own duplicate-deal tournament of the policy against it (the two fill the seats
alternately, every seating of each deal is played), on fixed deal seeds, at the game's default player count.

* ``gauntlet-v1``: random play and every rule-bot style of the game.
* ``gauntlet-v2`` (the default): those, the style players of :mod:`agents.yardstick` (never-lie, always- and
  never-challenge players in the bluffing games, greedy and cautious players in the others) and the strongest
  zoo agent, with v1's budgets (:mod:`agents.benchmark.opponents`), each game played with the options its zoo
  agent was trained and measured on (:data:`OPTIONS_V2`). A pairing already stored the other way round is reused
  with the roles swapped where that gives exactly the same games (:mod:`agents.benchmark.mirror`).

A version never changes once published: new opponents or budgets make a new version, so scores of one version
stay comparable.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardenvs.agents.benchmark.mirror import swapped_result, swapped_seatings
from cardenvs.agents.benchmark.opponents import OPPONENTS_V2, opponent_spec, style_line
from cardenvs.agents.benchmark.scoring import OPPONENT, POLICY
from cardenvs.agents.registry import POLICIES
from cardenvs.agents.tournament.runner import DEFAULT_MOVE_TIMEOUT, Tournament, TournamentResult
from cardenvs.registry import definition, game_name

V1, V2 = "gauntlet-v1", "gauntlet-v2"
SUITE = V2
"""The default version."""
SUITES = (V1, V2)
SEED = 20261125
"""The tournament seed of every gauntlet tournament (both versions): the same deals for every policy and opponent."""

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
GAMES_V2: dict[str, int] = dict(GAMES_V1)
"""gauntlet-v2's games per opponent: v1's (docs/benchmark.md has the time a full leaderboard takes)."""
OPTIONS_V2: dict[str, dict[str, Any]] = {"zheng_shang_you": {"episode": "deal"}}
"""gauntlet-v2's game options where they are not the defaults: those on the card of the suite's zoo agent, so no
agent is seated in a game it never saw. Zheng Shang You plays single deals (4 players and place rewards are its
defaults): its default episode is a whole match, with card exchanges between deals, which the zoo agent never
played (docs/benchmark.md measures what that did to the board)."""


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
    reuse_swapped: bool = False
    """Take a pairing's games from its stored swapped twin where that is exact (v2 on; v1 stays as published)."""

    def spec(self, opponent: str) -> str:
        """The spec that plays the opponent labelled ``opponent``."""
        if opponent not in self.opponents:
            raise ValueError(f"{opponent!r} is not in {self.version} for {self.env_id}; it has {self.opponents}")
        return opponent_spec(game_name(self.env_id), opponent)

    def folder(self) -> str:
        """The folder of the suite's games: the version, and the options where the suite sets any (games played
        under other options are never resumed as these)."""
        chosen = "".join(f"-{key}_{value}" for key, value in sorted(self.options.items()))
        return self.version + chosen

    def described(self) -> list[dict[str, str]]:
        """Every opponent's label, spec and one-line style, in the suite's order."""
        game = game_name(self.env_id)
        return [{"name": o, "spec": self.spec(o), "style": style_line(game, o)} for o in self.opponents]

    def tournament(self, policy: str, opponent: str, games: int | None = None) -> Tournament:
        """The tournament of ``policy`` against one opponent (``games`` overrides the suite's budget)."""
        return self.pairing(policy, self.spec(opponent), games)

    def pairing(self, policy: str, opponent_spec: str, games: int | None = None) -> Tournament:
        """The tournament of ``policy`` against any spec on the suite's deals (its stored twin, say)."""
        entrants = [f"{POLICY}={policy}", f"{OPPONENT}={opponent_spec}"]
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
        version = Path(out_dir) / game_name(self.env_id) / self.folder()
        results = {}
        for opponent in self.opponents:
            tournament, spec = self.tournament(policy, opponent, games), self.spec(opponent)
            db = version / slug(policy) / slug(spec) / "tournament.sqlite"
            twin_db = version / slug(spec) / slug(policy) / "tournament.sqlite"
            if self.reuse_swapped and spec != policy and twin_db.exists():
                twin = self.pairing(spec, policy, games)
                seatings = swapped_seatings(twin, tournament)
                if seatings is not None:
                    stored = twin.run(twin_db, workers=workers, progress=progress, move_timeout=move_timeout)
                    results[opponent] = swapped_result(stored, tournament, seatings)
                    continue
            results[opponent] = tournament.run(db, workers=workers, progress=progress, move_timeout=move_timeout)
        return results


def gauntlet(env_id: str, version: str = SUITE) -> Gauntlet:
    """The suite of ``version`` for a game."""
    if version not in SUITES:
        raise ValueError(f"unknown gauntlet version {version!r}; there are {', '.join(SUITES)}")
    env_id = definition(env_id).env_id
    game = game_name(env_id)
    opponents, budgets = (OPPONENTS_V1, GAMES_V1) if version == V1 else (OPPONENTS_V2, GAMES_V2)
    if game not in opponents:
        raise ValueError(f"{version} has no suite for {game}; it covers {sorted(opponents)}")
    options = dict(OPTIONS_V2.get(game, {})) if version == V2 else {}
    return Gauntlet(version, env_id, opponents[game], budgets[game], SEED, options, reuse_swapped=version == V2)


def rules_text(chosen: Mapping[str, Any]) -> str:
    """How the pages name a suite's rules: the game's defaults, and the options the suite sets (``chosen``)."""
    changed = ", ".join(f"{key}={value}" for key, value in sorted(chosen.items()))
    return "the game's default rules" + (f" with {changed}" if changed else "")


def shipped_policies(env_id: str) -> list[str]:
    """Every policy shipped for a game: random, its rule bots and its zoo agents (the leaderboard's rows)."""
    from cardenvs.agents.registry import ZOO

    game = game_name(env_id)
    bots = [name for name, (g, _) in POLICIES.items() if g == game]
    return ["random", *bots, *ZOO.get(game, {}).values()]


def slug(spec: str) -> str:
    """A folder name for a spec: readable, and unique through a hash of the whole spec."""
    readable = re.sub(r"[^0-9A-Za-z]+", "_", spec.rsplit("/", 1)[-1])[-40:].strip("_")
    return f"{readable}-{hashlib.sha256(spec.encode()).hexdigest()[:8]}"
