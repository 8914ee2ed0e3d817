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
from cardenvs.fast.arrays import keep_finished, next_seat, one_hot, step_end, take
from cardenvs.fast.claims import empty_table, known_after, pickable
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
            **empty_table(hands, self.num_actions, self.layout.size),
            discarded=jnp.zeros(r, bool),
            leading=jnp.zeros((), bool),
            current_player=zero - 1,
        )
        quads = state.hands == 4
        hands = state.hands - 4 * quads
        yes = jnp.ones((), bool)
        starter = (jnp.asarray(dealer, INT) + 1) % n
        out, exit_place, num_out, first = self._settle(hands, state.out, state.exit_place, state.num_out, starter, yes)
        over, rewards, exit_place = self._outcome(out, exit_place, num_out, yes)
        state = state._replace(
            hands=hands,
            discarded=quads.any(axis=0),
            out=out,
            exit_place=exit_place,
            num_out=num_out,
            leading=~over,
            current_player=jnp.where(over, -1, first),
            terminated=over,
            rewards=rewards,
        )
        return self._finish(state)

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Apply ``action`` for the player to act (``key`` is unused: the game has no chance after the deal).
        A finished game stays as it is, with zero rewards. An illegal action is not checked (mask it).

        Each field is computed once for every outcome (a sub-step of a play, a play placed, a challenge) and
        the outcome picked by ``where``; both whole-state branches would cost the batch twice the memory
        traffic."""
        del key
        s, a, n = state, jnp.asarray(action, INT), self.num_players
        seat = s.current_player
        sizes = s.hands.sum(axis=1)
        is_declare = (a >= self.DECLARE) & (a < self.PICK)
        is_pick = (a >= self.PICK) & (a < self.DONE)
        count = s.building_count + is_pick
        building = s.building + (is_pick & (self._ranks == a - self.PICK))
        building_rank = jnp.where(is_declare, a - self.DECLARE, s.building_rank)
        commits = (a == self.DONE) | (is_pick & (jnp.minimum(MAX_PLAY, take(sizes, seat)) == count))
        challenge = a == 0
        resolves = commits | challenge
        # A challenge: the liar (the latest play's owner) or the wrong challenger takes the pile.
        owner, revealed = s.last_seat, s.last_cards
        lie = take(revealed, s.claim_rank) != s.last_count
        taker = jnp.where(lie, owner, seat)
        quads = challenge & (take(s.hands, taker) + s.pile_by_seat.sum(axis=0) == 4)
        gained = s.pile_by_seat.sum(axis=0) - 4 * quads
        at_seat, at_taker = self._seats == seat, self._seats == taker
        hands = s.hands - (at_seat[:, None] & commits) * building + (at_taker[:, None] & challenge) * gained
        known_held = known_after(s, seat, taker, count, quads, commits, challenge)
        placed = commits * building
        # Going out: the previous player's last cards are safe once played on; a truthful owner's once turned.
        previous = jnp.where(commits, jnp.where(s.pile_plays > 0, s.last_seat, -1), owner)
        safe = (commits & (previous >= 0)) | (challenge & ~lie)
        held = hands.sum(axis=1)
        safe &= take(held, previous) == 0
        out, exit_place, num_out = _go_out(s.out, s.exit_place, s.num_out, previous, safe)
        starter = jnp.where(lie, seat, (seat + 1) % n)
        holding = held > 0
        out, exit_place, num_out, first = self._settle(hands, out, exit_place, num_out, starter, challenge)
        over, rewards, exit_place = self._outcome(out, exit_place, num_out, resolves)
        follower = jnp.where(commits, next_seat(seat, holding), jnp.where(challenge, first, seat))
        after = s._replace(
            hands=hands,
            pile_by_seat=jnp.where(challenge, 0, s.pile_by_seat + at_seat[:, None] * placed),
            pile_count=jnp.where(challenge, 0, s.pile_count + at_seat * commits * count),
            pile_size=jnp.where(challenge, 0, s.pile_size + commits * count),
            pile_plays=jnp.where(challenge, 0, s.pile_plays + commits),
            claim_rank=jnp.where(challenge, -1, jnp.where(commits & s.leading, building_rank, s.claim_rank)),
            last_seat=jnp.where(commits, seat, s.last_seat),
            last_cards=jnp.where(commits, building, s.last_cards),
            last_count=jnp.where(commits, count, s.last_count),
            known_held=known_held,
            discarded=s.discarded | quads,
            building_rank=jnp.where(resolves, -1, building_rank),
            building=jnp.where(resolves, 0, building),
            building_count=jnp.where(resolves, 0, count),
            building_min=jnp.where(resolves, 0, jnp.where(is_pick, a - self.PICK, s.building_min)),
            leading=jnp.where(commits, False, jnp.where(challenge, ~over, s.leading)),
            out=out,
            exit_place=exit_place,
            num_out=num_out,
            current_player=jnp.where(over, -1, follower),
            **step_end(over, rewards, s.step_count + 1, self.max_steps),
        )
        return keep_finished(s, self._finish(after))

    def _settle(
        self, hands: Array, out: Array, exit_place: Array, num_out: Array, starter: Array, when: Array
    ) -> tuple[Array, Array, Array, Array]:
        """After quads (``when``): the empty-handed go out, from ``starter`` on; the round's first player."""
        n = self.num_players
        empty = hands.sum(axis=1) == 0
        going = when & empty & ~out
        distance = (self._seats - starter) % n
        earlier = (going[None, :] & (distance[None, :] < distance[:, None])).sum(axis=1)
        exit_place = jnp.where(going, num_out + earlier, exit_place)
        out, num_out = out | going, num_out + going.sum()
        first = jnp.where(take(empty, starter), next_seat(starter, ~empty), starter)
        return out, exit_place, num_out, first

    def _outcome(self, out: Array, exit_place: Array, num_out: Array, when: Array) -> tuple[Array, Array, Array]:
        """Whether the game is over (the last player holding cards loses), its rewards and the final places."""
        n = self.num_players
        over = when & ((~out).sum() <= 1)
        loser = jnp.argmax(~out)
        place = jnp.where(over & (self._seats == loser), num_out, exit_place)
        if self.options.reward_mode == "loser":
            rewards = jnp.where(self._seats == loser, -1.0, 1.0 / (n - 1))
        else:
            rewards = (n - 1 - 2 * place) / (n - 1)
        return over, jnp.where(over, rewards, 0.0).astype(jnp.float32), place

    # ------------------------------------------------------------------ what the player to act sees
    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the game is over)."""
        r = self.num_ranks
        live = s.current_player >= 0
        declaring = s.leading & (s.building_rank < 0)
        declarable = ~s.discarded if self.options.forbid_discarded_rank else jnp.ones(r, bool)
        hand = take(s.hands, s.current_player)
        building = ~declaring & live
        picks = building & pickable(s, hand, MAX_PLAY)
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


def _go_out(out: Array, exit_place: Array, num_out: Array, seat: Array, when: Array) -> tuple[Array, Array, Array]:
    """``seat`` goes out (next in the exit order) where ``when`` holds."""
    hit = one_hot(seat, out.shape[0]) & when
    return out | hit, jnp.where(hit, num_out, exit_place), num_out + when
