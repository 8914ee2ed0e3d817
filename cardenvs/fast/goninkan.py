"""Goninkan and Yoninkan as one JAX array program (Pgx's API): ``init(key) -> State``, ``step(state, action) ->
State``, both pure, so ``jax.jit(jax.vmap(env.step))`` plays a whole batch of episodes at once.

The rules, the action ids and the observation vector are those of the reference engine (:mod:`cardenvs.goninkan`,
the oracle; ``tests/fast`` plays both side by side), for every option of both games: an episode of one round of
1–3 deals (the env's default) or a whole match (``episode="match"``: rounds until ``n_rounds``, the dealer passing
to the right, the seat swaps kept, each round's points paid when it ends); Goninkan's 関係 calls and seat swap,
the 二重関 exchange (a chance event, or the blind choice of the player between), いく/こい (its decider drawn at
random too); Yoninkan's hidden pair and trick-1 declarations (:mod:`cardenvs.fast.yoninkan_rules`); the show and
the trump choice of deals 2 and 3, the tricks (the joker's timing and strength), じゅうろく / 逆じゅうろく and the
scoring. The program reads the games' differences from the reference's ``Ruleset``. Every chance outcome of an
episode (each deal it can need, each round's draws) is drawn by ``init``, so ``step`` never shuffles.
"""

from __future__ import annotations

from typing import Any, ClassVar

import jax
import jax.numpy as jnp

from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.fast.arrays import choose, keep_finished, take, with_mask_and_view
from cardenvs.fast.goninkan_obs import observe
from cardenvs.fast.goninkan_round import deal_holders, exchange, random_deal, start_round
from cardenvs.fast.goninkan_rules import (
    NO_CHOICE,
    Tables,
    Targets,
    Turn,
    is_decided,
    legal_mask,
    settle,
    targets,
)
from cardenvs.fast.goninkan_state import Deal, State
from cardenvs.fast.yoninkan_rules import declaring
from cardenvs.goninkan.actions import CARD_SLOTS
from cardenvs.goninkan.encoding import observation_layout
from cardenvs.goninkan.env import default_max_steps
from cardenvs.goninkan.options import GoninkanOptions, KankeiOptions
from cardenvs.goninkan.ruleset import TRICKS, ruleset
from cardenvs.goninkan.table import BLIND_SWAP, LEAD_CHOICE, PLAY, SHOW, SWEEP, TRUMP

Array = jax.Array
INT = jnp.int32
MOST_ACTIVE = 5
"""Players in a deal at most (with 6 the dealer sits out)."""


