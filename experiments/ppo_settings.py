"""The PPO settings both recipes read: SB3's :mod:`experiments.train` and RLlib's :mod:`experiments.train_rllib`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PPOSettings:
    """PPO's loss, return and network settings (the game's TOML config may set them for either recipe)."""

    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    clip_range: float = 0.2
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    activation: str = "tanh"
    reward_scale: float = 1.0
    """Every reward is multiplied by this before the learner sees it (raw-point games train on 0.1)."""
