"""Rules apart from observers (issue 20 item 4): inside a game package no module imports another that imports it
back, counting imports inside functions and under ``TYPE_CHECKING``; encoders and renderers read the rules, which
never import them (the definition in ``env.py`` brings them together)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import cardenvs
from cardenvs.core.engine import RulesEngine
from cardenvs.goninkan.game import KankeiGame
from cardenvs.registry import definition
from cardenvs.zheng_shang_you.game import ZsyGame

PACKAGE = Path(cardenvs.__file__).parent
ACYCLIC_PACKAGES = ("verish_ne_verish", "yukushi", "kyuuri", "goninkan", "zheng_shang_you", "core")


def imports_within(package: str) -> dict[str, set[str]]:
    """Module name → the modules of the same package it imports, anywhere in its text."""
    graph: dict[str, set[str]] = {}
    for path in (PACKAGE / package).glob("*.py"):
        prefix = f"cardenvs.{package}."
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(prefix):
                found.add(node.module.removeprefix(prefix))
            elif isinstance(node, ast.Import):
                found.update(a.name.removeprefix(prefix) for a in node.names if a.name.startswith(prefix))
        graph[path.stem] = found
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = 1
        for other in sorted(graph.get(module, ())):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other] if other in path else [module, other]
            if other not in state and (found := visit(other, [*path, other])):
                return found
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module, [module])):
            return found
    return None


@pytest.mark.parametrize("game", ACYCLIC_PACKAGES)
def test_no_import_cycle_inside_the_game(game: str) -> None:
    graph = imports_within(game)
    assert cycle(graph) is None, f"import cycle in cardenvs.{game}: {' -> '.join(cycle(graph) or [])}"
    for engine in ("rules", "game"):
        assert not {"encoding", "render", "env", "position"} & graph.get(engine, set()), f"{engine} imports an observer"


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_every_game_is_seen_through_the_observer_its_definition_attaches(env_id: str) -> None:
    """One way for every game (issue 39 item 4): the engine's class keeps the protocol's observation and picture,
    which go through the attached :class:`~cardenvs.core.engine.Observer`; no engine subclasses to be seen."""
    engine = definition(env_id).new_game
    assert isinstance(engine, type) and issubclass(engine, RulesEngine)
    assert engine.observer is not None, f"{engine.__name__} has no observer attached"
    for method in ("observation", "observe_into", "render_text"):
        assert getattr(engine, method) is getattr(RulesEngine, method), f"{engine.__name__} overrides {method}"


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle({"rules": {"encoding"}, "encoding": {"rules"}}) == ["encoding", "rules", "encoding"]
    assert cycle({"rules": {"actions"}, "encoding": {"rules", "actions"}, "actions": set()}) is None


@pytest.mark.parametrize("engine", [KankeiGame, ZsyGame])
def test_no_engine_class_leaves_a_method_for_a_later_class_to_fill(engine: type[RulesEngine[object]]) -> None:
    """Issue 39 item 4: the engine composes phase objects instead of stacking classes whose placeholder methods
    are filled two or three classes higher."""
    package = engine.__module__.rsplit(".", 1)[0]
    classes = [c for c in engine.__mro__ if c.__module__.startswith(package)]
    assert len(classes) <= 3, f"{[c.__name__ for c in classes]}: compose phases instead of stacking classes"
    for cls in classes:
        for name, member in vars(cls).items():
            if inspect.isfunction(member):
                assert "NotImplementedError" not in inspect.getsource(member), f"{cls.__name__}.{name} is a hook"
    assert not inspect.isabstract(engine)
