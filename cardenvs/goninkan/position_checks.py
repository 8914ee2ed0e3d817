"""The checks that reject a Goninkan or Yoninkan position no game reaches (:mod:`cardenvs.goninkan.position`
reads it; each message names the contradiction)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.cards import SUIT_TEXT
from cardenvs.core.position import PositionError
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.ruleset import TRICKS
from cardenvs.goninkan.scoring import is_decided
from cardenvs.goninkan.table import BLIND_SWAP, HAND_SIZE, LEAD_CHOICE, PHASES, PLAY, SHOW, SWEEP, TRUMP


def check_position(game: KankeiGame[Any]) -> None:
    """Reject a position that no game reaches (each message names the contradiction)."""
    n, trick, phase, turn = game.num_players, game.trick, game.phase, game.current_player
    done = game.trick_no - 1
    order = [q for q in game.orders[trick.leader] if game.is_active(q)] if trick.leader >= 0 else []
    if trick.leader >= 0 and not game.is_active(trick.leader):
        raise PositionError(f"the leader {trick.leader} sits this round out")
    if trick.seats != order[: len(trick)]:
        raise PositionError(f"the trick's players follow the leader in play order: {order}")
    if (phase == SWEEP) != (len(trick) == game.active_count):
        raise PositionError("a full trick stands only while its winner decides on a sweep (phase sweep)")
    if phase not in (PLAY, SWEEP) and trick.leader >= 0:
        raise PositionError(f"{PHASES[phase].replace('_', ' ')} comes before the first lead of a deal ('leader -')")
    for p in range(n):
        in_trick = p in trick.seats and phase != SWEEP
        size, count = len(game.hands[p]), int(game.played.by_seat[p].sum())
        if not game.is_active(p):
            if size or count:
                raise PositionError(f"player {p} deals with six players and sits out: no cards")
        elif count != done + in_trick or size != HAND_SIZE - count:
            raise PositionError(
                f"player {p} holds {size} and played {count} card(s); after {done} trick(s)"
                f"{' and a card to this one' if in_trick else ''} a player holds {HAND_SIZE - done - in_trick} "
                f"and played {done + in_trick}"
            )
        for c in game.hands[p]:
            if game.cards.suit[c] >= 0 and game.voids[p] >> game.cards.suit[c] & 1:
                raise PositionError(
                    f"player {p} is void in {SUIT_TEXT[game.cards.suit[c]]} but holds {game.cards.text[c]}"
                )
    taken = [c for c in np.flatnonzero(game.played.all_played()) if phase == SWEEP or c not in trick.cards]
    if int(game.honours.sum()) != sum(game.cards.honour[c] for c in taken):
        raise PositionError(
            f"the tricks won hold {sum(game.cards.honour[c] for c in taken)} honours, not {int(game.honours.sum())}"
        )
    if not game.is_active(turn):
        raise PositionError(f"player {turn} sits this round out and never acts")
    if phase == PLAY and turn != (order[len(trick)] if len(trick) else trick.leader):
        expected = order[len(trick)] if len(trick) else trick.leader
        raise PositionError(f"player {expected} plays next to the trick, not {turn}")
    _check_phase(game, done)
    kankei, mukan = game.side_honours = _side_honours(game)
    decided = is_decided(game.rules.scores, game.deal, kankei, mukan, game.declarations)
    if decided and phase != SWEEP and not game.options.play_all_tricks:
        raise PositionError(f"the deal is decided ({kankei} honours to 関係, {mukan} to 無関係): it would be over")


def _side_honours(game: KankeiGame[Any]) -> list[int]:
    kankei = int(sum(game.honours[p] for p in game.kankei))
    return [kankei, int(game.honours.sum()) - kankei]


def _check_phase(game: KankeiGame[Any], done: int) -> None:
    phase, turn, deal = game.phase, game.current_player, game.deal
    before_play = done == 0 and not len(game.trick)
    if phase in (SHOW, TRUMP):
        if deal == 1 or not before_play:
            raise PositionError(f"{PHASES[phase]} comes in deals 2 and 3, before the first trick")
        expected = game.chooser if phase == TRUMP or len(game.kankei) < 2 else game.kankei_partner(game.chooser)
        if turn != expected or game.trump >= 0:
            raise PositionError(f"in {PHASES[phase]} player {expected} decides, before a trump is named")
    elif phase in (LEAD_CHOICE, BLIND_SWAP):
        if deal > 1 or not game.rules.is_goninkan or not before_play:
            raise PositionError(f"{PHASES[phase].replace('_', ' ')} comes in Goninkan's deal 1, before the first trick")
        if phase == LEAD_CHOICE and not game.is_kankei[turn]:
            raise PositionError(f"a 関係 player chooses who leads, not player {turn}")
    elif phase == SWEEP and (deal == 1 or game.trick_no > TRICKS):
        raise PositionError("a sweep is offered in deals 2 and 3, after a trick before the last")
    elif deal > 1 and game.trump < 0:
        raise PositionError("deals 2 and 3 are played once a trump is named")
