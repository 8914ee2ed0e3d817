"""PettingZoo constructors of ``cardenvs/zheng_shang_you-v0``."""

from __future__ import annotations

from cardenvs.core.aec import env_constructors
from cardenvs.core.engine import GameDefinition, Observer
from cardenvs.zheng_shang_you.encoding import encode, layout_of
from cardenvs.zheng_shang_you.game import ZsyGame
from cardenvs.zheng_shang_you.options import ZsyOptions, provisional_sjx_table
from cardenvs.zheng_shang_you.position import read_position, write_position
from cardenvs.zheng_shang_you.render import render

ZsyGame.observed_by(Observer(layout=layout_of, encode=encode, render=render))

STEPS_PER_DEAL = 1500
"""Far above any deal's length: 53 plays of at most 16 sub-steps, with at most 5 passes before each."""
MAX_DEALS = 60
"""Far above any match's length (a deal scores at least 3 points)."""


def _default_max_steps(options: ZsyOptions) -> int:
    return STEPS_PER_DEAL * (1 if options.episode == "deal" else MAX_DEALS)


SMALL_MATCH = {"target_points": 4}
"""Keeps the kit's match variants short; the full targets are exercised by the scenario tests."""
ALTERNATIVE_SJX_TABLE = {**provisional_sjx_table(), "1,2,3": 9, "1,2,4": 6}
"""A San Jia Xi table other than the default, so that the kit runs the option."""

DEFINITION: GameDefinition[ZsyOptions] = GameDefinition(
    name="zheng_shang_you",
    version=0,
    options_type=ZsyOptions,
    new_game=ZsyGame,
    default_max_steps=_default_max_steps,
    variants=(
        *({"num_players": n, "episode": "deal"} for n in (4, 5, 6)),
        *({"num_players": n, **SMALL_MATCH} for n in (4, 5, 6)),
        {"num_players": 4, "team_mode": "partners", **SMALL_MATCH},
        {"num_players": 6, "team_mode": "san_jia_xi", "target_points": 8},
        {
            "num_players": 6,
            "team_mode": "san_jia_xi",
            "episode": "deal",
            "reward_mode": "match_points",
            "sjx_score_table": ALTERNATIVE_SJX_TABLE,
        },
        {"num_players": 4, "return_face_up": False, "reward_mode": "match_points", **SMALL_MATCH},
        {"num_players": 5, "exchange": False, "tie_rule": "shared", "next_dealer_place": 1, **SMALL_MATCH},
        {"num_players": 4, "episode": "deal", "joker_keeps_suitedness": False, "set_sequence_top": "2"},
        {"num_players": 4, "first_dealer": 2, "episode": "deal"},
    ),
    benchmark_options={"num_players": 6},
    write_position=write_position,
    read_position=read_position,
    words="cardenvs.zheng_shang_you.render:WORDS",
    table="cardenvs.render.tables:zheng_shang_you_table",
    rules_summary="cardenvs.text.zheng_shang_you:RULES",
    fast="cardenvs.fast.zheng_shang_you:ZhengShangYouFast",
)


raw_env, env = env_constructors(DEFINITION)
