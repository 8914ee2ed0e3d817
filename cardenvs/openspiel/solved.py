"""Solving a small variant and measuring any policy of ours on it exactly.

:func:`solve` runs OpenSpiel's CFR+ on the variant's Gambit twin (:mod:`cardenvs.openspiel.tree`) and reads its
average policy back onto our information sets. :func:`queried_table` turns any policy of ours (a rule bot, random,
a table) into a tabular policy by asking it at every information set what it plays there, and
:func:`exploitability` gives a table's exact exploitability (OpenSpiel's, the mean of the two best responses' gains
over the policy's own value: what our local best response estimates).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from cardenvs.agents.base import Policy
from cardenvs.agents.equilibria import Row, observation_key
from cardenvs.core.engine import RulesEngine
from cardenvs.openspiel.tree import EfgIndex, GameTree

Table = list[list[dict[int, float]]]
"""Per player, per information set (in :attr:`GameTree.infosets` order): action id → probability."""


@dataclass
class Solution:
    """CFR+'s average policy after ``iterations``, its NashConv on the variant and the time it took."""

    table: Table
    nash_conv: float
    iterations: int
    seconds: float


def solve(index: EfgIndex, iterations: int, report: Callable[[int, float], None] | None = None) -> Solution:
    """OpenSpiel's CFR+ for ``iterations`` on the twin; ``report(iteration, nash_conv)`` every tenth of the way."""
    game = index.tree.game()
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    step = max(1, iterations // 10)
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if report is not None and i % step == 0:
            report(i, pyspiel.nash_conv(game, solver.average_policy()))
    policy = solver.tabular_average_policy()
    return Solution(index.our_table(policy), pyspiel.nash_conv(game, policy), iterations, time.perf_counter() - start)


def exploitability(index: EfgIndex, table: Table) -> float:
    """The exact exploitability of ``table`` on the variant (NashConv / 2 in these 2-player zero-sum games)."""
    return float(pyspiel.exploitability(index.tree.game(), index.efg_policy(table)))


def nash_conv(index: EfgIndex, table: Table) -> float:
    """The exact NashConv of ``table`` on the variant (the sum of both best responses' gains)."""
    return float(pyspiel.nash_conv(index.tree.game(), index.efg_policy(table)))


def expected_returns(index: EfgIndex, tables: list[Table]) -> list[float]:
    """Each player's exact expected return when player ``p`` plays ``tables[p]``."""
    policies = [index.efg_policy(table) for table in tables]
    return [float(r) for r in pyspiel.expected_returns(index.tree.game().new_initial_state(), policies, -1, True)]


def queried_table(tree: GameTree, make: Callable[[int], Policy], samples: int) -> Table:
    """``make(seed)``'s play at every information set, read from ``samples`` fresh instances (seeds 0 …).

    Where a move begins, each instance is shown the set's observation and legal actions and plays its whole move
    (a composite move's sub-steps too, as in a game: a policy that plans the move follows its plan); the row is the
    frequency of each first action. Part-way through a move, the row is the frequency of each next sub-step among
    the instances that took the sub-steps so far (uniform where none did: the policy never gets there). A
    deterministic policy is read exactly. Sets with the same observation and legal actions are asked once."""
    policies = [make(seed) for seed in range(samples)]
    moves: dict[tuple[str, tuple[int, ...]], list[tuple[int, ...]]] = {}
    played: list[list[list[tuple[int, ...]]]] = []
    for player, sets in enumerate(tree.infosets):
        rows: list[list[tuple[int, ...]]] = []
        for infoset in sets:
            if infoset.engine is None:
                rows.append([])
                continue
            key = (observation_key(infoset.observation), infoset.legal)
            if key not in moves:
                moves[key] = [_whole_move(policy, seed, infoset.engine, player) for seed, policy in enumerate(policies)]
            rows.append(moves[key])
        played.append(rows)
    table: Table = []
    for player, sets in enumerate(tree.infosets):
        rows_out = []
        for index, infoset in enumerate(sets):
            begun, prefix = infoset.start if infoset.start is not None else (index, ())
            taken = [
                m[len(prefix)] for m in played[player][begun] if m[: len(prefix)] == prefix and len(m) > len(prefix)
            ]
            if not taken:
                rows_out.append({a: 1.0 / len(infoset.legal) for a in infoset.legal})
                continue
            counts: dict[int, float] = {}
            for action in taken:
                counts[action] = counts.get(action, 0.0) + 1.0 / len(taken)
            rows_out.append(counts)
        table.append(rows_out)
    return table


def _whole_move(policy: Policy, seed: int, engine: RulesEngine[Any], player: int) -> tuple[int, ...]:
    """The actions ``policy`` (reset with ``seed``) takes for ``player`` from ``engine`` until its move is made."""
    policy.reset(seed)
    game = engine.clone()
    actions: list[int] = []
    while True:
        mask = game.legal_mask()
        action = int(policy.act({"observation": game.observation(player), "action_mask": mask}))
        if not mask[action]:
            raise ValueError(f"{policy.name} played {action}, not legal at {np.flatnonzero(mask).tolist()}")
        actions.append(action)
        game.apply(action)
        game.take_rewards()
        if game.is_terminal or game.current_player != player or not game.move_in_progress():
            return tuple(actions)


def uniform_table(tree: GameTree) -> Table:
    """Uniform random play at every information set."""
    return [[{a: 1.0 / len(s.legal) for a in s.legal} for s in sets] for sets in tree.infosets]


def reach(index: EfgIndex, table: Table) -> list[list[float]]:
    """How likely each information set is reached when both players play ``table``: the summed probability (chance
    and both players) of its histories."""
    game = index.tree.game()
    where = {key: (player, number - 1) for player, keys in enumerate(index.keys) for number, key in keys.items()}
    weights = [[0.0] * len(sets) for sets in index.tree.infosets]
    stack = [(game.new_initial_state(), 1.0)]
    while stack:
        state, p = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend((state.child(a), p * q) for a, q in state.chance_outcomes())
            continue
        player, number = where[state.information_state_string(state.current_player())]
        weights[player][number] += p
        ours = {efg: a for a, efg in index.actions[index.keys[player][number + 1]].items()}
        row = table[player][number]
        stack.extend((state.child(a), p * row.get(ours[a], 0.0)) for a in state.legal_actions() if p > 0)
    return weights


def observation_rows(
    tree: GameTree, table: Table, weights: list[list[float]] | None = None
) -> dict[str, dict[int, float]]:
    """A table keyed by observation: the mean row of the information sets sharing an observation, weighted by
    ``weights`` (how likely each set is reached; equal weights by default, and where all weights are 0). This is
    what a policy shown only the observation can play; exact where the observation identifies the set."""
    sums: dict[str, dict[int, float]] = {}
    totals: dict[str, float] = {}
    legal: dict[str, tuple[int, ...]] = {}
    for player, (sets, rows) in enumerate(zip(tree.infosets, table, strict=True)):
        for number, (infoset, row) in enumerate(zip(sets, rows, strict=True)):
            key = observation_key(infoset.observation)
            if legal.setdefault(key, infoset.legal) != infoset.legal:
                raise ValueError(f"one observation, two sets of legal actions: {legal[key]} and {infoset.legal}")
            weight = 1.0 if weights is None else weights[player][number] + 1e-12
            total = sums.setdefault(key, {})
            for a, p in row.items():
                total[a] = total.get(a, 0.0) + weight * p
            totals[key] = totals.get(key, 0.0) + weight
    return {key: {a: p / totals[key] for a, p in row.items()} for key, row in sums.items()}


def table_from_rows(tree: GameTree, rows: Mapping[str, Row]) -> Table:
    """The tabular policy over information sets of a table keyed by observation."""
    return [[dict(rows[observation_key(s.observation)]) for s in sets] for sets in tree.infosets]


def info_rows(tree: GameTree, table: Table) -> dict[str, dict[int, float]]:
    """A table keyed by our information-state strings (both players)."""
    pairs = zip(tree.infosets, table, strict=True)
    return {s.key: row for sets, rows in pairs for s, row in zip(sets, rows, strict=True)}


__all__ = [
    "Solution",
    "Table",
    "expected_returns",
    "exploitability",
    "info_rows",
    "nash_conv",
    "observation_rows",
    "queried_table",
    "reach",
    "solve",
    "table_from_rows",
    "uniform_table",
]
