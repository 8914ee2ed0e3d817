"""The small torch networks the move-scoring learners fit (:mod:`experiments.research.dmc`,
:mod:`experiments.research.advantage_fit`); :meth:`agents.learned.weights.ActorWeights.from_torch` exports them to
the pickle-free format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def mlp(inputs: int, hidden: Sequence[int], activation: str, seed: int) -> Any:
    """A torch ``Sequential``: ``hidden`` linear layers with ``activation`` (``relu`` or ``tanh``), then one output;
    its initial weights drawn after ``torch.manual_seed(seed)``."""
    import torch

    torch.manual_seed(seed)
    layer_activation = torch.nn.ReLU if activation == "relu" else torch.nn.Tanh
    layers: list[Any] = []
    width = inputs
    for size in hidden:
        layers += [torch.nn.Linear(width, size), layer_activation()]
        width = size
    return torch.nn.Sequential(*layers, torch.nn.Linear(width, 1))
