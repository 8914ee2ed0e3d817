"""Goninkan and Yoninkan card play improved by a learned advantage over the rule bot's own move.

A move-advantage network scores one card play ``f(situation, move)`` from a few features that the rule bot
reads off the observation too (:class:`MoveFeatures`); the agent (:class:`ImprovedKankeiPlayer`) plays the rule
bot's move unless another legal play scores more than ``margin`` above it. The network is fitted by
:mod:`experiments.research.rollout_improvement` on the advantages of every legal play in rolled-out worlds: one step of
approximate policy iteration on the bot. Its checkpoint is the pickle-free actor format of
:mod:`agents.learned.weights` with one output, ``meta["kind"] == "move-advantages"``, ``meta["margin"]`` and
``meta["layout_hash"]`` (the env it was fitted on); the input is :data:`FEATURES` (no observation scaling: every
feature is already in ``[0, 1]``). The player is deterministic: a sampling ``ckpt:`` spec plays it greedily too.

A second step of policy iteration is fitted on rollouts of a first-step agent; its checkpoint names that agent in
``meta["base"]`` (a ``zoo:`` spec, :data:`BASE_KEY`), and the player applies the steps in order
(:func:`stepped_choice`): each moves from the play chosen so far to its own best where that clears its margin.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.goninkan import DECISIONS, KankeiRuleBot, one_hot_index
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.registry import game_name

MOVE_ADVANTAGES = "move-advantages"
"""``meta["kind"]`` of a move-advantage network's checkpoint."""
BASE_KEY = "base"
"""``meta[BASE_KEY]``: the ``zoo:`` agent a later step of policy iteration improves on (absent: the rule bot)."""
GAMES = ("goninkan", "yoninkan")
SITUATION = (
    "leading", "trick_index", "me_kankei", "me_mukan", "side_unknown", "partner_winning", "other_winning",
    "trick_honours", "my_side_honours", "other_side_honours", "kankei_target", "trick_cards", "hand_cards",
    "hold_joker", "my_trumps", "deal_1",
)  # fmt: skip
MOVE = (
    "joker", "rank", "honour", "trump_suit", "led_suit", "wins_now", "master", "my_suit_cards", "suit_out",
    "suit_honours_out", "my_lowest_of_suit", "my_highest_of_suit",
)  # fmt: skip
FEATURES = SITUATION + MOVE
"""The network's input, one row per legal play: the decision's situation, then the move."""


