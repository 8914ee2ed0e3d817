"""Masked PPO as one jitted program per iteration: a rollout (``lax.scan`` over env steps of every game, the
population's moves included), the returns and advantages, and the epochs of minibatch updates.

A step of the rollout steps every game once, whoever is to move: the learner where it holds the seat to act (every
seat in a ``self`` game, its drawn seat elsewhere), the game's population entry otherwise. A learner decision's
reward is what its seat earns from that step until its next decision (or the game's end), and its advantage
bootstraps from the value of that next decision (GAE per seat, over the game's own sequence). A decision whose
next one falls beyond the rollout is not trained on (its return is unknown yet); the minibatches cover the
decisions trained on only, in a fresh random order each epoch."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from cardenvs.experiments.train_fast.config import FastTrainArgs
from cardenvs.experiments.train_fast.networks import ActorCritic, Mlp, masked_logits, sample
from cardenvs.experiments.train_fast.population import Block, all_seats_learner, opponent_actions
from cardenvs.fast.batched import redeal_finished


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
    """What the rollout keeps of every env step, ``(T, B, …)``."""

    obs: jax.Array
    """Scaled observations of the player to act."""
    mask: jax.Array
    action: jax.Array
    logp: jax.Array
    value: jax.Array
    player: jax.Array
    learner: jax.Array
    """Whether the learner made this decision."""
    rewards: jax.Array
    """``(T, B, n)``: every seat's reward from this step (scaled by ``reward_scale``)."""
    done: jax.Array
    learner_reward: jax.Array
    """The learner seat's reward from this step (outside ``self`` games: the score against the population)."""


def optimizer(args: FastTrainArgs) -> optax.GradientTransformation:
    """SB3's: gradients clipped to ``max_grad_norm``, then Adam (ε 1e-5) at a learning rate set per iteration."""
    adam = optax.inject_hyperparams(optax.adam)(learning_rate=args.learning_rate, eps=1e-5)
    return optax.chain(optax.clip_by_global_norm(args.max_grad_norm), adam)


def with_learning_rate(opt_state: Any, rate: jax.Array) -> Any:
    clip, adam = opt_state
    return clip, adam._replace(hyperparams={**adam.hyperparams, "learning_rate": rate})


