"""PettingZoo constructors of ``cardenvs/kyuuri-v0``."""

from __future__ import annotations

from cardenvs.core.aec import env_constructors
from cardenvs.core.engine import GameDefinition, Observer
from cardenvs.core.manifest import OpenSpielTraits
from cardenvs.kyuuri.encoding import encode, layout_of
from cardenvs.kyuuri.options import KyuuriOptions
from cardenvs.kyuuri.position import read_position, write_position
from cardenvs.kyuuri.render import render
from cardenvs.kyuuri.rules import KyuuriGame

OBSERVER = Observer(layout=layout_of, encode=encode, render=render)
KyuuriGame.observed_by(OBSERVER)


def _default_max_steps(options: KyuuriOptions) -> int:
    # Every deal takes hand_size decisions per player still in, so this bound is never reached before the
    # rules end the episode (max_deals caps an elimination game); it only guards against engine bugs.
    return options.hand_size * options.num_players * options.deals_cap + 1


DEFINITION: GameDefinition[KyuuriOptions] = GameDefinition(
    name="kyuuri",
    version=0,
    options_type=KyuuriOptions,
    new_game=KyuuriGame,
    observer=OBSERVER,
    default_max_steps=_default_max_steps,
    variants=(
        *({"num_players": n} for n in range(2, 8)),
        {"num_players": 5, "threshold_strict": True},
        {"num_players": 4, "threshold": 30},
        {"num_players": 4, "reincarnation": True},
        {"num_players": 3, "ties_all_score": True},
        {"num_players": 4, "ties_all_score": True, "reincarnation": True, "threshold": 10},
        {"num_players": 5, "ace_lead_forces_lowest": True},
        {"num_players": 6, "swedish_gurka": True},
        {"num_players": 7, "swedish_gurka": True, "ace_lead_forces_lowest": True},
        {"num_players": 4, "fixed_deals": 3},
        {"num_players": 3, "max_deals": 2},
        {"num_players": 7, "episode": "deal"},
        {"num_players": 2, "episode": "deal", "reward_mode": "penalty"},
        {"num_players": 4, "reward_mode": "penalty"},
        {"num_players": 3, "dealer": 2},
    ),
    benchmark_options={"num_players": 7},
    write_position=write_position,
    read_position=read_position,
    words="cardenvs.kyuuri.render:WORDS",
    table="cardenvs.render.tables:kyuuri_table",
    rules_summary="cardenvs.text.kyuuri:RULES",
    fast="cardenvs.fast.kyuuri:KyuuriFast",
    openspiel=OpenSpielTraits(
        explicit_deal="cardenvs.openspiel.deals:kyuuri_deal",
        small_variant={"num_players": 2, "deck_size": 16, "deal_size": 3, "episode": "deal", "dealer": 0},
    ),
)


raw_env, env = env_constructors(DEFINITION)
