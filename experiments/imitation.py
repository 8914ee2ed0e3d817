"""Warm start by imitation: the learner's network first copies a rule bot, then self-play PPO takes over.
(:mod:`experiments.fine_tune` starts from a trained network's weights instead of a teacher's decisions.)

:func:`collect` seats a teacher (a registered policy, e.g. ``zheng_shang_you/rule``) at the learner's seat of
the training env, against the run's own opponent pool, and records what the learner would have seen: the
scaled observation, the mask, the teacher's action and the discounted return that followed. :func:`pretrain`
fits the actor to the teacher's actions (cross-entropy over the legal actions) and the critic to the returns,
so PPO starts from the bot's play with a value function that already knows it.

With a ``learner``, :func:`collect` lets the fitted network play the seat and records the teacher's label for each
decision it meets (DAgger, Ross, Gordon & Bagnell 2011): the copy then learns the bot's answer in the positions its
own mistakes lead to, which the bot's play never shows it. :func:`collect_in_parallel` splits a collection
across processes.
"""

from __future__ import annotations

import copy
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cardenvs.agents.base import PlanningPolicy, PolicyContext
from cardenvs.agents.learned.weights import ActorWeights, MlpPolicy
from cardenvs.agents.specs import make_policy
from cardenvs.experiments.people_data import PEOPLE, people_rows

if TYPE_CHECKING:
    from cardenvs.experiments.train_args import TrainArgs
    from cardenvs.wrappers import SeatEnv

HELD_OUT = 0.05
"""Share of the demonstrations :func:`pretrain` never fits."""
IMITATION_LEARNING_RATE = 1e-3
"""Adam's starting rate in :func:`pretrain` (it falls to 0 over the epochs)."""


@dataclass
class Demonstrations:
    """The teacher's decisions at the learner's seat, one row each."""

    observations: np.ndarray
    """Scaled observations, stored as float16 (3M rows of a 5-player Goninkan observation fit in 6 GiB)."""
    masks: np.ndarray
    actions: np.ndarray
    """The teacher's action: the label."""
    played: np.ndarray
    """The action taken at the table: the teacher's, or the learner's when it played the seat."""
    returns: np.ndarray
    """Discounted return from each decision to the end of its episode (in the env's scaled reward)."""
    episodes: int

    def __len__(self) -> int:
        return len(self.actions)

    def agreement(self) -> float:
        """Share of the decisions where the action played was the teacher's (1 when the teacher played)."""
        return float(np.mean(self.played == self.actions))

    @classmethod
    def concatenate(cls, parts: Sequence[Demonstrations]) -> Demonstrations:
        """One set of the rows of ``parts``, in order."""
        rows = {name: np.concatenate([getattr(p, name) for p in parts]) for name in _ROWS}
        return cls(**rows, episodes=sum(p.episodes for p in parts))


_ROWS = ("observations", "masks", "actions", "played", "returns")


def collect(
    env: SeatEnv, teacher: str, decisions: int, gamma: float, seed: int, learner: ActorWeights | None = None
) -> Demonstrations:
    """``decisions`` decisions of the registered policy ``teacher`` at the learner's seat of ``env``; with
    ``learner``, the learner's greedy actor plays the seat and the teacher only labels."""
    context = PolicyContext.from_env(env.env)
    policy = make_policy(teacher, context, seed)
    player = MlpPolicy(context, learner, greedy=True) if learner is not None else None
    size, actions = env.observation_space.shape[0], env.action_space.n  # type: ignore[index, attr-defined]
    observations = np.zeros((decisions, size), dtype=np.float16)
    masks = np.zeros((decisions, actions), dtype=bool)
    labels = np.zeros(decisions, dtype=np.int64)
    played = np.zeros(decisions, dtype=np.int64)
    rewards = np.zeros(decisions, dtype=np.float64)
    ends = np.zeros(decisions, dtype=bool)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    policy.reset(int(rng.integers(2**31)))
    episodes = 0
    for i in range(decisions):
        observations[i], masks[i] = obs, env.action_masks()
        raw = env.env.observe(env.agent)
        labels[i] = played[i] = policy.act(raw)
        if player is not None:
            played[i] = player.act(raw)
            if played[i] != labels[i] and isinstance(policy, PlanningPolicy):
                policy.plan = []  # the teacher's plan was for a move that is not being made
        obs, reward, terminated, truncated, _ = env.step(played[i])
        rewards[i] = float(reward)
        if terminated or truncated:
            ends[i] = True
            episodes += 1
            obs, _ = env.reset()
            policy.reset(int(rng.integers(2**31)))
    returns = np.zeros(decisions, dtype=np.float32)
    running = 0.0
    for i in range(decisions - 1, -1, -1):
        running = rewards[i] + (0.0 if ends[i] else gamma * running)
        returns[i] = running
    keep = int(np.flatnonzero(ends)[-1]) + 1 if ends.any() else decisions  # drop the unfinished last episode
    return Demonstrations(observations[:keep], masks[:keep], labels[:keep], played[:keep], returns[:keep], episodes)


