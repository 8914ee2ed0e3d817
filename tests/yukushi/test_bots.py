"""The Yukushi bots: legal in every option set, distinct styles, and the bluffing metrics over their logs."""

from __future__ import annotations

from typing import Any

import pytest

import cardenvs
from cardenvs.agents import make_policy
from cardenvs.agents.play import play_episode
from cardenvs.agents.registry import policy_names
from cardenvs.agents.tournament.metrics import bluffing_counters

STYLES = ["yukushi/honest", "yukushi/bluffer", "yukushi/counter"]


def totals(options: dict[str, Any], seats: list[str], seeds: range) -> dict[str, dict[str, float]]:
    env = cardenvs.make("yukushi-v0", **options)
    n = len(seats)
    sums: dict[str, dict[str, float]] = {}
    for seed in seeds:
        rotated = seats[seed % n :] + seats[: seed % n]
        policies = [make_policy(name, env, seed=i) for i, name in enumerate(rotated)]
        result = play_episode(env, policies, seed=seed)
        assert not result.truncated
        for seat, counters in enumerate(bluffing_counters(result.events, n)):
            mine = sums.setdefault(rotated[seat], {})
            for key, value in counters.items():
                mine[key] = mine.get(key, 0.0) + value
    return sums


def test_bots_are_registered() -> None:
    assert set(STYLES) <= set(policy_names("cardenvs/yukushi-v0"))


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 3},
        {"num_players": 8, "challenge_model": "B"},
        {"num_players": 4, "challenge_model": "C", "play_to_ranking": True},
        {"num_players": 4, "allow_count_mismatch": True, "max_play": 3},
    ],
)
def test_bots_play_legal_games(options: dict[str, Any]) -> None:
    seats = ([*STYLES, "random"] * 2)[: options["num_players"]]
    sums = totals(options, seats, range(3))  # raises on an illegal action or a game cut short
    assert sorted(sums) == sorted(set(seats))
    assert {name: counters["plays"] > 0 for name, counters in sums.items()} == dict.fromkeys(sums, True)


def test_styles_differ_as_designed() -> None:
    sums = totals({"num_players": 4}, [*STYLES, "random"], range(16))
    honest, bluffer, counter = (sums[name] for name in STYLES)
    assert honest["bluffs"] == 0 < counter["bluffs"] / counter["plays"] < 0.2 < bluffer["bluffs"] / bluffer["plays"]
    rate = {name: sums[name]["challenges"] / sums[name]["challenge_chances"] for name in STYLES}
    assert rate["yukushi/honest"] < rate["yukushi/bluffer"] < rate["yukushi/counter"]
    precision = counter["correct_challenges"] / counter["challenges"]
    random_precision = sums["random"]["correct_challenges"] / sums["random"]["challenges"]
    assert precision > random_precision + 0.2  # counting finds the lies


def test_counters_agree_with_a_real_log() -> None:
    env = cardenvs.make("yukushi-v0", num_players=4)
    policies = [make_policy(name, env, seed=i) for i, name in enumerate([*STYLES, "random"])]
    for seed in range(4):
        events = play_episode(env, policies, seed=seed).events
        counters = bluffing_counters(events, 4)
        total = {name: sum(seat[name] for seat in counters) for name in counters[0]}
        plays = [e for e in events if e["kind"] == "play"]
        challenges = [e for e in events if e["kind"] == "challenge"]
        windows = [e for e in events if e["kind"] == "window"]
        assert total["plays"] == len(plays)
        assert total["bluffs"] == sum(not e["secret"]["truthful"] for e in plays)
        assert total["bluffs_caught"] == sum(e["public"]["lie"] for e in challenges)
        assert total["cards_picked_up"] == sum(e["public"]["pile_size"] for e in challenges)
        # each window is a chance for every seat that decided in it; a call in it leads to one challenge
        assert total["challenge_chances"] == sum(len(w["public"]["decided"]) for w in windows)
        assert total["challenges"] == sum(len(w["public"]["challengers"]) for w in windows) >= len(challenges)
        assert sum(bool(w["public"]["challengers"]) for w in windows) == len(challenges)
