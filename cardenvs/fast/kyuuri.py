"""Kyuuri as one JAX array program (Pgx's API): ``init(key) -> State``, ``step(state, action) -> State``, both
pure, so ``jax.jit(jax.vmap(env.step))`` plays a whole batch of games at once.

The rules, the 13 action ids (play a rank, ``2`` = 0 … ``A`` = 12) and the observation vector are those of the
reference engine (:mod:`cardenvs.kyuuri.rules`, the oracle; ``tests/fast`` plays both side by side), for every
option: 2–7 players, the thresholds, ``reincarnation``, ``ties_all_score``, ``ace_lead_forces_lowest``,
``swedish_gurka``, ``fixed_deals``, ``max_deals``, both episode units and both reward modes. A game lasts several
deals, so the state carries a random key and each new deal is shuffled inside ``step``. Every branch of the rules
is computed for every game and the right one selected (``jnp.where``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from cardenvs.core.cards import NUM_RANKS
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.fast.arrays import keep_finished, next_seat, rotate, shuffled_places, step_end, take
from cardenvs.kyuuri.encoding import observation_layout
from cardenvs.kyuuri.options import KyuuriOptions

Array = jax.Array
INT = jnp.int32
COPIES = 4
NO_CARD = -1


class State(NamedTuple):
    """One game (or, under ``vmap``, a batch: every field gains a leading axis). Hands are rank counts."""

    hands: Array  # (n, 13) cards held
    played: Array  # (n, 13) cards each seat played this deal (public)
    trick_rank: Array  # (n,) rank each seat played to the trick in progress, -1 if none
    trick_count: Array  # () cards in the trick in progress
    trick_top: Array  # () highest rank in the trick, -1 when empty
    trick_winner: Array  # () seat winning the trick (the last-played of the highest rank), -1 when empty
    to_beat: Array  # () rank a follower must match or beat (the previous card in Gurka), -1 when empty
    lead_rank: Array  # () rank led to the trick, -1 when empty
    leader: Array  # () seat that leads (or led) the trick
    tricks_played: Array  # () tricks completed this deal
    dealer: Array  # ()
    penalties: Array  # (n,) accumulated penalty points
    eliminated: Array  # (n,) bool
    cucumbers: Array  # (n,) bool, reincarnated once (reincarnation)
    deals_played: Array  # () deals completed
    key: Array  # (2,) uint32, shuffles the later deals
    current_player: Array  # () seat to act, -1 once the game is over
    terminated: Array  # () bool
    truncated: Array  # () bool, the step cap was reached
    rewards: Array  # (n,) float32, earned by the last step
    step_count: Array  # () decisions taken
    legal_action_mask: Array  # (13,) bool, for the player to act
    observation: Array  # (observation size,) float32, the player to act's view (seat 0's once over)


class KyuuriFast:
    """Kyuuri for JAX; options as ``cardenvs/kyuuri-v0`` takes them."""

    num_actions = NUM_RANKS

    def __init__(self, max_steps: int | None = None, **options: Any):
        """``max_steps``: the step cap (truncation); by default the reference env's, never reached by the rules."""
        opts: KyuuriOptions = build_options(KyuuriOptions, options, game="kyuuri-v0")
        n = opts.num_players
        if max_steps is None:
            max_steps = opts.hand_size * n * opts.deals_cap + 1
        if max_steps < 1:
            raise InvalidOptionError(f"max_steps must be a positive int, got {max_steps}")
        if opts.deck_size != 52 or opts.deal_size is not None:
            raise InvalidOptionError(
                f"the JAX Kyuuri deals 7 (or Swedish 6) cards from 52 only; deck_size={opts.deck_size} and "
                f"deal_size={opts.deal_size} are not supported"
            )
        self.options = opts
        self.max_steps = max_steps
        self.num_players = n
        self.hand_size = opts.hand_size
        self.layout = observation_layout(n, opts.hand_size, opts.penalty_bound, opts.deals_cap)
        self._ranks = jnp.arange(NUM_RANKS, dtype=INT)
        self._seats = jnp.arange(n, dtype=INT)

    # ------------------------------------------------------------------ set-up
    def init(self, key: Array) -> State:
        """A random deal (a random dealer unless the options fix one) and its first decision."""
        dealer_key, deal_key, later_key = jax.random.split(key, 3)
        if self.options.dealer is None:
            dealer = jax.random.randint(dealer_key, (), 0, self.num_players, dtype=INT)
        else:
            dealer = jnp.asarray(self.options.dealer, dtype=INT)
        hands = self.deal(deal_key, dealer, jnp.ones(self.num_players, bool))
        return self.init_from_hands(hands, dealer, later_key)

    def deal(self, key: Array, dealer: Array, alive: Array) -> Array:
        """Shuffled cards dealt one at a time to the ``alive`` seats from the dealer's next one: (n, 13) counts."""
        n = self.num_players
        place = shuffled_places(key, COPIES * NUM_RANKS).reshape(NUM_RANKS, COPIES)  # of each copy of each rank
        leader = next_seat(dealer, alive)
        distance = (self._seats - leader) % n
        position = (alive[None, :] & (distance[None, :] < distance[:, None])).sum(axis=1)  # among the alive
        players = alive.sum()
        dealt = (place < self.hand_size * players)[None]
        to_seat = (place[None] % players == position[:, None, None]) & alive[:, None, None]
        return (to_seat & dealt).sum(axis=2, dtype=INT)

    def init_from_hands(self, hands: Array, dealer: Array | int, key: Array | None = None) -> State:
        """The first deal of a game with ``hands`` ((n, 13) rank counts) and ``dealer``; ``key`` shuffles later
        deals (a fixed one by default)."""
        n = self.num_players
        zero = jnp.zeros((), INT)
        dealer = jnp.asarray(dealer, INT)
        leader = (dealer + 1) % n
        state = State(
            hands=jnp.asarray(hands, INT),
            played=jnp.zeros((n, NUM_RANKS), INT),
            trick_rank=jnp.full(n, NO_CARD, INT),
            trick_count=zero,
            trick_top=zero + NO_CARD,
            trick_winner=zero - 1,
            to_beat=zero + NO_CARD,
            lead_rank=zero + NO_CARD,
            leader=leader,
            tricks_played=zero,
            dealer=dealer,
            penalties=jnp.zeros(n, INT),
            eliminated=jnp.zeros(n, bool),
            cucumbers=jnp.zeros(n, bool),
            deals_played=zero,
            key=jax.random.PRNGKey(0) if key is None else key,
            current_player=leader,
            terminated=jnp.zeros((), bool),
            truncated=jnp.zeros((), bool),
            rewards=jnp.zeros(n, jnp.float32),
            step_count=zero,
            legal_action_mask=jnp.zeros(NUM_RANKS, bool),
            observation=jnp.zeros(self.layout.size, jnp.float32),
        )
        return self._finish(state)

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Play rank ``action`` for the player to act (``key`` is unused: later deals use the state's key). A
        finished game stays as it is, with zero rewards. An illegal action is not checked (mask it)."""
        del key
        s, a, opts = state, jnp.asarray(action, INT), self.options
        seat = s.current_player
        at_seat = self._seats == seat
        card = at_seat[:, None] & (self._ranks == a)[None, :]
        hands, played = s.hands - card, s.played + card
        first = s.trick_count == 0
        trick_rank = jnp.where(at_seat, a, s.trick_rank)
        wins = first | (a >= s.trick_top)  # of equal ranks the last played wins
        top = jnp.where(wins, a, s.trick_top)
        winner = jnp.where(wins, seat, s.trick_winner)
        alive = ~s.eliminated
        count = s.trick_count + 1
        trick_done = count >= alive.sum()
        tricks_played = s.tricks_played + trick_done
        deal_done = trick_done & (tricks_played >= self.hand_size)
        losers, deltas = self._score(trick_rank, top, winner, s.penalties)
        deltas *= deal_done
        penalties = s.penalties + deltas
        deals_played = s.deals_played + deal_done
        eliminated, cucumbers, penalties, over, rewards = self._outcome(
            deal_done, losers, penalties, deltas, s.eliminated, s.cucumbers, deals_played
        )
        new_deal = deal_done & ~over
        still = ~eliminated
        dealer = jnp.where(new_deal, next_seat(s.dealer, still), s.dealer)
        key, shuffle = jax.random.split(s.key)
        fresh = self.deal(shuffle, dealer, still)
        new_leader = next_seat(dealer, still)
        reset_trick = trick_done & ~over
        leader = jnp.where(new_deal, new_leader, jnp.where(reset_trick, winner, s.leader))
        follower = next_seat(seat, alive)
        after = s._replace(
            hands=jnp.where(new_deal, fresh, hands),
            played=jnp.where(new_deal, 0, played),
            trick_rank=jnp.where(reset_trick, NO_CARD, trick_rank),
            trick_count=jnp.where(reset_trick, 0, count),
            trick_top=jnp.where(reset_trick, NO_CARD, top),
            trick_winner=jnp.where(reset_trick, -1, winner),
            to_beat=jnp.where(reset_trick, NO_CARD, a if opts.swedish_gurka else top),
            lead_rank=jnp.where(reset_trick, NO_CARD, jnp.where(first, a, s.lead_rank)),
            leader=leader,
            tricks_played=jnp.where(new_deal, 0, tricks_played),
            dealer=dealer,
            penalties=penalties,
            eliminated=eliminated,
            cucumbers=cucumbers,
            deals_played=deals_played,
            key=jnp.where(new_deal, key, s.key),
            current_player=jnp.where(over, -1, jnp.where(trick_done, leader, follower)),
            **step_end(over, rewards, s.step_count + 1, self.max_steps),
        )
        return keep_finished(s, self._finish(after))

    def _score(self, trick_rank: Array, top: Array, winner: Array, penalties: Array) -> tuple[Array, Array]:
        """The last trick's losers (bool per seat) and each seat's change of penalty (``scoring.py``'s rules)."""
        value = top + 2  # 2–10 face value, J 11, Q 12, K 13, A 14
        on_top = trick_rank == top
        if self.options.ties_all_score:
            return on_top, on_top * value
        losers = self._seats == winner
        bonus = jnp.where(on_top & ~losers, jnp.minimum(value, penalties), 0)
        return losers, losers * value - bonus

    def _outcome(
        self,
        deal_done: Array,
        losers: Array,
        penalties: Array,
        deltas: Array,
        eliminated: Array,
        cucumbers: Array,
        deals_played: Array,
    ) -> tuple[Array, Array, Array, Array, Array]:
        """After a deal's scoring (``deal_done``): who is out, who has a cucumber, the penalties after
        reincarnations (``scoring.apply_limit``), whether the game is over, and the step's rewards."""
        opts = self.options
        big = jnp.iinfo(INT).max
        if opts.episode == "deal":
            over = deal_done
            outcome = _share(losers, -1.0)
        else:
            alive = ~eliminated
            winners_by_limit = jnp.zeros_like(alive)
            over_by_limit = jnp.zeros((), bool)
            if opts.eliminates:
                beyond = penalties > opts.threshold if opts.threshold_strict else penalties >= opts.threshold
                over_limit = deal_done & alive & beyond
                hit = over_limit & cucumbers if opts.reincarnation else over_limit
                reborn = over_limit & ~hit  # reset to the highest penalty of those below the limit (0 if none)
                penalties = jnp.where(reborn, jnp.max(jnp.where(alive & ~over_limit, penalties, 0)), penalties)
                cucumbers = cucumbers | reborn
                everyone = hit.any() & (hit.sum() == alive.sum())  # only possible with ties_all_score
                standing = everyone & hit & (penalties == jnp.min(jnp.where(hit, penalties, big)))
                out = hit & ~standing
                eliminated = eliminated | out
                survivors = alive & ~out
                over_by_limit = deal_done & (everyone | (survivors.sum() == 1))
                winners_by_limit = jnp.where(everyone, standing, survivors)
            still = ~eliminated
            over_by_cap = deal_done & ~over_by_limit & (deals_played >= opts.deals_cap)
            lowest = still & (penalties == jnp.min(jnp.where(still, penalties, big)))
            over = over_by_limit | over_by_cap
            outcome = _share(jnp.where(over_by_limit, winners_by_limit, lowest), 1.0)
        rewards = jnp.where(over, outcome, 0.0) if opts.reward_mode == "outcome" else -deltas
        return eliminated, cucumbers, penalties, over, rewards.astype(jnp.float32)

    # ------------------------------------------------------------------ what the player to act sees
    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the game is over)."""
        held = take(s.hands, s.current_player) > 0
        lowest = self._ranks == jnp.argmax(held)
        following = (held & (self._ranks >= s.to_beat)) | lowest
        if self.options.ace_lead_forces_lowest:
            following = jnp.where(s.lead_rank == NUM_RANKS - 1, lowest, following)
        return jnp.where(s.trick_count == 0, held, following) & (s.current_player >= 0)

    def observe(self, s: State, player: Array | int) -> Array:
        """``player``'s observation vector, the reference encoder's layout (seat-relative: ``player`` first)."""
        me, n = jnp.asarray(player, INT), self.num_players
        hand = take(s.hands, me)
        in_trick = s.trick_count > 0

        def seat_hot(seat: Array) -> Array:
            return jax.nn.one_hot(jnp.where(seat >= 0, (seat - me) % n, -1), n)

        groups = [
            hand,
            COPIES - s.played.sum(axis=0) - hand,
            rotate(s.played, me).ravel(),
            jax.nn.one_hot(rotate(s.trick_rank, me), NUM_RANKS).ravel(),  # -1 (no card) is all zero
            jax.nn.one_hot(jnp.where(in_trick, s.to_beat, -1), NUM_RANKS),
            seat_hot(jnp.where(in_trick, s.trick_winner, -1)),
            seat_hot(s.leader),
            seat_hot(s.current_player),
            seat_hot(s.dealer),
            rotate(s.penalties, me),
            rotate(s.eliminated, me),
            rotate(s.cucumbers, me),
            s.tricks_played[None],
            s.deals_played[None],
            (self.options.deals_cap - s.deals_played)[None],
        ]
        obs = jnp.concatenate([g.astype(jnp.float32) for g in groups])
        assert obs.shape == (self.layout.size,), "the groups must follow the reference layout"
        return obs

    def _finish(self, s: State) -> State:
        return s._replace(
            legal_action_mask=self.legal_mask(s), observation=self.observe(s, jnp.maximum(s.current_player, 0))
        )


def _share(group: Array, total: float) -> Array:
    """Zero-sum rewards: ``group`` shares ``total``, the others share its negative (all 0 if empty or everybody)."""
    n, k = group.shape[0], group.sum()
    split = (k > 0) & (k < n)
    shares = jnp.where(group, total / jnp.maximum(k, 1), -total / jnp.maximum(n - k, 1))
    return jnp.where(split, shares, 0.0).astype(jnp.float32)
