"""What the JAX bluffing games (Verish' ne verish', Yukushi) share, as :mod:`cardenvs.core.bluffing` and
:mod:`cardenvs.core.claim_encoding` share it between the reference engines: certain knowledge of hands after a
play or a pick-up, the legal picks of a play being built, and the claim groups of the observation."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.fast.arrays import choose, put, rotate, shuffled_places, take

Array = jax.Array


def empty_table(hands: Array, num_actions: int, observation_size: int) -> dict[str, Array]:
    """The fields of a claim game's state at the deal, ``hands`` dealt ((n, r) rank counts): an empty pile, no
    play being built, no knowledge of hands, no player out, and the start of the step count."""
    n, r = hands.shape
    zero = jnp.zeros((), jnp.int32)
    return {
        "hands": jnp.asarray(hands, jnp.int32),
        "pile_by_seat": jnp.zeros((n, r), jnp.int32),
        "pile_count": jnp.zeros(n, jnp.int32),
        "pile_size": zero,
        "pile_plays": zero,
        "claim_rank": zero - 1,
        "last_seat": zero,
        "last_cards": jnp.zeros(r, jnp.int32),
        "last_count": zero,
        "known_held": jnp.zeros((n + 1, n, r), jnp.int32),
        "building_rank": zero - 1,
        "building": jnp.zeros(r, jnp.int32),
        "building_count": zero,
        "building_min": zero,
        "out": jnp.zeros(n, bool),
        "exit_place": jnp.full(n, -1, jnp.int32),
        "num_out": zero,
        "terminated": jnp.zeros((), bool),
        "truncated": jnp.zeros((), bool),
        "rewards": jnp.zeros(n, jnp.float32),
        "step_count": zero,
        "legal_action_mask": jnp.zeros(num_actions, bool),
        "observation": jnp.zeros(observation_size, jnp.float32),
    }


def deal_counts(key: Array, num_players: int, num_ranks: int, first: Array, skip: int = 0) -> Array:
    """A shuffled deck of four cards a rank dealt one card at a time clockwise from ``first``, after ``skip`` cards
    set aside (:meth:`cardenvs.core.bluffing_game.BluffingGame._deal_counts`): ``(n, r)`` rank counts."""
    place = shuffled_places(key, 4 * num_ranks).reshape(num_ranks, 4)  # of each copy of each rank in the deck
    seat = (first + place - skip) % num_players
    seats = jnp.arange(num_players)[:, None, None]
    return ((place >= skip)[None] & (seat[None] == seats)).sum(axis=2, dtype=jnp.int32)


def known_after(
    s: Any, seat: Array, taker: Array, count: Array, quads: Array, commits: Array, challenge: Array
) -> Array:
    """``s.known_held`` after the step: a play of ``count`` cards placed by ``seat`` leaves cards of unknown
    ranks (``commits``); on a ``challenge`` each observer learns of ``taker``'s pick-up the cards it put in the pile
    and the revealed play (``s.last_cards``), less ``quads`` ranks discarded at once (Verish' ne verish')."""
    observers = jnp.arange(s.known_held.shape[0])
    column = jnp.where(challenge, taker, seat)
    by_column = jnp.moveaxis(s.known_held, 1, 0)
    known = take(by_column, column)
    gained = jnp.concatenate([s.pile_by_seat + s.last_cards, s.last_cards[None]])
    gained -= (observers == s.last_seat)[:, None] * s.last_cards
    taken = jnp.maximum(known + gained - 4 * quads, 0) * (observers != taker)[:, None]
    played = jnp.maximum(known - count, 0)
    new = jnp.where(challenge, taken, jnp.where(commits, played, known))
    return jnp.moveaxis(put(by_column, column, new[None]), 0, 1)


def pickable(s: Any, hand: Array, max_play: int) -> Array:
    """Per rank, whether the play being built may take it next: room left, ranks in non-decreasing order, an
    unpicked card of it in ``hand``."""
    ranks = jnp.arange(hand.shape[0])
    return (s.building_count < max_play) & (ranks >= s.building_min) & (hand > s.building)


def claim_groups(s: Any, me: Array, removed: Array, counts_public: bool = True) -> list[Array]:
    """The groups of :func:`cardenvs.core.claim_encoding.encode_claims`, ``hand`` to ``building_cards``, as ``me``
    sees ``s``; ``removed``: cards per rank out of the game that ``me`` knows of (discarded quads, its own
    flushed cards). Without ``counts_public`` (Yukushi's ``allow_count_mismatch``) the numbers of cards placed and
    held stay zero, ``me``'s own hand size excepted (``cardenvs.yukushi.encoding.HIDDEN_COUNT_GROUPS``)."""
    n, r = s.pile_by_seat.shape
    to_act = s.current_player
    has_pile = s.claim_rank >= 0
    my_turn = to_act == me
    hand = take(s.hands, me)
    mine_in_pile = take(s.pile_by_seat, me)
    shown = has_pile & counts_public
    sizes = rotate(s.hands.sum(axis=1), me)
    return [
        hand,
        4 - hand - mine_in_pile - removed,
        jax.nn.one_hot(s.claim_rank, r),  # all zero for -1
        (s.pile_size * shown)[None],
        (s.pile_plays * has_pile)[None],
        mine_in_pile * has_pile,
        (s.last_count * shown)[None],
        jax.nn.one_hot((s.last_seat - me) % n, n) * has_pile,
        rotate(s.pile_count, me) * shown,
        sizes if counts_public else sizes * (jnp.arange(n) == 0),
        rotate(take(s.known_held, me), me)[1:].ravel(),
        jax.nn.one_hot(jnp.where(to_act >= 0, (to_act - me) % n, -1), n),
        jax.nn.one_hot(jnp.where(my_turn, s.building_rank, -1), r),
        s.building * my_turn,
    ]


# ------------------------------------------------------------------ matches of several games
def match_start(num_players: int, key: Array) -> dict[str, Array]:
    """The match fields of a claim game's state at its first deal: no game played, no points, the key of the
    later deals."""
    return {
        "games_played": jnp.zeros((), jnp.int32),
        "match_points": jnp.zeros(num_players, jnp.int32),
        "key": key,
    }


def play_on(after: Any, fresh: Any, points: Array, n_games: int, max_steps: int) -> Any:
    """The state after a step of a match of ``n_games`` games. ``after`` is the step's outcome in which
    ``terminated`` marks the end of a game; ``points``: that game's rewards times ``n − 1`` (whole numbers, so
    that the match's running sum is exact, as the reference's float64 sum is before the float32 observation);
    ``fresh``: the next game dealt, computed for every game and kept where a game ended before the last. The
    match ends (``terminated``) with its last game; the step cap counts the match's decisions."""
    game_over = after.terminated
    played = after.games_played + game_over
    terminated = game_over & (played >= n_games)
    common = {
        "games_played": played,
        "match_points": after.match_points + game_over * points,
        "terminated": terminated,
        "truncated": ~terminated & (after.step_count >= max_steps),
        "rewards": after.rewards,
        "step_count": after.step_count,
    }
    return choose(game_over & ~terminated, fresh._replace(**common), after._replace(**common))


def fraction(numerators: Array, denominator: int, most: int) -> Array:
    """``numerators / denominator`` as the reference computes it (in float64, then float32), for whole
    ``|numerators| <= most``, read from a table: XLA's optimiser turns a float32 division by a constant into a
    multiplication, which misses the correctly rounded quotient in the last bit for some numerators."""
    values = np.arange(-most, most + 1)
    table = jnp.asarray((values / denominator).astype(np.float32))
    hits = numerators[..., None] == jnp.asarray(values, numerators.dtype)
    return jnp.where(hits, table, 0.0).sum(axis=-1)


def match_groups(s: Any, me: Array, n_games: int) -> list[Array]:
    """The observation's match groups (:func:`cardenvs.core.claim_encoding.encode_match`): points per relative seat
    (zero in a single game) and the share of the match's games left."""
    n = s.match_points.shape[0]
    if n_games == 1:
        return [jnp.zeros(n), (~s.terminated)[None]]
    points = fraction(rotate(s.match_points, me), n - 1, (n - 1) * n_games)
    return [points, fraction(n_games - s.games_played, n_games, n_games)[None]]
