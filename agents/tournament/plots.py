"""The tournament report's plots (matplotlib, imported only when a report is written): ratings, head to head and
the games' own metrics, each with its 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardenvs.agents.tournament.ratings import Z95, Rating
from cardenvs.agents.tournament.stats import Estimate, TournamentStats


def _plain_tick_labels(ax: Any) -> None:
    """Draw an axis' tick labels as plain text: a policy label with ``$…$`` is not matplotlib mathtext."""
    for label in [*ax.get_xticklabels(), *ax.get_yticklabels()]:
        label.set_parse_math(False)


def _error_bars(estimates: Sequence[Estimate]) -> list[list[float]]:
    return [
        [max(e.value - e.low, 0.0) if not math.isnan(e.low) else 0.0 for e in estimates],
        [max(e.high - e.value, 0.0) if not math.isnan(e.high) else 0.0 for e in estimates],
    ]


def plot_ratings(stats: TournamentStats, ratings: dict[str, Rating], path: Path) -> None:
    """OpenSkill μ ± 1.96σ and mean score with its interval, one row per policy."""
    from matplotlib.figure import Figure

    labels = stats.ranked()[::-1]
    fig = Figure(figsize=(10, 1.0 + 0.45 * len(labels)), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    rows = list(range(len(labels)))
    mus = [ratings[label].mu for label in labels]
    half = [Z95 * ratings[label].sigma for label in labels]
    left.errorbar(mus, rows, xerr=[half, half], fmt="o", capsize=4)
    left.set_yticks(rows, labels)
    _plain_tick_labels(left)
    left.set_xlabel("OpenSkill μ (± 1.96σ)")
    scores = [stats.entrant_stats[label].score for label in labels]
    right.errorbar([e.value for e in scores], rows, xerr=_error_bars(scores), fmt="s", color="C1", capsize=4)
    right.set_xlabel(f"mean score ({round(stats.confidence * 100)}% CI)")
    for ax in (left, right):
        ax.grid(axis="x", alpha=0.3)
    fig.savefig(path, dpi=110)


def plot_head_to_head(stats: TournamentStats, path: Path) -> None:
    """Heatmap of the head-to-head matrix (row beats column)."""
    import numpy as np
    from matplotlib.figure import Figure

    labels = stats.ranked()
    matrix = np.full((len(labels), len(labels)), np.nan)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            e = stats.head_to_head.get((a, b))
            if e is not None and a != b:
                matrix[i, j] = e.value
    size = 2.5 + 0.7 * len(labels)
    fig = Figure(figsize=(size + 1.5, size), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(matrix, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    _plain_tick_labels(ax)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if not np.isnan(matrix[i, j]):
                ax.text(j, i, f"{matrix[i, j]:.2f}", ha="center", va="center", fontsize=9)
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    ax.set_title("share of games row outscored column")
    fig.colorbar(image, ax=ax)
    fig.savefig(path, dpi=110)


def plot_metrics(stats: TournamentStats, path: Path) -> None:
    """One panel per game metric: a bar per policy with its interval."""
    from matplotlib.figure import Figure

    ratios = stats.metric_ratios
    labels = stats.ranked()
    columns = min(3, len(ratios))
    rows = math.ceil(len(ratios) / columns)
    fig = Figure(figsize=(4.2 * columns, 0.8 + 2.6 * rows), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False).ravel()
    for ax, ratio in zip(axes, ratios, strict=False):
        estimates = [stats.entrant_stats[label].metrics[ratio.name] for label in labels]
        values = [0.0 if math.isnan(e.value) else e.value for e in estimates]
        ax.bar(range(len(labels)), values, yerr=_error_bars(estimates), capsize=4, color=[f"C{i}" for i in range(10)])
        ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=8)
        _plain_tick_labels(ax)
        ax.set_title(ratio.name, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes[len(ratios) :]:
        ax.set_visible(False)
    fig.savefig(path, dpi=110)
