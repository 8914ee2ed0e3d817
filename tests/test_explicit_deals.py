"""Explicit deals honour the dealer and leader of the options, and refuse deals no game starts from (issue 20's
defects; each test fails on the engines before the fix)."""

from __future__ import annotations

import inspect

import pytest

from cardenvs.core.errors import InvalidOptionError
from cardenvs.kyuuri.options import KyuuriOptions
from cardenvs.kyuuri.rules import KyuuriGame
from cardenvs.verish_ne_verish.rules import VerishGame, VerishOptions
from cardenvs.yukushi.options import YukushiOptions
from cardenvs.yukushi.rules import YukushiGame
from cardenvs.zheng_shang_you.game import ZsyGame
from cardenvs.zheng_shang_you.options import ZsyOptions

VERISH_36 = ["6 6 6 7 7 7 8 8 8", "9 9 9 10 10 10 J J J", "Q Q Q K K K A A A 6 7 8 9 10 J Q K"]
YUKUSHI_52 = [
    "2 2 2 2 3 3 3 3 4 4 4 4 5",
    "5 5 5 6 6 6 6 7 7 7 7 8 8",
    "8 8 9 9 9 9 10 10 10 10 J J J",
    "J Q Q Q Q K K K K A A A A",
]
KYUURI_HANDS = ["2 3 4 5 6 7 8", "2 3 4 5 6 7 8", "2 3 4 5 6 7 8"]
ZSY_HANDS = ["3♣ 4♣", "5♣ 6♣", "7♣ 8♣", "9♣ 10♣"]


def test_verish_explicit_deal_takes_the_options_dealer() -> None:
    game = VerishGame.from_deal(VerishOptions(num_players=3, deck_size=36, dealer=1), VERISH_36, set_aside="A")
    assert game.dealer == 1 and game.current_player == 2  # the dealer's left-hand player starts


def test_yukushi_explicit_deal_takes_the_options_leader() -> None:
    game = YukushiGame.from_deal(YukushiOptions(num_players=4, leader=2), YUKUSHI_52)
    assert game.leader == 2 and game.current_player == 2


def test_kyuuri_explicit_deal_takes_the_options_dealer() -> None:
    game = KyuuriGame.from_deal(KyuuriOptions(num_players=3, dealer=2), KYUURI_HANDS)
    assert game.dealer == 2 and game.current_player == 0  # the dealer's left-hand player leads


def test_an_explicit_dealer_that_contradicts_the_options_is_refused() -> None:
    with pytest.raises(InvalidOptionError, match="contradicts the options' dealer=1"):
        VerishGame.from_deal(VerishOptions(num_players=3, deck_size=36, dealer=1), VERISH_36, set_aside="A", dealer=2)


def test_zsy_explicit_deal_refuses_an_empty_hand() -> None:
    with pytest.raises(InvalidOptionError, match=r"player\(s\) \[0\] have no cards"):
        ZsyGame.from_deal(ZsyOptions(num_players=4), ["", "5♣ 6♣", "7♣ 8♣", "9♣ 10♣"])


def test_zsy_later_deal_is_dealt_by_the_previous_third() -> None:
    game = ZsyGame.from_deal(ZsyOptions(num_players=4, exchange=False), ZSY_HANDS, prev_order=[2, 0, 3, 1])
    assert game.dealer == 3 and game.current_player == 3
    with pytest.raises(InvalidOptionError, match="the dealer is seat 3"):
        ZsyGame.from_deal(ZsyOptions(num_players=4), ZSY_HANDS, dealer=0, prev_order=[2, 0, 3, 1])


def test_zsy_deal_episodes_have_no_previous_deal_and_no_exchange() -> None:
    with pytest.raises(InvalidOptionError, match="episode='deal' plays one deal"):
        ZsyGame.from_deal(ZsyOptions(num_players=4, episode="deal"), ZSY_HANDS, prev_order=[2, 0, 3, 1])


@pytest.mark.parametrize(("game", "seat"), [(VerishGame, "dealer"), (YukushiGame, "leader"), (KyuuriGame, "dealer")])
def test_from_deal_has_one_shape(game: type, seat: str) -> None:
    """``from_deal(options, hands, *, dealer=None, rng=None, <the game's extras>)`` (Yukushi's seat is its leader)."""
    parameters = list(inspect.signature(game.from_deal).parameters.values())
    assert [p.name for p in parameters[:2]] == ["options", "hands"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[2:])
    names = {p.name: p.default for p in parameters[2:]}
    assert names[seat] is None and names["rng"] is None