class MoveFeatures(KankeiRuleBot):
    """Reads :data:`FEATURES` off an observation (the rule bot's helpers, so both see the table alike)."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed)
        cards = self.cards
        plain = range(self.d - 1)
        self.rank = np.array([cards.rank[c] for c in plain])
        self.suit = np.array([cards.suit[c] for c in plain])
        self.honour = np.array([cards.honour[c] for c in plain], dtype=bool)
        self.top_rank = int(self.rank.max())

    def features(self, vector: np.ndarray, actions: Sequence[int] | np.ndarray) -> np.ndarray:
        """One row of :data:`FEATURES` per play action in ``actions`` for the raw observation ``vector``."""
        observation = {"observation": vector}
        held = self.view(observation, "hand")
        hand = held[: self.d - 1] > 0
        out = ~hand & ~self._played(observation)[: self.d - 1]
        trick = self.view(observation, "trick").reshape(self.n, self.d)
        in_trick = [(seat, int(np.flatnonzero(row)[0])) for seat, row in enumerate(trick) if row.any()]
        trump = one_hot_index(self.view(observation, "trump"))
        led = one_hot_index(self.view(observation, "led_suit"))
        trick_no = one_hot_index(self.view(observation, "trick_number")) + 1
        winner = one_hot_index(self.view(observation, "trick_winner")) if in_trick else -1
        best = -1
        if in_trick:
            leader = one_hot_index(self.view(observation, "leader"))
            best = self._strength(dict(in_trick)[winner], winner == leader, led, trump, trick_no)
        mates = self._partners(observation)
        kankei, mukan = self.view(observation, "kankei")[0] > 0, self.view(observation, "mukan")[0] > 0
        sides = self.view(observation, "side_honours")
        mine, theirs = (sides[0], sides[1]) if kankei else (sides[1], sides[0]) if mukan else (0.0, 0.0)
        situation = [
            not in_trick, (trick_no - 1) / 9, kankei, mukan, not (kankei or mukan), winner in mates,
            winner > 0 and winner not in mates, sum(self.cards.honour[c] for _, c in in_trick) / 4, mine / 16,
            theirs / 16, self.view(observation, "targets")[0] / 16, len(in_trick) / self.n, held.sum() / 10,
            held[self.d - 1] > 0, (hand & (self.suit == trump)).sum() / 10,
            self.view(observation, "deal_number")[0] > 0,
        ]  # fmt: skip
        rows = np.zeros((len(actions), len(FEATURES)), dtype=np.float32)
        rows[:, : len(SITUATION)] = np.asarray(situation, dtype=np.float32)
        for row, action in zip(rows, actions, strict=True):
            row[len(SITUATION) :] = self._move(int(action), hand, out, trump, led, trick_no, best)
        return rows

    def _move(
        self, action: int, hand: np.ndarray, out: np.ndarray, trump: int, led: int, trick_no: int, best: int
    ) -> list[float]:
        if action == self.joker.offset or action in self.lead_joker:
            named = action - self.lead_joker.offset if action in self.lead_joker else -1
            of_named = out & (self.suit == named)
            wins = best >= 0 and self._strength(self.cards.joker, False, led, trump, trick_no) > best
            return [1, 1, 0, 0, 0, wins, 1, 0, of_named.sum() / 13, (of_named & self.honour).sum() / 4, 0, 0]
        if action not in self.play:
            raise ValueError(f"action {action} is not a card play of {self.context.env_id}")
        card = action - self.play.offset
        suit, rank = self.suit[card], self.rank[card]
        mine = hand & (self.suit == suit)
        of_suit = out & (self.suit == suit)
        wins = best >= 0 and self._strength(card, False, led, trump, trick_no) > best
        return [
            0, rank / self.top_rank, self.honour[card], suit == trump, suit == led, wins,
            not (of_suit & (self.rank > rank)).any(), mine.sum() / 10, of_suit.sum() / 13,
            (of_suit & self.honour).sum() / 4, rank == self.rank[mine].min(), rank == self.rank[mine].max(),
        ]  # fmt: skip


def is_move_advantage_network(weights: ActorWeights) -> bool:
    """Whether a checkpoint holds Goninkan move advantages."""
    return weights.meta.get("kind") == MOVE_ADVANTAGES


def stepped_choice(steps: Sequence[tuple[ActorWeights, float]], inputs: np.ndarray, base: int) -> int:
    """The row of ``inputs`` (one per legal move) played: from ``base``'s row, each ``(network, margin)`` step in
    order moves to its best-valued row where that beats the row chosen so far by more than its margin. A network
    of fewer inputs than the rows reads their first columns (an earlier step fitted before later features)."""
    chosen = base
    for weights, margin in steps:
        values = weights.outputs(inputs[:, : len(weights.obs_scale)])[:, 0]
        best = int(np.argmax(values))
        if values[best] - values[chosen] > margin:
            chosen = best
    return chosen


def checked_steps(
    context: PolicyContext,
    weights: ActorWeights,
    margin: float | None,
    earlier: Sequence[ActorWeights],
    check: Callable[[ActorWeights, PolicyContext], None],
) -> list[tuple[ActorWeights, float]]:
    """The ``(network, margin)`` steps of a player: ``earlier`` networks at their own margins, then ``weights`` at
    ``margin`` (its checkpoint's if ``None``); ``check`` refuses any that does not fit the game."""
    for step in (*earlier, weights):
        check(step, context)
    steps = [(step, float(step.meta["margin"])) for step in earlier]
    return [*steps, (weights, float(weights.meta["margin"] if margin is None else margin))]


class SteppedAdvantages:
    """The steps of a move-advantage player (a mixin placed before the rule bot it improves): ``weights`` at
    ``margin`` (its checkpoint's if ``None``), after the ``earlier`` steps' networks at their own margins."""

    def __init__(
        self,
        context: PolicyContext,
        weights: ActorWeights,
        seed: int | None = None,
        margin: float | None = None,
        earlier: Sequence[ActorWeights] = (),
    ):
        self.steps = checked_steps(context, weights, margin, earlier, self.fits)
        super().__init__(context, seed)  # type: ignore[call-arg]  # the rule bot's

    @staticmethod
    def fits(weights: ActorWeights, context: PolicyContext) -> None:
        """Refuse a network that does not fit the game (each player's own check)."""
        raise NotImplementedError

    def played_data(self) -> Iterator[bytes]:
        """Every step's network and the margin it plays at (a step's margin may differ from its checkpoint's): the
        earlier steps come from the zoo files the checkpoint names."""
        for weights, margin in self.steps:
            yield weights.played_bytes() + f"|{margin}".encode()


class ImprovedKankeiPlayer(SteppedAdvantages, MoveFeatures):
    """The rule bot, except in card play where the network rates another legal play more than ``margin`` above
    the bot's (the margin is the checkpoint's, unless given); with ``earlier`` steps (a later step of policy
    iteration), the earlier networks move first (:func:`stepped_choice`). Its name is its game's:
    ``goninkan/improved`` or ``yoninkan/improved``."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.name = f"{game_name(self.context.env_id)}/improved"

    @staticmethod
    def fits(weights: ActorWeights, context: PolicyContext) -> None:
        check_fits(weights, context)

    def decide(self, observation: Mapping[str, np.ndarray]) -> int:
        base = super().decide(observation)
        legal = np.flatnonzero(observation["action_mask"])
        if DECISIONS[int(np.argmax(self.view(observation, "decision")))] != "play" or len(legal) < 2:
            return base
        inputs = self.features(observation["observation"], legal)
        return int(legal[stepped_choice(self.steps, inputs, int(np.flatnonzero(legal == base)[0]))])


def check_fits(weights: ActorWeights, context: PolicyContext) -> None:
    """Refuse a move-advantage network for another game, another observation layout (player count) or of another
    input size."""
    if game_name(context.env_id) not in GAMES:
        raise ValueError(f"move-advantage agents play only {GAMES}, not {context.env_id}")
    check_fitted(weights, context, len(FEATURES))


def check_fitted(weights: ActorWeights, context: PolicyContext, inputs: int) -> None:
    """The checks every move-advantage player makes of its checkpoint: fitted on this game and observation layout,
    ``inputs`` inputs and one output, and a margin."""
    trained_on = str(weights.meta.get("env_id", ""))
    if game_name(trained_on) != game_name(context.env_id):
        raise ValueError(
            f"this move-advantage network was fitted on {trained_on or 'no named game'}, not {context.env_id}"
        )
    here = context_layout_hash(context)
    if weights.meta.get("layout_hash") != here:
        raise ValueError(
            f"this move-advantage network was fitted on {trained_on} with options {weights.meta.get('options')} "
            f"(observation layout {weights.meta.get('layout_hash')}), but this env is {context.env_id} with "
            f"{context.num_players} players (layout {here}): make the env it was fitted on"
        )
    size = weights.hidden[0][0].shape[1] if weights.hidden else weights.action[0].shape[1]
    if size != inputs or weights.action[0].shape[0] != 1:
        raise ValueError(
            f"a move-advantage network for {context.env_id} takes {inputs} features and gives 1 value; this one "
            f"takes {size} and gives {weights.action[0].shape[0]} (trained on {weights.meta.get('env_id')})"
        )
    if "margin" not in weights.meta:
        raise ValueError("a move-advantage checkpoint names its margin in meta['margin']; this one has none")
