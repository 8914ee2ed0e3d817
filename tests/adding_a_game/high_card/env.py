"""PettingZoo constructors of ``high_card-v0``: the game's manifest."""

from __future__ import annotations

from cardenvs.core.aec import env_constructors
from cardenvs.core.engine import GameDefinition, Observer
from tests.adding_a_game.high_card.observe import encode, layout_of, render
from tests.adding_a_game.high_card.rules import HighCardGame, HighCardOptions

OBSERVER = Observer(layout=layout_of, encode=encode, render=render)
HighCardGame.observed_by(OBSERVER)

DEFINITION: GameDefinition[HighCardOptions] = GameDefinition(
    name="high_card",
    version=0,
    options_type=HighCardOptions,
    new_game=HighCardGame,
    default_max_steps=lambda options: 10,
    observer=OBSERVER,
    words="tests.adding_a_game.high_card.observe:WORDS",
    table="tests.adding_a_game.high_card.observe:table",
    rules_summary="tests.adding_a_game.high_card.observe:RULES",
)

raw_env, env = env_constructors(DEFINITION)
