"""The policy protocol.

A policy sees only what its seat may see: the observation dict (``observation`` vector and
``action_mask``) plus the public description of the game in a :class:`PolicyContext` (options, the named
observation layout, the action table). It never touches the engine, so a policy cannot cheat.

Anything with ``act(observation) -> int`` is a policy, and so is a plain function of the observation:
:class:`Policy` is an optional base (it gives ``reset``, ``name``, a seeded ``rng`` and named feature views),
and :class:`ForeignPolicy` adapts the rest so that the players can call ``act`` and ``reset`` on anything.
A policy that sets ``wants_public_view = True`` is called ``act(observation, view)`` with its seat's
:class:`~cardenvs.core.views.PublicView` (the claims, challenges, reveals and tricks it has seen).
A policy that chooses among complete moves (a Zheng Shang You combination takes several action ids) gets its
seat's legal moves, and has their sub-steps played, through :mod:`cardenvs.agents.moves`.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.layout import ActionTable, ObservationLayout
from cardenvs.core.views import PublicView, checked_action


@dataclass(frozen=True)
class PolicyContext:
    """What a policy may know about the game it plays, whatever its seat: the same for every seat and every deal,
    so a policy reads it once (in ``__init__``) and its observations at each decision.

    >>> import cardenvs
    >>> context = PolicyContext.from_env(cardenvs.make("zheng_shang_you-v0"))
    >>> context.layout["hand"], context.actions["pick"].offset, context.actions.name(43)
    (slice(0, 54, None), 42, 'pick(3♦)')
    """

    env_id: str
    """The env id played, e.g. ``"zheng_shang_you-v0"``."""
    options: Any
    """The game's validated options dataclass (player count, variants, reward mode: every field of the docs page's
    options table)."""
    layout: ObservationLayout
    """The named groups of ``observation["observation"]``: ``layout["hand"]`` is the slice of feature group
    ``hand``, ``layout.features["hand"]`` its :class:`~cardenvs.core.layout.Feature` (``offset``, ``size``,
    bounds, description); the game's docs page has the table."""
    actions: ActionTable
    """The action ids in named blocks: ``actions["pick"]`` is a :class:`~cardenvs.core.layout.ActionBlock`
    (``offset``: its first id, ``size``, ``labels``; ``actions["pick"][i]`` is the id of its ``i``-th label) and
    ``actions.name(id)`` reads an id, e.g. ``"pick(3♦)"``; ``actions.size`` is the number of action ids."""
    num_players: int
    """Seats at the table. Observations are seat-relative: per-seat features list me first, then the others in
    play order."""

    @classmethod
    def from_env(cls, env: Any) -> PolicyContext:
        """The context of a cardenvs env (wrapped or raw)."""
        raw = env.unwrapped
        return cls(raw.definition.env_id, raw.options, raw.layout, raw.action_table, len(raw.possible_agents))


class Policy(ABC):
    """Chooses an action id from an observation dict; one instance may play any seat."""

    name: str = "policy"
    wants_public_view: bool = False
    """Set ``True`` to be called ``act(observation, view)`` with the seat's public event view."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        self.context = context
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (and reseed, if ``seed`` is given)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        """A legal action id for this observation."""

    def played_data(self) -> Iterator[bytes]:
        """What the policy plays from beyond its code and its spec's own file (a later step's earlier networks, read
        from other files): part of its fingerprint (:func:`agents.specs.fingerprint`). None by default."""
        return iter(())

    def inner_policies(self) -> Iterator[tuple[str, Policy]]:
        """The policies it plays through, each with the spec that built it (a searcher's rollout and prior): their
        fingerprints are part of its own (:func:`agents.specs.fingerprint`). None by default."""
        return iter(())

    def view(self, observation: Mapping[str, np.ndarray], feature: str) -> np.ndarray:
        """One named feature group of the observation vector."""
        return observation["observation"][self.context.layout[feature]]


class PlanningPolicy(Policy):
    """A policy that settles a whole composite move at once and then plays its sub-steps in turn.

    :meth:`decide` returns the first action and may leave the rest in ``self.plan``; the plan is followed while
    each planned action stays legal and dropped otherwise (or at a new episode)."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed)
        self.plan: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.plan = []

    def act(self, observation: Mapping[str, np.ndarray]) -> int:
        if self.plan and observation["action_mask"][self.plan[0]]:
            return self.plan.pop(0)
        self.plan = []
        return self.decide(observation)

    @abstractmethod
    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        """The first action of a fresh decision (sub-steps still to come go into ``self.plan``)."""


class ForeignPolicy(Policy):
    """Any object with ``act(observation) -> int`` (optionally ``reset(seed)`` or ``reset()``, ``name`` and
    ``wants_public_view``), or a plain function of the observation, as a :class:`Policy`."""

    def __init__(self, inner: Any, context: PolicyContext, seed: int | None = None, name: str | None = None):
        super().__init__(context, seed)
        act = getattr(inner, "act", None)
        if act is None and (isinstance(inner, type) or not callable(inner)):
            raise TypeError(f"{inner!r} is not a policy: it has no act(observation) method and is not a function")
        self.inner = inner
        self._act: Callable[..., Any] = act if act is not None else inner
        self.name = name or str(getattr(inner, "name", "") or getattr(inner, "__name__", type(inner).__name__))
        self.wants_public_view = getattr(inner, "wants_public_view", False) is True
        self._reset: Callable[..., Any] | None = getattr(inner, "reset", None)
        self._reset_takes_seed = self._reset is not None and _takes_an_argument(self._reset)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self._reset is not None:
            self._reset(seed) if self._reset_takes_seed else self._reset()

    def act(self, observation: Mapping[str, np.ndarray], view: PublicView | None = None) -> int:
        return checked_action(self._act(observation, view) if self.wants_public_view else self._act(observation), self)


def as_policy(candidate: Any, context: PolicyContext, seed: int | None = None) -> Policy:
    """``candidate`` itself if it is a :class:`Policy`, else wrapped in a :class:`ForeignPolicy`."""
    return candidate if isinstance(candidate, Policy) else ForeignPolicy(candidate, context, seed)


def _takes_an_argument(function: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: assume the protocol's reset(seed)
        return True
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters)
