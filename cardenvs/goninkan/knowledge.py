"""What each player knows about the teams and the key cards, and re-deals consistent with it.

Deal 1's key cards (the joker and the key trump card) decide the 関係 team. Goninkan announces the team
but not who holds which key; Yoninkan hides the team. From one observer's point of view, the holders of
the two keys can be any pair that agrees with everything he has seen: his own hand, cards played and by
whom, cards he knows to be in a hand, voids shown, Goninkan's forced joker in trick 9, the team calls,
Yoninkan's declarations (each reveals its maker's side), and the fact that the deal has not ended yet
(which rules out teams that would already have reached their target). :func:`key_placements` lists
those pairs; the team view of an observer is what all of them agree on, and :func:`resample` draws one.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from cardenvs.core.redeal import constrained_deal, hall_feasible
from cardenvs.goninkan.calls import draw_swap_slots, share_partner_keys
from cardenvs.goninkan.scoring import HONOURS, is_decided

if TYPE_CHECKING:
    from cardenvs.goninkan.table import KankeiTable

UNKNOWN, MUKAN, KANKEI = -1, 0, 1
GameT = TypeVar("GameT", bound="KankeiTable[Any]")


def hidden_players(game: KankeiTable[Any], observer: int) -> list[int]:
    """Players other than ``observer`` whose hands ``observer`` cannot see (anyone still holding cards)."""
    return [p for p in range(game.num_players) if p != observer and game.hands[p]]


def may_hold(game: KankeiTable[Any], player: int, card: int) -> bool:
    """Whether the public record allows ``player`` to hold the unplayed ``card``: not after showing a void in its
    suit, and (Goninkan) not the joker after playing in trick 9, where a joker still held must be played."""
    suit = game.cards.suit[card]
    if suit >= 0:
        return not game.voids[player] >> suit & 1
    return not (game.rules.joker_banned_first_and_last and game.played_late[player])


def _candidates(game: KankeiTable[Any], observer: int, card: int) -> list[int]:
    played_by = game.who_played[card]
    if played_by >= 0:
        return [played_by]
    if game.hand_vec[observer, card]:
        return [observer]
    known = int(game.known[observer, card])
    if known >= 0:
        return [known]
    return [p for p in hidden_players(game, observer) if may_hold(game, p, card)]


def team_for(game: KankeiTable[Any], joker_holder: int, key_holder: int) -> frozenset[int]:
    """The 関係 team that deal 1's key holders make."""
    if joker_holder != key_holder:
        return frozenset((joker_holder, key_holder))
    if game.rules.double_holding == "opposite_partner":
        return frozenset((joker_holder, game.next_active(game.next_active(joker_holder))))
    return frozenset((joker_holder,))


def _consistent(game: KankeiTable[Any], joker_holder: int, key_holder: int) -> bool:
    """Whether the public record allows these key holders (the same for every observer, so cached per state)."""
    cache = game.pair_cache
    if (joker_holder, key_holder) not in cache:
        cache[joker_holder, key_holder] = _check_pair(game, joker_holder, key_holder)
    return cache[joker_holder, key_holder]


def _check_pair(game: KankeiTable[Any], joker_holder: int, key_holder: int) -> bool:
    if game.rules.is_goninkan:
        if game.nijukan_pending >= 0:
            return joker_holder == key_holder == game.nijukan_pending
        return joker_holder != key_holder and {joker_holder, key_holder} == set(game.kankei)
    double_possible = game.rules.double_holding == "one_vs_three" or game.double_announced
    if joker_holder == key_holder and not double_possible:
        return False
    team = team_for(game, joker_holder, key_holder)
    if any((p in team) != (kind.side == "kankei") for p, kind in game.declared_by):
        return False
    if game.team_public or game.options.play_all_tricks:
        return True
    kankei = int(sum(game.honours[p] for p in team))
    mukan = int(game.honours.sum()) - kankei
    return not is_decided(game.rules.scores, game.deal, kankei, mukan, game.declarations)


def key_placements(game: KankeiTable[Any], observer: int) -> list[tuple[int, int]]:
    """Every (joker holder, key-card holder) pair of deal 1 that ``observer``'s knowledge allows."""
    joker, key = game.key_cards()
    return [
        (j, k)
        for j in _candidates(game, observer, joker)
        for k in _candidates(game, observer, key)
        if _consistent(game, j, k)
    ]


def team_view(game: KankeiTable[Any], observer: int) -> np.ndarray:
    """``observer``'s view of every player's side (``KANKEI``, ``MUKAN`` or ``UNKNOWN``), recomputed only after
    something he could learn from has happened (``game.views_stale``); also sets ``game.knows_all[observer]``."""
    view = game.team_view[observer]
    if not game.views_stale[observer]:
        return view
    game.views_stale[observer] = False
    n = game.num_players
    if game.team_public or not game.rules.hidden_teams:
        for p in range(n):
            view[p] = KANKEI if game.is_kankei[p] else (MUKAN if game.is_active(p) else UNKNOWN)
    elif not knows_teams(game, observer):  # (knowledge only grows during a deal)
        teams = [team_for(game, j, k) for j, k in key_placements(game, observer)]
        if not teams:
            raise AssertionError(f"no team assignment agrees with player {observer}'s knowledge")
        for p in range(n):
            inside = sum(p in t for t in teams)
            view[p] = KANKEI if inside == len(teams) else MUKAN if inside == 0 else UNKNOWN
    game.knows_all[observer] = knows_teams(game, observer)
    return view


