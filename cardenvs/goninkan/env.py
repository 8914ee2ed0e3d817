"""PettingZoo constructors of ``cardenvs/goninkan-v1``."""

from __future__ import annotations

from cardenvs.core.aec import env_constructors
from cardenvs.core.engine import GameDefinition, Observer
from cardenvs.core.manifest import OpenSpielTraits, Utility
from cardenvs.goninkan.encoding import encode, layout_of
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions, KankeiOptions
from cardenvs.goninkan.position import read_position, write_position
from cardenvs.goninkan.render import render

KankeiGame.observed_by(Observer(layout=layout_of, encode=encode, render=render))

POINTS = 1000.0
"""Bound declared on a round's points for OpenSpiel (random play reaches about 160): Goninkan's two sides of
unequal size are paid raw points (not zero-sum), Yoninkan's 2 against 2 mirror them."""
STEPS_PER_ROUND = 400
"""Far above a round's longest play (3 deals of at most ~70 decisions)."""


def default_max_steps(options: KankeiOptions) -> int:
    """Step cap of an episode: generous per round played."""
    return STEPS_PER_ROUND * (options.n_rounds if options.episode == "match" else 1)


def num_players(options: KankeiOptions) -> int:
    return options.player_count()


DEFINITION: GameDefinition[GoninkanOptions] = GameDefinition(
    name="goninkan",
    version=1,
    options_type=GoninkanOptions,
    new_game=KankeiGame,
    default_max_steps=default_max_steps,
    num_players=num_players,
    variants=(
        {},
        {"num_players": 6},
        {"nakayoshi": True},
        {"num_players": 6, "nakayoshi": True, "kankei_lead_decider": "joker_holder"},
        {"kankei_lead_decider": "ace_holder"},
        {"kankei_lead_decider": "random", "nijukan_exchange": "chooser_picks_blind"},
        {"num_players": 6, "nijukan_exchange": "chooser_picks_blind"},
        {"rev_skunk_d1_includes_failure_point": False, "juroku_keeps_deal3_bonus": False},
        {"play_all_tricks": True},
        {"episode": "match", "n_rounds": 4},
        {"num_players": 6, "episode": "match", "n_rounds": 2},
        {"round_number": 10},
    ),
    benchmark_options={"num_players": 6},
    write_position=write_position,
    read_position=read_position,
    words="cardenvs.goninkan.render:WORDS",
    table="cardenvs.render.tables:kankei_table",
    rules_summary="cardenvs.text.goninkan:RULES",
    fast="cardenvs.fast.goninkan:GoninkanFast",
    openspiel=OpenSpielTraits(Utility(zero_sum=False, low=-POINTS, high=POINTS)),
)


raw_env, env = env_constructors(DEFINITION)
