"""Warm start by imitation: the learner's network first copies a rule bot, then self-play PPO takes over.

:func:`collect` seats a teacher (a registered policy, e.g. ``zheng_shang_you/rule``) at the learner's seat of
the training env, against the run's own opponent pool, and records what the learner would have seen: the
scaled observation, the mask, the teacher's action and the discounted return that followed. :func:`pretrain`
fits the actor to the teacher's actions (cross-entropy over the legal actions) and the critic to the returns,
so PPO starts from the bot's play with a value function that already knows it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import PolicyContext
from agents.registry import make_policy

if TYPE_CHECKING:
    from cardenvs.wrappers import SeatEnv


@dataclass
class Demonstrations:
    """The teacher's decisions at the learner's seat, one row each."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    """Discounted return from each decision to the end of its episode (in the env's scaled reward)."""
    episodes: int

    def __len__(self) -> int:
        return len(self.actions)


def collect(env: SeatEnv, teacher: str, decisions: int, gamma: float, seed: int) -> Demonstrations:
    """``decisions`` decisions of the registered policy ``teacher`` playing the learner's seat of ``env``."""
    policy = make_policy(teacher, PolicyContext.from_env(env.env), seed)
    size, actions = env.observation_space.shape[0], env.action_space.n  # type: ignore[index, attr-defined]
    observations = np.zeros((decisions, size), dtype=np.float32)
    masks = np.zeros((decisions, actions), dtype=bool)
    chosen = np.zeros(decisions, dtype=np.int64)
    rewards = np.zeros(decisions, dtype=np.float64)
    ends = np.zeros(decisions, dtype=bool)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    policy.reset(int(rng.integers(2**31)))
    episodes = 0
    for i in range(decisions):
        observations[i], masks[i] = obs, env.action_masks()
        chosen[i] = policy.act(env.env.observe(env.agent))
        obs, reward, terminated, truncated, _ = env.step(chosen[i])
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
    return Demonstrations(observations[:keep], masks[:keep], chosen[:keep], returns[:keep], episodes)


def pretrain(
    model: Any, demos: Demonstrations, epochs: int, batch_size: int, learning_rate: float, seed: int
) -> list[dict[str, float]]:
    """Fit ``model``'s policy (a MaskablePPO) to ``demos`` (Adam, the learning rate falling linearly to 0 over the
    epochs; the rows :func:`held_out_rows` names are held out); per epoch, the held-out agreement with the
    teacher (greedy action equal to the teacher's), the actor's cross-entropy and the critic's error. The
    weights of the epoch with the best agreement are kept (late epochs can lose some: see docs/training.md)."""
    import torch

    policy = model.policy
    rng = np.random.default_rng(seed)
    held_out, train_rows = _split(len(demos), rng)

    def tensors(rows: np.ndarray) -> tuple[torch.Tensor, ...]:
        return (
            torch.as_tensor(demos.observations[rows]),
            torch.as_tensor(demos.masks[rows]),
            torch.as_tensor(demos.actions[rows]),
            torch.as_tensor(demos.returns[rows]),
        )

    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    batches = epochs * -(-len(train_rows) // batch_size)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / batches)  # linear to 0
    history = []
    for _ in range(epochs):
        policy.train()
        rng.shuffle(train_rows)
        for start in range(0, len(train_rows), batch_size):
            obs, mask, action, ret = tensors(train_rows[start : start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs, action, action_masks=mask)
            loss = -log_prob.mean() + model.vf_coef * torch.nn.functional.mse_loss(values.flatten(), ret)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            optimizer.step()
            schedule.step()
        policy.eval()
        with torch.no_grad():
            obs, mask, action, ret = tensors(held_out)
            values, log_prob, _ = policy.evaluate_actions(obs, action, action_masks=mask)
            greedy = policy.get_distribution(obs, action_masks=mask.numpy()).distribution.probs.argmax(-1)
            history.append(
                {
                    "agreement": float((greedy == action).float().mean()),
                    "cross_entropy": float(-log_prob.mean()),
                    "value_rmse": float(torch.sqrt(torch.mean((values.flatten() - ret) ** 2))),
                }
            )
        if best_epoch(history) == len(history) - 1:
            best = copy.deepcopy(policy.state_dict())
    policy.load_state_dict(best)
    policy.set_training_mode(False)
    return history


def held_out_rows(rows: int, seed: int) -> np.ndarray:
    """The 5% of ``rows`` demonstrations that :func:`pretrain` never fits, to measure agreement on."""
    return _split(rows, np.random.default_rng(seed))[0]


def _split(rows: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    order = rng.permutation(rows)
    return order[: rows // 20], order[rows // 20 :]


def best_epoch(history: list[dict[str, float]]) -> int:
    """Index of the epoch whose weights :func:`pretrain` kept."""
    agreement = [h["agreement"] for h in history]
    return agreement.index(max(agreement))
