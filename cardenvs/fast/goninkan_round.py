"""The start of a round of :mod:`cardenvs.fast.goninkan` as array functions: the chance draws of an episode, a deal's
hands, Goninkan's 関係 calls, seat swap, 二重関 exchange (random, or the blind choice of the player between) and
いく/こい decider, Yoninkan's hidden pair and first lead (the reference: :mod:`cardenvs.goninkan.teams`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from cardenvs.core.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from cardenvs.fast.arrays import shuffled_places, take
from cardenvs.fast.goninkan_rules import NO_CHOICE
from cardenvs.fast.goninkan_state import Deal, State, at, orders
from cardenvs.goninkan.actions import CARD_SLOTS, KEY_SLOTS
from cardenvs.goninkan.table import BLIND_SWAP, HAND_SIZE, LEAD_CHOICE, PLAY

if TYPE_CHECKING:
    from cardenvs.fast.goninkan_setup import KankeiSetup

Array = jax.Array
INT = jnp.int32
DEALS_PER_ROUND = 3


def random_deal(env: KankeiSetup, key: Array) -> Deal:
    """Every chance outcome of an episode: its deals, the first dealer and round (unless the options fix them),
    and each round's draws for a double holding and the decider."""
    n, opts, rounds = env.num_players, env.options, env.rounds
    keys = jax.random.split(key, 7)
    dealer = jax.random.randint(keys[0], (), 0, n, INT) if opts.dealer is None else jnp.asarray(opts.dealer, INT)
    if opts.episode == "match":
        round_number = jnp.ones((), INT)
    elif opts.round_number is None:
        round_number = jax.random.randint(keys[1], (), 1, opts.n_rounds + 1, INT)
    else:
        round_number = jnp.asarray(opts.round_number, INT)

    def permutations(k: Array, count: int, size: int) -> Array:
        return jax.vmap(lambda kk: shuffled_places(kk, size))(jax.random.split(k, count)).astype(INT)

    return Deal(
        places=permutations(keys[2], DEALS_PER_ROUND * rounds, env.t.size).astype(jnp.int8),
        dealer=dealer,
        round_number=round_number,
        key_order=permutations(keys[3], rounds, KEY_SLOTS),
        card_order=permutations(keys[4], rounds, CARD_SLOTS),
        decider_pick=jax.random.randint(keys[5], (rounds,), 0, 2, INT),
        redeal_slot=jax.random.randint(keys[6], (rounds,), 0, (n - 1) * HAND_SIZE, INT),
    )


def deal_holders(places: Array, dealer: Array, num_players: int) -> Array:
    """(d,) int8: who is dealt each card of a deal's ``places`` (with 6 players the dealer is skipped)."""
    position = places.astype(INT) // HAND_SIZE
    return (position + ((num_players > 5) & (position >= dealer))).astype(jnp.int8)


def nth_card(hand: Array, slot: Array) -> Array:
    """The card at index ``slot`` of ``hand`` ((d,) bool) sorted."""
    return jnp.argmax(hand & (jnp.cumsum(hand) == slot + 1)).astype(INT)


