"""Policy specs: names, labels, files and modules with parameters, ``py:``, ``ckpt:`` (torch only when used)."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import PolicyContext, RandomPolicy
from cardenvs.agents.base import ForeignPolicy
from cardenvs.agents.bots.verish_ne_verish import VerishRuleBot
from cardenvs.agents.play import play_episode
from cardenvs.agents.specs import SpecError
from cardenvs.agents.tournament.specs import Entrant, parse_entrants, register_spec_prefix, resolve_policy
from tests.user_policies import BLUFFER, write_policy

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
    assert Entrant.parse("mine.py:P?p=0.3") == Entrant("mine.py:P?p=0.3", "mine.py:P?p=0.3")
    assert Entrant.parse("me=mine.py:P?p=0.3&seed=1") == Entrant("me", "mine.py:P?p=0.3&seed=1")


def test_registered_names_and_the_older_py_form(context: PolicyContext) -> None:
    assert isinstance(resolve_policy("verish_ne_verish/rule", context), VerishRuleBot)
    random_spec = "py:cardenvs.agents.bots.random_policy:RandomPolicy"
    assert isinstance(resolve_policy(random_spec, context, seed=1), RandomPolicy)
    with pytest.raises(ValueError, match=r"unknown policy 'no_such_policy'.*registered for"):
        resolve_policy("no_such_policy", context)
    with pytest.raises(ValueError, match="has no 'Missing'"):
        resolve_policy("py:cardenvs.agents.bots.random_policy:Missing", context)
    with pytest.raises(ValueError, match="cannot import no_such_module"):
        resolve_policy("py:no_such_module:Factory", context)
    with pytest.raises(ValueError, match="not a policy"):
        resolve_policy("py:builtins:slice", context)


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("", "empty policy spec"),
        ("random?p=1", "a registered policy takes no parameters"),
        ("mine.py:P?p=oops", "the value of parameter 'p', 'oops', is not a Python literal"),
        ("mine.py:P?p", "parameter 'p' is not written key=value"),
        ("mine.py:P?p=1&p=2", "parameter 'p' is given twice"),
        ("mine.py:2P", "'2P' is not a Python name"),
        ("not a module:P", "neither a file path"),
        ("zoo:best", "a zoo spec is zoo:<game>/<name>"),
        ("/no/such/dir/mine.py:P", "no file /no/such/dir/mine.py"),
    ],
)
def test_a_bad_spec_names_the_problem_and_the_accepted_forms(context: PolicyContext, spec: str, problem: str) -> None:
    with pytest.raises(SpecError) as caught:
        resolve_policy(spec, context)
    assert problem in str(caught.value)
    assert "path/to/file.py:Name" in str(caught.value) and "ckpt:PATH" in str(caught.value)


def test_a_policy_file_outside_the_repository_with_parameters(context: PolicyContext, tmp_path: Path) -> None:
    assert ROOT not in tmp_path.parents
    path = write_policy(tmp_path / "elsewhere")
    bluffer = resolve_policy(f"{path}:PBluffer?p=0.7", context, seed=3)
    assert isinstance(bluffer, ForeignPolicy) and bluffer.name == "pbluffer" and bluffer.inner.p == 0.7
    assert resolve_policy(f"{path}:PBluffer", context).inner.p == 0.3  # the class's default
    fixed = [resolve_policy(f"{path}:PBluffer?seed=5", context, seed=s).inner.rng.random() for s in (1, 2)]
    assert fixed[0] == fixed[1]  # ?seed= overrides the caller's seed
    function = resolve_policy(f"{path}:first_legal?offset=1", context)
    mask = np.zeros(context.actions.size, dtype=np.int8)
    mask[[3, 7]] = 1
    assert function.act({"observation": np.zeros(context.layout.size), "action_mask": mask}) == 7
    with pytest.raises(SpecError, match=r"calling PBluffer failed: .*unexpected keyword argument 'q'"):
        resolve_policy(f"{path}:PBluffer?q=1", context)
    with pytest.raises(SpecError, match=r"has no 'Nope' \(it defines \['PBluffer', 'first_legal', 'np'\]\)"):
        resolve_policy(f"{path}:Nope", context)
    env = cardenvs.make("verish_ne_verish-v0", num_players=3)
    result = play_episode(env, [resolve_policy(f"{path}:PBluffer?p=1.0", context, seed=i) for i in range(3)], seed=0)
    assert result.decisions > 0


def test_a_module_on_sys_path_and_an_object_with_act(
    context: PolicyContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_policy(tmp_path, BLUFFER + "\nINSTANCE = PBluffer.__new__(PBluffer)\n", name="user_bluff.py")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert resolve_policy("user_bluff:PBluffer?p=0.5", context).inner.p == 0.5
    instance = resolve_policy("user_bluff:INSTANCE", context)
    assert isinstance(instance, ForeignPolicy) and type(instance.inner).__name__ == "PBluffer"


def test_the_adapter_resets_with_or_without_a_seed(context: PolicyContext) -> None:
    calls: list[object] = []

    class NoSeed:
        def reset(self) -> None:
            calls.append("no seed")

        def act(self, observation: Any) -> int:
            return 0

    class Seeded(NoSeed):
        def reset(self, seed: int | None = None) -> None:  # type: ignore[override]
            calls.append(seed)

    ForeignPolicy(NoSeed(), context).reset(4)
    ForeignPolicy(Seeded(), context).reset(4)
    assert calls == ["no seed", 4]
    with pytest.raises(TypeError, match="not a policy"):
        ForeignPolicy(object(), context)


def test_checkpoints_go_through_agents_learned(context: PolicyContext, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []

    def checkpoint_policy(path: str, ctx: PolicyContext, seed: int | None, greedy: bool = False) -> RandomPolicy:
        calls.append((path, seed))
        return RandomPolicy(ctx, seed)

    fake = types.SimpleNamespace(checkpoint_policy=checkpoint_policy)
    monkeypatch.setitem(sys.modules, "cardenvs.agents.learned.players", fake)
    assert isinstance(resolve_policy("ckpt:runs/model.zip", context, seed=3), RandomPolicy)
    assert calls == [("runs/model.zip", 3)]


def test_one_table_knows_every_prefix_and_builds_every_spec(context: PolicyContext) -> None:
    import cardenvs.agents
    from cardenvs.agents import registry, specs

    assert set(specs.SPEC_PREFIXES) == {"ckpt", "ckpt-greedy", "zoo", "equilibrium", "search", "llm", "fastbot"}
    assert all(f" {prefix}:" in specs.ACCEPTED_FORMS for prefix in [*specs.SPEC_PREFIXES, "py"])
    assert not hasattr(registry, "RESOLVERS") and not hasattr(registry, "make_policy")
    assert cardenvs.agents.make_policy is specs.make_policy
    with pytest.raises(SpecError, match="fastbot:NAME"):
        specs.make_policy("no-such-prefix:x", context)


def test_new_prefixes_can_be_registered(context: PolicyContext, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardenvs.agents import specs

    monkeypatch.setattr(specs, "SPEC_PREFIXES", dict(specs.SPEC_PREFIXES))
    register_spec_prefix("seeded", lambda arg, ctx, seed: RandomPolicy(ctx, int(arg)))
    assert isinstance(resolve_policy("seeded:5", context), RandomPolicy)


def test_the_tournament_does_not_import_torch() -> None:
    imports = "import sys, cardenvs.agents.tournament, cardenvs.experiments.tournament"
    code = f"{imports}; print('torch' in sys.modules, 'ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
