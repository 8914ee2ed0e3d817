"""The whole game tree of a small variant, written once as a Gambit extensive form that OpenSpiel loads as a C++
game (``pyspiel.load_efg_game``): its CFR+ solver, best responses and NashConv then run at C++ speed on a tree that
is, node for node, ours (same chance probabilities, same legal actions, same returns, information sets grouped by
our ``information_state_string``).

Each of our information sets is one Gambit information set named ``i<k>`` (``k`` counts a player's sets in the order
they are met); each action is labelled with our action id. :class:`GameTree` keeps, per player and set, our
information-state string, the acting seat's observation vector and its legal actions, so that a policy of our own
(a rule bot, a table) can be queried on every information set and compared with the solution.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel


@dataclass
class InfoSet:
    """One information set of one player: what identifies it, and what a policy playing it is shown."""

    key: str
    """Our ``information_state_string``."""
    observation: np.ndarray
    legal: tuple[int, ...]
    start: tuple[int, tuple[int, ...]] | None = None
    """Part-way through a composite move: the set where the move began (its index) and the sub-steps taken since."""
    engine: Any = None
    """At the start of a move: the engine of one history of the set (to play a policy's whole move from)."""


@dataclass
class GameTree:
    """The tree of one OpenSpiel game of ours, and its Gambit twin."""

    efg: str
    infosets: list[list[InfoSet]]
    """Per player, its information sets in the order of their Gambit numbers."""
    histories: int = 0
    """Nodes of the tree: the chance node, decisions and terminal states."""
    terminals: int = 0
    truncated: int = 0
    """Terminal states reached by the step cap (a draw)."""
    chance_outcomes: int = 0
    num_actions: int = 0
    """The game's action ids (``num_distinct_actions``)."""
    _game: Any = field(default=None, repr=False)

    def game(self) -> Any:
        """The Gambit twin as an OpenSpiel (C++) game, loaded once."""
        if self._game is None:
            self._game = pyspiel.load_efg_game(self.efg)
        return self._game

    def summary(self) -> dict[str, int]:
        return {
            "histories": self.histories,
            "terminal histories": self.terminals,
            "truncated at the step cap": self.truncated,
            "deals": self.chance_outcomes,
            **{f"information sets of player {p}": len(sets) for p, sets in enumerate(self.infosets)},
        }


def export_tree(game: Any) -> GameTree:
    """Walk every history of ``game`` (one of ours with an explicit deal) and write its Gambit twin."""
    n = game.num_players()
    numbers: list[dict[str, int]] = [{} for _ in range(n)]
    tree = GameTree("", [[] for _ in range(n)], num_actions=game.num_distinct_actions())
    lines = [f'EFG 2 R "{game.get_type().short_name}" {{ {" ".join(f"{chr(34)}Pl{p}{chr(34)}" for p in range(n))} }}']
    cap = game.max_game_length()
    Link = tuple[int, int, tuple[int, ...]] | None  # (player, set where its move began, sub-steps since)
    stack: list[tuple[Any, Link]] = [(game.new_initial_state(), None)]
    while stack:
        state, link = stack.pop()
        children: list[Link] | None = None
        tree.histories += 1
        if state.is_terminal():
            tree.terminals += 1
            truncated = state.table.truncated and not state.table.engine.is_terminal
            tree.truncated += truncated
            lines.append(f't "" {tree.terminals} "" {{ {" ".join(repr(float(r)) for r in state.returns())} }}')
            continue
        actions = state.legal_actions()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            tree.chance_outcomes += len(outcomes)
            labels = " ".join(f'"d{a}" {p!r}' for a, p in outcomes)
            lines.append(f'c "" {tree.chance_outcomes} "" {{ {labels} }} 0')
        else:
            player = state.current_player()
            key = state.information_state_string(player)
            engine = state.table.engine
            midway = link is not None and link[0] == player and engine.move_in_progress()
            number = numbers[player].get(key)
            if number is None:
                number = numbers[player][key] = len(numbers[player]) + 1
                observation = np.asarray(state.observation_tensor(player), dtype=np.float32)
                infoset = InfoSet(key, observation, tuple(actions))
                if midway:
                    assert link is not None
                    infoset.start = (link[1], link[2])
                else:
                    infoset.engine = engine.clone()
                tree.infosets[player].append(infoset)
            if midway:
                assert link is not None
                children = [(player, link[1], (*link[2], a)) for a in actions]
            else:
                children = [(player, number - 1, (a,)) for a in actions]
            labels = " ".join(f'"{a}"' for a in actions)
            lines.append(f'p "" {player + 1} {number} "i{number}" {{ {labels} }} 0')
        assert len(state.history()) <= cap + 1
        links = children if children is not None else [None] * len(actions)
        stack.extend((state.child(a), ln) for a, ln in zip(reversed(actions), reversed(links), strict=True))
    tree.efg = "\n".join(lines) + "\n"
    return tree


class EfgIndex:
    """Our information sets and actions against the Gambit twin's: the twin's information-state strings and
    action ids, read by walking the twin once."""

    def __init__(self, tree: GameTree):
        self.tree = tree
        game = tree.game()
        self.keys: list[dict[int, str]] = [{} for _ in range(game.num_players())]
        """Per player: our set number → the twin's information-state string."""
        self.actions: dict[str, dict[int, int]] = {}
        """The twin's information-state string → our action id → the twin's action id."""
        stack = [game.new_initial_state()]
        while stack:
            state = stack.pop()
            if state.is_terminal():
                continue
            if not state.is_chance_node():
                player = state.current_player()
                key = state.information_state_string(player)
                if key not in self.actions:
                    number = int(key.rsplit("-i", 1)[1])
                    self.keys[player][number] = key
                    self.actions[key] = {int(state.action_to_string(player, a)): a for a in state.legal_actions()}
            stack.extend(state.child(a) for a in state.legal_actions())

    def efg_policy(self, table: list[list[dict[int, float]]]) -> Any:
        """A ``pyspiel.TabularPolicy`` of the twin from a table per player and set (our action id → probability,
        sets in :attr:`GameTree.infosets` order; a legal action a row leaves out has probability 0)."""
        entries: dict[str, list[tuple[int, float]]] = {}
        for player, sets in enumerate(table):
            for index, probabilities in enumerate(sets):
                key = self.keys[player][index + 1]
                ids = self.actions[key]
                entries[key] = [(efg, probabilities.get(a, 0.0)) for a, efg in ids.items()]
        return pyspiel.TabularPolicy(entries)

    def our_table(self, policy: Any) -> list[list[dict[int, float]]]:
        """The inverse of :meth:`efg_policy`, for a policy of the twin (CFR+'s average policy)."""
        entries = policy.policy_table()
        table: list[list[dict[int, float]]] = []
        for player, sets in enumerate(self.tree.infosets):
            rows = []
            for index in range(len(sets)):
                key = self.keys[player][index + 1]
                ours = {efg: a for a, efg in self.actions[key].items()}
                rows.append({ours[a]: float(p) for a, p in entries[key]})
            table.append(rows)
        return table
