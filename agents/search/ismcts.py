"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley & Whitehouse 2012).

Each simulation draws a determinization (:class:`~agents.search.information.InformationSets`: a world the deciding
seat cannot tell from the true one), walks one shared tree with it, grows the tree by one node and plays the rest
of the game out. The tree belongs to the deciding seat's information set: its edges are action ids, and the
opponents' moves are edges too, as in SO-ISMCTS (which treats every move as if it were seen; MO-ISMCTS would
split the opponents' hidden choices, which this agent does not). A node's actions differ between worlds, so
selection is a subset-armed bandit: UCB1 with each child's *availability* count (how often it could have been
chosen) in place of its parent's visits. Values are each node's mover's return, rescaled to [0, 1] by the
smallest and largest returns the search has seen (the games score on different scales).

Composite moves are searched sub-step by sub-step: the tree's edges are the engine's action ids, so a claim in a
bluffing game is a path (declare, pick, pick, done) of the same player. After a search the agent keeps the most
visited continuation of its own unfinished move as a plan (as :class:`~agents.base.PlanningPolicy` does), so one
search decides a whole composite move.

Rollouts play uniformly random legal actions, or a registered policy (a rule bot) at every seat, to the end of
the episode. The budget is a number of simulations, or milliseconds per decision (wall clock, so not
reproducible); a decision with one legal action is played without search.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.agents.base import PlanningPolicy, Policy, PolicyContext
from cardenvs.agents.search.information import InformationSets
from cardenvs.core.engine import RulesEngine

PolicyMaker = Callable[[str, PolicyContext, "int | None"], Policy]
"""``make(name, context, seed)``: builds the policy a name stands for (:func:`agents.specs.resolve_policy`)."""


@dataclass(frozen=True)
class SearchSettings:
    """How much to search and how to play out."""

    simulations: int | None = 200
    """Simulations per decision (``None`` when ``milliseconds`` sets the budget)."""
    milliseconds: float | None = None
    """Wall-clock budget per decision instead of a number of simulations."""
    rollout: str = "random"
    """A registered policy (``kyuuri/rule`` …) that plays every seat in rollouts; ``random``: uniform legal play."""
    prior: str = "none"
    """A registered policy whose choice at the root (from the seat's own observation) the search starts from:
    it gets half the prior mass in a PUCT rule, the other half is spread over all legal actions; ``none``: UCB1."""
    exploration: float = 0.7
    """UCB1's constant on [0, 1]-scaled values."""
    max_rollout_steps: int = 5000
    """A rollout longer than this stops and scores what has been paid so far (a guard against endless games)."""

    def __post_init__(self) -> None:
        if (self.simulations is None) == (self.milliseconds is None):
            raise ValueError("give the search budget as simulations or as milliseconds (exactly one)")
        if self.simulations is not None and self.simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {self.simulations}")
        if self.milliseconds is not None and not self.milliseconds > 0:
            raise ValueError(f"milliseconds must be positive, got {self.milliseconds}")
        if not self.exploration >= 0:
            raise ValueError(f"exploration must be >= 0, got {self.exploration}")
        if self.max_rollout_steps < 1:
            raise ValueError(f"max_rollout_steps must be at least 1, got {self.max_rollout_steps}")


POLICY_KEYS = {"rollout": "random", "prior": "none"}
"""Settings that name a policy, with the word that means none."""


