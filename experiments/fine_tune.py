"""Fine-tuning from a pickle-free actor: PPO starts from a zoo agent or any ``.npz`` checkpoint (``init_from``).
(:mod:`experiments.imitation` fits a new network to a teacher's decisions instead of taking trained weights.)

The spec is read only through the checked loaders of :mod:`agents.learned.weights` and :mod:`agents.zoo` (no
unpickling; a ``.zip`` needs the user's trust as everywhere else): ``zoo:<game>/<name>`` (after its layout-hash
check against the run's env and options), ``ckpt:PATH`` or a bare ``PATH`` (an ``.npz``, or the ``.npz`` beside a
``.zip``). The new model's actor takes the file's weights exactly; its network shape and activation come from the
file. The file holds no critic, and PPO from a good actor with a random critic wrecks the actor in its first updates
(the advantages are noise), so :func:`fit_critic` first fits the critic alone to the returns of the actor's own play.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.move_values import is_move_value_network
from cardenvs.agents.learned.weights import ActorWeights, actor_layers, check_fits, load_weights
from cardenvs.agents.zoo import PREFIX as ZOO_PREFIX
from cardenvs.agents.zoo import ZooError, checked_zoo_weights
from cardenvs.experiments.ppo_settings import PPOSettings

if TYPE_CHECKING:
    from cardenvs.experiments.train_args import TrainArgs

INIT_ACTOR = "init_actor.npz"
"""The actor a run started from, copied into its folder (the critic's data collection plays it from there)."""
SCALE_TOLERANCE = 2.0**-10
"""Relative tolerance of the obs-scale check: zoo weights store the scale in float16 (rounding within 2⁻¹¹)."""
CRITIC_LEARNING_RATE = 1e-3


def load_init_actor(spec: str, context: PolicyContext, scale: np.ndarray, trust: bool | None = None) -> ActorWeights:
    """The actor ``spec`` names, checked against the run's game (``context``) and observation ``scale``."""
    if spec.startswith(ZOO_PREFIX):
        try:
            _, weights = checked_zoo_weights(spec.removeprefix(ZOO_PREFIX), context)
        except ZooError as error:
            raise ValueError(f"init_from: {error}") from error
    else:
        weights = load_weights(spec.removeprefix("ckpt:"), context.layout, trust)
    if is_move_value_network(weights):
        raise ValueError(f"init_from {spec!r} is a move-value network, not an actor over action ids")
    try:
        check_fits(weights, context)
    except ValueError as error:
        raise ValueError(f"init_from {spec!r}: {error}") from error
    if weights.obs_scale.shape != scale.shape or not np.allclose(weights.obs_scale, scale, rtol=SCALE_TOLERANCE):
        raise ValueError(
            f"init_from {spec!r} scales observations differently from this run's {context.env_id} (its obs_scale "
            "is not the run's): it was trained on another observation layout"
        )
    return weights


def initial_actor(args: TrainArgs, trust: bool | None = None) -> tuple[TrainArgs, ActorWeights]:
    """The actor ``args.init_from`` names, checked against the run's game, and ``args`` with its network."""
    from cardenvs.registry import make_raw
    from cardenvs.wrappers import observation_scale

    env = make_raw(args.game, **args.options)
    weights = load_init_actor(args.init_from, PolicyContext.from_env(env), observation_scale(env.layout), trust)
    return with_init_network(args, weights), weights


def with_init_network(args: TrainArgs, weights: ActorWeights) -> TrainArgs:
    """``args`` with the network shape and activation of ``weights``; an explicit other setting (one that is not
    the default) is an error naming both."""
    defaults = PPOSettings()
    arch = [int(w.shape[0]) for w, _ in weights.hidden]
    if list(args.net_arch) not in (arch, defaults.net_arch):
        raise ValueError(f"net_arch {list(args.net_arch)} conflicts with init_from {args.init_from!r}'s {arch}")
    if args.activation not in (weights.activation, defaults.activation):
        raise ValueError(
            f"activation {args.activation!r} conflicts with init_from {args.init_from!r}'s {weights.activation!r}"
        )
    return replace(args, net_arch=arch, activation=weights.activation)


def copy_actor(model: Any, weights: ActorWeights) -> None:
    """Set ``model``'s (a MaskablePPO with an MLP policy of the same shape) policy layers and action head to
    ``weights`` exactly."""
    import torch

    with torch.no_grad():
        for module, (w, b) in zip(actor_layers(model.policy), [*weights.hidden, weights.action], strict=True):
            module.weight.copy_(torch.as_tensor(w))
            module.bias.copy_(torch.as_tensor(b))


def start_from(
    model: Any, weights: ActorWeights, args: TrainArgs, out: Path, scale: np.ndarray, meta: dict[str, Any]
) -> None:
    """Give the fresh ``model`` the actor ``weights`` and a critic fitted to that actor's play."""
    copy_actor(model, weights)
    fit_critic(model, args, out, scale, meta)


def fit_critic(model: Any, args: TrainArgs, out: Path, scale: np.ndarray, meta: dict[str, Any]) -> None:
    """Fit ``model``'s critic alone to the discounted returns of its actor's own (sampled) play at the learner's
    seat against the run's pool, ``init_value_decisions`` decisions over ``init_value_epochs`` epochs; the value
    error before and after each epoch goes to ``init.json``."""
    from cardenvs.experiments.imitation import collect_in_parallel, pretrain
    from cardenvs.experiments.train_envs import EnvFactory

    start = time.perf_counter()
    actor = ActorWeights.from_model(model, scale, {**meta, "init_from": args.init_from})
    player = f"ckpt:{actor.save(out / INIT_ACTOR)}"  # samples, as PPO's actor does
    env_fns = [EnvFactory(args, args.n_envs + i) for i in range(args.imitate_workers)]
    plays = collect_in_parallel(env_fns, player, args.init_value_decisions, args.gamma, args.seed)
    history = pretrain(
        model, plays, args.init_value_epochs, args.batch_size, CRITIC_LEARNING_RATE, args.seed, critic_only=True
    )
    record = {
        "init_from": args.init_from,
        "decisions": len(plays),
        "episodes": plays.episodes,
        "epochs": [{"value_rmse": epoch["value_rmse"]} for epoch in history],
        "seconds": round(time.perf_counter() - start, 1),
    }
    (out / "init.json").write_text(json.dumps(record, indent=2) + "\n")
    print(
        f"critic fit on {len(plays)} decisions of the initial actor's play: value rmse "
        f"{history[0]['value_rmse']:.3f} → {min(h['value_rmse'] for h in history):.3f}, {record['seconds']:.0f} s"
    )
