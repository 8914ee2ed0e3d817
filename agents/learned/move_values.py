"""Agents that score whole moves: a network Q(observation, move) values each legal move, the agent plays the best.

Deep Monte-Carlo (Zha et al., DouZero, ICML 2021; :mod:`experiments.research.dmc`) trains such a network on the returns
that followed each move. Its checkpoint is the pickle-free actor format of :mod:`agents.learned.weights` with one
output and ``meta["kind"] == "move-values"``: the input is the observation vector followed by the move's feature
vector (``obs_scale`` covers both). Only games whose moves have features can be played this way: Zheng Shang You
(:func:`cardenvs.zheng_shang_you.features.move_layout`), whose plays are rebuilt from the observation as its rule
bot does; the exchange between deals is left to the rule bot.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.zheng_shang_you import ZsyRuleBot
from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.registry import game_name
from cardenvs.zheng_shang_you.actions import Pass
from cardenvs.zheng_shang_you.combos import Combo
from cardenvs.zheng_shang_you.features import move_layout, moves_features
from cardenvs.zheng_shang_you.movegen import legal_combos
from cardenvs.zheng_shang_you.ranks import to_bits

MOVE_VALUES = "move-values"
"""``meta["kind"]`` of a move-value network's checkpoint."""
GAMES_WITH_MOVE_FEATURES = ("zheng_shang_you",)


def is_move_value_network(weights: ActorWeights) -> bool:
    """Whether a checkpoint holds move values (else it is an actor over action ids)."""
    return weights.meta.get("kind") == MOVE_VALUES


def move_values(weights: ActorWeights, observation: np.ndarray, features: np.ndarray) -> np.ndarray:
    """Q of each move: one value per row of ``features`` (raw move features), for one raw observation vector."""
    rows = features.shape[0]
    x = np.concatenate([np.broadcast_to(observation, (rows, observation.shape[0])), features], axis=1)
    values: np.ndarray = weights.outputs(x)[:, 0]
    return values


class ZsyMoveValuePolicy(ZsyRuleBot):
    """Plays the legal move with the highest value (leads and follows, passing included); the rule bot's exchange.

    For training (:mod:`experiments.research.dmc`): with probability ``epsilon`` a uniformly random legal move,
    else with probability ``teacher_share`` the rule bot's move; every move chosen is appended to ``chosen`` as
    the network's input row (raw observation and move features), for the trainer to pair with the return."""

    name = "move-values"

    def __init__(
        self,
        context: PolicyContext,
        weights: ActorWeights,
        seed: int | None = None,
        epsilon: float = 0.0,
        teacher_share: float = 0.0,
    ):
        check_fits(weights, context)
        super().__init__(context, seed)
        self.weights = weights
        self.epsilon = epsilon
        self.teacher_share = teacher_share
        self.chosen: list[np.ndarray] = []

    def choose_lead(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo:
        combos = legal_combos(to_bits(hand), None, self.rules)
        teacher = super().choose_lead(observation, hand) if self.teacher_share else None
        move = self.pick(observation, combos, teacher)
        assert isinstance(move, Combo)
        return move

    def choose_follow(self, observation: Mapping[str, np.ndarray], hand: list[int]) -> Combo | None:
        moves: list[Hashable] = [Pass(), *legal_combos(to_bits(hand), self.combo_to_beat(observation), self.rules)]
        teacher = (super().choose_follow(observation, hand) or Pass()) if self.teacher_share else None
        move = self.pick(observation, moves, teacher)
        return move if isinstance(move, Combo) else None

    def pick(
        self, observation: Mapping[str, np.ndarray], moves: Sequence[Hashable], teacher: Hashable | None
    ) -> Hashable:
        """The move to play among ``moves`` (see the class docstring for the training-time choices)."""
        features = moves_features(moves)
        vector = observation["observation"]
        draw = self.rng.random() if self.epsilon or self.teacher_share else 1.0
        if draw < self.epsilon:
            index = int(self.rng.integers(len(moves)))
        elif teacher is not None and draw < self.epsilon + (1.0 - self.epsilon) * self.teacher_share:
            index = list(moves).index(teacher)
        else:
            index = int(np.argmax(move_values(self.weights, vector, features))) if len(moves) > 1 else 0
        if self.epsilon or self.teacher_share:  # training: the trainer pairs these rows with the return
            self.chosen.append(np.concatenate([vector, features[index]]).astype(np.float16))
        return moves[index]


def check_fits(weights: ActorWeights, context: PolicyContext) -> None:
    """Refuse a move-value network that does not fit the game: wrong game, or another input or output size."""
    game = game_name(context.env_id)
    if game not in GAMES_WITH_MOVE_FEATURES:
        raise ValueError(f"move-value agents play only {GAMES_WITH_MOVE_FEATURES}, not {context.env_id}")
    expected = context.layout.size + move_layout().size
    size = weights.hidden[0][0].shape[1] if weights.hidden else weights.action[0].shape[1]
    if size != expected or weights.action[0].shape[0] != 1:
        raise ValueError(
            f"a move-value network for {context.env_id} with these options takes {expected} inputs (observation "
            f"{context.layout.size} + move {move_layout().size}) and gives 1 value; this one takes {size} and gives "
            f"{weights.action[0].shape[0]} (trained on {weights.meta.get('env_id')} {weights.meta.get('options')})"
        )


def move_value_policy(context: PolicyContext, weights: ActorWeights, seed: int | None = None) -> ZsyMoveValuePolicy:
    """The greedy player of a move-value checkpoint."""
    return ZsyMoveValuePolicy(context, weights, seed)