def knows_teams(game: KankeiTable[Any], observer: int) -> bool:
    """Whether ``observer`` knows every player's side."""
    known = sum(side != UNKNOWN for side in game.team_view[observer].tolist())  # a few seats: no ufunc
    return known == game.active_count


def resample(game: GameT, observer: int, rng: np.random.Generator) -> GameT:
    """A copy of ``game`` in which every card ``observer`` cannot see is dealt again, consistently with all he
    knows (see the module docstring), with the team and the key holders re-derived from the new deal.

    A composite move that another player has begun (its first sub-steps are visible to him only) is taken
    back. What other players know about cards that the re-deal moved is forgotten, never falsified."""
    g = game.clone()
    if g.current_player not in (observer, -1):
        g.pending_show = -1
        g.decl_choice = None
    hidden = hidden_players(g, observer)
    pool = sorted(c for p in hidden for c in g.hands[p])  # not by holder: the rng alone decides
    capacity = [len(g.hands[p]) for p in hidden]
    bit = {p: 1 << i for i, p in enumerate(hidden)}
    known = g.known[observer].tolist()
    fixed = {c: known[c] for c in pool if known[c] >= 0}
    free = _free_masks(g, pool, bit)
    if g.deal == 1:
        fixed = _place_keys(g, observer, pool, fixed, free, bit, capacity, rng)
    allowed = [bit[fixed[c]] if c in fixed else free[c] for c in pool]
    for p, cards in zip(hidden, constrained_deal(pool, allowed, capacity, rng), strict=True):
        g.hands[p] = sorted(cards)
        g.hand_vec[p] = 0
        g.hand_vec[p, cards] = 1
    _rederive(g, observer)
    return g


def _free_masks(g: KankeiTable[Any], pool: list[int], bit: dict[int, int]) -> dict[int, int]:
    """Per card of ``pool``: the bit set of the hidden players that ``may_hold`` it, worked out once per suit
    (``may_hold`` depends on the card's suit only; the joker's is -1)."""
    suit_of = g.cards.suit
    one_per_suit = {int(suit_of[c]): c for c in pool}
    by_suit = {suit: sum(b for p, b in bit.items() if may_hold(g, p, card)) for suit, card in one_per_suit.items()}
    return {c: by_suit[int(suit_of[c])] for c in pool}


def _place_keys(
    g: KankeiTable[Any],
    observer: int,
    pool: list[int],
    fixed: dict[int, int],
    free: dict[int, int],
    bit: dict[int, int],
    capacity: list[int],
    rng: np.random.Generator,
) -> dict[int, int]:
    joker, key = g.key_cards()
    placements = key_placements(g, observer)
    for i in rng.permutation(len(placements)):
        trial = dict(fixed)
        for card, holder in zip((joker, key), placements[int(i)], strict=True):
            if card in pool:
                trial[card] = holder
        counts: dict[int, int] = {}
        for c in pool:
            mask = bit[trial[c]] if c in trial else free[c]
            counts[mask] = counts.get(mask, 0) + 1
        if hall_feasible(counts, capacity):
            return trial
    raise AssertionError(f"no deal of the key cards agrees with player {observer}'s knowledge")


@cache
def _columns(deck_size: int) -> np.ndarray:
    return np.arange(deck_size)


def _rederive(g: KankeiTable[Any], observer: int) -> None:
    """Team, key holders, side honours and other players' knowledge after a re-deal."""
    if g.deal == 1 and g.nijukan_pending < 0:
        joker, key = g.key_cards()
        holders = tuple(g.holder(c) if g.who_played[c] < 0 else g.who_played[c] for c in (joker, key))
        g.deal1_holders = (holders[0], holders[1])
        if g.rules.hidden_teams and not g.team_public:
            g._set_team(sorted(team_for(g, holders[0], holders[1])))
    # every other player forgets a card he knew in a hand that no longer holds it
    known = g.known
    forgotten = (known >= 0) & (g.hand_vec[np.maximum(known, 0), _columns(g.deck_size)] == 0)
    forgotten[observer] = False
    known[forgotten] = -1
    if g.rules.is_goninkan and g.deal == 1 and g.nijukan_pending < 0:
        share_partner_keys(g)
    if g.swap_slots[1]:
        draw_swap_slots(g)
    kankei = int(sum(g.honours[p] for p in g.kankei))
    g.side_honours = [kankei, int(g.honours.sum()) - kankei]
    assert sum(g.side_honours) <= HONOURS
    g.team_view[:] = UNKNOWN
    g.knowledge_changed()