@dataclass(frozen=True)
class Program:
    """The fixed parts of a run that the jitted iteration closes over."""

    env: Any
    blocks: list[Block]
    args: FastTrainArgs
    obs_scale: np.ndarray
    num_players: int

    def init_games(self, key: jax.Array) -> tuple[Any, jax.Array]:
        deal, seat = jax.random.split(key)
        games = jax.vmap(self.env.init)(jax.random.split(deal, self.args.num_games))
        return games, jax.random.randint(seat, (self.args.num_games,), 0, self.num_players)

    def rollout(self, state: TrainState) -> tuple[TrainState, Steps]:
        args, env, scale = self.args, self.env, jnp.asarray(self.obs_scale)
        every_seat = jnp.asarray(all_seats_learner(self.blocks, args.num_games))
        pool = max(1, args.num_games // 16)

        def step(carry: tuple[Any, jax.Array, jax.Array], _: None) -> tuple[tuple[Any, jax.Array, jax.Array], Steps]:
            games, seats, key = carry
            key, act_key, opp_key, deal_key, seat_key = jax.random.split(key, 5)
            raw, mask, player = games.observation, games.legal_action_mask, games.current_player
            obs = raw * scale
            logits, value = state.model(obs)
            learner = every_seat | (player == seats)
            opponents = opponent_actions(self.blocks, state.snapshots, raw, mask, opp_key)
            action = jnp.where(learner, sample(act_key, logits, mask), opponents)
            log_probs = jax.nn.log_softmax(masked_logits(logits, mask))
            logp = jnp.take_along_axis(log_probs, action[:, None], axis=1)[:, 0]
            after = jax.vmap(env.step)(games, action)
            done = after.terminated | after.truncated
            rewards = after.rewards.astype(jnp.float32) * args.reward_scale
            learner_reward = jnp.take_along_axis(rewards, seats[:, None], axis=1)[:, 0]
            games = redeal_finished(env, after, deal_key, pool)
            seats = jnp.where(done, jax.random.randint(seat_key, seats.shape, 0, self.num_players), seats)
            out = Steps(obs, mask, action, logp, value, player, learner, rewards, done, learner_reward)
            return (games, seats, key), out

        (games, seats, key), steps = jax.lax.scan(step, (state.games, state.seats, state.key), None, args.rollout_steps)
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
        args, opt = self.args, optimizer(self.args)
        flat = {
            "obs": steps.obs,
            "mask": steps.mask,
            "action": steps.action,
            "logp": steps.logp,
            "adv": adv,
            "returns": adv + steps.value,
            "weight": valid.astype(jnp.float32),
        }
        flat = {name: x.reshape((-1, *x.shape[2:])) for name, x in flat.items()}
        rows, size = flat["weight"].shape[0], args.minibatch_size
        batches = (valid.sum() + size - 1) // size
        grad = jax.value_and_grad(self.loss, has_aux=True)

        def minibatch(i: jax.Array, carry: tuple[Any, ...]) -> tuple[Any, ...]:
            model, opt_state, order, totals = carry
            rows_now = jax.lax.dynamic_slice(order, (i * size,), (size,))
            (_, stats), grads = grad(model, {name: x[rows_now] for name, x in flat.items()})
            updates, opt_state = opt.update(grads, opt_state, model)
            totals = jax.tree.map(jnp.add, totals, stats)
            return optax.apply_updates(model, updates), opt_state, order, totals

        def epoch(carry: tuple[Any, ...], key: jax.Array) -> tuple[tuple[Any, ...], None]:
            model, opt_state, totals = carry
            order = jnp.argsort(jnp.where(flat["weight"] > 0, jax.random.uniform(key, (rows,)), 2.0))
            model, opt_state, _, totals = jax.lax.fori_loop(0, batches, minibatch, (model, opt_state, order, totals))
            return (model, opt_state, totals), None

        key, epochs = jax.random.split(state.key)
        zero = {name: jnp.zeros(()) for name in ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")}
        (model, opt_state, totals), _ = jax.lax.scan(
            epoch, (state.model, state.opt_state, zero), jax.random.split(epochs, args.n_epochs)
        )
        stats = {name: total / jnp.maximum(batches * args.n_epochs, 1) for name, total in totals.items()}
        return state._replace(model=model, opt_state=opt_state, key=key), stats

    def iteration(self, state: TrainState, rate: jax.Array) -> tuple[TrainState, dict[str, jax.Array]]:
        """One rollout and its update; the statistics the log shows."""
        state = state._replace(opt_state=with_learning_rate(state.opt_state, rate))
        state, steps = self.rollout(state)
        adv, valid = self.advantages(steps)
        state, stats = self.update(state, steps, adv, valid)
        stats["learner_decisions"] = steps.learner.sum()
        stats["trained_on"] = valid.sum()
        for block in self.blocks:
            if block.act is None:
                continue
            part = slice(block.start, block.start + block.size)
            stats[f"return_vs/{block.name}"] = steps.learner_reward[:, part].sum()
            stats[f"episodes_vs/{block.name}"] = steps.done[:, part].sum()
        return state, stats


def compiled_iteration(
    program: Program, state: TrainState, compiler_options: dict[str, Any] | None = None
) -> Callable[[TrainState, jax.Array], tuple[TrainState, dict[str, jax.Array]]]:
    """The iteration compiled once for ``state``'s shapes (``compiler_options``: XLA's, e.g. the tests' quick
    compile). The state is not donated: a fresh deal may hold one buffer in two fields (Kyuuri's does), which
    donation refuses."""
    rate = jnp.asarray(program.args.learning_rate, jnp.float32)
    compiled: Callable[[TrainState, jax.Array], tuple[TrainState, dict[str, jax.Array]]] = (
        jax.jit(program.iteration).lower(state, rate).compile(compiler_options)
    )
    return compiled
