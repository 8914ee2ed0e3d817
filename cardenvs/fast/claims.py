"""What the JAX bluffing games (Verish' ne verish', Yukushi) share, as :mod:`cardenvs.core.bluffing` and
:mod:`cardenvs.core.claim_encoding` share it between the reference engines: certain knowledge of hands after a
play or a pick-up, the legal picks of a play being built, and the claim groups of the observation."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import put, rotate, take

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


def claim_groups(s: Any, me: Array, removed: Array) -> list[Array]:
    """The groups of :func:`cardenvs.core.claim_encoding.encode_claims`, ``hand`` to ``building_cards``, as ``me``
    sees ``s``; ``removed``: cards per rank out of the game that ``me`` knows of (discarded quads, its own
    flushed cards)."""
    n, r = s.pile_by_seat.shape
    to_act = s.current_player
    has_pile = s.claim_rank >= 0
    my_turn = to_act == me
    hand = take(s.hands, me)
    mine_in_pile = take(s.pile_by_seat, me)
    return [
        hand,
        4 - hand - mine_in_pile - removed,
        jax.nn.one_hot(s.claim_rank, r),  # all zero for -1
        (s.pile_size * has_pile)[None],
        (s.pile_plays * has_pile)[None],
        mine_in_pile * has_pile,
        (s.last_count * has_pile)[None],
        jax.nn.one_hot((s.last_seat - me) % n, n) * has_pile,
        rotate(s.pile_count, me) * has_pile,
        rotate(s.hands.sum(axis=1), me),
        rotate(take(s.known_held, me), me)[1:].ravel(),
        jax.nn.one_hot(jnp.where(to_act >= 0, (to_act - me) % n, -1), n),
        jax.nn.one_hot(jnp.where(my_turn, s.building_rank, -1), r),
        s.building * my_turn,
    ]
