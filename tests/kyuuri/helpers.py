"""Explicit-deal helpers for the Kyuuri scenario tests.

Most deals below follow one pattern, so that a whole deal can be played without choices: the first player
to act holds the four Aces and two Kings and leads them, and the others hold no Ace or King, so they must
play their lowest card to each of the first six tricks and keep their highest card for the last one. The
last trick is then: the leader's seventh card, then each follower's highest card, in play order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardenvs.core.cards import RANK_TEXT, rank_index
from cardenvs.core.engine import TERMINAL
from cardenvs.kyuuri.options import KyuuriOptions
from cardenvs.kyuuri.rules import KyuuriGame


def new_game(hands: Sequence[str], dealer: int | None = None, **kwargs: Any) -> KyuuriGame:
    """A game from explicit hands; ``kwargs`` split into options and ``from_deal`` arguments."""
    setup_names = {"penalties", "eliminated", "cucumbers", "deals_played", "later_deals"}
    setup = {k: v for k, v in kwargs.items() if k in setup_names}
    options = {k: v for k, v in kwargs.items() if k not in setup_names}
    return KyuuriGame.from_deal(
        KyuuriOptions(num_players=len(hands), **options), hands, dealer=dealer, rng=np.random.default_rng(0), **setup
    )


def legal(game: KyuuriGame) -> list[str]:
    """The ranks the player to act may play, low to high."""
    return [RANK_TEXT[a] for a in game.legal_actions()]


def play(game: KyuuriGame, cards: str) -> None:
    """Play the given ranks in turn (each by whoever is to act); an illegal one raises."""
    for token in cards.split():
        game.apply(rank_index(token))


def play_highest_until_deal_over(game: KyuuriGame) -> dict[str, Any]:
    """Everybody plays their highest legal card until the current deal is scored; returns its public result."""
    start = len(game.events)
    while True:
        game.apply(game.legal_actions()[-1])
        over = [e for e in game.events.events[start:] if e["kind"] == "deal_over"]
        if over:
            return dict(over[0]["public"])
        assert game.current_player != TERMINAL


def events_since(game: KyuuriGame, kind: str, start: int = 0) -> list[dict[str, Any]]:
    """Public parts (with the player) of the events of one kind, from index ``start`` of the log."""
    return [{"player": e["player"], **e["public"]} for e in game.events.events[start:] if e["kind"] == kind]
