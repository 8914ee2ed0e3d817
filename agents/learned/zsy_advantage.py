"""Zheng Shang You plays improved by a learned advantage over the rule bot's own move.

The same recipe as :mod:`agents.learned.goninkan_advantage`, for a game whose moves are whole combinations: a
network scores ``f(observation, move)`` for every legal lead or follow (the pass included), from the raw observation,
the move's features (:func:`cardenvs.zheng_shang_you.features.move_layout`) and a few features of the hand the move
leaves (:data:`AFTER`); the agent (:class:`ImprovedZsyPlayer`) plays the rule bot's move unless another legal move
scores more than ``margin`` above it, and leaves the exchange between deals to the bot. The network is fitted by
:mod:`experiments.research.move_rollouts` and :mod:`experiments.research.advantage_fit` on the advantages of the
moves in rolled-out worlds. Its checkpoint is the pickle-free actor format of :mod:`agents.learned.weights` with one
output, ``meta["kind"] == "move-advantages"``, ``meta["margin"]`` and ``meta["layout_hash"]``; ``obs_scale`` covers
the whole input row. A later step of policy iteration names the agent it improves on in ``meta["base"]``, as in
Goninkan. A checkpoint whose ``meta["features"]`` lists groups of :data:`~agents.learned.zsy_context.GROUPS` (the
move in its situation) reads them after :data:`AFTER` (:func:`feature_groups`).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence

import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.zheng_shang_you import ZsyRuleBot
from cardenvs.agents.learned.goninkan_advantage import SteppedAdvantages, check_fitted, stepped_choice
from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.agents.learned.zsy_context import GROUPS, situation_features, situation_names
from cardenvs.registry import game_name
from cardenvs.wrappers import observation_scale
from cardenvs.zheng_shang_you.actions import Pass
from cardenvs.zheng_shang_you.combos import MAX_HAND, Combo
from cardenvs.zheng_shang_you.features import move_layout, moves_features
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import TWO, to_bits, value_of

AFTER = ("cards_left", "goes_out", "high_left", "ranks_left", "singles_left", "groups_left")
"""Features of the hand a move leaves: cards, whether it is empty, 2s and jokers, distinct plain ranks, plain ranks
held once, plain ranks held two or more times (each scaled to about ``[0, 1]``)."""


def after_features(hand: Sequence[int], moves: Sequence[Hashable]) -> np.ndarray:
    """One row of :data:`AFTER` per move, for a player holding the pick indices ``hand``."""
    rows = np.zeros((len(moves), len(AFTER)), dtype=np.float32)
    for row, move in zip(rows, moves, strict=True):
        spent = set(move.cards) if isinstance(move, Combo) else set()
        values = [value_of(p) for p in hand if p not in spent]
        plain = np.bincount([v for v in values if v < TWO], minlength=TWO)
        row[:] = (
            len(values) / MAX_HAND,
            not values,
            sum(v >= TWO for v in values) / 6,
            np.count_nonzero(plain) / TWO,
            np.count_nonzero(plain == 1) / TWO,
            np.count_nonzero(plain >= 2) / TWO,
        )
    return rows


def move_inputs(
    vector: np.ndarray, hand: Sequence[int], moves: Sequence[Hashable], situation: np.ndarray | None = None
) -> np.ndarray:
    """The network's raw input rows, one per move: the observation, the move's features, :data:`AFTER`, then the
    ``situation`` rows (:func:`~agents.learned.zsy_context.situation_features`) if given."""
    parts = [moves_features(moves), after_features(hand, moves)]
    tail = np.concatenate(parts if situation is None else [*parts, situation], axis=1)
    head = np.broadcast_to(vector.astype(np.float32), (len(moves), vector.shape[0]))
    return np.concatenate([head, tail], axis=1)


def legal_moves(
    bot: ZsyRuleBot, observation: Mapping[str, np.ndarray], hand: list[int], leading: bool
) -> list[Hashable]:
    """Every legal move of a lead (the combinations) or a follow (the pass, then the combinations), as ``bot``
    reads the table."""
    if leading:
        return list(legal_combos(to_bits(hand), None, bot.rules))
    return [Pass(), *legal_combos(to_bits(hand), bot.combo_to_beat(observation), bot.rules)]


def feature_groups(weights: ActorWeights) -> tuple[str, ...]:
    """The groups of :data:`~agents.learned.zsy_context.GROUPS` the network reads (its checkpoint lists their names),
    which must be the first groups in that order."""
    listed = set(weights.meta.get("features", ()))
    groups = tuple(group for group, (names, _) in GROUPS.items() if names[0] in listed)
    if groups != tuple(GROUPS)[: len(groups)]:
        raise ValueError(
            f"a network reads the situation groups in the order {list(GROUPS)}, each with all before it; this one "
            f"lists {list(groups)}"
        )
    return groups


def input_scale(context: PolicyContext, groups: Sequence[str] = ()) -> np.ndarray:
    """``obs_scale`` of the network: the observation's own scale, then 1 for the move's features and for the
    situation ``groups`` (:data:`~agents.learned.zsy_context.GROUPS`)."""
    extra = move_layout().size + len(AFTER) + len(situation_names(groups))
    return np.concatenate([observation_scale(context.layout), np.ones(extra, dtype=np.float32)])


class ImprovedZsyPlayer(SteppedAdvantages, ZsyRuleBot):
    """The rule bot, except in leads and follows where the network rates another legal move more than ``margin``
    above the bot's (the margin is the checkpoint's, unless given); with ``earlier`` steps (a later step of policy
    iteration), the earlier networks move first (:func:`~agents.learned.goninkan_advantage.stepped_choice`)."""

    name = "zheng_shang_you/improved"

    @staticmethod
    def fits(weights: ActorWeights, context: PolicyContext) -> None:
        check_fits(weights, context)

    def choose_lead(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo:
        base = super().choose_lead(observation, hand)
        move = self.improve(observation, hand, legal_moves(self, observation, hand, leading=True), base)
        assert isinstance(move, Combo)
        return move

    def choose_follow(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo | None:
        base = super().choose_follow(observation, hand) or Pass()
        move = self.improve(observation, hand, legal_moves(self, observation, hand, leading=False), base)
        return move if isinstance(move, Combo) else None

    @functools.cached_property
    def groups(self) -> tuple[str, ...]:
        """The situation groups the widest step reads (the narrower ones read its first columns)."""
        return max((feature_groups(weights) for weights, _ in self.steps), key=len)

    def improve(
        self, observation: Mapping[str, np.ndarray], hand: list[int], moves: Sequence[Hashable], base: Hashable
    ) -> Hashable:
        """The move of the largest value if it beats ``base``'s value by more than the margin, else ``base`` (step
        by step where there are several)."""
        if len(moves) < 2:
            return base
        vector = observation["observation"]
        groups = self.groups
        situation = situation_features(vector, self.context.layout, self.rules, moves, groups) if groups else None
        inputs = move_inputs(vector, hand, moves, situation)
        return moves[stepped_choice(self.steps, inputs, list(moves).index(base))]


def check_fits(weights: ActorWeights, context: PolicyContext) -> None:
    """Refuse a network fitted on another game or observation layout, or of another input size or margin-less."""
    if game_name(context.env_id) != "zheng_shang_you":
        raise ValueError(f"this move-advantage agent plays only zheng_shang_you, not {context.env_id}")
    check_fitted(weights, context, input_scale(context, feature_groups(weights)).size)
