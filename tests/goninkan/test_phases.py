"""Goninkan's engine is one game object composing phase objects (issue 39 item 4)."""

from __future__ import annotations

import numpy as np

from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions
from cardenvs.goninkan.table import BLIND_SWAP, LEAD_CHOICE, PHASES, PLAY, SHOW, SWEEP, TRUMP


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
