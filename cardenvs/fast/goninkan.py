"""Goninkan as one JAX array program (Pgx's API): ``init(key) -> State``, ``step(state, action) -> State``, both
pure, so ``jax.jit(jax.vmap(env.step))`` plays a whole batch of rounds at once.

The rules, the 132 action ids and the observation vector are those of the reference engine
(:mod:`cardenvs.goninkan`, the oracle; ``tests/fast`` plays both side by side) for one round of 1–3 deals (the
env's default episode): the 関係 calls and the seat swap, the random 二重関 exchange, いく/こい, the show and the
trump choice of deals 2 and 3, the tricks (the joker's timing), じゅうろく / 逆じゅうろく and the scoring. The three
deals a round can need are dealt by ``init``, so ``step`` never shuffles. Refused with an error naming the option:
``episode="match"``, ``nijukan_exchange="chooser_picks_blind"``, ``kankei_lead_decider="random"``; Yoninkan is
not played here.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from cardenvs.core.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.fast.arrays import keep_finished, shuffled_places, take, with_mask_and_view
from cardenvs.fast.goninkan_obs import observe
from cardenvs.fast.goninkan_rules import (
    A_LEAD_CHOICE,
    A_LEAD_JOKER,
    A_SHOW,
    A_SWEEP,
    A_TRUMP,
    ACTIONS,
    DECK,
    HONOUR,
    JOKER,
    Targets,
    card_strength,
    is_decided,
    key_card,
    legal_mask,
    settle,
    suit_of,
    targets,
)
from cardenvs.fast.goninkan_state import Deal, State, at, orders
from cardenvs.goninkan.encoding import observation_layout
from cardenvs.goninkan.env import default_max_steps
from cardenvs.goninkan.options import GoninkanOptions
from cardenvs.goninkan.ruleset import TRICKS, ruleset
from cardenvs.goninkan.table import HAND_SIZE, LEAD_CHOICE, PLAY, SHOW, SWEEP, TRUMP

Array = jax.Array
INT = jnp.int32
ACTIVE = 5
"""Players in a deal (with 6 the dealer sits out)."""


class GoninkanFast:
    """Goninkan for JAX; options as ``cardenvs/goninkan-v1`` takes them (one round per episode)."""

    num_actions = ACTIONS.size

    def __init__(self, max_steps: int | None = None, **options: Any):
        """``max_steps``: the step cap (truncation); by default the reference env's, which the rules never reach."""
        opts: GoninkanOptions = build_options(GoninkanOptions, options, game="goninkan-v1")
        for name, value, played in (
            ("episode", opts.episode, "round"),
            ("nijukan_exchange", opts.nijukan_exchange, "random"),
        ):
            if value != played:
                raise InvalidOptionError(f"the JAX path plays {name}={played!r} only, got {value!r}")
        if opts.kankei_lead_decider == "random":
            raise InvalidOptionError("the JAX path plays kankei_lead_decider 'elder', 'joker_holder', 'ace_holder'")
        max_steps = default_max_steps(opts) if max_steps is None else max_steps
        if max_steps < 1:
            raise InvalidOptionError(f"max_steps must be a positive int, got {max_steps}")
        self.options = opts
        self.max_steps = max_steps
        self.num_players = n = opts.num_players
        self.scores = ruleset(opts).scores
        self.layout = observation_layout(ruleset(opts), opts.n_rounds)
        self._players = jnp.arange(n, dtype=INT)
        self._cards = jnp.arange(DECK, dtype=INT)

    # ------------------------------------------------------------------ set-up
    def random_deal(self, key: Array) -> Deal:
        """Three shuffled deals, the dealer, the round (unless the options fix them) and the exchange's chance."""
        n, opts = self.num_players, self.options
        keys = jax.random.split(key, 6)
        dealer = jax.random.randint(keys[0], (), 0, n, INT) if opts.dealer is None else jnp.asarray(opts.dealer, INT)
        if opts.round_number is None:
            round_number = jax.random.randint(keys[1], (), 1, opts.n_rounds + 1, INT)
        else:
            round_number = jnp.asarray(opts.round_number, INT)
        active = self._active(dealer)
        position = self._players - (active.size > ACTIVE) * (self._players > dealer)  # among the players
        places = jax.vmap(lambda k: shuffled_places(k, DECK))(jax.random.split(keys[2], 3))
        hands = active[None, :, None] & (places[:, None, :] // HAND_SIZE == position[None, :, None])
        give_joker = jax.random.bernoulli(keys[3])
        take_slot = jax.random.randint(keys[4], (), 0, HAND_SIZE, INT)
        return Deal(hands, dealer, round_number, give_joker, take_slot)

    def init(self, key: Array) -> State:
        """A random round and its first decision."""
        return self.init_from_deal(self.random_deal(key))

    def _active(self, dealer: Array) -> Array:
        return (self._players != dealer) | (self.num_players == ACTIVE)

    def init_from_deal(self, deal: Deal) -> State:
        """The round after dealing ``deal.hands[0]`` (the later ones wait): the 関係 calls, the seat swap or the
        二重関 exchange, and the いく/こい decision."""
        n, zero = self.num_players, jnp.zeros((), INT)
        players = self._players
        dealer = jnp.asarray(deal.dealer, INT)
        round_number = jnp.asarray(deal.round_number, INT)
        hands = jnp.asarray(deal.hands, bool)
        first, later = hands[0], hands[1:]
        active = self._active(dealer)
        cycle = jnp.asarray([CLUBS, DIAMONDS, HEARTS], INT)
        trump = jnp.where(round_number == self.options.n_rounds, SPADES, take(cycle, (round_number - 1) % 3)).astype(
            INT
        )
        ace = key_card(trump)
        joker_holder = jnp.argmax(first[:, JOKER]).astype(INT)
        ace_holder = jnp.argmax((first & ace).any(axis=1)).astype(INT)
        double = joker_holder == ace_holder
        identity = orders(players, players, active)
        # two holders sitting next to each other: the one on the right swaps with his right-hand neighbour
        next_of = identity[1]
        mover = jnp.where(
            take(next_of, joker_holder) == ace_holder,
            ace_holder,
            jnp.where(take(next_of, ace_holder) == joker_holder, joker_holder, -1),
        )
        mover = jnp.where(double, -1, mover)
        other = jnp.where(mover >= 0, take(next_of, mover), -1)
        person_at = jnp.where(players == mover, other, jnp.where(players == other, mover, players))
        order, next_player = orders(person_at, players, active)
        # 二重関: the partner sits two players on; a key card goes there, a random card of his comes back
        partner = take(next_of, take(next_of, joker_holder))
        given = jnp.where(deal.give_joker, JOKER, jnp.argmax(ace)).astype(INT)
        partner_hand = take(first, partner)
        taken = jnp.argmax(partner_hand & (jnp.cumsum(partner_hand) == deal.take_slot + 1)).astype(INT)
        moved = (self._cards == given) | (self._cards == taken)
        swapped = jnp.where(moved[None] & ((players == joker_holder) | (players == partner))[:, None], ~first, first)
        first = jnp.where(double, swapped, first)
        holders = jnp.where(
            double,
            jnp.where(deal.give_joker, jnp.stack([partner, joker_holder]), jnp.stack([joker_holder, partner])),
            jnp.stack([joker_holder, ace_holder]),
        ).astype(INT)
        kankei = (players == holders[0]) | (players == holders[1])
        known = jnp.full((n, DECK), -1, jnp.int8)
        known = jnp.where(double & (players == partner)[:, None] & (self._cards == taken), joker_holder, known)
        known = self._share_keys(known, holders, ace)
        decider = self._lead_decider(order, dealer, kankei, holders)
        state = State(
            holder=jnp.where(first.any(axis=0), jnp.argmax(first, axis=0), -1).astype(jnp.int8),
            later_holders=jnp.argmax(later, axis=1).astype(jnp.int8),  # every card is dealt
            played_by=jnp.full(DECK, -1, jnp.int8),
            trick_cards=jnp.full(n, -1, INT),
            known=known.astype(jnp.int8),
            voids=jnp.zeros((n, 4), bool),
            order=order,
            next_player=next_player,
            active=active,
            kankei=kankei,
            holders=holders,
            exchanged=jnp.where(double, jnp.stack([given, taken]), -1).astype(INT),
            dealer=dealer,
            round_number=round_number,
            deal1_trump=trump,
            deal=zero + 1,
            trump=trump,
            phase=zero + LEAD_CHOICE,
            trick_no=zero + 1,
            trick_leader=zero - 1,
            trick_count=zero,
            led_suit=zero - 1,
            trick_winner=zero - 1,
            best=zero - 1,
            honours=jnp.zeros(n, INT),
            side_honours=jnp.zeros(2, INT),
            declared=jnp.zeros(2, bool),
            declarer=jnp.full(2, -1, INT),
            sweep_offered=jnp.zeros(2, bool),
            pending_show=zero - 1,
            chooser=zero - 1,
            round_points=jnp.zeros(n, jnp.float32),
            match_points=jnp.zeros(n, jnp.float32),
            rounds_played=zero,
            current_player=decider,
            terminated=jnp.zeros((), bool),
            truncated=jnp.zeros((), bool),
            rewards=jnp.zeros(n, jnp.float32),
            step_count=zero,
            legal_action_mask=jnp.zeros(ACTIONS.size, bool),
            observation=jnp.zeros(self.layout.size, jnp.float32),
        )
        return self._finish(state)

    def _share_keys(self, known: Array, holders: Array, ace: Array) -> Array:
        """Each 関係 player knows his partner holds the other key card; a decider other than the elder makes
        both holdings public (``teams._share_partner_keys``, ``_begin_lead_choice``)."""
        joker_holder, ace_holder = holders[0], holders[1]
        is_joker, players = self._cards == JOKER, self._players[:, None]
        known = jnp.where((players == ace_holder) & is_joker, joker_holder, known)
        known = jnp.where((players == joker_holder) & ace, ace_holder, known)
        if self.options.kankei_lead_decider != "elder":
            known = jnp.where(is_joker, joker_holder, jnp.where(ace, ace_holder, known))
        return known

    def _lead_decider(self, order: Array, dealer: Array, kankei: Array, holders: Array) -> Array:
        mode = self.options.kankei_lead_decider
        if mode != "elder":
            return holders[0] if mode == "joker_holder" else holders[1]
        from_dealer = jnp.roll(take(order, dealer), -1)  # the dealer's right first, the dealer last
        return take(from_dealer, jnp.argmax(at(kankei, from_dealer)))

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Take ``action`` for the player to act (``key`` is unused: every deal was dealt by ``init``). A finished
        round stays as it is, with zero rewards. An illegal action is not checked (mask it)."""
        del key
        s, a = state, jnp.asarray(action, INT)
        seat = s.current_player
        at_seat = self._players == seat
        phase = s.phase
        # --- PLAY: a card to the trick
        playing = phase == PLAY
        card = jnp.where(a < A_LEAD_JOKER, a, JOKER)
        card_hot = (self._cards == card) & playing
        leading = s.trick_count == 0
        is_joker = card == JOKER
        card_suit = suit_of(card)
        led = jnp.where(leading, jnp.where(is_joker, a - A_LEAD_JOKER, card_suit), s.led_suit)
        void = playing & ~leading & ~is_joker & (card_suit != led)
        strength = card_strength(card, led, s.trump)
        wins = playing & (leading | (strength > s.best))
        winner = jnp.where(wins, seat, s.trick_winner)
        count = s.trick_count + playing
        trick_cards = jnp.where(at_seat & playing, card, s.trick_cards)
        trick_done = playing & (count == ACTIVE)
        taken = ((trick_cards[:, None] == self._cards) & HONOUR).sum() * trick_done
        honours = s.honours + jnp.where(self._players == winner, taken, 0)
        to_kankei = take(s.kankei, winner)
        side_honours = s.side_honours + jnp.where(jnp.arange(2) == jnp.where(to_kankei, 0, 1), taken, 0)
        trick_no = s.trick_no + trick_done
        k, m = side_honours[0], side_honours[1]
        t = self.targets_of(s.deal)
        later_deal = (s.deal > 1) & (trick_no <= TRICKS)
        offer_skunk = trick_done & later_deal & ~s.sweep_offered[0] & ~s.declared[0] & (k >= t.skunk) & (m == 0)
        offer_reverse = trick_done & later_deal & ~s.sweep_offered[1] & ~s.declared[1] & (m >= t.fail) & (k == 0)
        offer = offer_skunk | offer_reverse
        # --- SWEEP: declare じゅうろく / 逆じゅうろく or stop
        sweeping = phase == SWEEP
        side = jnp.where(take(s.kankei, seat), 0, 1)
        declare = sweeping & (a == A_SWEEP) & (jnp.arange(2) == side)
        declared = s.declared | declare
        declarer = jnp.where(declare, seat, s.declarer)
        # --- after a trick (not offering a sweep) or a sweep answer: the next trick, or the deal's end
        resolving = (trick_done & ~offer) | sweeping
        decided = is_decided(t, k, m, declared)
        deal_over = resolving & ((trick_no > TRICKS) | (decided & (not self.options.play_all_tricks)))
        success, points, cancels = settle(self.scores, s.deal, t, k, m, declared)
        sign = jnp.where(s.kankei | ~s.active, 1.0, -1.0)
        scored = jnp.where(cancels, 0.0, s.round_points) + sign * points
        round_points = jnp.where(deal_over, scored, s.round_points)
        next_deal = deal_over & success & (s.deal < 3)
        round_over = deal_over & ~next_deal
        # --- LEAD_CHOICE (いく / こい), SHOW (two picks), TRUMP: who leads, who acts next
        partner = jnp.argmax(s.kankei & ~at_seat).astype(INT)
        lead_choice = jnp.where(a == A_LEAD_CHOICE, seat, partner)
        showing = phase == SHOW
        second_pick = showing & (s.pending_show >= 0)
        show_card = a - A_SHOW
        shown = ((self._cards == show_card) | (self._cards == s.pending_show)) & second_pick
        known = jnp.where(card_hot[None, :], -1, s.known)  # a played card is nobody's secret
        known = jnp.where((self._players == s.chooser)[:, None] & shown[None, :], seat, known).astype(jnp.int8)
        naming = phase == TRUMP
        new_trick = (phase == LEAD_CHOICE) | naming | (resolving & ~deal_over)
        leader = jnp.where(phase == LEAD_CHOICE, lead_choice, jnp.where(naming, seat, winner))
        # --- the next deal: its hands, the show to the chooser
        deal = s.deal + next_deal
        fresh = jnp.where(deal == 2, s.later_holders[0], s.later_holders[1])
        chooser = jnp.where(next_deal, jnp.where(deal == 2, s.holders[0], s.holders[1]), s.chooser)
        chooser_partner = jnp.argmax(s.kankei & (self._players != chooser)).astype(INT)
        holder = jnp.where(next_deal, fresh, jnp.where(card_hot, -1, s.holder)).astype(jnp.int8)
        follower = take(s.next_player, seat)
        current = jnp.where(
            round_over,
            -1,
            jnp.where(
                next_deal,
                chooser_partner,
                jnp.where(
                    new_trick,
                    leader,
                    jnp.where(offer, winner, jnp.where(showing, jnp.where(second_pick, s.chooser, seat), follower)),
                ),
            ),
        )
        new_phase = jnp.where(
            next_deal,
            SHOW,
            jnp.where(new_trick, PLAY, jnp.where(offer, SWEEP, jnp.where(second_pick, TRUMP, phase))),
        )
        clear_trick = new_trick | next_deal
        rewards = jnp.where(round_over, round_points, 0.0)
        step_count = s.step_count + 1
        after = State(
            holder=holder,
            later_holders=s.later_holders,
            played_by=jnp.where(next_deal, -1, jnp.where(card_hot, seat, s.played_by)).astype(jnp.int8),
            trick_cards=jnp.where(clear_trick, -1, trick_cards),
            known=jnp.where(next_deal, -1, known).astype(jnp.int8),
            voids=jnp.where(next_deal, False, s.voids | (at_seat[:, None] & (jnp.arange(4) == led) & void)),
            order=s.order,
            next_player=s.next_player,
            active=s.active,
            kankei=s.kankei,
            holders=s.holders,
            exchanged=s.exchanged,
            dealer=s.dealer,
            round_number=s.round_number,
            deal1_trump=s.deal1_trump,
            deal=deal,
            trump=jnp.where(next_deal, -1, jnp.where(naming, a - A_TRUMP, s.trump)),
            phase=new_phase.astype(INT),
            trick_no=jnp.where(next_deal, 1, trick_no),
            trick_leader=jnp.where(next_deal, -1, jnp.where(new_trick, leader, s.trick_leader)),
            trick_count=jnp.where(clear_trick, 0, count),
            led_suit=jnp.where(clear_trick, -1, jnp.where(playing, led, s.led_suit)),
            trick_winner=jnp.where(clear_trick, -1, jnp.where(playing, winner, s.trick_winner)),
            best=jnp.where(clear_trick, -1, jnp.where(playing & wins, strength, s.best)),
            honours=jnp.where(next_deal, 0, honours),
            side_honours=jnp.where(next_deal, 0, side_honours),
            declared=declared & ~next_deal,
            declarer=jnp.where(next_deal, -1, declarer),
            sweep_offered=(s.sweep_offered | (jnp.stack([offer_skunk, offer_reverse]))) & ~next_deal,
            pending_show=jnp.where(showing & ~second_pick, show_card, -1),
            chooser=chooser,
            round_points=round_points,
            match_points=s.match_points + rewards,
            rounds_played=s.rounds_played + round_over,
            current_player=current.astype(INT),
            terminated=round_over,
            truncated=~round_over & (step_count >= self.max_steps),
            rewards=rewards.astype(jnp.float32),
            step_count=step_count,
            legal_action_mask=s.legal_action_mask,
            observation=s.observation,
        )
        return keep_finished(s, self._finish(after))

    # ------------------------------------------------------------------ what the player to act sees
    def targets_of(self, deal: Array) -> Targets:
        """Deal ``deal``'s honour counts (the 関係 target, what defeats it, the skunk count)."""
        return targets(self.scores, deal)

    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the round is over)."""
        hand = s.holder == s.current_player  # (masked below once the round is over)
        mask = legal_mask(s.phase, hand, s.trick_count, s.led_suit, s.trick_no, s.pending_show)
        return mask & (s.current_player >= 0)

    def observe(self, s: State, player: Array | int) -> Array:
        """``player``'s observation vector, the reference encoder's layout (seat-relative: ``player`` first)."""
        return observe(self, s, jnp.asarray(player, INT))

    def _finish(self, s: State) -> State:
        return with_mask_and_view(s, self.legal_mask, self.observe)
