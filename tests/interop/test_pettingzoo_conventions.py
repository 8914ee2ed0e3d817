"""PettingZoo classic's conventions: a module per game with ``env()`` / ``raw_env()``, its SB3 action-mask tutorial
with only the import changed, ``render_mode="human"``, and importing on a PettingZoo without the registry."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import pettingzoo
import pettingzoo.utils
import pytest
from pettingzoo.test import render_test
from pettingzoo.utils import OrderEnforcingWrapper

import cardenvs
from cardenvs import registry
from cardenvs.core.aec import CardGameEnv

MODULES = ("verish_ne_verish", "yukushi", "kyuuri", "goninkan", "yoninkan", "zheng_shang_you")
"""``cardenvs.<name>`` for every registered game: the names PettingZoo users import."""


def game_module(name: str) -> ModuleType:
    return importlib.import_module(f"cardenvs.{name}")


def test_every_registered_game_has_a_module_of_its_own_name() -> None:
    assert sorted(MODULES) == sorted(registry.game_name(env_id) for env_id in cardenvs.ENV_IDS)


@pytest.mark.parametrize("name", MODULES)
def test_the_module_has_env_and_raw_env(name: str) -> None:
    module = game_module(name)
    importlib.import_module(f"cardenvs.{name}.env" if name != "yoninkan" else "cardenvs.goninkan.yoninkan_env")
    wrapped, raw = module.env(), module.raw_env()  # still the functions after the env submodule is imported
    assert isinstance(wrapped, OrderEnforcingWrapper) and isinstance(raw, CardGameEnv)
    assert raw.metadata["name"] == f"{name}_v{cardenvs.GAMES[name][0]}" == wrapped.metadata["name"]
    assert module.DEFINITION is cardenvs.definition(f"{name}-v{cardenvs.GAMES[name][0]}")


# ---------------------------------------------------------------- the SB3 action-mask tutorial's pattern
class MaskedSeatsEnv(pettingzoo.utils.BaseWrapper, gymnasium.Env):  # type: ignore[misc]
    """The tutorial's wrapper: every seat's decisions as one gymnasium-like stream, the mask kept apart."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed, options)
        first = self.possible_agents[0]
        self.observation_space = super().observation_space(first)["observation"]
        self.action_space = super().action_space(first)
        return self.observe(self.agent_selection), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        acting = self.agent_selection
        super().step(action)
        return (
            self.observe(self.agent_selection),
            self._cumulative_rewards[acting],
            self.terminations[acting],
            self.truncations[acting],
            self.infos[acting],
        )

    def observe(self, agent: str) -> Any:
        return super().observe(agent)["observation"]

    def action_mask(self) -> Any:
        return super().observe(self.agent_selection)["action_mask"]


@pytest.mark.parametrize("name", MODULES)
def test_the_sb3_action_mask_tutorial_runs_with_only_the_import_changed(name: str, tmp_path: Path) -> None:
    """Train MaskablePPO on every seat at once (two rollouts of 64 steps), save and reload it, then play two whole
    games with it against random play."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    env_fn = game_module(name)  # the tutorial: `from pettingzoo.classic import connect_four_v3; env_fn = ...`
    env = MaskedSeatsEnv(env_fn.env())
    env.reset(seed=0)
    masked = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, masked, n_steps=64, batch_size=64, n_epochs=1, verbose=0)
    model.set_random_seed(0)
    untrained = [parameter.detach().clone() for parameter in model.policy.parameters()]
    model.learn(total_timesteps=128)

    assert model.num_timesteps == 128  # two rollouts of 64 steps, every seat's decisions in one stream
    trained = list(model.policy.parameters())
    assert any(not torch.equal(before, after) for before, after in zip(untrained, trained, strict=True))
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip")
    for before, after in zip(trained, loaded.policy.parameters(), strict=True):
        assert torch.equal(before.detach(), after.detach())  # the checkpoint is the trained policy

    env = env_fn.env()
    for game in range(2):
        env.reset(seed=game)
        env.action_space(env.possible_agents[0]).seed(game)
        decisions = {"random": 0, "model": 0}
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(max_iter=5000):
            obs, reward, termination, truncation, _ = env.last()
            returns[agent] += reward
            if termination or truncation:
                assert termination, f"game {game} was cut short"
                env.step(None)
                continue
            observation, action_mask = obs.values()
            player = "random" if agent == env.possible_agents[0] else "model"
            if player == "random":
                action = env.action_space(agent).sample(action_mask)
            else:
                action = int(loaded.predict(observation, action_masks=action_mask, deterministic=True)[0])
                assert action == int(model.predict(observation, action_masks=action_mask, deterministic=True)[0])
            assert action_mask[action] == 1
            env.step(action)  # raises on an illegal action: the masks were honoured
            decisions[player] += 1
        assert env.agents == [], f"game {game} did not end in 5000 steps"
        assert decisions["random"] > 0 and decisions["model"] > 0  # the loaded model played legal moves too
        assert any(value != 0 for value in returns.values())  # every seat's result was handed out at the end


# ---------------------------------------------------------------- rendering
@pytest.mark.parametrize("name", MODULES)
def test_render_mode_human_prints_the_table(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = game_module(name)
    render_test(module.env)
    capsys.readouterr()
    env = module.env(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    text = module.env(render_mode="ansi")
    text.reset(seed=0)
    assert capsys.readouterr().out == text.render() + "\n"


# ---------------------------------------------------------------- PettingZoo without the registry (before 1.27)
def test_without_pettingzoo_registry_nothing_is_registered_and_make_works(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(pettingzoo, "register")
    monkeypatch.delattr(pettingzoo, "aec_registry")
    registry.register_all()
    env = cardenvs.make("kyuuri-v0")
    env.reset(seed=0)
    assert env.agent_selection.startswith("player_")
