"""No import cycles in ``cardenvs`` proper (issue 20 item 4, issue 39 item 2): no module imports another that imports
it back, counting imports inside functions and under ``TYPE_CHECKING``; inside a game package encoders and
renderers read the rules, which never import them (the definition in ``env.py`` brings them together).

``agents`` and ``experiments`` (reached through ``cardenvs.agents`` / ``cardenvs.experiments``) are checked by
their own test."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import cardenvs
from cardenvs.core.engine import RulesEngine
from cardenvs.goninkan.game import KankeiGame
from cardenvs.registry import definition
from cardenvs.zheng_shang_you.game import ZsyGame

PACKAGE = Path(cardenvs.__file__).parent
OUTSIDE = ("agents", "experiments")
"""Folders of the distribution that are not ``cardenvs`` proper."""
GAME_PACKAGES = ("verish_ne_verish", "yukushi", "kyuuri", "goninkan", "zheng_shang_you")


def module_files() -> dict[str, Path]:
    """Dotted module name → file, for every module of ``cardenvs`` proper (a package is its ``__init__``)."""
    files = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] in OUTSIDE:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(("cardenvs", *parts))] = path
    return files


def imported(node: ast.AST, known: set[str]) -> set[str]:
    """The modules of ``known`` that an import statement names (``from p import m`` names module ``p.m`` when it
    is one, else ``p``)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in known}
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        found = {f"{node.module}.{a.name}" for a in node.names} & known
        return found or ({node.module} & known)
    return set()


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of ``cardenvs`` proper it imports, anywhere in its text."""
    files = module_files()
    known = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            graph[name] |= imported(node, known)
        graph[name].discard(name)
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


def test_no_import_cycle_in_cardenvs() -> None:
    graph = import_graph()
    assert "cardenvs.fast.batched" in graph and "cardenvs.core.aec" in graph, "the walk missed modules"
    found = cycle(graph)
    assert found is None, f"import cycle: {' -> '.join(found or [])}"


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_the_rules_import_no_observer(game: str) -> None:
    graph = import_graph()
    observers = {f"cardenvs.{game}.{m}" for m in ("encoding", "render", "env", "position")}
    for engine in ("rules", "game"):
        imports = graph.get(f"cardenvs.{game}.{engine}", set())
        assert not observers & imports, f"cardenvs.{game}.{engine} imports an observer: {sorted(observers & imports)}"


def test_the_graph_sees_imports_in_functions_and_under_type_checking() -> None:
    graph = import_graph()
    assert "cardenvs.render.view" in graph["cardenvs.core.aec"]  # imported inside a method
    assert "cardenvs.fast.batched" in graph["cardenvs.vector"]  # imported inside a function
    assert "cardenvs.fast.goninkan_setup" in graph["cardenvs.fast.goninkan_obs"]  # under TYPE_CHECKING


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


# ---------------------------------------------------------------------------------------------- agents, experiments
ROOMS = ("agents", "experiments")
"""The packages reached as ``cardenvs.agents`` and ``cardenvs.experiments`` (their modules also import each other as
``agents.…`` and ``experiments.…`` from a checkout)."""


def room_modules() -> dict[str, Path]:
    """``agents.…`` / ``experiments.…`` module name → its file, for every module of the two rooms."""
    modules: dict[str, Path] = {}
    for room in ROOMS:
        folder = Path(importlib.import_module(f"cardenvs.{room}").__file__ or "").resolve().parent
        for path in folder.rglob("*.py"):
            parts = [room, *path.relative_to(folder).with_suffix("").parts]
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def room_imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the modules of the rooms it imports anywhere in its text (at the top, in functions, under
    ``TYPE_CHECKING``). ``from package import name`` imports ``package.name`` when that is a module, else the
    package itself."""

    def known(name: str) -> str:
        return name.removeprefix("cardenvs.")

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(known(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    package = module.split(".")[: len(module.split(".")) - node.level + (path.stem == "__init__")]
                    source = ".".join([*package, *([node.module] if node.module else [])])
                else:
                    source = known(node.module or "")
                for alias in node.names:
                    submodule = f"{source}.{alias.name}".lstrip(".")
                    found.add(submodule if submodule in modules else source)
        graph[module] = (found & modules.keys()) - {module}
    return graph


def test_no_import_cycle_in_agents_and_experiments() -> None:
    modules = room_modules()
    assert {"agents.specs", "agents.zoo", "experiments.train", "experiments.speed"} <= modules.keys()
    graph = room_imports(modules)
    assert "agents.base" in graph["agents.specs"] and "experiments.train_envs" in graph["experiments.train"]
    found = cycle(graph)
    assert found is None, f"import cycle: {' -> '.join(found or [])}"


def test_room_imports_count_every_form_of_import(tmp_path: Path) -> None:
    files = {
        "agents": "from cardenvs.agents import bots, make\n",
        "agents.bots": "def f():\n    import cardenvs.agents.zoo\n",
        "agents.zoo": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from experiments.train import Args\n",
        "experiments.train": "from .. import agents\nfrom . import other\n",
        "experiments.other": "",
    }
    modules = {name: tmp_path / f"{name}.py" for name in files}
    for name, text in files.items():
        modules[name].write_text(text)
    assert room_imports(modules) == {
        "agents": {"agents.bots"},
        "agents.bots": {"agents.zoo"},
        "agents.zoo": {"experiments.train"},
        "experiments.train": {"agents", "experiments.other"},
        "experiments.other": set(),
    }


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


# ---------------------------------------------------------------------------------------------- the whole tree
def layer_breaches(files: dict[str, Path]) -> list[str]:
    """Imports (anywhere in a module's text) that point up the layers ``cardenvs`` proper → ``agents`` →
    ``experiments``: with no cycle inside each layer, none of these means no cycle in the whole tree."""
    above = {"cardenvs": ("cardenvs.agents", "cardenvs.experiments"), "agents": ("cardenvs.experiments",)}
    breaches = []
    for module, path in files.items():
        layer = "agents" if module.startswith("agents") else "cardenvs" if module.startswith("cardenvs") else ""
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            breaches += [f"{module} imports {n}" for n in names if n.startswith(above.get(layer, ("\0",)))]
    return sorted(set(breaches))


def test_no_layer_imports_one_above_it() -> None:
    agents = {m: p for m, p in room_modules().items() if m.startswith("agents")}
    assert layer_breaches({**module_files(), **agents}) == []


def test_a_layer_breach_is_found(tmp_path: Path) -> None:
    low = tmp_path / "low.py"
    low.write_text("def f():\n    from cardenvs.agents.tournament import hooks\n")
    bot = tmp_path / "bot.py"
    bot.write_text("from cardenvs import experiments\nimport cardenvs.experiments.train\n")
    found = layer_breaches({"cardenvs.low": low, "agents.bot": bot})
    assert found == [
        "agents.bot imports cardenvs.experiments",
        "agents.bot imports cardenvs.experiments.train",
        "cardenvs.low imports cardenvs.agents.tournament",
        "cardenvs.low imports cardenvs.agents.tournament.hooks",
    ]
