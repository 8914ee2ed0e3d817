"""The gradient steps every learner of the fast path shares: the optimizer, its learning rate set per iteration,
and epochs of minibatches over the rows of a rollout that are trained on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jax
import jax.numpy as jnp
import optax

from cardenvs.experiments.train_fast.config import FastTrainArgs

Loss = Callable[[Any, dict[str, jax.Array]], tuple[jax.Array, dict[str, jax.Array]]]
"""``(model, minibatch) → (loss, statistics)``; a minibatch's ``weight`` row is 1 where trained on, 0 on padding."""


def optimizer(args: FastTrainArgs) -> optax.GradientTransformation:
    """SB3's: gradients clipped to ``max_grad_norm``, then Adam (ε 1e-5) at a learning rate set per iteration."""
    adam = optax.inject_hyperparams(optax.adam)(learning_rate=args.learning_rate, eps=1e-5)
    return optax.chain(optax.clip_by_global_norm(args.max_grad_norm), adam)


def with_learning_rate(opt_state: Any, rate: jax.Array) -> Any:
    clip, adam = opt_state
    return clip, adam._replace(hyperparams={**adam.hyperparams, "learning_rate": rate})


def fit(
    loss: Loss,
    model: Any,
    opt_state: Any,
    rows: Mapping[str, jax.Array],
    key: jax.Array,
    args: FastTrainArgs,
    stat_names: tuple[str, ...],
) -> tuple[Any, Any, dict[str, jax.Array]]:
    """``n_epochs`` passes of minibatches of ``minibatch_size`` over the ``rows`` (leading axes ``(T, B)``) whose
    ``weight`` is positive, in a fresh random order each epoch (the others sorted behind them, so that only the
    last minibatch holds padding); the model, the optimizer state and the mean of each of ``stat_names``."""
    opt = optimizer(args)
    flat = {name: x.reshape((-1, *x.shape[2:])) for name, x in rows.items()}
    count, size = flat["weight"].shape[0], args.minibatch_size
    batches = ((flat["weight"] > 0).sum() + size - 1) // size
    grad = jax.value_and_grad(loss, has_aux=True)

    def minibatch(i: jax.Array, carry: tuple[Any, ...]) -> tuple[Any, ...]:
        model, opt_state, order, totals = carry
        rows_now = jax.lax.dynamic_slice(order, (i * size,), (size,))
        (_, stats), grads = grad(model, {name: x[rows_now] for name, x in flat.items()})
        updates, opt_state = opt.update(grads, opt_state, model)
        totals = jax.tree.map(jnp.add, totals, stats)
        return optax.apply_updates(model, updates), opt_state, order, totals

    def epoch(carry: tuple[Any, ...], key: jax.Array) -> tuple[tuple[Any, ...], None]:
        model, opt_state, totals = carry
        order = jnp.argsort(jnp.where(flat["weight"] > 0, jax.random.uniform(key, (count,)), 2.0))
        model, opt_state, _, totals = jax.lax.fori_loop(0, batches, minibatch, (model, opt_state, order, totals))
        return (model, opt_state, totals), None

    zero = {name: jnp.zeros(()) for name in stat_names}
    (model, opt_state, totals), _ = jax.lax.scan(epoch, (model, opt_state, zero), jax.random.split(key, args.n_epochs))
    stats = {name: total / jnp.maximum(batches * args.n_epochs, 1) for name, total in totals.items()}
    return model, opt_state, stats
