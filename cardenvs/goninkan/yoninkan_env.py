"""PettingZoo constructors of ``cardenvs/yoninkan-v1`` (Goninkan's engine with Yoninkan's rules)."""

from __future__ import annotations

from cardenvs.core.aec import env_constructors
from cardenvs.core.engine import GameDefinition
from cardenvs.core.manifest import OpenSpielTraits, Utility
from cardenvs.goninkan.env import POINTS, default_max_steps, num_players
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import YoninkanOptions
from cardenvs.goninkan.position import read_position, write_position

DEFINITION: GameDefinition[YoninkanOptions] = GameDefinition(
    name="yoninkan",
    version=1,
    docs_page="goninkan",
    options_type=YoninkanOptions,
    new_game=KankeiGame,
    default_max_steps=default_max_steps,
    num_players=num_players,
    variants=(
        {},
        {"yoninkan_partner_rank": "J"},
        {"yoninkan_partner_rank": "K", "yoninkan_first_lead": "spade_ace"},
        {"yoninkan_double": "one_vs_three"},
        {"yoninkan_double": "opposite_partner"},
        {"declarations_in_deal1": False, "max_declarations_per_side": 2},
        {"targets": (8, 8, 9), "yoninkan_joker_lead_weak_all_tricks": True},
        {"declared_bonus_table": {"skunk": (3, 6)}, "rev_skunk_d1_includes_failure_point": False},
        {"play_all_tricks": True, "juroku_keeps_deal3_bonus": False},
        {"episode": "match", "n_rounds": 4},
        {"round_number": 10, "yoninkan_first_lead": "spade_ace"},
    ),
    write_position=write_position,
    read_position=read_position,
    words="cardenvs.goninkan.render:WORDS",
    table="cardenvs.render.tables:kankei_table",
    rules_summary="cardenvs.text.goninkan:RULES",
    fast="cardenvs.fast.yoninkan:YoninkanFast",
    openspiel=OpenSpielTraits(Utility(zero_sum=True, low=-POINTS, high=POINTS)),
)


raw_env, env = env_constructors(DEFINITION)
