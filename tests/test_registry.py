"""Registration: PettingZoo's registry, cardenvs.make, the module-level constructors, light imports."""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys

import pettingzoo
import pytest
from pettingzoo.utils import OrderEnforcingWrapper

import cardenvs
from cardenvs.core.aec import CardGameEnv


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_every_id_is_made_four_ways(env_id: str) -> None:
    definition = cardenvs.definition(env_id)
    module = importlib.import_module(cardenvs.GAMES[definition.name][1])
    for env in (
        pettingzoo.make("aec", env_id),
        cardenvs.make(env_id.removeprefix("cardenvs/")),
        module.env(),
    ):
        assert isinstance(env, OrderEnforcingWrapper) and isinstance(env.unwrapped, CardGameEnv)
        env.reset(seed=0)
        assert env.agent_selection.startswith("player_")
    assert isinstance(module.raw_env(), CardGameEnv)
    assert env_id == definition.env_id and env_id.startswith("cardenvs/")
    assert env_id.endswith(f"-v{cardenvs.GAMES[definition.name][0]}")


@pytest.mark.parametrize("old", sorted(cardenvs.registry.RETIRED))
def test_a_retired_id_is_refused_with_the_current_one_named(old: str) -> None:
    current = f"cardenvs/{cardenvs.registry.game_name(old)}-v{cardenvs.GAMES[cardenvs.registry.game_name(old)][0]}"
    assert current in cardenvs.ENV_IDS and f"cardenvs/{old}" not in cardenvs.ENV_IDS
    for make in (lambda: cardenvs.make(old), lambda: pettingzoo.make("aec", f"cardenvs/{old}")):
        with pytest.raises(cardenvs.InvalidOptionError, match=f"cardenvs/{old} is retired.*use {current}"):
            make()


def test_importing_cardenvs_does_not_import_torch_or_sb3() -> None:
    code = (
        "import sys, cardenvs, cardenvs.testing, cardenvs.agents; "
        "print(sorted(m for m in ('torch', 'stable_baselines3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_every_manifest_reference_loads_and_the_engine_finds_its_definition(env_id: str) -> None:
    definition = cardenvs.definition(env_id)
    assert set(definition.part("words")) and isinstance(definition.part("rules_summary"), str)
    env = cardenvs.make_raw(env_id)
    env.reset(seed=0)
    assert env.game is not None and cardenvs.registry.definition_of(env.game) is definition
    table = definition.part("table")(env.game.privileged_state(), 0)
    assert len(table.status) == env.game.num_players


def test_a_malformed_or_missing_reference_is_refused_clearly() -> None:
    definition = cardenvs.definition("kyuuri-v0")
    with pytest.raises(ValueError, match=r"package\.module:attribute"):
        dataclasses.replace(definition, table="cardenvs.render.tables.kyuuri_table")
    with pytest.raises(NotImplementedError, match="declares no fast"):
        dataclasses.replace(definition, fast="").part("fast")
    with pytest.raises(ValueError, match="not a reference"):
        definition.part("name")
