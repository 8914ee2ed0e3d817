"""What Yoninkan adds to :mod:`cardenvs.fast.goninkan`'s rules: the trick-1 declarations open to each side, and each
player's view of the hidden teams of deal 1 (the reference: ``cardenvs.goninkan.play.open_declarations`` and
:mod:`cardenvs.goninkan.knowledge`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.fast.arrays import take
from cardenvs.fast.goninkan_rules import NO_CHOICE, is_decided
from cardenvs.goninkan.table import PLAY

if TYPE_CHECKING:
    from cardenvs.fast.goninkan_setup import KankeiSetup
    from cardenvs.fast.goninkan_state import State

Array = jax.Array


def open_kinds(env: KankeiSetup, s: State) -> Array:
    """(2, 2) bool: the declarations still open in trick 1 to the 関係 side (row 0: スコンク, じゅうろく) and the
    無関係 side (row 1: 逆スコンク, 逆じゅうろく); public."""
    rules = env.rules
    live = s.decls.sum(axis=0).reshape(2, 2)  # per side: (weak, strong) live declarations
    strong_open = (s.deal > 1) | rules.declarations_in_deal1
    if rules.max_declarations_per_side == 1:
        none_yet = live.sum(axis=1, keepdims=True) == 0
        upgrade = (live[:, :1] == 1) & (live[:, 1:] == 0)  # スコンク→じゅうろく by the partner
        return jnp.concatenate([none_yet, (none_yet | upgrade) & strong_open], axis=1)
    below = live.sum(axis=1, keepdims=True) < 2
    return jnp.concatenate([below, below & strong_open], axis=1)


def declaring(env: KankeiSetup, s: State) -> tuple[Array, Array]:
    """(whether the player to act is at his trick-1 declaration sub-step, (4,) the kinds he may declare there).

    While deal 1's teams are hidden every player is asked as long as either side has a declaration open (asking
    must not tell a side); in deals 2 and 3 a player is asked when his own side has one."""
    if not env.rules.trick1_declarations:
        return jnp.zeros((), bool), jnp.zeros(4, bool)
    kinds = open_kinds(env, s)
    own = jnp.where(take(s.kankei, s.current_player), 0, 1)
    mine = (jnp.arange(2)[:, None] == own) & kinds
    asked = jnp.where(s.deal == 1, kinds.any(), mine.any())
    at_step = (s.phase == PLAY) & (s.trick_no == 1) & (s.decl_choice == NO_CHOICE) & asked
    return at_step, mine.ravel()


def team_view(env: KankeiSetup, s: State, me: Array) -> tuple[Array, Array, Array]:
    """``me``'s view of the teams: ((n,) whom he knows to be 関係, (n,) whom he knows to be 無関係, whether he
    knows every side), by player. Public once announced; in Yoninkan's deal 1, what every (joker holder, key
    holder) pair that agrees with his knowledge has in common (``knowledge.team_view``)."""
    public = s.kankei, s.active & ~s.kankei, jnp.ones((), bool)
    if not env.rules.hidden_teams:
        return public
    t, players = env.t, env.players
    holds_cards = (s.holder[None, :] == players[:, None]).any(axis=1)
    key = jnp.argmax(t.key_card(s.deal1_trump))

    def candidates(card: Array, may_hold: Array) -> Array:
        played_by = take(s.played_by, card)
        known = take(take(s.known, me), card)
        held_by = take(s.holder, card)
        hidden = holds_cards & (players != me) & may_hold
        return jnp.where(
            played_by >= 0,
            players == played_by,
            jnp.where(held_by == me, players == me, jnp.where(known >= 0, players == known, hidden)),
        )

    no_void = ~take(s.voids.T, s.deal1_trump)  # the key card's suit is deal 1's trump
    pairs = candidates(jnp.asarray(t.joker), jnp.ones_like(no_void))[:, None] & candidates(key, no_void)[None, :]
    team = (players[:, None, None] == players[None, None, :]) | (players[None, :, None] == players[None, None, :])
    if env.rules.double_holding != "one_vs_three":  # (an announced double makes the teams public)
        pairs = pairs & (players[:, None] != players[None, :])
    revealed = s.revealed[None, None, :]
    pairs = pairs & (~revealed | (team == s.kankei[None, None, :])).all(axis=2)
    if not env.options.play_all_tricks:
        kankei = (team * s.honours[None, None, :]).sum(axis=2)
        mukan = s.honours.sum() - kankei
        counts = s.decls.sum(axis=0)
        t_deal = env.targets_of(s.deal)
        decided = jax.vmap(jax.vmap(lambda k, m: is_decided(t_deal, k, m, counts)))(kankei, mukan)
        pairs = pairs & ~decided
    inside = (~pairs[:, :, None] | team).all(axis=(0, 1))
    outside = (~pairs[:, :, None] | ~team).all(axis=(0, 1))
    hidden_view = inside, outside, (inside | outside).all()
    return jax.tree.map(lambda p, h: jnp.where(s.team_public, p, h), public, hidden_view)
