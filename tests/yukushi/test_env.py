"""Registration of ``cardenvs/yukushi-v0``: ids, the options the kit covers, the benchmark options."""

from __future__ import annotations

import pettingzoo

import cardenvs
from cardenvs.yukushi.env import DEFINITION


def test_registered_everywhere() -> None:
    assert "cardenvs/yukushi-v0" in cardenvs.ENV_IDS
    env = pettingzoo.make("aec", "cardenvs/yukushi-v0", num_players=3)  # type: ignore[attr-defined]
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def test_the_kit_covers_every_model_player_count_extreme_and_rule_option() -> None:
    variants = DEFINITION.variants
    assert {v.get("challenge_model", "A") for v in variants} == {"A", "B", "C"}
    assert {2, 8} <= {v["num_players"] for v in variants}
    for option in ("play_to_ranking", "allow_count_mismatch", "forbid_exhausted_rank", "n_games", "deal_from"):
        assert any(option in v for v in variants), option
    assert any(v.get("window_before_flush") is False for v in variants)
    assert DEFINITION.benchmark_options == {"num_players": 8}


def test_step_cap_scales_with_players_and_games() -> None:
    assert cardenvs.make_raw("yukushi-v0", num_players=8).max_steps == 8000
    assert cardenvs.make_raw("yukushi-v0", num_players=3, n_games=2).max_steps == 6000
    assert cardenvs.make_raw("yukushi-v0", max_steps=50).max_steps == 50
