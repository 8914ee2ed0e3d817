"""Verish' ne verish' as one JAX array program (Pgx's API): ``init(key) -> State``, ``step(state, action) ->
State``, both pure, so ``jax.jit(jax.vmap(env.step))`` plays a whole batch of games at once.

The rules, the action ids and the observation vector are those of the reference engine
(:mod:`cardenvs.verish_ne_verish.rules`, the oracle; ``tests/fast`` plays both side by side), for the options
that the benchmark and training use: 2–6 players, either deck, ``forbid_discarded_rank``, both reward modes,
one game per episode, quads discarded at once. Every branch of the rules is computed for every game and the
right one selected (``jnp.where``): no Python control flow depends on the state.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.fast.verish_obs import observe
from cardenvs.verish_ne_verish.encoding import observation_layout
from cardenvs.verish_ne_verish.rules import MAX_PLAY, VerishOptions

Array = jax.Array
INT = jnp.int32


class State(NamedTuple):
    """One game (or, under ``vmap``, a batch: every field gains a leading axis). Hands are rank counts."""

    hands: Array  # (n, r) cards held, the play being built included (as in the reference table)
    pile_by_seat: Array  # (n, r) cards each seat put into the current pile
    pile_count: Array  # (n,) how many cards each seat put into the current pile (public)
    pile_size: Array  # () cards in the pile
    pile_plays: Array  # () plays on the pile
    claim_rank: Array  # () rank claimed for the pile, -1 when empty
    last_seat: Array  # () owner of the latest play
    last_cards: Array  # (r,) the latest play's cards
    last_count: Array  # () the latest play's size
    known_held: Array  # (n + 1, n, r) cards of each rank observer o knows seat h holds (row n: public knowledge)
    discarded: Array  # (r,) bool, ranks discarded face up as quads
    building_rank: Array  # () rank declared for the play being built (lead), -1 before
    building: Array  # (r,) cards picked so far
    building_count: Array  # ()
    building_min: Array  # () lowest rank the next pick may take
    leading: Array  # () bool, the play being built opens the round
    out: Array  # (n,) bool, gone out safely
    exit_place: Array  # (n,) order of going out (0 first), -1 while in
    num_out: Array  # ()
    current_player: Array  # () seat to act, -1 once the game is over
    terminated: Array  # () bool
    truncated: Array  # () bool, the step cap was reached (a draw)
    rewards: Array  # (n,) float32, earned by the last step
    step_count: Array  # () decisions taken
    legal_action_mask: Array  # (actions,) bool, for the player to act
    observation: Array  # (observation size,) float32, the player to act's view (seat 0's once over)


class VerishFast:
    """Verish' ne verish' for JAX; options as ``cardenvs/verish_ne_verish-v0`` takes them (a subset)."""

    def __init__(self, max_steps: int = 3000, **options: Any):
        opts: VerishOptions = build_options(VerishOptions, options, game="verish_ne_verish-v0")
        if opts.quad_discard_optional:
            raise InvalidOptionError("the JAX path plays quad_discard_optional=False only (quads go at once)")
        if opts.n_games != 1:
            raise InvalidOptionError(f"the JAX path plays one game per episode (n_games=1), got {opts.n_games}")
        if max_steps < 1:
            raise InvalidOptionError(f"max_steps must be a positive int, got {max_steps}")
        self.options = opts
        self.max_steps = max_steps
        self.num_players = n = opts.num_players
        deck = opts.deck
        self.num_ranks = r = len(deck.ranks())
        self.deck_size = deck.size
        self.layout = observation_layout(n, r, deck.size, 1)
        self.num_actions = 3 * r + 3
        self.DECLARE, self.PICK, self.DONE = 1, 1 + r, 1 + 2 * r
        self.deck_ranks = jnp.repeat(jnp.arange(r, dtype=INT), 4)
        self._ranks = jnp.arange(r, dtype=INT)
        self._seats = jnp.arange(n, dtype=INT)

    # ------------------------------------------------------------------ set-up
    def init(self, key: Array) -> State:
        """A random deal (a random dealer unless the options fix one) and its first decision."""
        dealer_key, shuffle_key = jax.random.split(key)
        n, dealt = self.num_players, self.deck_size - 1
        if self.options.dealer is None:
            dealer = jax.random.randint(dealer_key, (), 0, n, dtype=INT)
        else:
            dealer = jnp.asarray(self.options.dealer, dtype=INT)
        cards = jax.random.permutation(shuffle_key, self.deck_ranks)
        aside = jax.nn.one_hot(cards[0], self.num_ranks, dtype=INT)
        seat_of = (dealer + 1 + jnp.arange(dealt, dtype=INT)) % n
        hands = jnp.zeros((n, self.num_ranks), INT).at[seat_of, cards[1:]].add(1)
        del aside  # never revealed, and nothing in the rules reads it
        return self.init_from_hands(hands, dealer)

    def init_from_hands(self, hands: Array, dealer: Array | int) -> State:
        """The game after dealing ``hands`` ((n, r) rank counts; the set-aside card is the rest of the deck)."""
        n, r = self.num_players, self.num_ranks
        zero = jnp.zeros((), INT)
        state = State(
            hands=jnp.asarray(hands, INT),
            pile_by_seat=jnp.zeros((n, r), INT),
            pile_count=jnp.zeros(n, INT),
            pile_size=zero,
            pile_plays=zero,
            claim_rank=zero - 1,
            last_seat=zero,
            last_cards=jnp.zeros(r, INT),
            last_count=zero,
            known_held=jnp.zeros((n + 1, n, r), INT),
            discarded=jnp.zeros(r, bool),
            building_rank=zero - 1,
            building=jnp.zeros(r, INT),
            building_count=zero,
            building_min=zero,
            leading=jnp.zeros((), bool),
            out=jnp.zeros(n, bool),
            exit_place=jnp.full(n, -1, INT),
            num_out=zero,
            current_player=zero - 1,
            terminated=jnp.zeros((), bool),
            truncated=jnp.zeros((), bool),
            rewards=jnp.zeros(n, jnp.float32),
            step_count=zero,
            legal_action_mask=jnp.zeros(self.num_actions, bool),
            observation=jnp.zeros(self.layout.size, jnp.float32),
        )
        quads = state.hands == 4
        state = state._replace(hands=state.hands - 4 * quads, discarded=quads.any(axis=0))
        state = self._settle(state, (jnp.asarray(dealer, INT) + 1) % n)
        return self._finish(state)

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Apply ``action`` for the player to act (``key`` is unused: the game has no chance after the deal).
        A finished game stays as it is, with zero rewards. An illegal action is not checked (mask it)."""
        del key
        a = jnp.asarray(action, INT)
        seat = state.current_player
        is_declare = (a >= self.DECLARE) & (a < self.PICK)
        is_pick = (a >= self.PICK) & (a < self.DONE)
        k = a - self.PICK
        picked = is_pick & (self._ranks == k)
        count = state.building_count + is_pick
        built = state._replace(
            building_rank=jnp.where(is_declare, a - self.DECLARE, state.building_rank),
            building=state.building + picked,
            building_count=count,
            building_min=jnp.where(is_pick, k, state.building_min),
            rewards=jnp.zeros_like(state.rewards),
        )
        hand_size = state.hands[seat].sum()
        commits = (a == self.DONE) | (is_pick & (jnp.minimum(MAX_PLAY, hand_size) == count))
        after = _select(commits, self._commit(built, seat), built)
        after = _select(a == 0, self._challenge(built, seat), after)
        after = after._replace(step_count=state.step_count + 1)
        after = after._replace(truncated=~after.terminated & (after.step_count >= self.max_steps))
        return _select(state.terminated | state.truncated, state._replace(rewards=built.rewards), self._finish(after))

    def _commit(self, s: State, seat: Array) -> State:
        """Place the built cards face down; a previous player whose last cards are now safe goes out."""
        cards, count = s.building, s.building_count
        previous = jnp.where(s.pile_plays > 0, s.last_seat, -1)
        known = s.known_held.at[:, seat].set(jnp.maximum(s.known_held[:, seat] - count, 0))
        hands = s.hands.at[seat].add(-cards)
        s = s._replace(
            hands=hands,
            known_held=known,
            pile_by_seat=s.pile_by_seat.at[seat].add(cards),
            pile_count=s.pile_count.at[seat].add(count),
            pile_size=s.pile_size + count,
            pile_plays=s.pile_plays + 1,
            claim_rank=jnp.where(s.leading, s.building_rank, s.claim_rank),
            last_seat=seat,
            last_cards=cards,
            last_count=count,
            leading=jnp.zeros((), bool),
            **self._cleared_building(),
        )
        safe = (previous >= 0) & (hands[previous].sum() == 0)
        s = _select(safe, self._go_out(s, previous), s)
        over = self._game_over(s)
        follower = _next_seat(seat, s.hands.sum(axis=1) > 0)
        return _select(over, self._end(s), s._replace(current_player=follower))

    def _challenge(self, s: State, challenger: Array) -> State:
        """Turn over the latest play; the liar or the wrong challenger takes the pile, then discards quads."""
        owner, revealed = s.last_seat, s.last_cards
        lie = revealed[s.claim_rank] != s.last_count
        taker = jnp.where(lie, owner, challenger)
        # What each observer now knows the taker holds: its own cards from the pile and the revealed ones.
        gained = jnp.concatenate([s.pile_by_seat + revealed, revealed[None]])
        gained = gained.at[owner].add(-revealed)
        known = s.known_held.at[:, taker].add(gained).at[taker, taker].set(0)
        hand = s.hands[taker] + s.pile_by_seat.sum(axis=0)
        quads = hand == 4
        known = known.at[:, taker].set(jnp.maximum(known[:, taker] - 4 * quads, 0))
        s = s._replace(
            hands=s.hands.at[taker].set(hand),
            known_held=known,
            pile_by_seat=jnp.zeros_like(s.pile_by_seat),
            pile_count=jnp.zeros_like(s.pile_count),
            pile_size=jnp.zeros_like(s.pile_size),
            pile_plays=jnp.zeros_like(s.pile_plays),
            claim_rank=jnp.full_like(s.claim_rank, -1),
        )
        # A truthful last play is safe: its owner goes out before the taker's quads are counted.
        safe = ~lie & (s.hands[owner].sum() == 0)
        s = _select(safe, self._go_out(s, owner), s)
        s = s._replace(hands=s.hands.at[taker].add(-4 * quads), discarded=s.discarded | quads)
        starter = jnp.where(lie, challenger, (challenger + 1) % self.num_players)
        return self._settle(s, starter)

    def _settle(self, s: State, starter: Array) -> State:
        """After quads: the empty-handed go out (from ``starter`` on), then the game ends or a round starts."""
        n = self.num_players
        for offset in range(n):
            seat = (starter + offset) % n
            empty = (s.hands[seat].sum() == 0) & ~s.out[seat]
            s = _select(empty, self._go_out(s, seat), s)
        holding = s.hands.sum(axis=1) > 0
        first = jnp.where(holding[starter], starter, _next_seat(starter, holding))
        started = s._replace(leading=jnp.ones((), bool), current_player=first)
        return _select(self._game_over(s), self._end(s), started)

    def _go_out(self, s: State, seat: Array) -> State:
        return s._replace(
            out=s.out.at[seat].set(True), exit_place=s.exit_place.at[seat].set(s.num_out), num_out=s.num_out + 1
        )

    def _game_over(self, s: State) -> Array:
        return (~s.out).sum() <= 1

    def _end(self, s: State) -> State:
        """The last player holding cards loses; rewards by the options' mode."""
        n = self.num_players
        loser = jnp.argmax(~s.out)
        place = s.exit_place.at[loser].set(s.num_out)
        if self.options.reward_mode == "loser":
            rewards = jnp.where(self._seats == loser, -1.0, 1.0 / (n - 1))
        else:
            rewards = (n - 1 - 2 * place) / (n - 1)
        return s._replace(
            exit_place=place,
            current_player=jnp.full_like(s.current_player, -1),
            terminated=jnp.ones((), bool),
            rewards=rewards.astype(jnp.float32),
        )

    def _cleared_building(self) -> dict[str, Array]:
        zero = jnp.zeros((), INT)
        return {
            "building_rank": zero - 1,
            "building": jnp.zeros(self.num_ranks, INT),
            "building_count": zero,
            "building_min": zero,
        }

    # ------------------------------------------------------------------ what the player to act sees
    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the game is over)."""
        r = self.num_ranks
        live = s.current_player >= 0
        declaring = s.leading & (s.building_rank < 0)
        declarable = ~s.discarded if self.options.forbid_discarded_rank else jnp.ones(r, bool)
        hand = s.hands[jnp.maximum(s.current_player, 0)]
        building = ~declaring & live
        picks = building & (s.building_count < MAX_PLAY) & (self._ranks >= s.building_min) & (hand > s.building)
        challenge = ~s.leading & (s.building_count == 0) & live
        done = building & (s.building_count > 0)
        quads = jnp.zeros(r + 1, bool)
        return jnp.concatenate([challenge[None], declarable & declaring & live, picks, done[None], quads])

    def observe(self, s: State, player: Array | int) -> Array:
        """``player``'s observation vector, the reference encoder's layout."""
        return observe(self, s, jnp.asarray(player, INT))

    def _finish(self, s: State) -> State:
        return s._replace(
            legal_action_mask=self.legal_mask(s), observation=self.observe(s, jnp.maximum(s.current_player, 0))
        )


def _select(condition: Array, when_true: State, when_false: State) -> State:
    """Field by field ``where``: one branch of the rules or the other, with no Python control flow."""
    return jax.tree.map(lambda a, b: jnp.where(condition, a, b), when_true, when_false)


def _next_seat(seat: Array, active: Array) -> Array:
    """The first seat after ``seat`` in play order that is ``active`` (-1 if none)."""
    n = active.shape[0]
    candidates = (seat + jnp.arange(1, n + 1, dtype=INT)) % n
    hits = active[candidates]
    return jnp.where(hits.any(), candidates[jnp.argmax(hits)], -1)

