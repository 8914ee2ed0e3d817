"""Game metrics from hand-written event logs (expected counts worked out by hand) and from real games."""

from __future__ import annotations

from typing import Any

import cardenvs
from cardenvs.agents import make_policy
from cardenvs.agents.play import play_episode
from cardenvs.agents.tournament.hooks import declared_partners, hooks_for, places_by_returns, reported_places
from cardenvs.agents.tournament.metrics import bluffing_counters, climbing_counters, last_trick_counters, trick_counters


def ev(kind: str, player: int | None = None, secret: dict[str, Any] | None = None, **public: Any) -> dict[str, Any]:
    return {"kind": kind, "player": player, "public": public, "private": {}, "secret": secret or {}}


def play(player: int, truthful: bool) -> dict[str, Any]:
    return ev("play", player, {"truthful": truthful}, count=1)


def challenge(player: int, owner: int, lie: bool, taker: int, pile_size: int | None) -> dict[str, Any]:
    return ev("challenge", player, owner=owner, lie=lie, taker=taker, pile_size=pile_size, revealed=[])


def pick(counters: list[dict[str, float]], *names: str) -> list[list[float]]:
    return [[seat[name] for name in names] for seat in counters]


NAMES = (
    "plays",
    "bluffs",
    "bluffs_caught",
    "bluffs_uncaught",
    "challenge_chances",
    "lies_faced",
    "challenges",
    "correct_challenges",
    "cards_picked_up",
)


def test_turn_based_challenges_verish_convention() -> None:
    events = [
        ev("deal"),
        play(0, True),  # lead
        play(1, False),  # p1 declines to challenge a true play, then lies
        challenge(2, owner=1, lie=True, taker=1, pile_size=3),  # p2 catches it; p1 takes 3 cards
        play(2, False),  # lead, a lie
        play(0, True),  # p0 faces a lie and plays on
        challenge(1, owner=0, lie=False, taker=1, pile_size=2),  # p1 challenges a true play and takes 2
        play(1, True),
        ev("game_over", order=[2, 0, 1]),
    ]
    assert pick(bluffing_counters(events, 3), *NAMES) == [
        [2, 0, 0, 0, 1, 1, 0, 0, 0],
        [2, 1, 1, 0, 2, 0, 1, 0, 5],
        [1, 1, 0, 1, 1, 1, 1, 1, 0],
    ]


def test_challenge_windows_yukushi_convention() -> None:
    events = [
        ev("deal"),
        play(0, False),
        ev("window", eligible=[1, 2], challengers=[]),
        ev("pass", 1),  # with windows, turns are no challenge chances
        ev("window", eligible=[1, 2], challengers=[1, 2]),  # both call; p1 is nearer and wins the call
        challenge(1, owner=0, lie=True, taker=0, pile_size=1),
        play(1, True),
        ev("window", eligible=[0, 2], decided=[0], challengers=[0]),  # a priority poll stops at p0: p2 never asked
        {**challenge(0, owner=1, lie=False, taker=0, pile_size=None), "private": {0: {"pile_size": 1}}},  # hidden
        play(0, True),
        ev("window", eligible=[1, 2], challengers=[]),
        ev("pass", 1),
        ev("pass", 2),
        ev("flush", 0),  # the true play is gone unseen
        play(0, False),
        ev("window", eligible=[1, 2], challengers=[]),
        ev("game_over"),
    ]
    assert pick(bluffing_counters(events, 3), *NAMES) == [
        [3, 2, 1, 1, 1, 0, 1, 0, 2],
        [1, 0, 0, 0, 4, 3, 1, 1, 0],
        [0, 0, 0, 0, 4, 3, 1, 1, 0],
    ]


def test_verish_counters_are_consistent_with_a_real_log() -> None:
    env = cardenvs.make("verish_ne_verish-v0", num_players=4)
    policies = [make_policy("verish_ne_verish/rule", env, seed=i) for i in range(2)]
    policies += [make_policy("random", env, seed=i) for i in range(2)]
    for seed in range(5):
        events = play_episode(env, policies, seed=seed).events
        counters = bluffing_counters(events, 4)
        total = {name: sum(seat[name] for seat in counters) for name in counters[0]}
        plays = [e for e in events if e["kind"] == "play"]
        challenges = [e for e in events if e["kind"] == "challenge"]
        assert total["plays"] == len(plays)
        assert total["bluffs"] == sum(not e["secret"]["truthful"] for e in plays)
        assert total["challenges"] == len(challenges)
        assert total["correct_challenges"] == total["bluffs_caught"] == sum(e["public"]["lie"] for e in challenges)
        assert total["cards_picked_up"] == sum(e["public"]["pile_size"] for e in challenges)
        # every follow play declined a chance; every challenge took one
        assert total["challenge_chances"] == sum(not e["public"]["lead"] for e in plays) + len(challenges)
        for seat in counters:
            assert seat["correct_challenges"] <= min(seat["challenges"], seat["lies_faced"])
            assert seat["lies_faced"] <= seat["challenge_chances"]


