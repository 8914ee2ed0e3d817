"""One ``from_deal`` shape in Goninkan, Yoninkan and Zheng Shang You: ``from_deal(options, hands, *, dealer=None,
rng=None, <the game's extras>)``, every argument after the hands keyword-only, and the dealer honoured."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.options import GoninkanOptions
from cardenvs.zheng_shang_you.game import ZsyGame
from cardenvs.zheng_shang_you.options import ZsyOptions


@pytest.mark.parametrize("game_type", [KankeiGame, ZsyGame])
def test_from_deal_takes_options_and_hands_then_keywords_only(game_type: Any) -> None:
    parameters = list(inspect.signature(game_type.from_deal).parameters.values())
    assert [p.name for p in parameters[:4]] == ["options", "hands", "dealer", "rng"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[2:])


def test_the_dealer_given_to_from_deal_deals() -> None:
    zsy = ZsyGame.from_deal(ZsyOptions(num_players=4), ["3♣ 4♣", "5♣ 6♣", "7♣ 8♣", "9♣ 10♣"], dealer=2)
    assert zsy.dealer == 2 and zsy.current_player == 2
    with pytest.raises(TypeError):
        ZsyGame.from_deal(ZsyOptions(num_players=4), ["3♣ 4♣", "5♣ 6♣", "7♣ 8♣", "9♣ 10♣"], 2)  # type: ignore[misc]
    seeded = KankeiGame(GoninkanOptions(num_players=6, dealer=3), np.random.default_rng(0))
    hands = [seeded.cards_text(h) for h in seeded.hands]  # with six players the dealer, 3, holds none
    game = KankeiGame.from_deal(GoninkanOptions(num_players=6), hands, dealer=3)
    assert game.dealer == 3 and not game.is_active(3)
