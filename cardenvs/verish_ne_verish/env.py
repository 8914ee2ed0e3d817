"""PettingZoo constructors of ``cardenvs/verish_ne_verish-v0``."""

from __future__ import annotations

from cardenvs.core.aec import env_constructors
from cardenvs.core.engine import GameDefinition, Observer
from cardenvs.core.manifest import OpenSpielTraits
from cardenvs.verish_ne_verish.encoding import encode, layout_of
from cardenvs.verish_ne_verish.position import read_position, write_position
from cardenvs.verish_ne_verish.render import render
from cardenvs.verish_ne_verish.rules import VerishGame, VerishOptions

OBSERVER = Observer(layout=layout_of, encode=encode, render=render)
VerishGame.observed_by(OBSERVER)


def _default_max_steps(options: VerishOptions) -> int:
    return 3000 * options.n_games


DEFINITION: GameDefinition[VerishOptions] = GameDefinition(
    name="verish_ne_verish",
    version=0,
    options_type=VerishOptions,
    new_game=VerishGame,
    observer=OBSERVER,
    default_max_steps=_default_max_steps,
    variants=(
        *({"num_players": n} for n in range(2, 7)),
        *({"num_players": n, "deck_size": 52 if n == 2 else 36} for n in range(2, 7)),
        {"num_players": 3, "deck_size": 36, "quad_discard_optional": True},
        {"num_players": 4, "forbid_discarded_rank": True},
        {"num_players": 5, "reward_mode": "exit_order"},
        {"num_players": 3, "n_games": 2, "loser_deals_next": True},
    ),
    benchmark_options={"num_players": 6},
    write_position=write_position,
    read_position=read_position,
    words="cardenvs.verish_ne_verish.render:WORDS",
    table="cardenvs.render.tables:bluffing_table",
    rules_summary="cardenvs.text.verish_ne_verish:RULES",
    fast="cardenvs.fast.verish:VerishFast",
    openspiel=OpenSpielTraits(
        explicit_deal="cardenvs.openspiel.deals:verish_deal",
        small_variant={"num_players": 2, "deck_size": 8, "dealer": 0, "max_steps": 12},
    ),
)


raw_env, env = env_constructors(DEFINITION)