def collect_in_parallel(
    env_fns: Sequence[Callable[[], SeatEnv]],
    teacher: str,
    decisions: int,
    gamma: float,
    seed: int,
    learner: ActorWeights | None = None,
) -> Demonstrations:
    """:func:`collect` split over one process per env factory (picklable), each with its share of ``decisions``
    and a seed of its own; one factory collects in this process."""
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(len(env_fns))]
    shares = [decisions // len(env_fns) + (i < decisions % len(env_fns)) for i in range(len(env_fns))]
    jobs = list(zip(env_fns, shares, seeds, strict=True))
    if len(jobs) == 1:
        return _collect_one(jobs[0], teacher, gamma, learner)
    with _one_blas_thread_per_process(), ProcessPoolExecutor(len(jobs), mp_context=_SPAWN) as pool:
        parts = list(pool.map(partial(_collect_one, teacher=teacher, gamma=gamma, learner=learner), jobs))
    return Demonstrations.concatenate(parts)


_SPAWN = multiprocessing.get_context("spawn")  # not fork: the parent has torch's threads running
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def _one_blas_thread_per_process() -> Iterator[None]:
    """Processes spawned inside start NumPy with one BLAS thread: the learner's matrix products are small, and
    two processes each spinning threads on every core collected 4× slower (829 against 3,562 decisions/s)."""
    saved = {name: os.environ.get(name) for name in _BLAS_THREADS}
    os.environ.update(dict.fromkeys(_BLAS_THREADS, "1"))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def _collect_one(
    job: tuple[Callable[[], SeatEnv], int, int], teacher: str, gamma: float, learner: ActorWeights | None
) -> Demonstrations:
    env_fn, decisions, seed = job
    return collect(env_fn(), teacher, decisions, gamma, seed, learner)


def pretrain(
    model: Any,
    demos: Demonstrations,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    seed: int,
    critic_only: bool = False,
) -> list[dict[str, float]]:
    """Fit ``model``'s policy (a MaskablePPO) to ``demos`` (Adam, the learning rate falling linearly to 0 over the
    epochs; the rows :func:`held_out_rows` names are held out). Returns the held-out agreement with the teacher
    (greedy action equal to the teacher's), the actor's cross-entropy and the critic's error of the weights it
    started from (entry 0) and after each epoch (entry k). The weights with the best agreement are kept, the
    starting ones included: a fit can diverge (see docs/training.md), and a refit must not lose a good copy.

    With ``critic_only``, the actor is frozen and only the critic is fitted to the returns (the fine-tuning start of
    :mod:`experiments.fine_tune`); the weights with the lowest held-out value error are kept."""
    import torch

    policy = model.policy
    rng = np.random.default_rng(seed)
    held_out, train_rows = _split(len(demos), rng)

    def tensors(rows: np.ndarray) -> tuple[torch.Tensor, ...]:
        return (
            torch.as_tensor(demos.observations[rows].astype(np.float32)),
            torch.as_tensor(demos.masks[rows]),
            torch.as_tensor(demos.actions[rows]),
            torch.as_tensor(demos.returns[rows]),
        )

    scored = tensors(held_out)  # the same rows before and after every epoch: converted once

    def held_out_scores() -> dict[str, float]:
        policy.eval()
        with torch.no_grad():
            obs, mask, action, ret = scored
            values, log_prob, _ = policy.evaluate_actions(obs, action, action_masks=mask)
            greedy = policy.get_distribution(obs, action_masks=mask.numpy()).distribution.probs.argmax(-1)
        return {
            "agreement": float((greedy == action).float().mean()),
            "cross_entropy": float(-log_prob.mean()),
            "value_rmse": float(torch.sqrt(torch.mean((values.flatten() - ret) ** 2))),
        }

    critic = [*policy.mlp_extractor.value_net.parameters(), *policy.value_net.parameters()]
    optimizer = torch.optim.Adam(critic if critic_only else policy.parameters(), lr=learning_rate)
    keep = best_value_epoch if critic_only else best_epoch
    batches = epochs * -(-len(train_rows) // batch_size)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / batches)  # linear to 0
    history = [held_out_scores()]
    best = copy.deepcopy(policy.state_dict())
    for _ in range(epochs):
        policy.train()
        rng.shuffle(train_rows)
        for start in range(0, len(train_rows), batch_size):
            obs, mask, action, ret = tensors(train_rows[start : start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs, action, action_masks=mask)
            value_loss = torch.nn.functional.mse_loss(values.flatten(), ret)
            loss = value_loss if critic_only else -log_prob.mean() + model.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(critic if critic_only else policy.parameters(), model.max_grad_norm)
            optimizer.step()
            schedule.step()
        history.append(held_out_scores())
        if keep(history) == len(history) - 1:
            best = copy.deepcopy(policy.state_dict())
    policy.load_state_dict(best)
    policy.set_training_mode(False)
    return history


def held_out_rows(rows: int, seed: int) -> np.ndarray:
    """The rows (about 5% of ``rows``) that :func:`pretrain` never fits, to measure agreement on. Appending rows
    keeps the earlier rows' choice, so a row held out before a DAgger round stays held out after it."""
    return _split(rows, np.random.default_rng(seed))[0]


def _split(rows: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    held = rng.random(rows) < HELD_OUT  # draws in row order: a longer set has the same draws for its first rows
    return np.flatnonzero(held), np.flatnonzero(~held)


def best_epoch(history: list[dict[str, float]]) -> int:
    """The epoch whose weights :func:`pretrain` kept (0: the weights it started from), the first of the best."""
    agreement = [h["agreement"] for h in history]
    return agreement.index(max(agreement))


def best_value_epoch(history: list[dict[str, float]]) -> int:
    """The epoch whose weights a critic-only :func:`pretrain` kept: the first of the lowest value error."""
    errors = [h["value_rmse"] for h in history]
    return errors.index(min(errors))


def warm_start(model: Any, args: TrainArgs, out: Path, scale: np.ndarray, meta: dict[str, Any]) -> None:
    """Fit a fresh model to ``args.imitate``'s play at the learner's seat, then refit it over ``imitate_rounds``
    rounds of its own play labelled by the teacher (see :mod:`experiments.imitation`); the record goes to
    ``imitation.json``, each fit's actor to ``checkpoints/imitation_round_N.npz``."""
    from cardenvs.experiments.train_envs import EnvFactory

    start = time.perf_counter()
    env_fns = [EnvFactory(args, args.n_envs + i) for i in range(args.imitate_workers)]
    if args.imitate.startswith(PEOPLE):
        observations, masks, actions, returns, games = people_rows(
            args.imitate, args.game, args.options, scale, args.gamma, args.reward_scale
        )
        demos = Demonstrations(observations, masks, actions, actions.copy(), returns, games)
    else:
        demos = collect_in_parallel(env_fns, args.imitate, args.imitate_decisions, args.gamma, args.seed)
    rounds: list[dict[str, Any]] = []
    for number in range(args.imitate_rounds + 1):
        own_play = None
        if number:  # DAgger: the copy plays, the teacher labels
            learner = ActorWeights.from_model(model, scale)
            new = collect_in_parallel(
                env_fns, args.imitate, args.imitate_round_decisions, args.gamma, args.seed + number, learner
            )
            own_play = new.agreement()
            demos = Demonstrations.concatenate([demos, new])
        epochs = args.imitate_round_epochs if number else args.imitate_epochs
        history = pretrain(model, demos, epochs, args.batch_size, IMITATION_LEARNING_RATE, args.seed)
        kept = best_epoch(history)
        ActorWeights.from_model(model, scale, {**meta, "imitation_round": number}).save(
            out / "checkpoints" / f"imitation_round_{number}.npz"
        )
        rounds.append({"decisions": len(demos), "own_play_agreement": own_play, "epochs": history, "kept_epoch": kept})
        print(
            f"imitation round {number}: {len(demos)} decisions"
            + (f", the copy played the teacher's move in {own_play:.3f} of its own" if own_play is not None else "")
            + f"; held-out agreement {history[kept]['agreement']:.3f} (epoch {kept} of {epochs} kept), "
            f"value rmse {history[kept]['value_rmse']:.3f}, {time.perf_counter() - start:.0f} s so far"
        )
    record = {"teacher": args.imitate, "decisions": len(demos), "episodes": demos.episodes, "rounds": rounds}
    (out / "imitation.json").write_text(json.dumps(record, indent=2) + "\n")
