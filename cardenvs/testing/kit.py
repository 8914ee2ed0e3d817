"""Run every conformance check on one env id and option set."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardenvs.testing import checks
from cardenvs.testing.position_fuzz import check_malformed_positions
from cardenvs.testing.positions import check_positions, check_positions_at_every_decision
from cardenvs.testing.public_view import check_public_view
from cardenvs.testing.rollout import EnvSpec
from cardenvs.testing.turns import check_decision_structure


@dataclass
class KitReport:
    """What the kit checked, for logs and for asserting that the checks had power."""

    env_id: EnvSpec
    options: dict[str, Any]
    mask_decisions: int = 0
    leak_stats: dict[str, int] = field(default_factory=dict)
    turn_moves: int = 0
    """Public moves replayed on re-dealt tables by the decision-structure test."""
    view_stats: dict[str, int] = field(default_factory=dict)
    truncated_share: float = 0.0
    positions: int = 0
    """Positions written, read back and played on (0 for a game without a notation)."""
    position_decisions: int = 0
    """Decisions at which the position and every seat's view were read back."""
    malformed_positions: dict[str, int] = field(default_factory=dict)
    """Mutated positions that loaded or were refused with ``PositionError``."""


def run_kit(env_id: EnvSpec, options: Mapping[str, Any] | None = None, games: int = 20, seed: int = 0) -> KitReport:
    """Run all checks; raise :class:`~cardenvs.testing.checks.ConformanceError` at the first failure."""
    opts = dict(options or {})
    report = KitReport(env_id, opts)
    checks.check_pettingzoo_api(env_id, opts)
    report.mask_decisions = checks.check_masks(env_id, opts, games, seed)
    report.leak_stats = checks.check_hidden_information(env_id, opts, max(1, games // 2), seed)
    report.turn_moves = check_decision_structure(env_id, opts, max(1, games // 4), seed)
    report.view_stats = check_public_view(env_id, opts, max(1, games // 4), seed)
    checks.check_card_conservation(env_id, opts, games, seed)
    report.truncated_share = checks.check_episode_bounds(env_id, opts, games, seed)
    checks.check_determinism(env_id, opts, seed)
    checks.check_distinct_deals(env_id, opts)
    checks.check_copy_and_pickle(env_id, opts, seed)
    checks.check_render(env_id, opts, seed)
    report.positions = check_positions(env_id, opts, max(1, games // 4), seed)
    if report.positions:
        report.position_decisions = check_positions_at_every_decision(env_id, opts, max(1, games // 10), seed)
        report.malformed_positions = check_malformed_positions(env_id, opts, 20 * games, seed)
    return report
