"""The rules-engine protocol every game implements, and the definition that registers a game.

A rules engine is pure game logic, indexed by player (``0..n-1``), with no PettingZoo in sight:

* ``current_player`` is the player to decide (``TERMINAL`` once the game is over);
* ``legal_mask()`` is the exact action mask of that player, ``illegal_reason(a)`` says why ``a`` is not legal;
* ``apply(a)`` performs one decision (a whole move or one sub-step of a composite move);
* ``legal_moves()`` lists complete moves from the current decision point and ``move_actions(m)`` the
  action ids that make move ``m``: search agents, bots and the conformance kit use them;
  ``move_in_progress()`` tells whether some sub-steps of a composite move have been taken;
* ``observation(p)`` is player ``p``'s seat-relative view, laid out by ``layout``;
* ``take_rewards()`` hands over rewards earned since the last call (terminal, or per game of a match);
* ``events`` is the structured log; ``privileged_state()`` the full state, for critics and debugging;
* ``resample_hidden(p, rng)`` re-deals every card ``p`` cannot see (the conformance kit's leak test);
* ``card_multiset()`` lists every card wherever it lies (the conservation check).

The single PettingZoo adapter (:mod:`cardenvs.core.aec`) turns any such engine into an AEC env.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, ClassVar, Generic, Self, TypeVar

import numpy as np

from cardenvs.core.copying import shallow_copy
from cardenvs.core.errors import IllegalActionError
from cardenvs.core.events import EventLog
from cardenvs.core.layout import ActionTable, ObservationLayout
from cardenvs.core.manifest import OpenSpielTraits, Reference, check_reference, load

TERMINAL = -1
"""``current_player`` of a finished game."""

_IMMUTABLE = frozenset({int, float, bool, str, tuple, type(None), frozenset, np.int64, np.float64})
"""Member types a clone shares without looking further."""

OptionsT = TypeVar("OptionsT")


class RulesEngine(ABC, Generic[OptionsT]):
    """Base class of the pure rules engines (see the module docstring for the protocol)."""

    options: OptionsT
    num_players: int
    current_player: int
    events: EventLog
    layout: ObservationLayout
    actions: ActionTable

    _rng: np.random.Generator | None = None
    _rng_state: tuple[type[np.random.BitGenerator], Mapping[str, Any]] | None = None
    """A clone's generator, not built yet: its bit generator's type and state (see :meth:`_clone_members`)."""

    @property
    def rng(self) -> np.random.Generator:
        """The generator later deals of a match come from."""
        if self._rng is None:
            if self._rng_state is None:
                raise AttributeError(f"{type(self).__name__} has no generator yet")
            kind, state = self._rng_state
            bits = kind(0)  # seeding with a constant is the cheap way to build one; the state replaces it
            bits.state = state
            self._rng, self._rng_state = np.random.Generator(bits), None
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng, self._rng_state = value, None

    @property
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def num_actions(self) -> int:
        return self.actions.size

    _mask_cache: np.ndarray | None = None

    def legal_mask(self) -> np.ndarray:
        """Exact ``int8`` mask over all action ids for ``current_player``.

        Cached until the next action: treat it as read-only. The cache is dropped in two places only, after
        :meth:`apply` and in :meth:`resample_hidden`; engines never reset it by hand (code that changes an
        engine's state outside those, e.g. a scenario test, must set ``_mask_cache = None`` itself)."""
        if self._mask_cache is None:
            self._mask_cache = self._legal_mask()
        return self._mask_cache

    @abstractmethod
    def _legal_mask(self) -> np.ndarray:
        """Build the exact mask of the current decision point."""

    def legal_actions(self) -> list[int]:
        """Legal action ids of ``current_player``, ascending."""
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def illegal_reason(self, action: int) -> str | None:
        """``None`` if ``action`` is legal now, else a sentence saying why it is not."""
        if not 0 <= action < self.actions.size:
            last = self.actions.size - 1
            return f"action ids are 0..{last} ({self.describe_action(0)} … {self.describe_action(last)})"
        if self.current_player == TERMINAL:
            return "the game is over"
        if self.legal_mask()[action]:
            return None
        return self._why_illegal(action)

    @abstractmethod
    def _why_illegal(self, action: int) -> str:
        """Why an in-range action is masked out at a live decision point (the game's own words)."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Perform a legal action (the caller has checked legality)."""

    def apply(self, action: int) -> None:
        """Perform ``action`` for ``current_player``; raise :class:`IllegalActionError` with the reason if illegal."""
        if self.current_player == TERMINAL:
            raise IllegalActionError("the game is over; no action is legal")
        if not 0 <= action < self.actions.size or not self.legal_mask()[action]:
            reason = self.illegal_reason(action) or "it is masked out"
            raise IllegalActionError(
                f"action {action} ({self.describe_action(action)}) is illegal for player "
                f"{self.current_player}: {reason}. Legal now: {self.describe_legal()}"
            )
        self._mask_cache = None
        self._apply(action)
        self._mask_cache = None  # the one place the mask cache is dropped after a change (see legal_mask)

    @abstractmethod
    def legal_moves(self) -> list[Hashable]:
        """Every complete move the current player can still make from this decision point."""

    @abstractmethod
    def move_actions(self, move: Hashable) -> list[int]:
        """The action ids, from the current decision point, that make ``move``."""

    def move_in_progress(self) -> bool:
        """Whether the current player is part-way through a composite move (some sub-steps taken)."""
        return False

    observer: ClassVar[Observer | None] = None
    """How the game is seen (layout, encoder, picture), attached by its definition: see :meth:`observed_by`."""

    @classmethod
    def observed_by(cls, observer: Observer) -> None:
        """Attach the game's :class:`Observer` (its definition module does, so the rules never import it)."""
        cls.observer = observer

    def _observer(self) -> Observer:
        if self.observer is None:
            raise NotImplementedError(f"{type(self).__name__} has no observer; its definition attaches one")
        return self.observer

    def observation(self, player: int) -> np.ndarray:
        """Seat-relative ``float32`` observation of ``player``, laid out by ``self.layout``."""
        observer = self.observer or self._observer()  # the step path: no call unless the observer is missing
        return observer.encode(self, player, None)

    def observe_into(self, player: int, out: np.ndarray) -> None:
        """Write ``observation(player)`` into ``out`` (batched stepping)."""
        observer = self.observer or self._observer()
        observer.encode(self, player, out)

    _rewards: np.ndarray | None = None
    """Rewards earned and not yet handed over (engines assign it when a game or deal scores)."""

    def take_rewards(self) -> Sequence[float] | np.ndarray | None:
        """Rewards earned since the last call, one per player, or ``None`` if there are none."""
        rewards, self._rewards = self._rewards, None
        return rewards

    @abstractmethod
    def privileged_state(self) -> dict[str, Any]:
        """The complete state as JSON-serialisable data (all hands): for critics and debugging only."""

    def resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        """A copy in which every card ``observer`` cannot see is re-dealt among the hidden places."""
        world = self._resample_hidden(observer, rng)
        world._mask_cache = None  # the copy's state changed outside apply()
        return world

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        """The re-dealt copy of :meth:`resample_hidden`, which every engine implements (the caller drops its mask
        cache)."""
        raise NotImplementedError(f"{type(self).__name__} implements no _resample_hidden (the re-deal of hidden cards)")

    @abstractmethod
    def card_multiset(self) -> list[int]:
        """Every card of the game wherever it lies (hands, piles, stock, discards), for conservation checks."""

    def render_text(self) -> str:
        """A readable, omniscient picture of the table (all hands shown)."""
        return self._observer().render(self)

    def clone(self) -> Self:
        """An independent deep copy sharing the logged events, which never change once logged (engines whose
        members :meth:`_clone_members` knows use it instead)."""
        return copy.deepcopy(self, {id(event): event for event in self.events.events})

    def share_generator(self, twin: RulesEngine[Any]) -> None:
        """Give ``twin`` (a fresh copy of this engine) this generator's state, built only when the twin first draws:
        the same draws from here, independently. Building a generator costs more than the rest of a clone."""
        if self._rng is not None:
            bits = self._rng.bit_generator
            twin._rng, twin._rng_state = None, (type(bits), bits.state)
        else:
            twin._rng, twin._rng_state = None, self._rng_state

    def _clone_members(self) -> Self:
        """A cheap independent copy for search (thousands of clones per decision), by the type of each member:
        NumPy arrays are copied (read-only ones, shared tables, are shared), lists one level deep (their items
        must be immutable), the event log forked (copy-on-write, see :meth:`EventLog.fork`), members with a
        ``clone()`` method cloned, and the generator's state taken (the copy builds its generator only if it
        deals again, which is most of what copying a generator costs). Everything else (options, layouts,
        action tables, numbers, strings, tuples) is immutable and shared."""
        new = shallow_copy(self)
        members = new.__dict__
        for name, value in members.items():
            kind = type(value)
            if kind in _IMMUTABLE:
                continue
            if kind is np.ndarray:
                if value.flags.writeable:
                    members[name] = value.copy()
            elif kind is list:
                members[name] = list(value)
            elif kind is EventLog:
                members[name] = value.fork()
            elif name == "_rng":
                self.share_generator(new)
            elif hasattr(kind, "clone"):
                members[name] = value.clone()
        return new

    def describe_action(self, action: int) -> str:
        """Readable name of an action id."""
        return self.actions.name(action) if 0 <= action < self.actions.size else "out of range"

    def describe_legal(self, limit: int = 12) -> str:
        """Names of the legal actions (the first ``limit``) for error messages."""
        legal = self.legal_actions()
        names = [f"{a}={self.describe_action(a)}" for a in legal[:limit]]
        more = f", … ({len(legal)} in all)" if len(legal) > limit else ""
        return ", ".join(names) + more


@dataclass(frozen=True)
class Observer:
    """How a game is seen, kept apart from its rules: modules that read the engine (the encoder, the renderer),
    brought together with it by the game's definition (:meth:`RulesEngine.observed_by`): the one way, the same for
    every game, to see an engine (no engine overrides ``observation``, ``observe_into`` or ``render_text``)."""

    layout: Callable[[Any], ObservationLayout]
    """The observation layout of an engine (called during its set-up, once its options and sizes are known)."""
    encode: Callable[[Any, int, np.ndarray | None], np.ndarray]
    """``encode(engine, seat, out)``: the seat's observation, written into ``out`` when given (else a new array)."""
    render: Callable[[Any], str]
    """The omniscient text picture of the table."""


@dataclass(frozen=True)
class GameDefinition(Generic[OptionsT]):
    """A game's one manifest: everything the rest of :mod:`cardenvs` needs to know about it (the adapter, the
    registry, the renderer, the text seat, the fast path, OpenSpiel). Parts in other layers or behind optional
    dependencies are :data:`~cardenvs.core.manifest.Reference` strings, loaded on first use; nothing elsewhere
    is keyed by a game's name."""

    name: str
    """Module-style name, e.g. ``verish_ne_verish``."""
    version: int
    options_type: type[OptionsT]
    new_game: Callable[[OptionsT, np.random.Generator], RulesEngine[OptionsT]]
    default_max_steps: Callable[[OptionsT], int]
    num_players: Callable[[OptionsT], int] = attrgetter("num_players")
    """Players of an option set (default: the options' ``num_players``)."""
    variants: tuple[dict[str, Any], ...] = ({},)
    """Option sets the conformance kit must cover: every player count and every rule variant."""
    benchmark_options: dict[str, Any] = field(default_factory=dict)
    """Options the benchmark measures (default rules at the largest player count)."""
    docs_page: str = ""
    """Name of the page under ``docs/games/`` (default: ``name``); games may share one page."""
    write_position: Callable[[Any, int | None], list[tuple[str, str]]] | None = None
    """An engine's position lines as a seat knows them (``None``: all); see :mod:`cardenvs.core.position`."""
    read_position: Callable[[OptionsT, Any, np.random.Generator], RulesEngine[OptionsT]] | None = None
    """The engine a position's lines (a :class:`~cardenvs.core.position.PositionFields`) describe, ``?`` cards dealt
    from the generator."""
    observer: Observer | None = None
    """How the game is seen (encoder, renderer), as the env module attaches it to the engine (``None``: the engine
    writes its own observation and text)."""
    words: Reference = ""
    """The event sentences, ``kind → Words`` (:mod:`cardenvs.core.render`): the history in words."""
    table: Reference = ""
    """The table reader, ``(privileged state, seat) → Table`` (:mod:`cardenvs.render.tables`): what every player
    sees of the table."""
    rules_summary: Reference = ""
    """The rules in a few sentences, a ``str`` (the text seat's prompt, :mod:`cardenvs.text`)."""
    fast: Reference = ""
    """The JAX fast-path class (:mod:`cardenvs.fast`, options as the env takes them); ``""``: none."""
    openspiel: OpenSpielTraits = field(default_factory=OpenSpielTraits)
    """Returns, explicit deal and small variant for :mod:`cardenvs.openspiel`."""

    PARTS: ClassVar[tuple[str, ...]] = ("words", "table", "rules_summary", "fast")
    """The fields that are references, loaded by :meth:`part`."""

    def __post_init__(self) -> None:
        for part in self.PARTS:
            check_reference(getattr(self, part), f"{self.name}'s {part}")

    def part(self, name: str) -> Any:
        """The object the reference field ``name`` (one of :attr:`PARTS`) names, loaded now if it was not yet; a
        clear error where the game declares none."""
        if name not in self.PARTS:
            raise ValueError(f"{name!r} is not a reference of a GameDefinition; those are {', '.join(self.PARTS)}")
        reference = getattr(self, name)
        if not reference:
            raise NotImplementedError(f"{self.env_id} declares no {name} in its GameDefinition")
        return load(reference)

    @property
    def env_id(self) -> str:
        """PettingZoo registry id, e.g. ``cardenvs/verish_ne_verish-v0``."""
        return f"cardenvs/{self.name}-v{self.version}"
