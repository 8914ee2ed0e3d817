"""Who plays the learner's games: the population of the config, each entry on a fixed share of the batch.

The batch of games is cut into one contiguous block per entry (sizes by the config's shares). In a ``self``
block the learner plays every seat; elsewhere it holds one seat, drawn afresh each deal, and the entry plays the
others. Each entry computes its moves for its own block only, so an opponent costs in proportion to its share
(had every game drawn its opponent per deal, every entry would have to play the whole batch under ``vmap``).

Opponents are array programs: the learner's snapshots and zoo actors as :class:`~.networks.Mlp`, rule bots from
``agents.fast_bots`` (each a ``FastBot``: ``act(obs f32[B, D], mask bool[B, A], key) → int32[B]``, pure and
jittable), uniform random play. Nothing calls back into Python while a rollout runs."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Protocol

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.experiments.train_fast.config import RANDOM, SELF, SNAPSHOTS, ZOO_PREFIX
from cardenvs.experiments.train_fast.networks import Mlp, from_actor_weights, greedy, sample


class FastBot(Protocol):
    """A rule bot as an array program (what ``agents.fast_bots.FAST_BOTS`` builds)."""

    def act(self, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array: ...


BotFactory = Callable[[str, Mapping[str, Any]], FastBot]
"""``agents.fast_bots.FAST_BOTS``'s values: ``factory(env_id, options) → FastBot``."""
Pick = Callable[[jax.Array, jax.Array, jax.Array], jax.Array]
"""How a network's outputs become moves: ``(key, outputs, masks) → actions`` (PPO samples its logits, DMC plays
its action values ε-greedily)."""
Act = Callable[[Mlp, jax.Array, jax.Array, jax.Array], jax.Array]
"""A block's opponent moves: ``(snapshots, raw observations, masks, key) → actions`` for the block's games."""


@dataclass(frozen=True)
class Block:
    """One population entry and the games ``start … start + size`` it plays."""

    name: str
    start: int
    size: int
    act: Act | None
    """``None`` for ``self`` (the learner moves at every seat)."""


def fast_bots() -> Mapping[str, BotFactory]:
    """``agents.fast_bots.FAST_BOTS``, imported only when a config names a rule bot."""
    try:
        module = importlib.import_module("cardenvs.agents.fast_bots")
    except ImportError as error:
        problem = f"rule bots as array programs need agents.fast_bots, which does not import: {error}"
        raise ValueError(problem) from error
    bots: Mapping[str, BotFactory] = module.FAST_BOTS
    return bots


def apportion(shares: Mapping[str, float], total: int) -> dict[str, int]:
    """Whole numbers of games per entry, in proportion to ``shares`` (largest remainders), at least 1 each."""
    named = {name: share for name, share in shares.items() if share > 0}
    whole = sum(named.values())
    exact = {name: total * share / whole for name, share in named.items()}
    sizes = {name: max(1, int(value)) for name, value in exact.items()}
    by_remainder = sorted(named, key=lambda name: exact[name] - int(exact[name]), reverse=True)
    i = 0
    while sum(sizes.values()) < total:
        sizes[by_remainder[i % len(by_remainder)]] += 1
        i += 1
    while sum(sizes.values()) > total:  # a share rounded up to 1 is taken from the largest entry
        sizes[max(sizes, key=lambda name: sizes[name])] -= 1
    return sizes


def build_blocks(
    population: Mapping[str, float],
    num_games: int,
    context: PolicyContext,
    options: Mapping[str, Any],
    snapshot_slots: int,
    obs_scale: np.ndarray,
    bots: Mapping[str, BotFactory] | None = None,
    snapshot_pick: Pick = sample,
) -> list[Block]:
    """The batch's blocks in config order (``options``: the game's, as the fast class takes them); snapshots
    read observations scaled by ``obs_scale`` (the learner's) and play as ``snapshot_pick`` says; ``bots``
    replaces ``agents.fast_bots.FAST_BOTS`` (tests)."""
    blocks, start = [], 0
    for name, size in apportion(population, num_games).items():
        act = member_act(name, context, options, size, snapshot_slots, obs_scale, bots, snapshot_pick)
        blocks.append(Block(name, start, size, act))
        start += size
    return blocks


