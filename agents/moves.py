"""Complete legal moves for a policy that sees only its observation, and a base class that plays their sub-steps.

In Zheng Shang You a move (a combination of cards) is several action ids: the shape on a lead, the top rank of a
(set) sequence, then one ``pick`` per card. A policy that thinks in moves asks for them here:

>>> import cardenvs
>>> from cardenvs.agents import PolicyContext
>>> from cardenvs.agents.moves import legal_moves, move_actions
>>> env = cardenvs.make("zheng_shang_you-v0")
>>> env.reset(seed=0)
>>> observation, context = env.observe(env.agent_selection), PolicyContext.from_env(env)
>>> moves = legal_moves(observation, context)   # every complete move the seat may make now
>>> move_actions(moves[0], observation, context)  # its action ids from here: shape(single), pick(3♦)
[1, 43]

Everything is rebuilt from the observation vector and the action mask (the seat's hand, the combination to beat,
the move under construction), with the game's own move generator: the same lists the env's masks allow
(``tests/test_policy_moves.py`` checks it over many positions), and nothing a seat may not see. Such a move is
:class:`~cardenvs.zheng_shang_you.actions.Pass`, a :class:`~cardenvs.zheng_shang_you.combos.Combo` (``kind``,
``group``, ``length``, ``top`` rank id, ``cards`` as card indices ascending, ``wild``, ``suited``), or in the
exchange between deals :class:`~cardenvs.zheng_shang_you.actions.Give` (``card``) and
:class:`~cardenvs.zheng_shang_you.actions.Take` (``slot``); its feature row follows
:func:`cardenvs.zheng_shang_you.features.move_layout`.

:class:`MovePolicy` is the base for a policy that picks whole moves, in every game: write ``choose(observation,
moves, features)`` and it plays the chosen move's remaining sub-steps on the decisions that follow. In the games
whose moves are not rebuilt from the observation (Verish' ne verish' and Yukushi claims, Goninkan's show and
Yoninkan's trick-1 declaration, Kyuuri's single cards) it reads them off a world the seat cannot tell from the true
one, which every game loop hands it (``sit``, as to a search agent): the engine's ``legal_moves()`` there, with no
feature columns.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from cardenvs.agents.base import PlanningPolicy, PolicyContext
from cardenvs.core.engine import RulesEngine
from cardenvs.core.layout import ObservationLayout
from cardenvs.registry import game_name
from cardenvs.zheng_shang_you.actions import Give, Pass, Take, ids, move_actions_from_start
from cardenvs.zheng_shang_you.combos import SEQUENCE, Combo, lead_shapes, shape_index
from cardenvs.zheng_shang_you.encoding import PHASES
from cardenvs.zheng_shang_you.features import moves_features
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import to_bits

Observation = Mapping[str, np.ndarray]


class GameMoves(Protocol):
    """One game's moves as a seat sees them (what :func:`legal_moves` and the others dispatch to)."""

    def moves(self, observation: Observation) -> list[Hashable]: ...

    def actions(self, move: Hashable, observation: Observation) -> list[int]: ...

    def features(self, moves: Sequence[Hashable]) -> np.ndarray: ...


def legal_moves(observation: Observation, context: PolicyContext) -> list[Hashable]:
    """Every complete move the seat may make at this decision (moves that continue the one under construction,
    once its first sub-step is taken). Raises ``ValueError`` when the observation is not the seat's turn."""
    return game_moves(context).moves(observation)


def move_actions(move: Hashable, observation: Observation, context: PolicyContext) -> list[int]:
    """The action ids that play ``move`` from this decision on (the first is legal now, each next one at the
    seat's next decision). Raises ``ValueError`` if ``move`` does not continue the sub-steps already taken."""
    return game_moves(context).actions(move, observation)


def move_features(moves: Sequence[Hashable], context: PolicyContext) -> np.ndarray:
    """One ``float32`` feature row per move (an empty ``(0, width)`` array for no moves)."""
    return game_moves(context).features(moves)