def start_round(
    env: KankeiSetup,
    s: State,
    dealer: Array,
    round_number: Array,
    person_at: Array,
    rounds_played: Array,
    match_points: Array,
) -> State:
    """``s`` (its draws, deals dealt, step count and the fields every round resets) with a new round begun: the
    next deal dealt and the teams formed (Goninkan: the 関係 calls, the seat swap of two adjacent holders in the
    seating ``person_at`` (``person_at[seat]``, up to a rotation), the 二重関 exchange and いく/こい; Yoninkan:
    the hidden pair, the double holding, the first lead). The mask and the observation are left to the caller."""
    n, t, players, zero = env.num_players, env.t, env.players, jnp.zeros((), INT)
    active = env.active(dealer)
    holder = deal_holders(take(s.draws.places, s.deals_dealt), dealer, n)
    cycle = jnp.asarray([CLUBS, DIAMONDS, HEARTS], INT)
    trump = jnp.where(round_number == env.options.n_rounds, SPADES, take(cycle, (round_number - 1) % 3)).astype(INT)
    key = t.key_card(trump)
    key_index = jnp.argmax(key).astype(INT)
    joker_holder = take(holder, jnp.asarray(t.joker)).astype(INT)
    if env.rules.redeal_on_double:  # see Deal.redeal_slot
        other = nth_card(holder != joker_holder, take(s.draws.redeal_slot, rounds_played))
        moved = jnp.where(
            env.cards == key_index, take(holder, other), jnp.where(env.cards == other, joker_holder, holder)
        )
        holder = jnp.where(take(holder, key_index) == joker_holder, moved, holder).astype(jnp.int8)
    key_holder = take(holder, key_index).astype(INT)
    double = joker_holder == key_holder
    next_of = orders(person_at, players, active)[1]
    if env.rules.is_goninkan:
        # two holders sitting next to each other: the one on the right swaps with his right-hand neighbour
        mover = jnp.where(
            take(next_of, joker_holder) == key_holder,
            key_holder,
            jnp.where(take(next_of, key_holder) == joker_holder, joker_holder, -1),
        )
        mover = jnp.where(double, -1, mover)
        other = jnp.where(mover >= 0, take(next_of, mover), -1)
        person_at = jnp.where(person_at == mover, other, jnp.where(person_at == other, mover, person_at))
    order, next_player = orders(person_at, players, active)
    d = t.size
    s = s._replace(
        holder=holder,
        deals_dealt=s.deals_dealt + 1,
        played_by=jnp.full(d, -1, jnp.int8),
        trick_cards=jnp.full(n, -1, INT),
        voids=jnp.zeros((n, 4), bool),
        order=order,
        next_player=next_player,
        active=active,
        holders=jnp.stack([joker_holder, key_holder]),
        exchanged=jnp.full(2, -1, INT),
        dealer=dealer,
        round_number=round_number,
        deal1_trump=trump,
        deal=zero + 1,
        trump=trump,
        trick_no=zero + 1,
        trick_leader=zero - 1,
        trick_count=zero,
        led_suit=zero - 1,
        trick_winner=zero - 1,
        best=zero - 1,
        honours=jnp.zeros(n, INT),
        side_honours=jnp.zeros(2, INT),
        decls=jnp.zeros((n, 4), bool),
        swept=jnp.zeros(2, bool),
        revealed=jnp.zeros(n, bool),
        decl_choice=zero + NO_CHOICE,
        forced_lead=zero - 1,
        sweep_offered=jnp.zeros(2, bool),
        pending_show=zero - 1,
        chooser=zero - 1,
        known=jnp.full((n, d), -1, jnp.int8),
        round_points=jnp.zeros(n, jnp.float32),
        match_points=match_points,
        rounds_played=rounds_played,
        terminated=jnp.zeros((), bool),
    )
    # a double holding: the partner sits two players on (Goninkan's 二重関, Yoninkan's opposite_partner)
    partner = take(next_of, take(next_of, joker_holder))
    if not env.rules.is_goninkan:
        return yoninkan_start(env, s, double, partner, key | (env.cards == t.joker))
    pair = jnp.where(double, partner, key_holder)
    s = s._replace(kankei=(players == joker_holder) | (players == pair), team_public=jnp.ones((), bool))
    if env.rules.nijukan_exchange == "random":
        exchanged = exchange(env, s, joker_holder, partner, zero, zero)
        return jax.tree.map(lambda new, old: jnp.where(double, new, old), exchanged, lead_choice(env, s))
    # the blind exchange waits for the player between; meanwhile everybody knows the lone holder holds both keys
    pending = s._replace(
        known=jnp.where(key | (env.cards == t.joker), joker_holder, s.known).astype(jnp.int8),
        phase=zero + BLIND_SWAP,
        current_player=take(next_of, joker_holder),
    )
    return jax.tree.map(lambda new, old: jnp.where(double, new, old), pending, lead_choice(env, s))


