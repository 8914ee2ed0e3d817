"""Verish' ne verish' as one JAX array program (Pgx's API): ``init(key) -> State``, ``step(state, action) ->
State``, both pure, so ``jax.jit(jax.vmap(env.step))`` plays a whole batch of games at once.

The rules, the action ids and the observation vector are those of the reference engine
(:mod:`cardenvs.verish_ne_verish.rules`, the oracle; ``tests/fast`` plays both side by side), with every
option: 2–6 players, either deck, quads discarded at once or at the holder's choice (an extra decision after the
deal and after each pick-up), ``forbid_discarded_rank``, both reward modes, matches of several games (the next
game dealt inside the step from ``state.key``). Every branch of the rules is computed for every game and the right
one selected (``jnp.where``): no Python control flow depends on the state.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.core.bluffing_game import rank_labels
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.fast.arrays import keep_finished, next_seat, one_hot, step_end, take, with_mask_and_view
from cardenvs.fast.claims import deal_counts, empty_table, fraction, known_after, match_start, pickable, play_on
from cardenvs.fast.verish_obs import observe
from cardenvs.fast.verish_state import State
from cardenvs.verish_ne_verish.actions import action_table
from cardenvs.verish_ne_verish.encoding import observation_layout
from cardenvs.verish_ne_verish.env import DEFINITION
from cardenvs.verish_ne_verish.rules import MAX_PLAY, VerishOptions

Array = jax.Array
INT = jnp.int32


class VerishFast:
    """Verish' ne verish' for JAX; options as ``cardenvs/verish_ne_verish-v0`` takes them."""

    def __init__(self, max_steps: int | None = None, **options: Any):
        """``max_steps``: the step cap (truncation, a draw); by default the AEC env's, 3,000 × ``n_games``."""
        opts: VerishOptions = build_options(VerishOptions, options, game="verish_ne_verish-v0")
        if max_steps is None:
            max_steps = DEFINITION.default_max_steps(opts)
        if max_steps < 1:
            raise InvalidOptionError(f"max_steps must be a positive int, got {max_steps}")
        if opts.deck_size not in (None, 36, 52):
            raise InvalidOptionError(
                f"the JAX Verish' ne verish' deals 36 or 52 cards only; deck_size={opts.deck_size} is not supported"
            )
        self.options = opts
        self.max_steps = max_steps
        self.num_players = n = opts.num_players
        deck = opts.deck
        self.num_ranks = r = len(deck.ranks())
        self.deck_size = deck.size
        self.layout = observation_layout(n, r, deck.size, opts.n_games)
        actions = action_table(rank_labels(deck))  # the reference engine's ids, read from its one table
        self.num_actions = actions.size
        first = {name: block.offset for name, block in actions.blocks.items()}
        self.CHALLENGE, self.DECLARE, self.PICK, self.DONE = (
            first["challenge"],
            first["declare"],
            first["pick"],
            first["done"],
        )
        self.DISCARD, self.KEEP = first["discard_quad"], first["keep_quads"]
        self._ranks = jnp.arange(r, dtype=INT)
        self._seats = jnp.arange(n, dtype=INT)

    # ------------------------------------------------------------------ set-up
    def init(self, key: Array) -> State:
        """A random deal (a random dealer unless the options fix one) and its first decision."""
        dealer_key, deal_key, match_key = jax.random.split(key, 3)
        if self.options.dealer is None:
            dealer = jax.random.randint(dealer_key, (), 0, self.num_players, dtype=INT)
        else:
            dealer = jnp.asarray(self.options.dealer, dtype=INT)
        return self.init_from_hands(self.deal(deal_key, dealer), dealer, match_key)

    def deal(self, key: Array, dealer: Array) -> Array:
        """A shuffled deck dealt clockwise from ``dealer``'s left after one card set aside (never revealed, and
        nothing in the rules reads it): ``(n, r)`` rank counts. The later games of a match are dealt by
        ``deal(jax.random.split(state.key)[0], next dealer)``."""
        return deal_counts(key, self.num_players, self.num_ranks, dealer + 1, skip=1)

    def init_from_hands(self, hands: Array, dealer: Array | int, key: Array | None = None) -> State:
        """The game after dealing ``hands`` ((n, r) rank counts; the set-aside card is the rest of the deck);
        ``key`` deals the later games of a match."""
        key = jax.random.PRNGKey(0) if key is None else key
        return self._finish(self._new_game(hands, jnp.asarray(dealer, INT), key))

    def _new_game(self, hands: Array, dealer: Array, key: Array) -> State:
        """A game's state at the deal, before its mask and view."""
        n = self.num_players
        state = State(
            **empty_table(hands, self.num_actions, self.layout.size),
            discarded=jnp.zeros(self.num_ranks, bool),
            leading=jnp.zeros((), bool),
            quad_queue=jnp.zeros(n, bool),
            quad_min=jnp.zeros((), INT),
            next_starter=(dealer + 1) % n,
            dealer=dealer,
            **match_start(n, key),
            current_player=jnp.zeros((), INT) - 1,
        )
        return self._start_game(state)

    def _start_game(self, s: State) -> State:
        """The first decision after the deal: every player asked in turn about its quads from the dealer's left
        (``quad_discard_optional``), or the quads discarded at once and the first round started."""
        yes = jnp.ones((), bool)
        if self.options.quad_discard_optional:
            return s._replace(quad_queue=jnp.ones(self.num_players, bool), current_player=s.next_starter)
        quads = s.hands == 4
        hands = s.hands - 4 * quads
        out, exit_place, num_out, first = self._settle(hands, s.out, s.exit_place, s.num_out, s.next_starter, yes)
        over, points, exit_place = self._outcome(out, exit_place, num_out, yes)
        return s._replace(
            hands=hands,
            discarded=quads.any(axis=0),
            out=out,
            exit_place=exit_place,
            num_out=num_out,
            leading=~over,
            current_player=jnp.where(over, -1, first),
            terminated=over,
            rewards=self._rewards(points, over),
        )

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Apply ``action`` for the player to act (``key`` is unused: the later deals of a match come from
        ``state.key``). A finished game stays as it is, with zero rewards. An illegal action is not checked (mask
        it).

        Each field is computed once for every outcome (a sub-step of a play, a play placed, a challenge, a quad
        decision) and the outcome picked by ``where``; both whole-state branches would cost the batch twice the
        memory traffic."""
        del key
        s, a, n = state, jnp.asarray(action, INT), self.num_players
        optional = self.options.quad_discard_optional
        seat = s.current_player
        sizes = s.hands.sum(axis=1)
        is_declare = (a >= self.DECLARE) & (a < self.PICK)
        is_pick = (a >= self.PICK) & (a < self.DONE)
        count = s.building_count + is_pick
        building = s.building + (is_pick & (self._ranks == a - self.PICK))
        building_rank = jnp.where(is_declare, a - self.DECLARE, s.building_rank)
        commits = (a == self.DONE) | (is_pick & (jnp.minimum(MAX_PLAY, take(sizes, seat)) == count))
        challenge = a == self.CHALLENGE
        # A challenge: the liar (the latest play's owner) or the wrong challenger takes the pile.
        owner, revealed = s.last_seat, s.last_cards
        lie = take(revealed, s.claim_rank) != s.last_count
        taker = jnp.where(lie, owner, seat)
        at_seat, at_taker = self._seats == seat, self._seats == taker
        pile = s.pile_by_seat.sum(axis=0)
        quads = jnp.zeros_like(s.discarded) if optional else challenge & (take(s.hands, taker) + pile == 4)
        hands = s.hands - (at_seat[:, None] & commits) * building + (at_taker[:, None] & challenge) * (pile - 4 * quads)
        known_held = known_after(s, seat, taker, count, quads, commits, challenge)
        # A quad decision: discard one quad (the same player goes on with the higher ones) or keep the rest and
        # hand the decision on; the last one settles the quads (the empty-handed go out) and starts the round.
        quad_queue, settles, discard = s.quad_queue, challenge, jnp.zeros_like(s.discarded)
        if optional:
            discard = (self._ranks == a - self.DISCARD) & (a < self.KEEP)
            hands -= 4 * (at_seat[:, None] & discard)
            known_held = jnp.maximum(known_held - 4 * (at_seat[:, None] & discard), 0)
            quad_queue = (s.quad_queue & ~(at_seat & (a == self.KEEP))) | (challenge & at_taker)
            settles = s.quad_queue.any() & ~quad_queue.any()
        # Going out: the previous player's last cards are safe once played on; a truthful owner's once turned.
        previous = jnp.where(commits, jnp.where(s.pile_plays > 0, s.last_seat, -1), owner)
        safe = (commits & (previous >= 0)) | (challenge & ~lie)
        held = hands.sum(axis=1)
        safe &= take(held, previous) == 0
        out, exit_place, num_out = _go_out(s.out, s.exit_place, s.num_out, previous, safe)
        next_starter = jnp.where(challenge, jnp.where(lie, seat, (seat + 1) % n), s.next_starter)
        out, exit_place, num_out, first = self._settle(hands, out, exit_place, num_out, next_starter, settles)
        over, points, exit_place = self._outcome(out, exit_place, num_out, commits | settles)
        follower = jnp.where(commits, next_seat(seat, held > 0), jnp.where(settles, first, seat))
        if optional:
            follower = jnp.where(quad_queue.any(), next_seat(seat - 1, quad_queue), follower)
        after = s._replace(
            hands=hands,
            pile_by_seat=jnp.where(challenge, 0, s.pile_by_seat + at_seat[:, None] * commits * building),
            pile_count=jnp.where(challenge, 0, s.pile_count + at_seat * commits * count),
            pile_size=jnp.where(challenge, 0, s.pile_size + commits * count),
            pile_plays=jnp.where(challenge, 0, s.pile_plays + commits),
            claim_rank=jnp.where(challenge, -1, jnp.where(commits & s.leading, building_rank, s.claim_rank)),
            last_seat=jnp.where(commits, seat, s.last_seat),
            last_cards=jnp.where(commits, building, s.last_cards),
            last_count=jnp.where(commits, count, s.last_count),
            known_held=known_held,
            discarded=s.discarded | quads | discard,
            building_rank=jnp.where(commits | challenge, -1, building_rank),
            building=jnp.where(commits | challenge, 0, building),
            building_count=jnp.where(commits | challenge, 0, count),
            building_min=jnp.where(commits | challenge, 0, jnp.where(is_pick, a - self.PICK, s.building_min)),
            leading=jnp.where(commits | challenge, False, s.leading) | (settles & ~over),
            quad_queue=quad_queue,
            quad_min=jnp.where(discard.any(), a - self.DISCARD + 1, jnp.where(a == self.KEEP, 0, s.quad_min)),
            next_starter=next_starter,
            out=out,
            exit_place=exit_place,
            num_out=num_out,
            current_player=jnp.where(over, -1, follower),
            **step_end(over, self._rewards(points, over), s.step_count + 1, self.max_steps),
        )
        if self.options.n_games > 1:
            after = play_on(after, self._next_game(after), points, self.options.n_games, self.max_steps)
        return keep_finished(s, self._finish(after))

    def _next_game(self, s: State) -> State:
        """The match's next game, dealt by the next dealer (the loser with ``loser_deals_next``, else the next
        seat). No deal of 36 or 52 cards ends a game at once (no n − 1 hands are all quads), so it is not played
        on as the reference would."""
        dealer = jnp.argmax(~s.out) if self.options.loser_deals_next else (s.dealer + 1) % self.num_players
        deal_key, key = jax.random.split(s.key)
        return self._new_game(self.deal(deal_key, dealer), dealer.astype(INT), key)

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
        """Whether the game is over (the last player holding cards loses), its rewards times ``n − 1`` and the
        final places."""
        n = self.num_players
        over = when & ((~out).sum() <= 1)
        loser = jnp.argmax(~out)
        place = jnp.where(over & (self._seats == loser), num_out, exit_place)
        loser_mode = self.options.reward_mode == "loser"
        points = jnp.where(self._seats == loser, 1 - n, 1) if loser_mode else n - 1 - 2 * place
        return over, jnp.where(over, points, 0).astype(INT), place

    def _rewards(self, points: Array, over: Array) -> Array:
        """The float32 rewards of ``points`` (see :func:`~cardenvs.fast.claims.fraction`)."""
        n = self.num_players
        if self.options.reward_mode == "loser":  # two values: the table would cost the step more than a choice
            rewards = jnp.where(points < 0, -1.0, np.float32(1 / (n - 1)))
        else:
            rewards = fraction(points, n - 1, n - 1)
        return jnp.where(over, rewards, 0.0)

    # ------------------------------------------------------------------ what the player to act sees
    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the game is over)."""
        r = self.num_ranks
        deciding_quads = s.quad_queue.any() if self.options.quad_discard_optional else jnp.zeros((), bool)
        live = (s.current_player >= 0) & ~deciding_quads
        declaring = s.leading & (s.building_rank < 0)
        declarable = ~s.discarded if self.options.forbid_discarded_rank else jnp.ones(r, bool)
        hand = take(s.hands, s.current_player)
        building = ~declaring & live
        picks = building & pickable(s, hand, MAX_PLAY)
        challenge = ~s.leading & (s.building_count == 0) & live
        done = building & (s.building_count > 0)
        discard = deciding_quads & (hand == 4) & (self._ranks >= s.quad_min)
        return jnp.concatenate(
            [challenge[None], declarable & declaring & live, picks, done[None], discard, deciding_quads[None]]
        )

    def observe(self, s: State, player: Array | int) -> Array:
        """``player``'s observation vector, the reference encoder's layout."""
        return observe(self, s, jnp.asarray(player, INT))

    def _finish(self, s: State) -> State:
        return with_mask_and_view(s, self.legal_mask, self.observe)


def _go_out(out: Array, exit_place: Array, num_out: Array, seat: Array, when: Array) -> tuple[Array, Array, Array]:
    """``seat`` goes out (next in the exit order) where ``when`` holds."""
    hit = one_hot(seat, out.shape[0]) & when
    return out | hit, jnp.where(hit, num_out, exit_place), num_out + when