def game_moves(context: PolicyContext) -> GameMoves:
    """The move reader of the context's game; a game without one is refused, naming those that have one."""
    game = game_name(context.env_id)
    if game not in GAMES:
        raise ValueError(
            f"no complete-move lists from the observation for {context.env_id} (games with them: {', '.join(GAMES)}); "
            "a MovePolicy reads any game's moves off sampled worlds"
        )
    return GAMES[game](context)


class Worlds(Protocol):
    """What a game loop hands a policy with ``sit`` (:class:`~cardenvs.agents.search.InformationSets`)."""

    def sample(self, rng: np.random.Generator) -> RulesEngine[Any]: ...


class MovePolicy(PlanningPolicy):
    """A policy that chooses among complete legal moves; the sub-steps of the chosen move are played for it.

    Write :meth:`choose`. At each fresh decision it gets the seat's legal moves and their feature rows and returns
    the index of the move to play; :meth:`act` returns that move's first action id and the following ones at the
    seat's next decisions (while they stay legal: a plan that the game cut short is dropped). Zheng Shang You's
    moves come from the observation (:func:`legal_moves`); other games' from a sampled world (see the module
    docstring), so outside the project's game loops call ``sit(InformationSets(env))`` after each reset."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed)
        self.worlds: Worlds | None = None
        self.world_rng = np.random.default_rng(seed)
        """Draws the sampled worlds (apart from ``rng``, so that sampling leaves the policy's own draws alone)."""

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if seed is not None:
            self.world_rng = np.random.default_rng(seed)

    def sit(self, tables: Worlds) -> None:
        """Take the determinizations of a new game (called by every game loop; see :mod:`agents.search`)."""
        self.worlds = tables

    def decide(self, observation: Observation) -> int:
        reader = self.moves_now()
        moves = reader.moves(observation)
        choice = self.choose(observation, moves, reader.features(moves))
        if not 0 <= choice < len(moves):
            raise IndexError(f"{self.name} chose move {choice} of {len(moves)} legal moves")
        first, *self.plan = reader.actions(moves[choice], observation)
        return first

    def moves_now(self) -> GameMoves:
        """The move reader of this decision."""
        if game_name(self.context.env_id) in GAMES:
            return game_moves(self.context)
        if self.worlds is None:
            raise RuntimeError(
                f"{self.name} reads {self.context.env_id}'s moves off sampled worlds: play it through play_episode or "
                "a tournament, or call policy.sit(cardenvs.agents.search.InformationSets(env)) after each reset"
            )
        return WorldMoves(self.worlds.sample(self.world_rng))

    @abstractmethod
    def choose(self, observation: Observation, moves: list[Hashable], features: np.ndarray) -> int:
        """The index in ``moves`` of the move to play (``features[i]`` is the feature row of ``moves[i]``; a game
        without move features gives rows of width 0)."""


class WorldMoves:
    """Any game's moves, read off one world the deciding seat cannot tell from the true one: its own hand and all
    it has seen are kept, so the engine's ``legal_moves()`` there are the seat's true legal moves."""

    def __init__(self, world: RulesEngine[Any]):
        self.world = world

    def moves(self, observation: Observation) -> list[Hashable]:
        if not np.array_equal(self.world.legal_mask(), observation["action_mask"]):
            raise ValueError("the sampled world is not at this observation's decision")
        return self.world.legal_moves()

    def actions(self, move: Hashable, observation: Observation) -> list[int]:
        return self.world.move_actions(move)

    def features(self, moves: Sequence[Hashable]) -> np.ndarray:
        return np.zeros((len(moves), 0), dtype=np.float32)


class ZsyMoves:
    """Zheng Shang You's moves, rebuilt from the observation: the hand, the combination to beat (the ``top_*``
    features), the play under construction (``build_*``) and, in the exchange, the action mask."""

    def __init__(self, context: PolicyContext):
        self.layout: ObservationLayout = context.layout
        self.rules = context.options.combo_rules
        self.ids = ids()

    def moves(self, observation: Observation) -> list[Hashable]:
        vector, mask = observation["observation"], observation["action_mask"]
        phase = self._phase(vector)
        if PHASES[phase].startswith("give"):
            return [Give(p) for p in range(self.ids.TAKE - self.ids.GIVE) if mask[self.ids.GIVE + p]]
        if PHASES[phase].startswith("take"):
            return [Take(slot) for slot in range(self.ids.SIZE - self.ids.TAKE) if mask[self.ids.TAKE + slot]]
        top = combo_to_beat(vector, self.layout)
        hand = to_bits(int(p) for p in np.flatnonzero(vector[self.layout["hand"]]))
        shape = self._building_shape(vector, top)
        declared = self._declared_top(vector)
        picks = self._picks(vector)
        plays: list[Hashable] = [
            c
            for c in legal_combos(hand, top, self.rules)
            if (shape is None or c.shape == shape)
            and (c.kind < SEQUENCE or declared is None or c.top == declared)
            and c.cards[: len(picks)] == picks
        ]
        return [Pass(), *plays] if mask[self.ids.PASS] else plays

    def actions(self, move: Hashable, observation: Observation) -> list[int]:
        vector = observation["observation"]
        self._phase(vector)
        top = combo_to_beat(vector, self.layout)
        full = move_actions_from_start(move, leading=top is None)  # type: ignore[arg-type]
        taken = self._taken(vector, top)
        if full[: len(taken)] != taken:
            raise ValueError(f"{move} does not continue the sub-steps taken so far (action ids {taken})")
        return full[len(taken) :]

    def features(self, moves: Sequence[Hashable]) -> np.ndarray:
        return moves_features(moves)

    def _phase(self, vector: np.ndarray) -> int:
        phase = vector[self.layout["phase"]]
        if not phase.any():
            raise ValueError("this observation is not the seat's turn: moves are listed only at its decisions")
        return int(np.argmax(phase))

    def _building_shape(self, vector: np.ndarray, top: Combo | None) -> tuple[int, int, int] | None:
        if top is not None:
            return top.shape
        chosen = vector[self.layout["build_shape"]]
        return lead_shapes()[int(np.argmax(chosen))] if chosen.any() else None

    def _declared_top(self, vector: np.ndarray) -> int | None:
        declared = vector[self.layout["build_top"]]
        return int(np.argmax(declared)) if declared.any() else None

    def _picks(self, vector: np.ndarray) -> tuple[int, ...]:
        return tuple(int(p) for p in np.flatnonzero(vector[self.layout["build_cards"]]))

    def _taken(self, vector: np.ndarray, top: Combo | None) -> list[int]:
        """The action ids of the sub-steps already taken in this decision, read off the ``build_*`` features."""
        a = self.ids
        shape = self._building_shape(vector, top) if top is None else None
        declared = self._declared_top(vector)
        taken = [] if shape is None else [a.SHAPE + shape_index()[shape]]
        taken += [] if declared is None else [a.TOP + declared]
        return taken + [a.PICK + p for p in self._picks(vector)]


def combo_to_beat(vector: np.ndarray, layout: ObservationLayout) -> Combo | None:
    """The Zheng Shang You combination on the table, rebuilt from the ``top_*`` features (``None`` on a lead)."""
    shapes = vector[layout["top_shape"]]
    if not shapes.any():
        return None
    kind, group, length = lead_shapes()[int(np.argmax(shapes))]
    cards = tuple(int(p) for p in np.flatnonzero(vector[layout["top_cards"]]))
    wild, suited = (bool(x) for x in vector[layout["top_flags"]])
    return Combo(kind, group, length, int(np.argmax(vector[layout["top_rank"]])), cards, wild, suited)


GAMES = {"zheng_shang_you": ZsyMoves}
"""Each game with complete-move lists, by its name, and its reader."""
