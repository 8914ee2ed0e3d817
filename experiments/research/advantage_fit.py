"""The learning half of :mod:`experiments.research.rollout_improvement`: a move-advantage network fitted on rollouts.

Every card play of every decision with two or more legal plays is one row of
:data:`agents.learned.goninkan_advantage.FEATURES`.
The network ``f`` is fitted so that ``f(a) − f(base)`` matches the advantage of ``a`` over the bot's own play
``base`` in the rolled-out world (Huber loss: a round's rare −32 would otherwise dominate). The regression averages
over the hidden worlds that look alike, in the proportions the bot's play produces them, so it estimates
``Q_bot(information, a) − Q_bot(information, base)`` rather than a value that peeks at hidden cards.

:func:`realised_gain` scores the agent's choices on held-out decisions with their worlds' true advantages: for a
given network and margin, an unbiased estimate of what the agent gains per decision over the bot, with the bot at
every other seat. :func:`improve` picks the epoch and the margin on those same rows, so its chosen figure leans
optimistic; the tournaments on other deals are the independent check.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.goninkan import DECISIONS
from cardenvs.agents.learned.goninkan_advantage import BASE_KEY, FEATURES, MOVE_ADVANTAGES, MoveFeatures
from cardenvs.agents.learned.players import earlier_steps
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.agents.learned.zsy_advantage import AFTER, input_scale
from cardenvs.agents.learned.zsy_context import GROUPS, situation_names
from cardenvs.experiments.research.mlp import mlp
from cardenvs.experiments.research.move_rollouts import SHARD_PREFIX, MoveRollouts, load_move_rollouts
from cardenvs.experiments.research.rollout_data import Rollouts, check_joinable, load_rollouts
from cardenvs.registry import definition
from cardenvs.zheng_shang_you.features import move_layout

HUBER_DELTA = 1.0
"""Points of advantage beyond which the loss grows linearly."""
BATCH_SIZE = 1024
CHUNK = 65_536
"""Rows per forward pass when the network scores a whole set."""
Shard = TypeVar("Shard", Rollouts, MoveRollouts)
MARGINS = (0.0, 0.05, 0.1, 0.2, 0.4)
"""The margins whose held-out gains :func:`improve` reports."""
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "plain": (),
    **{group: tuple(GROUPS)[: i + 1] for i, group in enumerate(GROUPS)},
}
"""The inputs of a Zheng Shang You fit: the observation, the move and :data:`AFTER`, then the situation groups
(:data:`~agents.learned.zsy_context.GROUPS`) up to the one named: ``context`` adds
:data:`~agents.learned.zsy_context.CONTEXT`, ``control`` that and :data:`~agents.learned.zsy_context.CONTROL`."""
MARGIN_RULES = {"lower_bound": 1.0, "estimate": 0.0}
"""How :func:`improve` picks the margin → the weight of the 95% half-width subtracted from each held-out gain:
``lower_bound`` takes the highest lower bound, ``estimate`` the highest gain."""


@dataclass
class MoveRows:
    """The evaluated moves of some decisions: one row each, grouped by decision. A row's network input is its
    decision's ``situations`` row (when there is one) followed by its own ``features``."""

    features: np.ndarray
    advantages: np.ndarray
    decision: np.ndarray
    """Index of the decision each row belongs to (its row of ``situations``)."""
    base_row: np.ndarray
    """For each row, the row of its decision's base play."""
    situations: np.ndarray | None = None
    """Per decision, the input shared by all its moves (Zheng Shang You's raw observation), or None."""

    @classmethod
    def of(cls, data: Rollouts) -> MoveRows:
        """The card plays of Goninkan or Yoninkan rollouts, as :data:`FEATURES` rows."""
        env = cardenvs.make(data.game, **data.options)
        reader = MoveFeatures(PolicyContext.from_env(env))
        play = DECISIONS.index("play")
        features, advantages, decisions, base_rows = [], [], [], []
        rows = 0
        for i, vector in enumerate(data.observations):
            vector = vector.astype(np.float32)
            evaluated = np.flatnonzero(np.isfinite(data.advantages[i]))
            if int(np.argmax(reader.view({"observation": vector}, "decision"))) != play or len(evaluated) < 2:
                continue
            features.append(reader.features(vector, evaluated))
            advantages.append(data.advantages[i, evaluated])
            decisions.append(np.full(len(evaluated), i))
            base_rows.append(np.full(len(evaluated), rows + int(np.flatnonzero(evaluated == data.base_actions[i])[0])))
            rows += len(evaluated)
        return cls(*(np.concatenate(parts) for parts in (features, advantages, decisions, base_rows)))

    @classmethod
    def of_moves(cls, data: MoveRollouts) -> MoveRows:
        """The evaluated moves of Zheng Shang You rollouts: the observation, then the move's own features."""
        return cls(data.moves, data.advantages, data.decision, data.base[data.decision], data.observations)

    def __len__(self) -> int:
        return len(self.features)

    @property
    def width(self) -> int:
        """Inputs per row."""
        return self.features.shape[1] + (0 if self.situations is None else self.situations.shape[1])

    def inputs(self, rows: np.ndarray | slice) -> np.ndarray:
        """The raw float32 network inputs of ``rows``."""
        own = self.features[rows].astype(np.float32)
        if self.situations is None:
            return own
        return np.concatenate([self.situations[self.decision[rows]].astype(np.float32), own], axis=1)

    def choices(self, values: np.ndarray, margin: float) -> np.ndarray:
        """Per decision, the row the agent plays: the best-valued play if it beats the base by more than
        ``margin``, else the base play."""
        gain = values - values[self.base_row]
        starts = np.flatnonzero(np.r_[True, self.decision[1:] != self.decision[:-1]])
        best = np.array([s + int(np.argmax(g)) for s, g in zip(starts, np.split(gain, starts[1:]), strict=True)])
        return np.where(gain[best] > margin, best, self.base_row[best])


