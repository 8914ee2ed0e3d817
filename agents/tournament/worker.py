"""Playing the games of a tournament: one :class:`GamePlayer` per process (or Ray actor).

A game's record depends only on its :class:`~agents.tournament.schedule.Job` (the env is reset with the deal's
seed and every policy is reset with a seed derived from it), so the same job gives the same record in any
process, in any order, on any backend.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import numpy as np

import cardenvs
from cardenvs.agents.base import Policy, PolicyContext
from cardenvs.agents.play import MoveClock, PolicyFault, play_episode
from cardenvs.agents.tournament.faults import Fault, GameFault
from cardenvs.agents.tournament.hooks import hooks_for, places_by_returns
from cardenvs.agents.tournament.schedule import Job
from cardenvs.agents.tournament.specs import Entrant, fingerprinted_policy
from cardenvs.core.events import jsonable

PolicySeeds = Literal["common", "independent"]
POLICY_SEEDS: tuple[PolicySeeds, ...] = get_args(PolicySeeds)


@dataclass(frozen=True)
class GameSetup:
    """What a worker needs to play any game of a tournament (picklable)."""

    env_id: str
    options: dict[str, Any]
    entrants: tuple[Entrant, ...]
    store_events: bool = False
    policy_seeds: PolicySeeds = "common"
    """``common``: a policy's random numbers follow the deal and seat only; ``independent``: the entrant too."""


@dataclass
class GameRecord:
    """The outcome of one game: one row of the tournament database."""

    deal: int
    seating: int
    seed: int
    seats: list[str]
    """Entrant label per seat."""
    returns: list[float]
    places: list[float]
    """Finishing place per seat (1 = best; ties share the mean place)."""
    truncated: bool
    decisions: int
    metrics: list[dict[str, float]]
    """Game-specific counters per seat (see :mod:`agents.tournament.metrics`)."""
    seconds: float = 0.0
    events: bytes | None = field(default=None, repr=False)
    """The zlib-compressed JSON event log, if the tournament keeps logs."""
    exchanges: list[dict[str, Any]] = field(default_factory=list, repr=False)
    """What policies that talk to a model recorded (each with its ``seat``): prompts, replies, tokens, latency
    (:attr:`agents.llm.LlmPolicy.exchanges`); stored in the database's ``llm_exchanges`` table."""

    def outcome(self) -> tuple[Any, ...]:
        """Everything determined by the job (not the timing): for comparing backends."""
        return (
            self.deal,
            self.seating,
            self.seed,
            self.seats,
            self.returns,
            self.places,
            self.truncated,
            self.decisions,
            self.metrics,
        )


class GamePlayer:
    """Holds one env and one policy instance per (entrant, seat); plays jobs into records."""

    def __init__(self, setup: GameSetup, clock: MoveClock | None = None):
        self.setup = setup
        self.clock = clock
        """Timed around every policy call (the watched worker processes enforce the move time limit with it)."""
        # The raw env: the order-enforcing wrapper only guards API misuse, and costs ~15% of a game here.
        self.env = cardenvs.make(setup.env_id, raw=True, **setup.options)
        self.context = PolicyContext.from_env(self.env)
        self.hooks = hooks_for(setup.env_id)
        self.num_players = self.context.num_players
        self._policies: dict[tuple[int, int], Policy] = {}

    def policy(self, entrant: int, seat: int) -> Policy:
        """The instance of ``entrant`` that plays ``seat`` (built on first use, reset before every game)."""
        key = (entrant, seat)
        if key not in self._policies:
            spec, expected = self.setup.entrants[entrant].spec, self.setup.entrants[entrant].fingerprint
            policy, fingerprint = fingerprinted_policy(spec, self.context, seed=entrant * 1_000 + seat)
            if expected and fingerprint != expected:
                raise RuntimeError(
                    f"the code of entrant {self.setup.entrants[entrant].label!r} ({spec}) changed while the tournament "
                    f"ran (fingerprint {expected}, now {fingerprint}); run the tournament again"
                )
            self._policies[key] = policy
        return self._policies[key]

    def play(self, job: Job) -> GameRecord:
        """Play one game; a failure raises :class:`~agents.tournament.faults.GameFault` naming the game."""
        start = time.perf_counter()
        labels = tuple(self.setup.entrants[e].label for e in job.seats)
        actions: list[int] = []
        record_action = (lambda _agent, action: actions.append(int(action))) if self.setup.store_events else None
        try:
            policies = [self.policy(entrant, seat) for seat, entrant in enumerate(job.seats)]
            result = play_episode(
                self.env,
                policies,
                seed=job.seed,
                on_decision=record_action,
                policy_seeds=self._policy_seeds(job),
                clock=self.clock,
            )
        except PolicyFault as fault:
            raise GameFault(Fault(job.deal, job.seating, labels, fault.seat, fault.kind, fault.message)) from fault
        except Exception as error:
            message = f"{type(error).__name__}: {error}"
            raise GameFault(Fault(job.deal, job.seating, labels, None, "exception", message)) from error
        events = result.events
        places = self.hooks.places(events, result.returns, self.env.unwrapped.options)
        metrics = self._metrics(events)
        exchanges: list[dict[str, Any]] = []
        for seat, policy in enumerate(policies):  # policies that count their own play (the llm: player)
            if callable(getattr(policy, "game_metrics", None)):
                metrics[seat].update(policy.game_metrics())  # type: ignore[attr-defined]
            exchanges += getattr(policy, "exchanges", None) or []
        return GameRecord(
            deal=job.deal,
            seating=job.seating,
            seed=job.seed,
            seats=list(labels),
            returns=[float(r) for r in result.returns],
            places=places if places is not None else places_by_returns(result.returns),
            truncated=result.truncated,
            decisions=result.decisions,
            metrics=metrics,
            seconds=time.perf_counter() - start,
            events=encode_events(events, actions) if self.setup.store_events else None,
            exchanges=exchanges,
        )

    def _policy_seeds(self, job: Job) -> list[int] | None:
        """Each seat's policy seed under ``independent`` seeds (``None``: play_episode's common seeds)."""
        if self.setup.policy_seeds == "common":
            return None
        return [
            int(np.random.SeedSequence([job.seed, seat, entrant]).generate_state(1)[0])
            for seat, entrant in enumerate(job.seats)
        ]

    def play_many(self, jobs: Sequence[Job]) -> list[GameRecord]:
        """Play several games (one task of a parallel backend)."""
        return [self.play(job) for job in jobs]

    def _metrics(self, events: list[dict[str, Any]]) -> list[dict[str, float]]:
        family = self.hooks.metrics
        counters = family.count(events, self.num_players) if family else [{} for _ in range(self.num_players)]
        for seat in counters:
            seat["games"] = 1.0
        return counters


def encode_events(events: list[dict[str, Any]], actions: list[int]) -> bytes:
    """A game's event log and its action ids (what a replay re-plays from the seed), compressed JSON."""
    return zlib.compress(json.dumps({"actions": actions, "events": events}, default=jsonable).encode())


def _decoded(blob: bytes) -> dict[str, Any]:
    stored = json.loads(zlib.decompress(blob))
    # Databases written before the actions were kept hold the bare event list.
    return stored if isinstance(stored, dict) else {"actions": None, "events": stored}


def decode_events(blob: bytes) -> list[dict[str, Any]]:
    """The event log stored with a record."""
    events: list[dict[str, Any]] = _decoded(blob)["events"]
    return events


def decode_actions(blob: bytes) -> list[int] | None:
    """The action ids stored with a record (``None`` for a database written before they were kept)."""
    actions: list[int] | None = _decoded(blob)["actions"]
    return actions