def member_act(
    name: str,
    context: PolicyContext,
    options: Mapping[str, Any],
    size: int,
    slots: int,
    obs_scale: np.ndarray,
    bots: Mapping[str, BotFactory] | None,
    snapshot_pick: Pick = sample,
) -> Act | None:
    if name == SELF:
        return None
    if name == RANDOM:
        return lambda _snapshots, obs, mask, key: sample(key, jnp.zeros(mask.shape), mask)
    if name == SNAPSHOTS:
        return snapshots_act(size, slots, obs_scale, snapshot_pick)
    if name.startswith(ZOO_PREFIX):
        return zoo_act(name.removeprefix(ZOO_PREFIX), context)
    factories = fast_bots() if bots is None else bots
    if name not in factories:
        raise ValueError(f"no fast rule bot {name!r}; agents.fast_bots has: {sorted(factories)}")
    bot = factories[name](context.env_id, options)
    return lambda _snapshots, obs, mask, key: bot.act(obs, mask, key).astype(jnp.int32)


def snapshots_act(size: int, slots: int, obs_scale: np.ndarray, pick: Pick = sample) -> Act:
    """The block split into equal parts, part ``k`` played (as ``pick`` makes moves of its outputs) by snapshot
    ``k`` of the ring, which reads observations scaled as the learner does (``obs_scale``)."""
    scale = jnp.asarray(obs_scale)
    bounds = np.linspace(0, size, min(slots, size) + 1).astype(int)

    def act(snapshots: Mlp, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        parts = []
        for k, (lo, hi) in enumerate(pairwise(bounds)):
            actor = jax.tree.map(lambda leaf, k=k: leaf[k], snapshots)
            logits = actor(obs[lo:hi] * scale)
            parts.append(pick(jax.random.fold_in(key, k), logits, mask[lo:hi]))
        return jnp.concatenate(parts)

    return act


def zoo_act(argument: str, context: PolicyContext) -> Act:
    """A zoo actor, checked against the game's layout, as a constant MLP (greedy or sampling, as its card says)."""
    from cardenvs.agents.learned.goninkan_advantage import is_move_advantage_network
    from cardenvs.agents.learned.move_values import is_move_value_network
    from cardenvs.agents.learned.weights import check_fits
    from cardenvs.agents.zoo import checked_zoo_weights

    card, weights = checked_zoo_weights(argument, context)
    if is_move_value_network(weights) or is_move_advantage_network(weights):
        raise ValueError(f"zoo:{argument} scores whole moves, not observations; only actor networks can join")
    check_fits(weights, context)
    actor, scale = from_actor_weights(weights), jnp.asarray(weights.obs_scale)

    def act(_snapshots: Mlp, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
        logits = actor(obs * scale)
        return greedy(logits, mask) if card.greedy else sample(key, logits, mask)

    return act


def opponent_actions(blocks: list[Block], snapshots: Mlp, obs: jax.Array, mask: jax.Array, key: jax.Array) -> jax.Array:
    """Every game's opponent move (zeros in ``self`` blocks), each block computing its own games only."""
    parts = []
    for i, block in enumerate(blocks):
        lo, hi = block.start, block.start + block.size
        if block.act is None:
            parts.append(jnp.zeros(block.size, jnp.int32))
        else:
            parts.append(block.act(snapshots, obs[lo:hi], mask[lo:hi], jax.random.fold_in(key, i)))
    return jnp.concatenate(parts)


def all_seats_learner(blocks: list[Block], num_games: int) -> np.ndarray:
    """``(num_games,)`` bool: the games whose every seat the learner plays."""
    out = np.zeros(num_games, bool)
    for block in blocks:
        out[block.start : block.start + block.size] = block.act is None
    return out
