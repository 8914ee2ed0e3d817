"""Zheng Shang You as one JAX array program (Pgx's API): ``init(key) -> State``, ``step(state, action) -> State``,
both pure, so ``jax.jit(jax.vmap(env.step))`` plays a whole batch of games at once.

The rules, the 152 action ids (a play built in sub-steps: shape, top rank, one card at a time; the exchange's gives
and takes) and the observation vector are those of the reference engine (:mod:`cardenvs.zheng_shang_you.rules`,
the oracle; ``tests/fast`` plays both side by side): the individual game, the 2 v 2 partnership and San Jia Xi
(3 v 3, its shown card and scoring table), whole matches with the card exchange or single deals, both reward modes
and every rule option. Legality of each sub-step is a set of array tests
(:mod:`cardenvs.fast.zheng_shang_you_masks`); every branch of the rules is computed for every game and the right
one selected (``jnp.where``).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.fast.arrays import choose, keep_finished, next_seat, shuffled_places, take
from cardenvs.fast.zheng_shang_you_exchange import advance_exchange, exchange_action, exchange_mask
from cardenvs.fast.zheng_shang_you_masks import SHAPES, VALUE, legal_picks, legal_shapes, legal_tops
from cardenvs.fast.zheng_shang_you_obs import observe
from cardenvs.fast.zheng_shang_you_state import State
from cardenvs.zheng_shang_you.actions import ids
from cardenvs.zheng_shang_you.combos import SEQUENCE, SET, SET_SEQUENCE
from cardenvs.zheng_shang_you.encoding import observation_layout
from cardenvs.zheng_shang_you.env import _default_max_steps
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.ranks import BJ, NUM_CARDS, TWO
from cardenvs.zheng_shang_you.scoring import FIRST_POINTS, SECOND_POINTS

Array = jax.Array
INT = jnp.int32
A = ids()


class ZhengShangYouFast:
    """Zheng Shang You for JAX; options as ``cardenvs/zheng_shang_you-v0`` takes them, every one of them."""

    num_actions = A.SIZE

    def __init__(self, max_steps: int | None = None, **options: Any):
        """``max_steps``: the step cap (truncation); by default the reference env's."""
        opts: ZsyOptions = build_options(ZsyOptions, options, game="zheng_shang_you-v0")
        max_steps = _default_max_steps(opts) if max_steps is None else max_steps
        if max_steps < 1:
            raise InvalidOptionError(f"max_steps must be a positive int, got {max_steps}")
        self.options = opts
        self.max_steps = max_steps
        self.num_players = n = opts.num_players
        self.units = jnp.asarray(opts.teams, INT)
        self.layout = observation_layout(n)
        self._seats = jnp.arange(n, dtype=INT)
        self.slots = -(-NUM_CARDS // n)
        """The largest hand of a deal (the exchange keeps sizes): the candidate cards of a pick test."""
        self._sjx_points = _sjx_points(opts) if opts.team_mode == "san_jia_xi" else None

    # ------------------------------------------------------------------ set-up
    def init(self, key: Array) -> State:
        """A random first deal (a random dealer unless ``first_dealer`` fixes one; in San Jia Xi, whoever is dealt
        a card drawn and shown beforehand) and its first decision."""
        dealer_key, deal_key, later_key = jax.random.split(key, 3)
        if self.options.team_mode == "san_jia_xi":  # dealt from a random seat; the shown card's holder deals
            start = jax.random.randint(dealer_key, (), 0, self.num_players, dtype=INT)
            shown = jax.random.randint(jax.random.fold_in(dealer_key, 1), (), 0, NUM_CARDS, dtype=INT)
            hands = self.deal(deal_key, start)
            return self.init_from_hands(hands, jnp.argmax(hands[:, shown]).astype(INT), later_key, shown)
        if self.options.first_dealer is None:
            dealer = jax.random.randint(dealer_key, (), 0, self.num_players, dtype=INT)
        else:
            dealer = jnp.asarray(self.options.first_dealer, INT)
        return self.init_from_hands(self.deal(deal_key, dealer), dealer, later_key)

    def deal(self, key: Array, dealer: Array) -> Array:
        """The 54 cards shuffled and dealt one at a time from the dealer on: ``(n, 54)`` bool."""
        seat = (dealer + shuffled_places(key, NUM_CARDS)) % self.num_players
        return seat[None, :] == self._seats[:, None]

    def init_from_hands(
        self, hands: Array, dealer: Array | int, key: Array | None = None, shown: Array | int | None = None
    ) -> State:
        """The first deal of a game with ``hands`` (``(n, 54)`` bool, pick order; cards in no hand are set aside)
        and ``dealer``; ``key`` shuffles the later deals of a match (a fixed one by default); ``shown``: the San
        Jia Xi card shown before the deal, which everybody then knows the dealer holds (it must be the dealer's).
        No hand may hold more cards than a full deal gives (``slots``: the pick test has a row per card); checked
        here unless ``hands`` is traced (under ``jit`` or ``vmap``)."""
        n, units = self.num_players, self.options.num_units
        if not isinstance(hands, jax.core.Tracer) and (sizes := np.asarray(hands).sum(-1)).max() > self.slots:
            raise InvalidOptionError(
                f"a hand holds at most {self.slots} cards with {n} players (a full deal's largest), got sizes {sizes}"
            )
        zero = jnp.zeros((), INT)
        no_cards = jnp.zeros(NUM_CARDS, bool)
        known = jnp.zeros((n, n, NUM_CARDS), bool)
        if shown is not None:
            known |= ((self._seats == dealer)[:, None] & (jnp.arange(NUM_CARDS) == shown)[None, :])[None]
        state = State(
            hands=jnp.asarray(hands, bool),
            played=jnp.zeros((n, NUM_CARDS), bool),
            known=known,
            places=jnp.zeros(n, INT),
            passed=jnp.zeros(n, bool),
            passes=zero,
            dealer=jnp.asarray(dealer, INT),
            totals=jnp.zeros(units, INT),
            prev_order=jnp.full(n, -1, INT),
            prev_places=jnp.zeros(n, INT),
            deals_played=zero,
            top_cards=no_cards,
            top_shape=zero - 1,
            top_rank=zero - 1,
            top_wild=jnp.zeros((), bool),
            top_suited=jnp.zeros((), bool),
            top_seat=zero - 1,
            build_shape=zero - 1,
            build_top=zero - 1,
            build_picks=no_cards,
            build_last=zero - 1,
            stage=zero - 1,
            table=jnp.full(2, -1, INT),
            revealed=jnp.zeros((), bool),
            key=jax.random.PRNGKey(0) if key is None else key,
            current_player=jnp.asarray(dealer, INT),
            terminated=jnp.zeros((), bool),
            truncated=jnp.zeros((), bool),
            rewards=jnp.zeros(n, jnp.float32),
            step_count=zero,
            legal_action_mask=jnp.zeros(A.SIZE, bool),
            observation=jnp.zeros(self.layout.size, jnp.float32),
        )
        return self._finish(state)

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Take ``action`` for the player to act (``key`` is unused: later deals use the state's key). A finished
        game stays as it is, with zero rewards. An illegal action is not checked (mask it)."""
        del key
        s, a = state._replace(rewards=jnp.zeros_like(state.rewards)), jnp.asarray(action, INT)
        exchange_or_play = choose(s.stage >= 0, exchange_action(s, a, self.num_players), self._play_step(s, a))
        after = advance_exchange(exchange_or_play, self.options)  # also starts the exchange of a new deal
        step_count = s.step_count + 1
        after = after._replace(step_count=step_count, truncated=~after.terminated & (step_count >= self.max_steps))
        return keep_finished(s, self._finish(after))

    def _play_step(self, s: State, a: Array) -> State:
        """A pass, a shape, a top rank or a card; a play is made with its last card."""
        seat = s.current_player
        kind, group, length = (jnp.asarray(SHAPES)[jnp.maximum(s.build_shape, 0), i] for i in range(3))
        shape = jnp.where(a < A.TOP, a - A.SHAPE, s.build_shape)
        card = a - A.PICK
        is_pick = a >= A.PICK
        picks = s.build_picks | (is_pick & (jnp.arange(NUM_CARDS) == card))
        first_of_set = is_pick & ~s.build_picks.any() & (kind <= SET)
        build_top = jnp.where(a >= A.TOP, jnp.where(is_pick, s.build_top, a - A.TOP), s.build_top)
        build_top = jnp.where(first_of_set, jnp.asarray(VALUE)[jnp.clip(card, 0, NUM_CARDS - 1)], build_top)
        building = s._replace(
            build_shape=shape, build_top=build_top, build_picks=picks, build_last=jnp.where(is_pick, card, s.build_last)
        )
        plays = is_pick & (picks.sum() == group * length)
        played = self._play(building, seat, kind, group, picks, build_top)
        passed = self._pass(s, seat)
        after = choose(plays, played, building)
        return choose(a == A.PASS, passed, after)

    def _play(self, s: State, seat: Array, kind: Array, group: Array, cards: Array, rank: Array) -> State:
        """``seat`` plays ``cards``: the new combination to beat, perhaps going out, perhaps the deal's end."""
        at_seat = self._seats == seat
        hands = s.hands & ~(at_seat[:, None] & cards[None, :])
        value = jnp.asarray(VALUE)
        jokers = (cards & (jnp.arange(NUM_CARDS) >= BJ)).any()
        natural_suits = jnp.where(cards[: 4 * 12], jnp.arange(4 * 12) % 4, -1)
        one_suit = (natural_suits.max() == jnp.where(natural_suits < 0, 99, natural_suits).min()) & (
            natural_suits.max() >= 0
        )
        twos = (cards & (value == TWO)).sum()
        natural_twos = jnp.where(rank == TWO, jnp.minimum(twos, group), 0)  # a run to the 2 (set_sequence_top)
        wild = jnp.where(
            kind == SET,
            (cards & (value != rank)).any(),
            jnp.where(kind == SEQUENCE, jokers, (kind == SET_SEQUENCE) & ((twos > natural_twos) | jokers)),
        )
        suited = (kind == SEQUENCE) & one_suit & (jokers <= self.options.joker_keeps_suitedness)
        emptied = ~take(hands, seat).any()
        places = jnp.where(at_seat & emptied, (s.places > 0).sum() + 1, s.places)
        still = places == 0
        deal_over = still.sum() == 1
        s = s._replace(
            hands=hands,
            played=s.played | (at_seat[:, None] & cards[None, :]),
            known=s.known & ~(at_seat[None, :, None] & cards[None, None, :]),
            places=jnp.where(deal_over & still, self.num_players, places),
            passed=jnp.zeros_like(s.passed),
            passes=jnp.zeros((), INT),
            top_cards=cards,
            top_shape=s.build_shape,
            top_rank=rank,
            top_wild=wild,
            top_suited=suited,
            top_seat=seat,
        )
        return choose(deal_over, self._end_deal(s), self._start_turn(s, next_seat(seat, still)))

    def _pass(self, s: State, seat: Array) -> State:
        active = s.places == 0
        passes = s.passes + 1
        still_in = active.sum()
        needed = jnp.where(take(active, s.top_seat), still_in - 1, still_in)
        passed = s.passed | (self._seats == seat)
        going_on = self._start_turn(s._replace(passes=passes, passed=passed), next_seat(seat, active))
        winner = s.top_seat
        leader = jnp.where(take(active, winner), winner, next_seat(winner, active))
        cleared = s._replace(
            passes=jnp.zeros((), INT),
            passed=jnp.zeros_like(passed),
            top_cards=jnp.zeros_like(s.top_cards),
            top_shape=jnp.full((), -1, INT),
            top_seat=jnp.full((), -1, INT),
        )
        trick_over = self._start_turn(cleared, leader)
        return choose(passes < needed, going_on, trick_over)

    @staticmethod
    def _start_turn(s: State, seat: Array) -> State:
        return s._replace(
            current_player=seat,
            build_shape=s.top_shape,
            build_top=jnp.full((), -1, INT),
            build_picks=jnp.zeros_like(s.build_picks),
            build_last=jnp.full((), -1, INT),
        )

    def _end_deal(self, s: State) -> State:
        """The deal is over (``places`` complete): points, rewards, and the match's end or its next deal."""
        opts, n = self.options, self.num_players
        order = (s.places[None, :] == jnp.arange(1, n + 1)[:, None]).argmax(axis=1).astype(INT)  # seats by place
        units = self.units
        unit_of = units[:, None] == jnp.arange(opts.num_units)[None, :]  # (n, units)
        if self._sjx_points is None:
            points = FIRST_POINTS * take(unit_of, order[0]) + SECOND_POINTS * take(unit_of, order[1])
        else:  # each team's places as a bit set (bit place - 1), looked up in the table
            team_places = jnp.where(unit_of, 1 << (s.places[:, None] - 1), 0).sum(0)
            points = jnp.where(team_places[:, None] == jnp.arange(64), self._sjx_points, 0).sum(1)
        totals = s.totals + points
        deals_played = s.deals_played + 1
        best = totals.max()
        over = jnp.asarray(opts.episode == "deal") | (
            (best >= opts.target) & ((opts.tie_rule == "shared") | ((totals == best).sum() == 1))
        )
        rewards = jnp.zeros(n, jnp.float32)
        if opts.reward_mode == "match_points":
            rewards = points[units].astype(jnp.float32)
        elif opts.episode == "deal":
            rewards = self._team_mean((n - 1 - 2 * (s.places - 1)) / (n - 1))
        else:
            rewards = jnp.where(over, self._standing_rewards(totals)[units], 0.0).astype(jnp.float32)
        ended = s._replace(
            totals=totals,
            deals_played=deals_played,
            rewards=rewards,
            current_player=jnp.full((), -1, INT),
            terminated=over,
            build_shape=jnp.full((), -1, INT),
            build_top=jnp.full((), -1, INT),
            build_picks=jnp.zeros_like(s.build_picks),
            build_last=jnp.full((), -1, INT),
        )
        key, shuffle = jax.random.split(s.key)
        dealer = order[opts.dealer_place - 1]
        fresh = ended._replace(
            hands=self.deal(shuffle, dealer),
            played=jnp.zeros_like(s.played),
            known=jnp.zeros_like(s.known),
            places=jnp.zeros_like(s.places),
            dealer=dealer,
            prev_order=order,
            prev_places=s.places,
            top_cards=jnp.zeros_like(s.top_cards),
            top_shape=jnp.full((), -1, INT),
            top_seat=jnp.full((), -1, INT),
            key=key,
            terminated=jnp.zeros((), bool),
        )
        # with the exchange, the step plays it up to its first decision
        fresh = fresh._replace(stage=jnp.zeros((), INT)) if opts.exchange else self._start_turn(fresh, dealer)
        return choose(over, ended, fresh)

    def _team_mean(self, rewards: Array) -> Array:
        if self.options.team_mode == "individual":
            return rewards.astype(jnp.float32)
        same = self.units[:, None] == self.units[None, :]
        return (jnp.where(same, rewards[None, :], 0.0).sum(1) / same.sum(1)).astype(jnp.float32)

    def _standing_rewards(self, totals: Array) -> Array:
        """Per unit, linear in rank from +1 to -1; tied units share the mean of their ranks' rewards."""
        units = totals.shape[0]
        better = (totals[None, :] > totals[:, None]).sum(1)
        tied = (totals[None, :] == totals[:, None]).sum(1)
        # the mean of (u - 1 - 2r) / (u - 1) over r = better … better + tied - 1
        return (units - 1 - 2 * better - (tied - 1)) / (units - 1)

    # ------------------------------------------------------------------ what the player to act sees
    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the game is over)."""
        rules = self.options.combo_rules
        hand = take(s.hands, s.current_player)
        beat = (s.top_shape, s.top_rank, s.top_wild, s.top_suited)
        shape = jnp.maximum(s.build_shape, 0)
        kind = jnp.asarray(SHAPES)[shape, 0]
        leading = s.top_shape < 0
        started = (leading & (s.build_shape >= 0)) | (s.build_top >= 0) | s.build_picks.any()
        shapes = legal_shapes(hand, rules) & (s.build_shape < 0)
        needs_top = (s.build_shape >= 0) & (kind >= SEQUENCE) & (s.build_top < 0)
        tops = legal_tops(hand, shape, beat, rules) & needs_top
        picks = legal_picks(hand, s.build_picks, s.build_last, shape, s.build_top, beat, rules, self.slots)
        picks &= (s.build_shape >= 0) & ~needs_top
        no_give = jnp.zeros(A.TAKE - A.GIVE, bool)
        play = jnp.concatenate([(~leading & ~started)[None], shapes, tops, picks, no_give, jnp.zeros(2, bool)])
        mask = jnp.where(s.stage >= 0, exchange_mask(s, hand), play)
        return mask & (s.current_player >= 0)

    def observe(self, s: State, player: Array | int) -> Array:
        """``player``'s observation vector, the reference encoder's layout (seat-relative: ``player`` first)."""
        return observe(self, s, jnp.asarray(player, INT))

    def _finish(self, s: State) -> State:
        return s._replace(
            legal_action_mask=self.legal_mask(s), observation=self.observe(s, jnp.maximum(s.current_player, 0))
        )


def _sjx_points(options: ZsyOptions) -> Array:
    """The San Jia Xi table in force as a ``(64,)`` lookup by a team's places as a bit set (bit ``place - 1``)."""
    points = np.zeros(64, np.int32)
    for places, value in options.sjx_table.items():
        points[sum(1 << (int(p) - 1) for p in places.split(","))] = value
    return jnp.asarray(points)
