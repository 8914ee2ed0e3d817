"""A run's starting actor taken from a trained one (``init_from``): a zoo agent or an exported ``.npz``, checked to
read the same observations, through the same layers, as the run's network. The critic starts fresh."""

from __future__ import annotations

from collections.abc import Sequence

import equinox as eqx
import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.weights import ActorWeights, check_fits, load_weights
from cardenvs.experiments.train_fast.config import ZOO_PREFIX
from cardenvs.experiments.train_fast.networks import ActorCritic, from_actor_weights


def starting_weights(spec: str, context: PolicyContext) -> ActorWeights:
    """The actor ``spec`` names (``zoo:<game>/<name>`` or the path of an ``.npz``), after the layout check."""
    if spec.startswith(ZOO_PREFIX):
        from cardenvs.agents.zoo import checked_zoo_weights

        _card, weights = checked_zoo_weights(spec.removeprefix(ZOO_PREFIX), context)
    else:
        if not spec.endswith(".npz"):
            raise ValueError(f"init_from {spec!r} is neither zoo:<game>/<name> nor the path of an actor .npz")
        weights = load_weights(spec, trust=False)
    check_fits(weights, context)
    return weights


def warm_started(
    model: ActorCritic, weights: ActorWeights, net_arch: Sequence[int], activation: str, obs_scale: np.ndarray
) -> ActorCritic:
    """``model`` with its actor replaced by ``weights`` (same widths, activation and observation scale, or
    ``ValueError`` naming the difference)."""
    widths = [w.shape[0] for w, _ in weights.hidden]
    if widths != list(net_arch):
        raise ValueError(f"init_from has hidden layers {widths}, this run's net_arch is {list(net_arch)}")
    if weights.activation != activation:
        raise ValueError(f"init_from uses {weights.activation!r}, this run's activation is {activation!r}")
    # a float16 zoo copy rounds the scale: equal within float16's precision
    if not np.allclose(np.asarray(weights.obs_scale, np.float32), obs_scale, rtol=1e-3, atol=0.0):
        raise ValueError("init_from scales its observations differently from this run (trained on another layout?)")
    return eqx.tree_at(lambda m: m.actor, model, from_actor_weights(weights))
