"""Trick rules of Goninkan and Yoninkan on top of :mod:`cardenvs.core.tricks`: which cards a player may play
(follow suit, the joker's timing) and who wins a trick (trumps, the joker, Yoninkan's weak last-trick joker).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardenvs.core.tricks import Trick, follow_suit_options, plain_card_strength
from cardenvs.goninkan.ruleset import JOKER_FORCED_TRICK, TRICKS, Ruleset

JOKER_WINS = 1000
JOKER_LED_WEAK = 1
"""A led joker that only wins when nobody follows the named suit or trumps: above off-suit cards (0), below
any card of the named suit (100+) or trump (200+)."""
JOKER_LOWEST = -1


def legal_cards(
    rules: Ruleset, hand: Sequence[int], trick: Trick, trick_no: int, declared: bool, forced_lead: int
) -> tuple[list[int], bool]:
    """(plain card indices that may be played, whether the joker may be played) for a player holding ``hand``.

    ``declared``: (Yoninkan, trick 1) a declaration goes with this card, which the joker requires there.
    ``forced_lead``: a card index that must open trick 1 (Yoninkan's ♠A lead), or -1."""
    joker = rules.cards.joker
    suits = rules.cards.suit
    plain = [c for c in hand if c != joker]
    holds_joker = len(plain) < len(hand)
    leading = len(trick) == 0
    if leading and trick_no == 1 and forced_lead >= 0:
        return [forced_lead], False
    options = plain if leading else follow_suit_options(plain, trick.led_suit, suits.__getitem__)
    if not holds_joker:
        return options, False
    if rules.joker_banned_first_and_last:
        if trick_no == JOKER_FORCED_TRICK:
            return [], True
        return options, 1 < trick_no < TRICKS
    if rules.trick1_declarations and trick_no == 1:
        return options, declared
    return options, True


def card_strength(rules: Ruleset, card: int, position: int, led_suit: int, trump: int, trick_no: int) -> int:
    """How strongly ``card``, played ``position``-th (0: the lead) to trick ``trick_no``, holds it: the highest wins
    (the joker's strength depends on the trick and on whether it was led)."""
    cards = rules.cards
    if card != cards.joker:
        return plain_card_strength(cards.suit[card], cards.rank[card], led_suit, trump)
    if rules.joker_lowest_in_last_trick and trick_no == TRICKS:
        return JOKER_LED_WEAK if position == 0 else JOKER_LOWEST
    if position == 0 and rules.joker_lead_weak_every_trick:
        return JOKER_LED_WEAK
    return JOKER_WINS


def trick_winner(rules: Ruleset, trick: Trick, trick_no: int, trump: int) -> int:
    """The player whose card wins ``trick`` (so far, if it is not complete)."""
    return trick.winner(lambda card, position: card_strength(rules, card, position, trick.led_suit, trump, trick_no))