class KankeiFast:
    """Goninkan or Yoninkan for JAX (the subclasses), options as the reference env takes them."""

    game: ClassVar[str]
    options_type: ClassVar[type[KankeiOptions]]

    def __init__(self, max_steps: int | None = None, **options: Any):
        """``max_steps``: the step cap (truncation); by default the reference env's, which the rules never reach."""
        opts = build_options(self.options_type, options, game=self.game)
        max_steps = default_max_steps(opts) if max_steps is None else max_steps
        if max_steps < 1:
            raise InvalidOptionError(f"max_steps must be a positive int, got {max_steps}")
        self.options = opts
        self.max_steps = max_steps
        self.rules = ruleset(opts)
        self.t = Tables.of(self.rules)
        self.num_actions = self.t.actions.size
        self.num_players = n = self.rules.num_players
        self.active_count = min(n, MOST_ACTIVE)
        self.rounds = opts.n_rounds if opts.episode == "match" else 1
        """Rounds in an episode."""
        self.scores = self.rules.scores
        self.layout = observation_layout(self.rules, opts.n_rounds)
        self.players = jnp.arange(n, dtype=INT)
        self.cards = jnp.arange(self.t.size, dtype=INT)

    # ------------------------------------------------------------------ set-up
    def random_deal(self, key: Array) -> Deal:
        """Every chance outcome of an episode (the deals, the dealer, the round, the draws of each round)."""
        return random_deal(self, key)

    def init(self, key: Array) -> State:
        """A random episode and its first decision."""
        return self.init_from_deal(self.random_deal(key))

    def active(self, dealer: Array) -> Array:
        """(n,) bool: who plays a round dealt by ``dealer`` (with 6 players the dealer sits out)."""
        return (self.players != dealer) | (self.num_players <= MOST_ACTIVE)

    def init_from_deal(self, deal: Deal) -> State:
        """The episode that ``deal``'s draws make, at its first decision (the first round begun: see
        :func:`~cardenvs.fast.goninkan_round.start_round`)."""
        n, zero = self.num_players, jnp.zeros((), INT)
        empty = State._make(jnp.zeros(()) for _ in State._fields)._replace(  # the rest is set by start_round
            draws=deal,
            deals_dealt=zero,
            step_count=zero,
            truncated=jnp.zeros((), bool),
            rewards=jnp.zeros(n, jnp.float32),
            legal_action_mask=jnp.zeros(self.num_actions, bool),
            observation=jnp.zeros(self.layout.size, jnp.float32),
        )
        dealer = jnp.asarray(deal.dealer, INT)
        state = start_round(
            self, empty, dealer, jnp.asarray(deal.round_number, INT), self.players, zero, jnp.zeros(n, jnp.float32)
        )
        return self._finish(state)

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Take ``action`` for the player to act (``key`` is unused: every deal was dealt by ``init``). A finished
        episode stays as it is, with zero rewards. An illegal action is not checked (mask it)."""
        del key
        s, a, tab = state, jnp.asarray(action, INT), self.t
        seat = s.current_player
        at_seat = self.players == seat
        phase = s.phase
        choosing, _ = declaring(self, s)  # (Yoninkan) the declaration sub-step of a trick-1 turn
        kinds = jnp.arange(4)
        # --- PLAY: a card to the trick (with the declaration chosen for it)
        playing = (phase == PLAY) & ~choosing
        card = jnp.where(a < tab.lead_joker, a, tab.joker)
        card_hot = (self.cards == card) & playing
        leading = s.trick_count == 0
        is_joker = card == tab.joker
        card_suit = tab.suit_of(card)
        led = jnp.where(leading, jnp.where(is_joker, a - tab.lead_joker, card_suit), s.led_suit)
        void = playing & ~leading & ~is_joker & (card_suit != led)
        strength = tab.card_strength(card, led, s.trump, s.trick_no, leading)
        wins = playing & (leading | (strength > s.best))
        winner = jnp.where(wins, seat, s.trick_winner)
        count = s.trick_count + playing
        trick_cards = jnp.where(at_seat & playing, card, s.trick_cards)
        trick_done = playing & (count == self.active_count)
        taken = ((trick_cards[:, None] == self.cards) & tab.honour).sum() * trick_done
        kind = jnp.where(playing, s.decl_choice, -1)  # a trick-1 declaration made with this card
        decls = s.decls
        if self.rules.max_declarations_per_side == 1:  # じゅうろく replaces the side's スコンク (an upgrade)
            decls = decls & ~((kind % 2 == 1) & (kinds == kind - 1))
        decls = decls | (at_seat[:, None] & (kinds == kind))
        honours = s.honours + jnp.where(self.players == winner, taken, 0)
        to_kankei = take(s.kankei, winner)
        side_honours = s.side_honours + jnp.where(jnp.arange(2) == jnp.where(to_kankei, 0, 1), taken, 0)
        trick_no = s.trick_no + trick_done
        k, m = side_honours[0], side_honours[1]
        t = self.targets_of(s.deal)
        later_deal = (s.deal > 1) & (trick_no <= TRICKS)
        sides = decls.reshape(-1, 2, 2).any(axis=(0, 2))  # a live declaration of the 関係 / 無関係 side
        offer_skunk = trick_done & later_deal & ~s.sweep_offered[0] & ~sides[0] & (k >= t.skunk) & (m == 0)
        offer_reverse = trick_done & later_deal & ~s.sweep_offered[1] & ~sides[1] & (m >= t.fail) & (k == 0)
        offer = offer_skunk | offer_reverse
        # --- SWEEP: declare じゅうろく / 逆じゅうろく or stop
        sweeping = phase == SWEEP
        side = jnp.where(take(s.kankei, seat), 0, 1)
        declare = sweeping & (a == tab.sweep) & (jnp.arange(2) == side)
        decls = decls | (at_seat[:, None] & (kinds == 2 * side + 1) & declare.any())
        swept = s.swept | declare
        counts = decls.sum(axis=0)
        # --- after a trick (not offering a sweep) or a sweep answer: the next trick, or the deal's end
        resolving = (trick_done & ~offer) | sweeping
        decided = is_decided(t, k, m, counts)
        deal_over = resolving & ((trick_no > TRICKS) | (decided & (not self.options.play_all_tricks)))
        success, points, cancels = settle(self.scores, s.deal, t, k, m, counts, swept)
        sign = jnp.where(s.kankei | ~s.active, 1.0, -1.0)
        scored = jnp.where(cancels, 0.0, s.round_points) + sign * points
        round_points = jnp.where(deal_over, scored, s.round_points)
        next_deal = deal_over & success & (s.deal < 3)
        round_over = deal_over & ~next_deal
        over = round_over & (s.rounds_played + 1 >= self.rounds)  # the episode's last round
        # --- LEAD_CHOICE (いく / こい), SHOW (two picks), TRUMP: who leads, who acts next
        partner = jnp.argmax(s.kankei & ~at_seat).astype(INT)
        lead_choice = jnp.where(a == tab.lead_choice, seat, partner)
        showing = phase == SHOW
        second_pick = showing & (s.pending_show >= 0)
        show_card = a - tab.show
        shown = ((self.cards == show_card) | (self.cards == s.pending_show)) & second_pick
        known = jnp.where(card_hot[None, :], -1, s.known)  # a played card is nobody's secret
        known = jnp.where((self.players == s.chooser)[:, None] & shown[None, :], seat, known).astype(jnp.int8)
        naming = phase == TRUMP
        new_trick = (phase == LEAD_CHOICE) | naming | (resolving & ~deal_over)
        leader = jnp.where(phase == LEAD_CHOICE, lead_choice, jnp.where(naming, seat, winner))
        # --- the next deal: its hands, the show to the chooser
        deal = s.deal + next_deal
        fresh = deal_holders(take(s.draws.places, s.deals_dealt), s.dealer, self.num_players)
        chooser = jnp.where(next_deal, jnp.where(deal == 2, s.holders[0], s.holders[1]), s.chooser)
        chooser_partner = jnp.argmax(s.kankei & (self.players != chooser)).astype(INT)
        shows = s.kankei.sum() == 2  # (Yoninkan's lone 関係 player names trump unshown)
        holder = jnp.where(next_deal, fresh, jnp.where(card_hot, -1, s.holder)).astype(jnp.int8)
        follower = jnp.where(choosing, seat, take(s.next_player, seat))  # a declaration: his card comes next
        current = jnp.where(
            round_over,
            -1,
            jnp.where(
                next_deal,
                jnp.where(shows, chooser_partner, chooser),
                jnp.where(
                    new_trick,
                    leader,
                    jnp.where(
                        offer,
                        winner,
                        jnp.where(
                            showing, jnp.where(second_pick, s.chooser, seat), jnp.where(choosing, seat, follower)
                        ),
                    ),
                ),
            ),
        )
        new_phase = jnp.where(
            next_deal,
            jnp.where(shows, SHOW, TRUMP),
            jnp.where(new_trick, PLAY, jnp.where(offer, SWEEP, jnp.where(second_pick, TRUMP, phase))),
        )
        clear_trick = new_trick | next_deal
        rewards = jnp.where(round_over, round_points, 0.0)
        step_count = s.step_count + 1
        after = State(
            holder=holder,
            draws=s.draws,
            deals_dealt=s.deals_dealt + next_deal,
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
            trump=jnp.where(next_deal, -1, jnp.where(naming, a - tab.trump, s.trump)),
            phase=new_phase.astype(INT),
            trick_no=jnp.where(next_deal, 1, trick_no),
            trick_leader=jnp.where(next_deal, -1, jnp.where(new_trick, leader, s.trick_leader)),
            trick_count=jnp.where(clear_trick, 0, count),
            led_suit=jnp.where(clear_trick, -1, jnp.where(playing, led, s.led_suit)),
            trick_winner=jnp.where(clear_trick, -1, jnp.where(playing, winner, s.trick_winner)),
            best=jnp.where(clear_trick, -1, jnp.where(playing & wins, strength, s.best)),
            honours=jnp.where(next_deal, 0, honours),
            side_honours=jnp.where(next_deal, 0, side_honours),
            decls=decls & ~next_deal,
            swept=swept & ~next_deal,
            revealed=(s.revealed | (at_seat & (kind >= 0))) & ~next_deal,
            decl_choice=jnp.where(choosing, a - tab.declare - 1, jnp.where(playing, NO_CHOICE, s.decl_choice)),
            forced_lead=jnp.where(next_deal, -1, s.forced_lead),
            team_public=s.team_public | deal_over,
            sweep_offered=(s.sweep_offered | (jnp.stack([offer_skunk, offer_reverse]))) & ~next_deal,
            pending_show=jnp.where(showing & ~second_pick, show_card, -1),
            chooser=chooser,
            round_points=round_points,
            match_points=s.match_points + rewards,
            rounds_played=s.rounds_played + round_over,
            current_player=current.astype(INT),
            terminated=over,
            truncated=~over & (step_count >= self.max_steps),
            rewards=rewards.astype(jnp.float32),
            step_count=step_count,
            legal_action_mask=s.legal_action_mask,
            observation=s.observation,
        )
        if self.rules.nijukan_exchange == "chooser_picks_blind":
            after = self._blind_swap(s, a, after)
        if self.rounds > 1:  # a match: the next round begins where one ends before the last
            person_at = s.order[0]  # the seating, up to a rotation (all that play order depends on)
            following = start_round(
                self,
                after,
                take(s.order, s.dealer)[1],  # the dealer passes to the right
                s.round_number + 1,
                person_at,
                after.rounds_played,
                after.match_points,
            )._replace(terminated=after.terminated)
            after = choose(round_over & ~over, following, after)
        return keep_finished(s, self._finish(after))

    def _blind_swap(self, s: State, a: Array, after: State) -> State:
        """``after``, unless ``s`` waited for the blind 二重関 exchange: then that exchange, chosen by ``a``."""
        key_slot, card_slot = (a - self.t.swap) // CARD_SLOTS, (a - self.t.swap) % CARD_SLOTS
        lone = s.holders[0]
        partner = take(s.next_player, take(s.next_player, lone))
        swapped = exchange(self, s, lone, partner, key_slot, card_slot)._replace(
            step_count=after.step_count, truncated=after.truncated, rewards=after.rewards, terminated=after.terminated
        )
        return choose(s.phase == BLIND_SWAP, swapped, after)

    # ------------------------------------------------------------------ what the player to act sees
    def targets_of(self, deal: Array) -> Targets:
        """Deal ``deal``'s honour counts (the 関係 target, what defeats it, the skunk count)."""
        return targets(self.scores, deal)

    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the episode is over)."""
        hand = s.holder == s.current_player  # (masked below once the episode is over)
        asked, open_kinds = declaring(self, s)
        turn = Turn(
            s.phase,
            s.trick_count,
            s.led_suit,
            s.trick_no,
            s.pending_show,
            asked,
            open_kinds,
            s.decl_choice >= 0,
            s.forced_lead,
        )
        return legal_mask(self.t, turn, hand) & (s.current_player >= 0)

    def observe(self, s: State, player: Array | int) -> Array:
        """``player``'s observation vector, the reference encoder's layout (seat-relative: ``player`` first)."""
        return observe(self, s, jnp.asarray(player, INT))

    def _finish(self, s: State) -> State:
        return with_mask_and_view(s, self.legal_mask, self.observe)


class GoninkanFast(KankeiFast):
    """Goninkan for JAX; options as ``cardenvs/goninkan-v1`` takes them (a round or a match per episode)."""

    game = "goninkan-v1"
    options_type = GoninkanOptions
