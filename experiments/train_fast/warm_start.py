"""A run's starting actor taken from a trained one (``init_from``): a zoo agent or an exported ``.npz``, checked to
read the same observations, through the same layers, as the run's network. The critic starts fresh."""

from __future__ import annotations

from collections.abc import Sequence

import equinox as eqx
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import ActorWeights
from cardenvs.experiments.fine_tune import load_init_actor
from cardenvs.experiments.train_fast.config import ZOO_PREFIX
from cardenvs.experiments.train_fast.networks import ActorCritic, from_actor_weights


def starting_weights(spec: str, context: PolicyContext, scale: np.ndarray) -> ActorWeights:
    """The actor ``spec`` names (``zoo:<game>/<name>`` or the path of an ``.npz``), read and checked against the
    run's game and observation ``scale`` by the loader fine-tuning uses,
    :func:`~cardenvs.experiments.fine_tune.load_init_actor`."""
    if not spec.startswith(ZOO_PREFIX) and not spec.endswith(".npz"):
        raise ValueError(f"init_from {spec!r} is neither zoo:<game>/<name> nor the path of an actor .npz")
    return load_init_actor(spec, context, scale, trust=False)


def warm_started(model: ActorCritic, weights: ActorWeights, net_arch: Sequence[int], activation: str) -> ActorCritic:
    """``model`` with its actor replaced by ``weights`` (same widths and activation, or ``ValueError`` naming the
    difference)."""
    widths = [w.shape[0] for w, _ in weights.hidden]
    if widths != list(net_arch):
        raise ValueError(f"init_from has hidden layers {widths}, this run's net_arch is {list(net_arch)}")
    if weights.activation != activation:
        raise ValueError(f"init_from uses {weights.activation!r}, this run's activation is {activation!r}")
    return eqx.tree_at(lambda m: m.actor, model, from_actor_weights(weights))
