"""Masked PPO as one jitted program per iteration: a rollout (``lax.scan`` over env steps of every game, the
population's moves included), the returns and advantages, and the epochs of minibatch updates.

A step of the rollout steps every game once, whoever is to move: the learner where it holds the seat to act (every
seat in a ``self`` game, its drawn seat elsewhere), the game's population entry otherwise. A learner decision's
reward is what its seat earns from that step until its next decision (or the game's end), and its advantage
bootstraps from the value of that next decision (GAE per seat, over the game's own sequence). A decision whose
next one falls beyond the rollout is not trained on (its return is unknown yet); the minibatches cover the
decisions trained on only, in a fresh random order each epoch."""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from cardenvs.experiments.train_fast.checkpoint import Resumable
from cardenvs.experiments.train_fast.networks import ActorCritic, Mlp, masked_logits, sample
from cardenvs.experiments.train_fast.rollout import Table
from cardenvs.experiments.train_fast.updates import fit, with_learning_rate

__all__ = ["Program", "Steps", "TrainState"]


class TrainState(NamedTuple):
    """Everything an iteration reads and writes (a pytree of arrays)."""

    model: ActorCritic
    opt_state: Any
    snapshots: Mlp
    """The ring of past actors, a leading axis of ``snapshot_recent`` on every array."""
    games: Any
    """The batch's game states (``cardenvs.fast``'s ``State``, a leading axis of ``num_games``)."""
    seats: jax.Array
    """The learner's seat in each game (ignored in ``self`` games), drawn each deal."""
    key: jax.Array


class Steps(NamedTuple):
    """What the rollout keeps of every env step, ``(T, B, …)``: a :class:`~.rollout.Turn`'s fields (in this order)
    with the acting policy's log-probability and value between them."""

    obs: jax.Array
    mask: jax.Array
    action: jax.Array
    logp: jax.Array
    value: jax.Array
    player: jax.Array
    learner: jax.Array
    rewards: jax.Array
    done: jax.Array
    learner_reward: jax.Array


