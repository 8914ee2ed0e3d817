"""Playing whole episodes with one policy per seat."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from cardenvs.agents.base import Policy, PolicyContext, as_policy
from cardenvs.agents.search.information import InformationSets, NeedsInformationSets
from cardenvs.core.errors import ActionTypeError, IllegalActionError
from cardenvs.core.views import PublicView, policy_action, wants_public_view

PolicyFaultKind = Literal["exception", "illegal"]


class PolicyFault(RuntimeError):
    """A policy failed at its turn: its ``act()`` (or ``reset()``) raised (``kind="exception"``), or it chose an
    action that is not a legal action id (``kind="illegal"``: not an integer, or refused by the rules)."""

    def __init__(self, seat: int, policy: str, kind: PolicyFaultKind, message: str):
        super().__init__(f"the policy {policy!r} at seat {seat} failed ({kind}): {message}")
        self.seat, self.policy, self.kind, self.message = seat, policy, kind, message


class HarnessStop(RuntimeError):
    """Raised by a measuring harness's own player (e.g. the exploitability run's budget watch inside its local best
    response) to stop the whole run: it passes through :class:`PolicyFault`'s wrapping unchanged, since it is not
    the policy's failure."""


class MoveClock(Protocol):
    """Told when a policy starts and stops thinking (a watchdog elsewhere enforces a time limit)."""

    def start(self, seat: int) -> None: ...

    def stop(self) -> None: ...


@dataclass
class EpisodeResult:
    """Returns per seat, the number of decisions, and whether the step cap cut the game."""

    returns: list[float]
    decisions: int
    truncated: bool
    events: list[dict[str, Any]]


def play_episode(
    env: Any,
    policies: Sequence[Policy | Any],
    seed: int,
    on_decision: Callable[[str, int], None] | None = None,
    policy_seeds: Sequence[int] | None = None,
    clock: MoveClock | None = None,
) -> EpisodeResult:
    """Reset ``env`` with ``seed`` and play it out; ``policies[i]`` plays ``player_i`` (a :class:`Policy`, or
    anything with ``act(observation)``, or a function, see :class:`~agents.base.ForeignPolicy`).

    Each policy is reset with ``policy_seeds[i]``, by default ``seed * 1000 + i``: the deal and the seat alone
    decide a policy's random numbers (common random numbers across the policies that sit there).
    ``on_decision(agent, action)`` is called after each decision (for printing or logging). A policy with
    ``wants_public_view = True`` is asked ``act(observation, view)`` with its seat's
    :class:`~cardenvs.core.views.PublicView`.

    A policy that raises, returns something other than an integer action id, or chooses an illegal action stops
    the episode with a :class:`PolicyFault` naming its seat and name. ``clock`` (if given) is started before each
    call of a policy's ``reset()`` or ``act()`` and stopped after it (see :mod:`agents.tournament.processes`)."""
    env.reset(seed=seed)
    raw = env.unwrapped
    if not all(isinstance(p, Policy) for p in policies):
        context = PolicyContext.from_env(env)
        policies = [as_policy(p, context) for p in policies]
    seeds = list(policy_seeds) if policy_seeds is not None else [seed * 1_000 + i for i in range(len(policies))]
    if len(seeds) != len(policies):
        raise ValueError(f"policy_seeds has {len(seeds)} seeds for {len(policies)} policies")
    for seat, (policy, policy_seed) in enumerate(zip(policies, seeds, strict=True)):
        with _turn(policy, seat, clock):
            policy.reset(seed=policy_seed)
    views = seat_policies(raw, dict(enumerate(policies)))
    returns = dict.fromkeys(raw.possible_agents, 0.0)
    decisions = 0
    truncated = False
    for agent in env.agent_iter():
        obs, reward, terminated, trunc, _ = env.last()
        returns[agent] += reward
        if terminated or trunc:
            truncated = truncated or trunc
            env.step(None)
            continue
        player = raw.player_index(agent)
        with _turn(policies[player], player, clock):
            action = policy_action(policies[player], obs, views.get(player))
        try:
            env.step(action)
        except (IllegalActionError, ActionTypeError) as error:
            raise PolicyFault(player, policy_name(policies[player]), "illegal", str(error)) from error
        decisions += 1
        if on_decision is not None:
            on_decision(agent, action)
    return EpisodeResult([returns[a] for a in raw.possible_agents], decisions, truncated, raw.events.events)


def seat_policies(table: Any, policies: Mapping[int, Any]) -> dict[int, PublicView]:
    """Hand ``policies`` (by seat) what they ask of the game ``table`` has just dealt (an env, or a rules engine
    played out on its own): the :class:`InformationSets` to each policy with ``sit`` (a search agent, an ``llm:``
    player: determinizations, never the true deal), and, returned, the :class:`PublicView` of each seat whose
    policy has ``wants_public_view``, to pass to :func:`~cardenvs.core.views.policy_action`.

    Every game loop calls it once its policies are reset for a new game (a new game has a new event log)."""
    tables = InformationSets(table)
    for policy in policies.values():
        if isinstance(policy, NeedsInformationSets):
            policy.sit(tables)
    return {seat: tables.public_view(seat) for seat, policy in policies.items() if wants_public_view(policy)}


def policy_name(policy: Any) -> str:
    """What an error calls ``policy``."""
    return str(getattr(policy, "name", "") or type(policy).__name__)


class _turn:
    """A policy's turn: timed by ``clock``; whatever it raises becomes a :class:`PolicyFault`."""

    def __init__(self, policy: Any, seat: int, clock: MoveClock | None):
        self.policy, self.seat, self.clock = policy, seat, clock

    def __enter__(self) -> None:
        if self.clock is not None:
            self.clock.start(self.seat)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _trace: Any) -> None:
        if self.clock is not None:
            self.clock.stop()
        if isinstance(error, Exception) and not isinstance(error, PolicyFault | HarnessStop):
            fault: PolicyFaultKind = "illegal" if isinstance(error, ActionTypeError) else "exception"
            raise PolicyFault(self.seat, policy_name(self.policy), fault, f"{type(error).__name__}: {error}") from error