def test_tricks_honours_and_kankei_contracts() -> None:
    events = [
        ev("trick", seats=[0, 1, 2, 3, 4], cards=["A♠", "10♥", "Q♦", "BJ", "2♠"], winner=3),
        ev("trick", seats=[3, 4, 0, 1, 2], cards=["J♣", "K♣", "3♣", "4♣", "5♣"], winner=4),
        ev("deal_over", kankei=[3, 4], success=True),
        ev("trick", seats=[3, 4, 0, 1, 2], cards=["9♣", "K♥", "3♣", "4♣", "5♣"], winner=0),
        ev("deal_over", kankei=[0, 4], success=False),
    ]
    counters = trick_counters(events, 5)
    assert pick(counters, "tricks_won", "honours_taken", "kankei_deals", "kankei_successes") == [
        [1, 1, 1, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [1, 2, 1, 1],
        [1, 2, 2, 1],
    ]


def test_climbing_places_and_passes() -> None:
    events = [
        ev("deal"),
        ev("play", 0),
        ev("pass", 1),
        ev("pass", 2),
        ev("out", 0, place=1),
        ev("pass", 1),
        ev("out", 2, place=2),  # seat 1 is left holding cards: last
        ev("deal"),
        ev("out", 1, place=1),
        ev("out", 0, place=2),
        ev("out", 2, place=3),  # a game may also log the last one out
        ev("deal"),
        ev("play", 1),  # a deal cut short by the step cap places nobody
    ]
    assert pick(climbing_counters(events, 3), "plays", "passes", "turns", "deal_places", "deals_placed") == [
        [1, 0, 1, 3, 2],
        [1, 2, 3, 4, 2],
        [0, 1, 1, 5, 2],
    ]


def test_places() -> None:
    assert places_by_returns([-1.0, 1 / 3, 1 / 3, 1 / 3]) == [4.0, 2.0, 2.0, 2.0]
    assert places_by_returns([0.0, 0.0, 0.0]) == [2.0, 2.0, 2.0]
    assert places_by_returns([3.0, 1.0, 2.0]) == [1.0, 3.0, 2.0]
    over = [ev("game_over", order=[2, 0, 3, 1])]
    assert reported_places(over, [0.0] * 4, None) == [2.0, 4.0, 1.0, 3.0]
    first_out_only = [ev("game_over", order=[1])]
    assert reported_places(first_out_only, [0.0] * 4, None) == [3.0, 1.0, 3.0, 3.0]
    shared = [ev("game_over", places=[1, 2, 2, 4])]  # Kyuuri: two eliminated together share 2nd
    assert reported_places(shared, [0.0] * 4, None) == [1.0, 2.5, 2.5, 4.0]
    assert reported_places([], [0.0] * 4, None) is None  # truncated: ranked by returns instead
    two_games = [ev("game_over", order=[0, 1]), ev("game_over", order=[1, 0])]
    assert reported_places(two_games, [0.0] * 2, None) is None  # a match: ranked by returns


def test_hooks_are_keyed_by_game_name() -> None:
    assert hooks_for("cardenvs/verish_ne_verish-v0").metrics is not None
    assert hooks_for("zheng_shang_you-v0").metrics is not None
    unknown = hooks_for("cardenvs/some_new_game-v0")
    assert unknown.metrics is None and unknown.partners(object(), 4) is None


def test_last_trick_penalties() -> None:
    events = [
        ev("deal", players=[0, 1, 2]),
        ev("trick", seats=[0, 1, 2], cards=["5", "9", "K"], winner=2),
        ev("trick", seats=[2, 0, 1], cards=["Q", "Q", "3"], winner=0),
        ev("deal_over", losers=[0], points=12),
        ev("deal", players=[0, 2]),  # seat 1 was eliminated
        ev("trick", seats=[0, 2], cards=["A", "2"], winner=0),
        ev("deal_over", losers=[0, 2], points=14),
    ]
    assert pick(last_trick_counters(events, 3), "tricks_won", "deals_played", "last_tricks_lost", "penalty_points") == [
        [2, 2, 2, 26],
        [0, 1, 0, 0],
        [1, 2, 1, 14],
    ]


def test_partner_groups_declared_by_the_options() -> None:
    class Sides:
        teams = (0, 1, 0, 1)

    class Individual:
        teams = (0, 1, 2, 3)

    class Groups:
        partner_groups = ((0, 2, 4), (1, 3, 5))

    assert declared_partners(Sides(), 4) == [(0, 2), (1, 3)]
    assert declared_partners(Individual(), 4) is None
    assert declared_partners(Groups(), 6) == [(0, 2, 4), (1, 3, 5)]
    assert declared_partners(object(), 4) is None