class Program(Table):
    """PPO's iteration over the fixed parts of a run (:class:`~.rollout.Table`)."""

    def start(self, run: Resumable) -> TrainState:
        """The first state of a run (fresh deals) from its networks, optimizer state, snapshot ring and key."""
        if not isinstance(run.model, ActorCritic):
            raise ValueError(f"PPO trains an actor and a critic, not {type(run.model).__name__}")
        games_key, key = jax.random.split(run.key)
        games, seats = self.init_games(games_key)
        return TrainState(run.model, run.opt_state, run.snapshots, games, seats, key)

    def rollout(self, state: TrainState) -> tuple[TrainState, Steps]:
        def choose(obs: jax.Array, mask: jax.Array, key: jax.Array) -> tuple[jax.Array, tuple[jax.Array, ...]]:
            logits, value = state.model(obs)
            action = sample(key, logits, mask)
            logp = jnp.take_along_axis(jax.nn.log_softmax(masked_logits(logits, mask)), action[:, None], axis=1)
            return action, (logp[:, 0], value)

        (games, seats, key), (turn, (logp, value)) = self.play(
            state.games, state.seats, state.snapshots, state.key, choose
        )
        steps = Steps(*turn[:3], logp, value, *turn[3:])
        return state._replace(games=games, seats=seats, key=key), steps

    def advantages(self, steps: Steps) -> tuple[jax.Array, jax.Array]:
        """GAE per seat over each game's steps, backwards: advantages ``(T, B)`` and whether each is trained on."""
        gamma, lam = self.args.gamma, self.args.gae_lambda
        shape = steps.rewards.shape[1:]
        seats = jnp.arange(shape[1])

        Carry = tuple[jax.Array, jax.Array, jax.Array, jax.Array]

        def back(carry: Carry, t: Steps) -> tuple[Carry, tuple[jax.Array, jax.Array]]:
            earned, next_value, next_adv, known = carry
            ended = t.done[:, None]
            earned = t.rewards + jnp.where(ended, 0.0, earned)
            next_value, next_adv = jnp.where(ended, 0.0, next_value), jnp.where(ended, 0.0, next_adv)
            known = known | ended
            mover = (seats[None, :] == t.player[:, None]) & t.learner[:, None]

            def at_mover(x: jax.Array) -> jax.Array:
                return jnp.take_along_axis(x, t.player[:, None], axis=1)[:, 0]

            delta = at_mover(earned) + gamma * at_mover(next_value) - t.value
            adv = delta + gamma * lam * at_mover(next_adv)
            valid = t.learner & at_mover(known)
            earned = jnp.where(mover, 0.0, earned)
            next_value = jnp.where(mover, t.value[:, None], next_value)
            next_adv = jnp.where(mover, adv[:, None], next_adv)
            return (earned, next_value, next_adv, known | mover), (adv, valid)

        zeros = jnp.zeros(shape, jnp.float32)
        start = (zeros, zeros, zeros, jnp.zeros(shape, bool))
        _, (adv, valid) = jax.lax.scan(back, start, steps, reverse=True)
        return adv, valid

    def loss(self, model: ActorCritic, batch: dict[str, jax.Array]) -> tuple[jax.Array, dict[str, jax.Array]]:
        """SB3's PPO loss over a minibatch's trained-on rows (``weight`` 1; padding rows 0)."""
        args, w = self.args, batch["weight"]
        n = jnp.maximum(w.sum(), 1.0)
        logits, values = model(batch["obs"])
        log_probs = jax.nn.log_softmax(masked_logits(logits, batch["mask"]))
        logp = jnp.take_along_axis(log_probs, batch["action"][:, None], axis=1)[:, 0]
        adv = batch["adv"]
        mean = (w * adv).sum() / n
        std = jnp.sqrt((w * (adv - mean) ** 2).sum() / jnp.maximum(n - 1.0, 1.0))
        adv = (adv - mean) / (std + 1e-8)
        log_ratio = logp - batch["logp"]
        ratio = jnp.exp(log_ratio)
        clipped = jnp.clip(ratio, 1 - args.clip_range, 1 + args.clip_range)
        policy_loss = -(w * jnp.minimum(adv * ratio, adv * clipped)).sum() / n
        value_loss = (w * (batch["returns"] - values) ** 2).sum() / n
        entropy = (w * -jnp.where(batch["mask"], jnp.exp(log_probs) * log_probs, 0.0).sum(-1)).sum() / n
        total = policy_loss - args.ent_coef * entropy + args.vf_coef * value_loss
        stats = {
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
            "approx_kl": (w * ((ratio - 1) - log_ratio)).sum() / n,
            "clip_fraction": (w * (jnp.abs(ratio - 1) > args.clip_range)).sum() / n,
        }
        return total, stats

    def update(self, state: TrainState, steps: Steps, adv: jax.Array, valid: jax.Array) -> tuple[TrainState, Any]:
        """``n_epochs`` passes of minibatches over the trained-on decisions (the others sorted behind them)."""
        rows = {
            "obs": steps.obs,
            "mask": steps.mask,
            "action": steps.action,
            "logp": steps.logp,
            "adv": adv,
            "returns": adv + steps.value,
            "weight": valid.astype(jnp.float32),
        }
        key, epochs = jax.random.split(state.key)
        names = ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")
        model, opt_state, stats = fit(self.loss, state.model, state.opt_state, rows, epochs, self.args, names)
        return state._replace(model=model, opt_state=opt_state, key=key), stats

    def iteration(self, state: TrainState, rate: jax.Array) -> tuple[TrainState, dict[str, jax.Array]]:
        """One rollout and its update; the statistics the log shows."""
        state = state._replace(opt_state=with_learning_rate(state.opt_state, rate))
        state, steps = self.rollout(state)
        adv, valid = self.advantages(steps)
        state, stats = self.update(state, steps, adv, valid)
        stats["learner_decisions"] = steps.learner.sum()
        stats["trained_on"] = valid.sum()
        stats.update(self.scores(steps.learner_reward, steps.done))
        return state, stats

