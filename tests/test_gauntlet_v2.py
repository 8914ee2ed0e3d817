"""gauntlet-v2 beside gauntlet-v1: its opponents and their style lines, v1 unchanged, and the reuse of a stored
pairing with the roles swapped (tiny budgets: the numbers are not the point)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import cardenvs
from cardenvs.agents.benchmark import evaluate, leaderboard, score_card
from cardenvs.agents.benchmark.mirror import swapped_seatings
from cardenvs.agents.benchmark.opponents import YARDSTICK
from cardenvs.agents.benchmark.suites import SEED, SUITE, Gauntlet, gauntlet
from cardenvs.agents.registry import POLICIES, ZOO
from cardenvs.agents.specs import make_policy
from cardenvs.agents.zoo import fitting_zoo_names, zoo_card
from cardenvs.registry import game_name

V1 = {  # the published gauntlet-v1: opponents and games per opponent
    "verish_ne_verish": (("random", "verish_ne_verish/rule"), 1200),
    "yukushi": (("random", "yukushi/honest", "yukushi/bluffer", "yukushi/counter"), 1200),
    "kyuuri": (("random", "kyuuri/rule", "kyuuri/thrifty"), 1200),
    "goninkan": (("random", "goninkan/rule"), 1200),
    "yoninkan": (("random", "yoninkan/rule"), 900),
    "zheng_shang_you": (("random", "zheng_shang_you/rule", "zheng_shang_you/greedy"), 600),
}
STYLES_NEEDED = {
    "verish_ne_verish": ("never lies", "challenges every claim", "never challenges", "counting"),
    "yukushi": ("never lies", "calls ゆくし on every claim", "never calls", "counting"),
    "kyuuri": ("greedy", "cautious"),
    "zheng_shang_you": ("greedy", "cautious"),
    "goninkan": ("takes every trick", "ducks"),
    "yoninkan": ("takes every trick", "ducks"),
}
"""Per game, words that some opponent's style line must hold: the styles a benchmark of that game needs."""


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_v2_has_random_every_rule_bot_styles_and_the_strongest_zoo_agent(env_id: str) -> None:
    game = game_name(env_id)
    suite = gauntlet(env_id)
    assert SUITE == suite.version == "gauntlet-v2" and suite.games == V1[game][1]
    opponents = suite.described()
    names = [o["name"] for o in opponents]
    assert len(names) >= 5 and len(set(names)) == len(names) and names[0] == "random"
    assert {name for name, (g, _) in POLICIES.items() if g == game} <= set(names)
    # one zoo agent: the strongest that fitted when the suite was published (a version never changes, so a later,
    # stronger agent is a row of the board, not a new opponent)
    zoo = [name for name in names if name.startswith("zoo:")]
    assert len(zoo) == 1 and zoo[0] in fitting_zoo_names(env_id)
    assert fitting_zoo_names(env_id)[0] in (zoo[0], *(f"zoo:{n}" for n in ZOO[game]))
    styles = [o for o in opponents if o["name"].startswith("style:")]
    assert styles and all(o["spec"].startswith(YARDSTICK + ".") for o in styles)
    assert all(o["style"] for o in opponents)
    lines = " | ".join(o["style"] for o in opponents)
    assert all(word in lines for word in STYLES_NEEDED[game]), lines
    env = cardenvs.make(env_id)
    for opponent in opponents:  # every opponent builds for the game
        assert make_policy(opponent["spec"], env, 0) is not None


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_the_zoo_opponent_plays_the_game_on_its_card(env_id: str) -> None:
    """Seated outside the options it was trained and measured on, a zoo agent is not measured (the Zheng Shang You
    board once played whole matches, with card exchanges its agent never saw: −0.379 against the rule bot)."""
    suite = gauntlet(env_id)
    (zoo,) = [opponent for opponent in suite.opponents if opponent.startswith("zoo:")]
    trained = zoo_card(zoo.removeprefix("zoo:")).data["options"]
    played = suite.tournament("random", zoo, 1).resolved_options
    assert {key: played[key] for key in trained} == trained


