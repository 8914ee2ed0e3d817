"""Points of a deal, the end of a match, and rewards (spec §5, §6).

A *scoring unit* is a player (individual game) or a team (seat parity in both team games). Points go to
units; match totals are per unit; every player shares its unit's total.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardenvs.zheng_shang_you.options import ZsyOptions

FIRST_POINTS, SECOND_POINTS = 2, 1


def deal_points(order: Sequence[int], options: ZsyOptions) -> list[int]:
    """Points per scoring unit for a deal finished in ``order`` (seats, 1st first)."""
    units = options.teams
    points = [0] * options.num_units
    if options.team_mode == "san_jia_xi":
        table = options.sjx_table
        for team in range(2):
            places = sorted(place + 1 for place, seat in enumerate(order) if units[seat] == team)
            points[team] = table[",".join(map(str, places))]
        return points
    points[units[order[0]]] += FIRST_POINTS
    points[units[order[1]]] += SECOND_POINTS
    return points


def match_over(totals: Sequence[int], options: ZsyOptions) -> bool:
    """Whether the match ends now: some unit reached the target and, under ``tie_rule="extra_deal"``,
    the best total is not shared."""
    best = max(totals)
    if best < options.target:
        return False
    return options.tie_rule == "shared" or list(totals).count(best) == 1


def place_rewards(order: Sequence[int], options: ZsyOptions) -> np.ndarray:
    """Zero-sum rewards of a deal by finishing place: linear from +1 (1st) to -1 (last); in team games every
    player gets its team's mean."""
    n = options.num_players
    rewards = np.zeros(n, dtype=np.float64)
    for place, seat in enumerate(order):
        rewards[seat] = (n - 1 - 2 * place) / (n - 1)
    return _team_mean(rewards, options)


def match_rewards(totals: Sequence[int], options: ZsyOptions) -> np.ndarray:
    """Zero-sum rewards of a finished match by standing: linear in rank from +1 to -1 (tied units share the
    mean of their ranks' rewards); in team games the winning team +1, the other -1 (0 each when tied)."""
    n_units = options.num_units
    unit_reward = np.zeros(n_units, dtype=np.float64)
    for u in range(n_units):
        better = sum(t > totals[u] for t in totals)
        tied = sum(t == totals[u] for t in totals)
        ranks = range(better, better + tied)
        unit_reward[u] = sum((n_units - 1 - 2 * r) / (n_units - 1) for r in ranks) / tied
    return unit_reward[list(options.teams)]


def points_rewards(points: Sequence[int], options: ZsyOptions) -> np.ndarray:
    """Each player's reward under ``reward_mode="match_points"``: its unit's points of the deal."""
    return np.array([points[u] for u in options.teams], dtype=np.float64)


def _team_mean(rewards: np.ndarray, options: ZsyOptions) -> np.ndarray:
    if options.team_mode == "individual":
        return rewards
    units = np.array(options.teams)
    means = np.array([rewards[units == u].mean() for u in range(options.num_units)])
    return means[units]
