"""Policy specs: names, labels, ``py:`` factories, ``ckpt:`` checkpoints (torch only when used)."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import cardenvs
from agents import PolicyContext, RandomPolicy
from agents.tournament.specs import Entrant, parse_entrants, register_spec_prefix, resolve_policy
from agents.verish_ne_verish import VerishRuleBot

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def context() -> PolicyContext:
    return PolicyContext.from_env(cardenvs.make("verish_ne_verish-v0", num_players=3))


def test_labels_and_specs() -> None:
    assert Entrant.parse("random") == Entrant("random", "random")
    assert Entrant.parse("bot=ckpt:runs/a=b.zip") == Entrant("bot", "ckpt:runs/a=b.zip")
    with pytest.raises(ValueError, match="distinct"):
        parse_entrants(["random", "random"])
    assert [e.label for e in parse_entrants(["a=random", "b=random"])] == ["a", "b"]
    with pytest.raises(ValueError, match="label=spec"):
        Entrant.parse("=random")


def test_registered_names_and_python_factories(context: PolicyContext) -> None:
    assert isinstance(resolve_policy("verish_ne_verish/rule", context), VerishRuleBot)
    assert isinstance(resolve_policy("py:agents.random_policy:RandomPolicy", context, seed=1), RandomPolicy)
    with pytest.raises(ValueError, match="unknown policy"):
        resolve_policy("no_such_policy", context)
    with pytest.raises(ValueError, match="no attribute"):
        resolve_policy("py:agents.random_policy:Missing", context)
    with pytest.raises(ValueError, match="cannot import"):
        resolve_policy("py:no_such_module:Factory", context)
    with pytest.raises(ValueError, match=r"not an agents\.Policy"):
        resolve_policy("py:builtins:slice", context)


def test_checkpoints_go_through_agents_sb3_policy(context: PolicyContext, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []

    def checkpoint_policy(path: str, ctx: PolicyContext, seed: int | None, greedy: bool = False) -> RandomPolicy:
        calls.append((path, seed))
        return RandomPolicy(ctx, seed)

    fake = types.SimpleNamespace(checkpoint_policy=checkpoint_policy)
    monkeypatch.setitem(sys.modules, "agents.sb3_policy", fake)
    assert isinstance(resolve_policy("ckpt:runs/model.zip", context, seed=3), RandomPolicy)
    assert calls == [("runs/model.zip", 3)]


def test_new_prefixes_can_be_registered(context: PolicyContext, monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.tournament import specs

    monkeypatch.setattr(specs, "SPEC_PREFIXES", dict(specs.SPEC_PREFIXES))
    register_spec_prefix("seeded", lambda arg, ctx, seed: RandomPolicy(ctx, int(arg)))
    assert isinstance(resolve_policy("seeded:5", context), RandomPolicy)


def test_the_tournament_does_not_import_torch() -> None:
    code = "import sys, agents.tournament, experiments.tournament; print('torch' in sys.modules, 'ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