class Node:
    """A tree node: the action that led here was chosen by ``player``; statistics are from that player's side."""

    __slots__ = ("available", "children", "in_progress", "player", "total", "visits")

    def __init__(self, player: int, in_progress: bool):
        self.player = player
        self.in_progress = in_progress
        """Whether ``player`` is still part-way through a composite move after this edge."""
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class IsmctsPolicy(PlanningPolicy):
    """The search agent (see the module docstring). It needs the table: :func:`agents.play.play_episode` (and so
    every tournament) calls :meth:`sit` before each game."""

    name = "search"

    def __init__(
        self,
        context: PolicyContext,
        seed: int | None = None,
        settings: SearchSettings | None = None,
        make_policy: PolicyMaker | None = None,
    ):
        """``make_policy`` builds the rollout and prior policies the settings name (the ``search:`` spec passes
        :func:`agents.specs.resolve_policy`); it is needed only when they name one."""
        super().__init__(context, seed)
        self.settings = settings or SearchSettings()
        self.tables: InformationSets | None = None
        self._root_prior: Mapping[int, float] | None = None
        named = [name for key, plain in POLICY_KEYS.items() if (name := getattr(self.settings, key)) != plain]
        if named and make_policy is None:
            raise ValueError(
                f"the search settings name {named}; pass make_policy=agents.make_policy to build them "
                "(or write the agent as a search: spec)"
            )
        self.rollout_policies: list[Policy] = []
        if self.settings.rollout != "random" and make_policy is not None:
            self.rollout_policies = [
                make_policy(self.settings.rollout, context, seed) for _ in range(context.num_players)
            ]
        self.prior_policy: Policy | None = None
        if self.settings.prior != "none" and make_policy is not None:
            self.prior_policy = make_policy(self.settings.prior, context, seed)
        self.last_visits: dict[int, int] = {}
        """Root visits per action of the latest search (for tests and inspection)."""
        self.searches = 0
        self.search_seconds = 0.0

    def inner_policies(self) -> Iterator[tuple[str, Policy]]:
        """The rollout policy (one instance stands for every seat's) and the prior, by the specs that built them."""
        if self.rollout_policies:
            yield self.settings.rollout, self.rollout_policies[0]
        if self.prior_policy is not None:
            yield self.settings.prior, self.prior_policy

    def sit(self, tables: InformationSets) -> None:
        self.tables = tables

    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if len(legal) == 0:
            raise ValueError("no legal action in this observation: the agent is not the one to act")
        if len(legal) == 1:
            return int(legal[0])
        if self.tables is None:
            raise RuntimeError(
                "the search agent has no table: play it through agents.play.play_episode or a tournament, or call "
                "policy.sit(agents.search.InformationSets(env)) after each reset"
            )
        start = time.perf_counter()
        root = self.search(self.tables, self._prior(observation, legal))
        self.searches += 1
        self.search_seconds += time.perf_counter() - start
        self.last_visits = {a: child.visits for a, child in sorted(root.children.items())}
        action = max((int(a) for a in legal), key=lambda a: (self.last_visits.get(a, 0), -a))
        self.plan = self._rest_of_move(root.children.get(action))
        return action

    def _prior(self, observation: Mapping[str, np.ndarray], legal: np.ndarray) -> dict[int, float] | None:
        """Prior probabilities of the root actions: half on the prior policy's choice, half spread evenly."""
        if self.prior_policy is None:
            return None
        self.prior_policy.reset()  # a fresh decision: no plan left over from another position
        favourite = self.prior_policy.act(observation)
        even = 0.5 / len(legal)
        return {int(a): even + (0.5 if int(a) == favourite else 0.0) for a in legal}

    def search(self, tables: InformationSets, prior: Mapping[int, float] | None = None) -> Node:
        """Run the budget's simulations from the current decision; returns the root. With ``prior``, the root
        chooses by PUCT (value + exploration · P(a) · √N / (1 + n(a)), an unvisited action valued at the root's
        mean so far), not untried-first."""
        root = Node(player=-1, in_progress=False)
        self._root_prior = prior
        bounds = [math.inf, -math.inf]
        deadline = (
            None if self.settings.milliseconds is None else time.perf_counter() + self.settings.milliseconds / 1e3
        )
        done = 0
        while (deadline is None and done < (self.settings.simulations or 0)) or (
            deadline is not None and (done == 0 or time.perf_counter() < deadline)
        ):
            self._simulate(root, tables.sample(self.rng), bounds)
            done += 1
        return root

    def _simulate(self, root: Node, world: RulesEngine[Any], bounds: list[float]) -> None:
        returns = np.zeros(world.num_players)
        path: list[Node] = []
        node = root
        while not world.is_terminal:  # selection, then one expansion
            legal = np.flatnonzero(world.legal_mask())
            mover = world.current_player
            action, expand = self._choose(node, node is root, legal, bounds)
            if expand:
                node.children[action] = Node(mover, in_progress=False)
            child = node.children[action]
            for a in legal:  # every child this world offers was available, chosen or not
                sibling = node.children.get(int(a))
                if sibling is not None:
                    sibling.available += 1
            self._apply(world, action, returns)
            child.in_progress = world.current_player == mover and world.move_in_progress()
            path.append(child)
            node = child
            if expand:
                break
        returns += self._rollout(world)
        low, high = bounds
        bounds[0], bounds[1] = min(low, float(returns.min())), max(high, float(returns.max()))
        root.visits += 1
        for visited in path:
            visited.visits += 1
            visited.total += float(returns[visited.player])

    def _choose(self, node: Node, at_root: bool, legal: np.ndarray, bounds: list[float]) -> tuple[int, bool]:
        """The action to follow from ``node`` in this world, and whether it is a new child to expand: by the prior
        at the root (if any), else a random untried action, else UCB1."""
        if at_root and self._root_prior is not None:
            action = self._select_by_prior(node, self._root_prior, bounds)
            return action, action not in node.children
        untried = [int(a) for a in legal if int(a) not in node.children]
        if untried:
            return untried[int(self.rng.integers(len(untried)))], True
        return self._select(node, legal, bounds), False

    def _select(self, node: Node, legal: np.ndarray, bounds: list[float]) -> int:
        low, high = bounds
        span = high - low if high > low else 1.0
        best, best_score = -1, -math.inf
        for a in legal:
            child = node.children[int(a)]
            value = (child.total / child.visits - low) / span if high > low else 0.5
            score = value + self.settings.exploration * math.sqrt(math.log(max(child.available, 1)) / child.visits)
            if score > best_score:
                best, best_score = int(a), score
        return best

    def _select_by_prior(self, root: Node, prior: Mapping[int, float], bounds: list[float]) -> int:
        low, high = bounds
        span = high - low if high > low else 1.0
        scale = self.settings.exploration * math.sqrt(max(root.visits, 1))
        visits_so_far = sum(child.visits for child in root.children.values())
        # an untried action is first valued at the root's mean so far (not 0, which would leave every action
        # but the prior's untried under a small budget; not 1, which would ignore the prior)
        first = (sum(c.total for c in root.children.values()) / visits_so_far - low) / span if visits_so_far else 0.5

        def score(action: int) -> float:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            value = (child.total / visits - low) / span if child is not None and visits else first
            return (value if high > low else 0.5) + scale * prior[action] / (1 + visits)

        return max(sorted(prior), key=score)

    @staticmethod
    def _apply(world: RulesEngine[Any], action: int, returns: np.ndarray) -> None:
        world.apply(action)
        paid = world.take_rewards()
        if paid is not None:
            returns += np.asarray(paid, dtype=float)

    def _rollout(self, world: RulesEngine[Any]) -> np.ndarray:
        returns = np.zeros(world.num_players)
        for policy in self.rollout_policies:
            policy.reset()
        for _ in range(self.settings.max_rollout_steps):
            if world.is_terminal:
                break
            mask = world.legal_mask()
            action = -1
            if self.rollout_policies:
                seat = world.current_player
                action = self.rollout_policies[seat].act({"observation": world.observation(seat), "action_mask": mask})
            if not 0 <= action < len(mask) or not mask[action]:  # random play, or a bot handed a move the tree
                legal = np.flatnonzero(mask)  # began for it, which it may not know how to finish
                action = int(legal[int(self.rng.integers(len(legal)))])
            self._apply(world, action, returns)
        return returns

    @staticmethod
    def _rest_of_move(node: Node | None) -> list[int]:
        """The most visited continuation of the deciding player's own unfinished composite move."""
        plan: list[int] = []
        while node is not None and node.in_progress and node.children:
            action, node = max(node.children.items(), key=lambda item: (item[1].visits, -item[0]))
            plan.append(action)
        return plan
