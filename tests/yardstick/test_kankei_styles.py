"""The Goninkan / Yoninkan yardstick styles choose differently from the rule bot where their docstrings say so,
on explicit positions (the seat to act sees its own hand; the rest is dealt at random and does not matter)."""

from __future__ import annotations

import pytest

import cardenvs
from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.goninkan import KankeiRuleBot
from cardenvs.agents.yardstick.goninkan import Cautious, Greedy

# Player 3 (not on the side of player 2, who leads 4♠) holds no spade: the rule bot ruffs with 10♥ because its
# Q♥ would make the trick worth taking; the cautious player ducks a trick without two honours.
GONINKAN_NO_HONOUR_LED = """
round: 9
deal: 1
dealer: 3
seats: 0 1 2 3 4
trump: ♥
kankei: 0 2
teams: public
phase: play
turn: 3
tricks: 3
trick: leader 2; 2: 4♠
honours: 0 0 4 0 0
hand 0: ? ? ? ? ? ? ?
hand 1: ? ? ? ? ? ? ?
hand 2: ? ? ? ? ? ?
hand 3: 4♣ 6♣ 10♣ 10♥ J♣ Q♥ K♣
hand 4: ? ? ? ? ? ? ?
played 0: 3♦ 7♠ J♥
played 1: 2♠ 7♥ 8♦
played 2: 4♠ A♦ A♥ A♠
played 3: 4♥ 5♠ 6♦
played 4: 3♠ 5♦ 5♥
voids: -
"""

# Player 0 follows to 4♠ 10♥ J♠ (one honour, an opponent's 10♥ winning) with 8♠ or the joker: the rule bot keeps
# the joker for a trick of two honours, the greedy player takes this one.
GONINKAN_ONE_HONOUR = """
round: 9
deal: 1
dealer: 3
seats: 0 1 2 3 4
trump: ♥
kankei: 0 2
teams: public
phase: play
turn: 0
tricks: 3
trick: leader 2; 2: 4♠; 3: 10♥; 4: J♠
honours: 0 0 4 0 0
hand 0: 3♣ 3♥ 4♦ 8♣ 8♠ K♥ BJ
hand 1: ? ? ? ? ? ? ?
hand 2: ? ? ? ? ? ?
hand 3: ? ? ? ? ? ?
hand 4: ? ? ? ? ? ?
played 0: 3♦ 7♠ J♥
played 1: 2♠ 7♥ 8♦
played 2: 4♠ A♦ A♥ A♠
played 3: 4♥ 5♠ 6♦ 10♥
played 4: 3♠ 5♦ 5♥ J♠
voids: 3: ♠
"""

# Player 1, void in diamonds, after A♦ 5♦: the rule bot ruffs the honour with 7♥, the cautious player discards.
YONINKAN_ACE_LED = """
round: 9
deal: 1
dealer: 2
seats: 0 1 2 3
trump: ♥
kankei: ?
teams: hidden
phase: play
turn: 1
tricks: 0
trick: leader 3; 3: A♦; 0: 5♦
honours: 0 0 0 0
hand 0: ? ? ? ? ? ? ? ? ?
hand 1: 5♣ 6♠ 7♥ 9♥ 10♣ J♣ J♥ K♠ A♣ A♥
hand 2: ? ? ? ? ? ? ? ? ? ?
hand 3: ? ? ? ? ? ? ? ? ?
played 0: 5♦
played 1: -
played 2: -
played 3: A♦
voids: -
declaration choice: none
"""

# Player 0 cannot beat A♣ with a club: the rule bot discards 8♣, the greedy player takes the ace with the joker.
YONINKAN_ACE_OF_CLUBS = """
round: 9
deal: 1
dealer: 2
seats: 0 1 2 3
trump: ♥
kankei: ?
teams: hidden
phase: play
turn: 0
tricks: 1
trick: leader 1; 1: A♣; 2: 7♣; 3: 6♣
honours: 0 1 0 0
hand 0: 7♠ 8♣ 9♣ 10♦ 10♥ J♦ Q♠ A♠ BJ
hand 1: ? ? ? ? ? ? ? ?
hand 2: ? ? ? ? ? ? ? ?
hand 3: ? ? ? ? ? ? ? ?
played 0: 5♦
played 1: 7♥ A♣
played 2: 7♣ 7♦
played 3: 6♣ A♦
voids: 1: ♦
"""

CASES = [
    ("goninkan-v1", GONINKAN_NO_HONOUR_LED, Cautious, "play(10♥)", "play(4♣)"),
    ("goninkan-v1", GONINKAN_ONE_HONOUR, Greedy, "play(8♠)", "joker"),
    ("yoninkan-v1", YONINKAN_ACE_LED, Cautious, "play(7♥)", "play(5♣)"),
    ("yoninkan-v1", YONINKAN_ACE_OF_CLUBS, Greedy, "play(8♣)", "joker"),
]


@pytest.mark.parametrize(("env_id", "position", "style", "rule_plays", "style_plays"), CASES)
def test_the_style_differs_from_the_rule_bot_on_a_position(
    env_id: str, position: str, style: type[KankeiRuleBot], rule_plays: str, style_plays: str
) -> None:
    env = cardenvs.make(env_id)
    env.reset(seed=0, options={"position": position})
    context = PolicyContext.from_env(env)
    observation = env.observe(env.agent_selection)
    names = [env.unwrapped.action_name(bot(context, 0).act(observation)) for bot in (KankeiRuleBot, style)]
    assert names == [rule_plays, style_plays]


def test_the_other_style_agrees_with_the_rule_bot_where_only_one_differs() -> None:
    """Greed and caution are opposite deviations: each position moves one style only."""
    for env_id, position, style, rule_plays, _ in CASES:
        env = cardenvs.make(env_id)
        env.reset(seed=0, options={"position": position})
        other = Greedy if style is Cautious else Cautious
        action = other(PolicyContext.from_env(env), 0).act(env.observe(env.agent_selection))
        assert env.unwrapped.action_name(action) == rule_plays, (env_id, other.__name__)