def yoninkan_start(env: KankeiSetup, s: State, double: Array, partner: Array, keys: Array) -> State:
    """``s`` at Yoninkan's first lead: the hidden pair of key holders, or for one player holding both, himself
    alone (``one_vs_three``) or with the player opposite, announced (``opposite_partner``); the lead by the
    dealer's right-hand player, or the ♠A's holder, who must lead it (its place public)."""
    lone, players = s.holders[0], env.players
    announced = double & (env.rules.double_holding == "opposite_partner")
    kankei = (players == s.holders[0]) | (players == s.holders[1]) | (announced & (players == partner))
    known = jnp.where(announced & keys, lone, s.known)
    if env.rules.spade_ace_leads:
        ace = env.t.spade_ace
        leader = take(s.holder, jnp.asarray(ace)).astype(INT)
        known = jnp.where(env.cards == ace, leader, known)
        forced = jnp.asarray(ace, INT)
    else:
        leader, forced = take(s.next_player, s.dealer), s.forced_lead
    return s._replace(
        kankei=kankei,
        team_public=announced,
        known=known.astype(jnp.int8),
        forced_lead=forced,
        phase=jnp.asarray(PLAY, INT),
        current_player=leader,
        trick_leader=leader,
    )


def exchange(env: KankeiSetup, s: State, lone: Array, partner: Array, key_slot: Array, card_slot: Array) -> State:
    """``s`` after the 二重関 exchange between the ``lone`` holder of both keys and his ``partner``: the key card
    under face-down ``key_slot`` goes to the partner, his card under ``card_slot`` comes back; then いく/こい."""
    rnd = s.rounds_played
    keys = jnp.stack([jnp.asarray(env.t.joker, INT), jnp.argmax(env.t.key_card(s.deal1_trump)).astype(INT)])
    given = take(keys, take(take(s.draws.key_order, rnd), key_slot))
    taken = nth_card(s.holder == partner, take(take(s.draws.card_order, rnd), card_slot))
    holder = jnp.where(env.cards == given, partner, jnp.where(env.cards == taken, lone, s.holder)).astype(jnp.int8)
    holders = jnp.where(given == env.t.joker, jnp.stack([partner, lone]), jnp.stack([lone, partner])).astype(INT)
    known = jnp.where((env.players == partner)[:, None] & (env.cards == taken), lone, -1).astype(jnp.int8)
    return lead_choice(
        env, s._replace(holder=holder, holders=holders, known=known, exchanged=jnp.stack([given, taken]))
    )


def lead_choice(env: KankeiSetup, s: State) -> State:
    """``s`` (its team and key holders set, ``known`` of the exchange if any) at the いく/こい decision: each 関係
    player knows his partner holds the other key card, and a decider other than the elder or a random member makes
    both holdings public (``teams._share_partner_keys``, ``_begin_lead_choice``)."""
    mode = env.rules.kankei_lead_decider
    joker_holder, ace_holder = s.holders[0], s.holders[1]
    is_joker, ace, players = env.cards == env.t.joker, env.t.key_card(s.deal1_trump), env.players[:, None]
    known = jnp.where((players == ace_holder) & is_joker, joker_holder, s.known)
    known = jnp.where((players == joker_holder) & ace, ace_holder, known)
    if mode in ("joker_holder", "ace_holder"):
        known = jnp.where(is_joker, joker_holder, jnp.where(ace, ace_holder, known))
        decider = joker_holder if mode == "joker_holder" else ace_holder
    elif mode == "random":  # the reference draws an index into the team sorted by player index
        pick = take(s.draws.decider_pick, s.rounds_played)
        decider = jnp.where(pick == 0, jnp.minimum(joker_holder, ace_holder), jnp.maximum(joker_holder, ace_holder))
    else:
        from_dealer = jnp.roll(take(s.order, s.dealer), -1)  # the dealer's right first, the dealer last
        decider = take(from_dealer, jnp.argmax(at(s.kankei, from_dealer)))
    return s._replace(
        known=known.astype(jnp.int8), phase=jnp.asarray(LEAD_CHOICE, INT), current_player=decider.astype(INT)
    )
