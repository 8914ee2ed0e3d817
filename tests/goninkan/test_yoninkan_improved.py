"""The improved Kankei player (agents/learned/goninkan_advantage.py) in Yoninkan: its features read a hidden-partner
table of 40 cards, and a network fitted on Yoninkan plays there under Yoninkan's name."""

from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.learned.goninkan_advantage import FEATURES, MOVE_ADVANTAGES, ImprovedKankeiPlayer, MoveFeatures
from cardenvs.agents.learned.weights import ActorWeights, context_layout_hash
from cardenvs.agents.specs import make_policy
from tests.goninkan.helpers import act, yoninkan
from tests.goninkan.test_yoninkan import DEAL

CONTEXT = PolicyContext.from_env(cardenvs.make("yoninkan-v1"))


def linear(feature: str, slope: float) -> ActorWeights:
    """A Yoninkan move-advantage network with no hidden layer, ``f = slope × feature``, and margin 0."""
    w = np.zeros((1, len(FEATURES)), np.float32)
    w[0, FEATURES.index(feature)] = slope
    meta = {
        "kind": MOVE_ADVANTAGES,
        "margin": 0.0,
        "env_id": "cardenvs/yoninkan-v1",
        "layout_hash": context_layout_hash(CONTEXT),
    }
    return ActorWeights((), (w, np.zeros(1, np.float32)), "relu", np.ones(len(FEATURES), np.float32), meta)


def opening_lead() -> tuple[dict[str, np.ndarray], list[str]]:
    """Player 1 (joker, hidden partner player 3, trump ♣) to lead trick 1 of DEAL after declaring nothing."""
    game = yoninkan(DEAL)
    act(game, "declare", "none", player=1)
    mask = game.legal_mask()
    return {"observation": game.observation(1), "action_mask": mask}, [
        CONTEXT.actions.name(int(a)) for a in np.flatnonzero(mask)
    ]


def test_the_features_read_a_hidden_partner_table_of_forty_cards() -> None:
    observation, names = opening_lead()
    rows = MoveFeatures(CONTEXT).features(observation["observation"], np.flatnonzero(observation["action_mask"]))
    by_card = {name: dict(zip(FEATURES, row, strict=True)) for name, row in zip(names, rows, strict=True)}
    ace = by_card["play(A♥)"]
    # I hold a key card (関係) but do not know my partner: no side is known, no side's honours are counted
    assert (ace["me_kankei"], ace["side_unknown"], ace["my_side_honours"], ace["deal_1"]) == (1, 0, 0, 1)
    assert (ace["leading"], ace["hand_cards"], ace["hold_joker"], ace["my_trumps"]) == (1, 1.0, 1, pytest.approx(0.2))
    assert (ace["rank"], ace["honour"], ace["master"], ace["my_highest_of_suit"]) == (1, 1, 1, 1)
    # ♥ out of my hand: 5 6 7 8 9 10 of the 40-card deck's ten, and K Q J, of which three honours
    assert ace["suit_out"] == pytest.approx(8 / 13) and ace["suit_honours_out"] == pytest.approx(3 / 4)
    low_club = by_card["play(5♣)"]
    assert (low_club["trump_suit"], low_club["my_lowest_of_suit"], low_club["rank"]) == (1, 1, pytest.approx(3 / 12))
    assert ((rows >= 0) & (rows <= 1)).all()


def test_a_yoninkan_network_plays_yoninkan_under_its_name() -> None:
    observation, _ = opening_lead()
    bot = make_policy("yoninkan/rule", CONTEXT, seed=0).act(observation)
    flat = ImprovedKankeiPlayer(CONTEXT, linear("rank", 0.0), seed=0)
    assert flat.name == "yoninkan/improved" and flat.act(observation) == bot
    assert CONTEXT.actions.name(bot) == "play(A♦)"  # the rule bot leads a plain ace
    low = ImprovedKankeiPlayer(CONTEXT, linear("rank", -10.0), seed=0).act(observation)
    assert CONTEXT.actions.name(low) in {"play(5♣)", "play(5♦)", "play(5♥)"}
