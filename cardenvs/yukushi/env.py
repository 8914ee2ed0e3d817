"""PettingZoo constructors of ``cardenvs/yukushi-v0``."""

from __future__ import annotations

from cardenvs.core.aec import env_constructors
from cardenvs.core.engine import GameDefinition, Observer
from cardenvs.core.manifest import OpenSpielTraits
from cardenvs.yukushi.encoding import encode, layout_of
from cardenvs.yukushi.options import YukushiOptions
from cardenvs.yukushi.position import read_position, write_position
from cardenvs.yukushi.render import render
from cardenvs.yukushi.rules import YukushiGame

OBSERVER = Observer(layout=layout_of, encode=encode, render=render)
YukushiGame.observed_by(OBSERVER)


def _default_max_steps(options: YukushiOptions) -> int:
    """A cap of about 1,000 turns per game: each turn costs up to ``num_players`` decisions in a window."""
    return 1000 * options.num_players * options.n_games


DEFINITION: GameDefinition[YukushiOptions] = GameDefinition(
    name="yukushi",
    version=0,
    options_type=YukushiOptions,
    new_game=YukushiGame,
    observer=OBSERVER,
    default_max_steps=_default_max_steps,
    variants=(
        # Every player count and window model; max_play stays small where legal_moves() is enumerated a lot
        # (the kit lists every complete move at every decision: 30,927 for a lead with max_play=4).
        *({"num_players": n} for n in (2, 4, 8)),
        {"num_players": 8, "challenge_model": "B"},
        {"num_players": 3, "challenge_model": "C"},
        {"num_players": 7, "challenge_model": "C"},
        {"num_players": 5, "play_to_ranking": True},
        {"num_players": 4, "allow_count_mismatch": True, "max_play": 2},
        {"num_players": 3, "challenge_model": "B", "allow_count_mismatch": True, "max_play": 3},
        {"num_players": 6, "window_before_flush": False, "forbid_exhausted_rank": True},
        {"num_players": 3, "n_games": 2, "deal_from": "dealer", "max_play": 3},
    ),
    benchmark_options={"num_players": 8},
    write_position=write_position,
    read_position=read_position,
    words="cardenvs.yukushi.render:WORDS",
    table="cardenvs.render.tables:bluffing_table",
    rules_summary="cardenvs.text.yukushi:RULES",
    fast="cardenvs.fast.yukushi:YukushiFast",
    openspiel=OpenSpielTraits(
        explicit_deal="cardenvs.openspiel.deals:yukushi_deal",
        small_variant={"num_players": 2, "deck_size": 8, "leader": 0, "max_steps": 12},
    ),
)


raw_env, env = env_constructors(DEFINITION)