def realised_gain(rows: MoveRows, values: np.ndarray, margin: float) -> dict[str, float]:
    """Share of decisions changed, and the mean true advantage of the chosen plays with its 95% half-width."""
    chosen = rows.choices(values, margin)
    gains = rows.advantages[chosen]
    return {
        "changed": float(np.mean(chosen != rows.base_row[chosen])),
        "gain_per_decision": float(gains.mean()),
        "half_width": float(1.96 * gains.std() / np.sqrt(len(gains))),
    }


def values_of(net: Any, rows: MoveRows, scale: np.ndarray) -> np.ndarray:
    """The network's value of every row, computed in chunks."""
    import torch

    out = []
    with torch.no_grad():
        for start in range(0, len(rows), CHUNK):
            x = torch.as_tensor(rows.inputs(slice(start, start + CHUNK)) * scale)
            out.append(net(x).squeeze(1).numpy())
    return np.concatenate(out)


def fit(
    train: MoveRows,
    held: MoveRows,
    scale: np.ndarray,
    hidden: tuple[int, ...],
    epochs: int,
    learning_rate: float,
    seed: int,
) -> tuple[Any, list[float]]:
    """Adam on the Huber loss of ``f(a) − f(base)`` (the rate falling linearly to 0) over inputs times ``scale``;
    returns the network of the epoch with the lowest held-out loss and that loss before and after every epoch."""
    import torch

    net = mlp(train.width, hidden, "relu", seed)
    target = torch.as_tensor(train.advantages)
    held_target = torch.as_tensor(held.advantages)

    def loss(values: Any, base: Any, rows: Any, wanted: Any) -> Any:
        return torch.nn.functional.huber_loss(values[rows] - values[base], wanted, delta=HUBER_DELTA)

    def held_out_loss() -> float:
        values = torch.as_tensor(values_of(net, held, scale))
        return float(loss(values, held.base_row, slice(None), held_target))

    optimizer = torch.optim.Adam(net.parameters(), lr=learning_rate)
    steps = epochs * -(-len(train) // BATCH_SIZE)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / steps)
    rng = np.random.default_rng(seed)
    history = [held_out_loss()]
    best = copy.deepcopy(net.state_dict())
    for _ in range(epochs):
        order = rng.permutation(len(train))
        for start in range(0, len(order), BATCH_SIZE):
            rows = order[start : start + BATCH_SIZE]
            values = net(torch.as_tensor(train.inputs(np.r_[rows, train.base_row[rows]]) * scale)).squeeze(1)
            here = torch.arange(len(rows))
            batch_loss = loss(values, here + len(rows), here, target[rows])
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
            schedule.step()
        history.append(held_out_loss())
        if history[-1] < min(history[:-1]):
            best = copy.deepcopy(net.state_dict())
    net.load_state_dict(best)
    return net, history


@dataclass
class FitSettings:
    """How :func:`improve` fits (the ``fit`` command's options)."""

    hidden: str = "64,64"
    epochs: int = 8
    learning_rate: float = 1e-3
    held_out_shards: int = 2
    seed: int = 0
    margin_rule: str = "lower_bound"
    """One of :data:`MARGIN_RULES`."""
    features: str = "plain"
    """One of :data:`FEATURE_SETS`, the situation groups (:data:`~agents.learned.zsy_context.GROUPS`) it adds for
    Zheng Shang You: ``context`` its :data:`~agents.learned.zsy_context.CONTEXT`, ``control`` that and
    :data:`~agents.learned.zsy_context.CONTROL`."""
    workers: int = 1
    """Processes that compute the situation features of shards that have none kept yet."""


def improve(folder: Path, settings: FitSettings) -> dict[str, Any]:
    """Fit on ``folder``'s shards (the first ``held_out_shards`` held out) and write ``final.npz`` (its margin: the
    one of :data:`MARGINS` whose held-out gain has the highest lower 95% bound, or with ``margin_rule="estimate"``
    the highest gain), ``improve.json`` (returned) and ``args.json``. The shards are Zheng Shang You's moves if the
    folder has any, else Goninkan's or Yoninkan's. Shards rolled out with a zoo agent as the base fit the next step
    on it: the checkpoint names that agent in ``meta["base"]``."""
    if settings.margin_rule not in MARGIN_RULES:
        raise ValueError(f"margin_rule must be one of {sorted(MARGIN_RULES)}, not {settings.margin_rule!r}")
    if settings.features not in FEATURE_SETS:
        raise ValueError(f"features must be one of {list(FEATURE_SETS)}, not {settings.features!r}")
    if settings.workers < 1:
        raise ValueError(f"workers must be at least 1, got {settings.workers}")
    by_moves = any(folder.glob(f"{SHARD_PREFIX}*.npz"))
    groups = FEATURE_SETS[settings.features]
    if groups and not by_moves:
        raise ValueError(
            f"{folder} holds no Zheng Shang You move shards: features={settings.features} is for those only"
        )
    held_data: Rollouts | MoveRollouts
    train_data: Rollouts | MoveRollouts
    clock = time.perf_counter()
    if by_moves:
        shards = load_move_rollouts(folder, groups, settings.workers)
        held_moves, train_moves = _split(folder, shards, settings, MoveRollouts.concatenate)
        held, train = MoveRows.of_moves(held_moves), MoveRows.of_moves(train_moves)
        held_data, train_data = held_moves, train_moves
    else:
        held_plays, train_plays = _split(folder, load_rollouts(folder), settings, Rollouts.concatenate)
        held, train = MoveRows.of(held_plays), MoveRows.of(train_plays)
        held_data, train_data = held_plays, train_plays
    check_joinable([held_data, train_data])
    context = PolicyContext.from_env(cardenvs.make(held_data.game, **held_data.options))
    base = {BASE_KEY: held_data.policy} if held_data.policy else {}
    try:
        earlier_steps(base, context)  # refused before the fit, not after it
    except ValueError as error:
        raise ValueError(
            f"{folder}'s rollouts were played by {held_data.policy}: a later step can stand only on a move-advantage "
            f"agent of the zoo, which its checkpoint names ({error})"
        ) from error
    scale = input_scale(context, groups) if by_moves else np.ones(len(FEATURES), dtype=np.float32)
    move_inputs = ["observation", *move_layout().features, *AFTER, *situation_names(groups)]
    features = move_inputs if by_moves else list(FEATURES)
    hidden = tuple(int(size) for size in settings.hidden.split(","))
    net, history = fit(train, held, scale, hidden, settings.epochs, settings.learning_rate, settings.seed)
    values = values_of(net, held, scale)
    by_margin = {margin: realised_gain(held, values, margin) for margin in MARGINS}
    caution = MARGIN_RULES[settings.margin_rule]
    margin = max(MARGINS, key=lambda m: by_margin[m]["gain_per_decision"] - caution * by_margin[m]["half_width"])
    meta = {
        "kind": MOVE_ADVANTAGES,
        "margin": margin,
        "env_id": definition(held_data.game).env_id,
        "options": held_data.options,
        "layout_hash": context_layout_hash(context),
        "features": features,
        "rollout_rounds": held_data.rounds + train_data.rounds,
        **base,
    }
    ActorWeights.from_torch(net, "relu", scale, meta).save(folder / "final.npz")
    summary = {
        "settings": asdict(settings),
        "decisions": {"fitted": len(np.unique(train.decision)), "held_out": len(np.unique(held.decision))},
        "rows": {"fitted": len(train), "held_out": len(held)},
        "rounds": {"fitted": train_data.rounds, "held_out": held_data.rounds},
        "held_out_loss": history,
        "held_out_by_margin": {str(m): result for m, result in by_margin.items()},
        "margin": margin,
        "seconds": round(time.perf_counter() - clock, 1),
    }
    (folder / "improve.json").write_text(json.dumps(summary, indent=1))
    (folder / "args.json").write_text(json.dumps({"game": held_data.game, "options": held_data.options}, indent=1))
    return summary


def _split(
    folder: Path, shards: Sequence[Shard], settings: FitSettings, join: Callable[[Sequence[Shard]], Shard]
) -> tuple[Shard, Shard]:
    """The held-out shards (the first ``settings.held_out_shards``) and the fitted ones, each joined into one."""
    if len(shards) <= settings.held_out_shards:
        raise ValueError(
            f"{folder} has {len(shards)} shards of rollouts; the fit holds out {settings.held_out_shards} and needs "
            "at least one more"
        )
    return join(shards[: settings.held_out_shards]), join(shards[settings.held_out_shards :])