def test_zheng_shang_you_plays_single_deals_and_its_pages_say_so(tmp_path: Path) -> None:
    suite = gauntlet("zheng_shang_you-v0")
    played = suite.tournament("random", "zheng_shang_you/rule", 1).resolved_options
    assert (played["num_players"], played["episode"], played["reward_mode"]) == (4, "deal", "place")
    assert (suite.folder(), gauntlet("zheng_shang_you-v0", "gauntlet-v1").folder()) == (
        "gauntlet-v2-episode_deal",
        "gauntlet-v1",
    )  # stored games of other options are never resumed as these
    results = suite.play("random", tmp_path, games=12, workers=1)
    assert all(r.db_path.is_relative_to(tmp_path / "zheng_shang_you" / suite.folder()) for r in results.values())
    card = score_card(suite, "random", results, 12)
    assert "4 players, the game's default rules with episode=deal;" in card.markdown()
    board = leaderboard.with_row({}, card, leaderboard.row_of(card, "random", True))
    assert "4 players, the game's default rules with episode=deal." in leaderboard.render(board)


@pytest.mark.parametrize(("episode", "ranked"), [("match", False), ("deal", True)])
def test_a_card_is_ranked_only_on_a_board_of_the_suites_options(tmp_path: Path, episode: str, ranked: bool) -> None:
    """A board stored before its suite's options changed holds games of another game: nothing is ranked on it."""
    path = tmp_path / "board.json"
    row = {"name": "x", "spec": "x", "margin": {"value": 9.0}}
    path.write_text(json.dumps({"suite": SUITE, "options": {"num_players": 4, "episode": episode}, "rows": [row]}))
    runs = tmp_path / "runs"
    card = evaluate("random", "zheng_shang_you-v0", games=6, workers=1, out_dir=runs, leaderboard_path=path)
    assert (card.rank, card.leaderboard_size) == ((2, 2) if ranked else (None, 0))
    assert any(notice.startswith("not ranked") and "'episode': 'match'" in notice for notice in card.notices) != ranked


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_v1_is_still_reachable_unchanged(env_id: str) -> None:
    suite = gauntlet(env_id, "gauntlet-v1")
    opponents, games = V1[game_name(env_id)]
    assert (suite.version, suite.opponents, suite.games, suite.seed) == ("gauntlet-v1", opponents, games, 20261125)
    assert not suite.reuse_swapped and all(o["spec"] == o["name"] for o in suite.described())
    with pytest.raises(ValueError, match="gauntlet-v1, gauntlet-v2"):
        gauntlet(env_id, "gauntlet-v3")


def test_a_swapped_pairing_reuses_the_stored_games_with_the_margin_negated(tmp_path: Path) -> None:
    env_id, rule = "cardenvs/verish_ne_verish-v0", "verish_ne_verish/rule"
    suite = Gauntlet("gauntlet-v2", env_id, ("random", rule), 60, SEED, reuse_swapped=True)
    stored = suite.play(rule, tmp_path / "runs", workers=1)["random"]
    reused = suite.play("random", tmp_path / "runs", workers=1)[rule]
    assert stored.played_now == 60 and reused.played_now == 0 and reused.db_path == stored.db_path
    margin = score_card(suite, rule, {"random": stored}).overall.margin
    swapped = score_card(suite, "random", {rule: reused}).overall.margin
    assert not math.isnan(margin.low) and (swapped.value, swapped.low) == pytest.approx((-margin.value, -margin.high))
    fresh_suite = Gauntlet("gauntlet-v2", env_id, ("random", rule), 60, SEED, reuse_swapped=False)
    fresh = fresh_suite.play("random", tmp_path / "fresh", workers=1)[rule]
    assert fresh.played_now == 60  # played for real, the games are those of the swapped twin
    assert sorted((r.deal, r.seats, r.returns) for r in fresh.records) == sorted(
        (r.deal, r.seats, r.returns) for r in reused.records
    )


def test_goninkan_pairings_are_not_mirrored_and_play_both_ways() -> None:
    """Five seats take rotations of a seeded order whose A/B mix alternates by deal: not the same games."""
    suite = gauntlet("goninkan-v1")
    there = suite.tournament("random", "goninkan/rule", 20)
    back = suite.pairing("goninkan/rule", "random", 20)
    assert swapped_seatings(back, there) is None
    four = gauntlet("yoninkan-v1")
    there, back = four.tournament("random", "yoninkan/rule", 8), four.pairing("yoninkan/rule", "random", 8)
    assert swapped_seatings(back, there)
