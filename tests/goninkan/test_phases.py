"""Goninkan's engine is one game object composing phase objects (issue 39 item 4)."""

from __future__ import annotations

import inspect

import numpy as np

from cardenvs.core.engine import RulesEngine
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions
from cardenvs.goninkan.table import BLIND_SWAP, LEAD_CHOICE, PHASES, PLAY, SHOW, SWEEP, TRUMP


def test_no_engine_class_leaves_a_method_for_a_later_class_to_fill() -> None:
    engine_classes = [c for c in KankeiGame.__mro__ if c.__module__.startswith("cardenvs.goninkan")]
    assert len(engine_classes) == 2, f"the table and the game only, got {[c.__name__ for c in engine_classes]}"
    for cls in engine_classes:
        for name, member in vars(cls).items():
            if inspect.isfunction(member):
                assert "NotImplementedError" not in inspect.getsource(member), f"{cls.__name__}.{name} is a hook"
    assert issubclass(KankeiGame, RulesEngine) and not inspect.isabstract(KankeiGame)


def test_every_decision_type_is_owned_by_a_shared_stateless_phase() -> None:
    game = KankeiGame(GoninkanOptions(), np.random.default_rng(0))
    phases = game._phases
    assert len(phases) == len(PHASES)
    for phase in phases:
        assert all(callable(getattr(phase, method, None)) for method in ("mask", "apply", "moves", "move_actions"))
        assert not vars(phase), f"{type(phase).__name__} holds state"
    assert game.clone()._phases is phases  # every game and clone shares the phase objects
    owners = {PLAY: game.tricks, SWEEP: game.tricks, LEAD_CHOICE: game.calls, BLIND_SWAP: game.calls}
    owners |= {SHOW: game.trump_choice, TRUMP: game.trump_choice}
    assert all(phases[decision] is phase for decision, phase in owners.items())
