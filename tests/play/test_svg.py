"""``render_mode="svg"`` and notebooks' ``_repr_svg_``: a well-formed picture of the table for every game."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.seating import agent_name
from cardenvs.experiments.play.session import PlaySession, TableSettings
from cardenvs.render.view import seat_view


@pytest.mark.parametrize("env_id", cardenvs.ENV_IDS)
def test_render_svg_draws_every_hand(env_id: str) -> None:
    env = cardenvs.make(env_id, render_mode="svg")
    assert env.unwrapped._repr_svg_() is None  # nothing dealt yet
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(10):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert_draws_every_hand(env, env.render())


def assert_draws_every_hand(env: Any, picture: str) -> None:
    """``picture`` is an SVG of ``env`` now, every hand's cards written on it, and what a notebook displays."""
    root = ET.fromstring(picture)
    assert root.tag.endswith("svg")
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    for hand in env.unwrapped.privileged_state()["hands"]:
        assert all(card in text for card in hand.split())
    assert env._repr_svg_() == picture  # the wrapper a notebook displays


def test_the_person_sees_their_cards_and_not_the_others() -> None:
    session = PlaySession(TableSettings("zheng_shang_you-v0", seed=1))
    root = ET.fromstring(session.message()["svg"])
    cards = [g.get("data-card") for g in root.iter() if g.get("class") == "card"]
    hands = session.game.privileged_state()["hands"]
    assert cards == hands[0].split()
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert not any(" ".join(h.split()[:9]) in text for h in hands[1:])


def test_bad_render_mode_names_the_valid_ones() -> None:
    with pytest.raises(cardenvs.InvalidOptionError, match="'svg'"):
        cardenvs.make("kyuuri-v0", render_mode="png")


def test_the_docs_example_runs() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "play.md").read_text(encoding="utf-8")
    example = page.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(example, "docs/play.md", "exec"), namespace)
    assert_draws_every_hand(namespace["env"], namespace["picture"])


def test_the_goninkan_trick_names_who_played_each_card_after_a_seat_swap() -> None:
    env = cardenvs.make("goninkan-v1", raw=True)
    env.reset(seed=1)
    game = env.game
    rng = np.random.default_rng(0)
    while not (game.events.of_kind("seat_swap") and len(game.trick) == 3):
        game.apply(int(rng.choice(game.legal_actions())))
    plays = [(agent_name(e["player"]), e["public"]["card"]) for e in game.events.of_kind("play")[-3:]]
    assert [tuple(m) for m in seat_view(game, None)["middle"]] == plays
