"""Yukushi as one JAX array program (Pgx's API): ``init(key) -> State``, ``step(state, action) -> State``, both
pure, so ``jax.jit(jax.vmap(env.step))`` plays a whole batch of games at once.

The rules, the action ids and the observation vector are those of the reference engine
(:mod:`cardenvs.yukushi.rules`, the oracle; ``tests/fast`` plays both side by side), with every option: 2–8
players, the three challenge models, ``window_before_flush``, ``allow_count_mismatch`` (declared counts, the
numbers placed and held hidden), ``max_play``, ``play_to_ranking``, ``forbid_exhausted_rank``, ``deal_from``,
``leader`` and matches of several games (the next game dealt inside the step from ``state.key``). A step is at
most one of: a window answer, a turn's call, pass or sub-step of a play; each may close the window and call or
flush, which may put a player out and end the game (and deal the match's next). Every branch is computed for every
game and the right one selected (``jnp.where``).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from cardenvs.core.cards import NUM_RANKS, RANK_TEXT
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.options import build_options
from cardenvs.fast.arrays import keep_finished, next_seat, one_hot, step_end, take, with_mask_and_view
from cardenvs.fast.claims import deal_counts, empty_table, fraction, known_after, match_start, pickable, play_on
from cardenvs.fast.yukushi_obs import observe
from cardenvs.fast.yukushi_state import State
from cardenvs.yukushi.actions import action_table
from cardenvs.yukushi.encoding import observation_layout
from cardenvs.yukushi.env import DEFINITION
from cardenvs.yukushi.options import YukushiOptions

Array = jax.Array
INT = jnp.int32
_FIRST_IDS = {name: block.offset for name, block in action_table(RANK_TEXT, max_play=1).blocks.items()}
"""The first id of each action block, read from the reference engine's one table (the 52-card pack's: the only one
played here; the ``count`` block, whose size is ``max_play``, comes last)."""
CHALLENGE, DECLINE, PASS = _FIRST_IDS["challenge"], _FIRST_IDS["decline"], _FIRST_IDS["pass"]
DECLARE, PICK, DONE, COUNT = _FIRST_IDS["declare"], _FIRST_IDS["pick"], _FIRST_IDS["done"], _FIRST_IDS["count"]


class YukushiFast:
    """Yukushi for JAX; options as ``cardenvs/yukushi-v0`` takes them (a subset: see the module docstring)."""

    def __init__(self, max_steps: int | None = None, **options: Any):
        """``max_steps``: the step cap (truncation, a draw); by default the AEC env's, 1,000 × ``num_players``."""
        opts: YukushiOptions = build_options(YukushiOptions, options, game="yukushi-v0")
        if max_steps is None:
            max_steps = DEFINITION.default_max_steps(opts)
        if max_steps < 1:
            raise InvalidOptionError(f"max_steps must be a positive int, got {max_steps}")
        if opts.deck_size != 52:
            raise InvalidOptionError(
                f"the JAX Yukushi deals the 52-card pack only; deck_size={opts.deck_size} is not supported"
            )
        self.options = opts
        self.max_steps = max_steps
        self.num_players = n = opts.num_players
        self.max_play = opts.max_play
        self.hidden_count = opts.allow_count_mismatch
        self.layout = observation_layout(n, opts.max_play, opts.n_games)
        self.num_actions = action_table(RANK_TEXT, opts.max_play).size
        self._seats = jnp.arange(n, dtype=INT)

    # ------------------------------------------------------------------ set-up
    def init(self, key: Array) -> State:
        """A random deal (a random initiative holder unless the options fix one) and its first decision."""
        leader_key, deal_key, match_key = jax.random.split(key, 3)
        n = self.num_players
        if self.options.leader is None:
            leader = jax.random.randint(leader_key, (), 0, n, dtype=INT)
        else:
            leader = jnp.asarray(self.options.leader, dtype=INT)
        return self.init_from_hands(self.deal(deal_key, leader), leader, match_key)

    def deal(self, key: Array, leader: Array) -> Array:
        """The whole deck dealt one card at a time from ``leader`` (or from the seat on its right,
        ``deal_from="dealer"``): ``(n, 13)`` rank counts."""
        first = leader if self.options.deal_from == "leader" else (leader - 1) % self.num_players
        return deal_counts(key, self.num_players, NUM_RANKS, first)

    def init_from_hands(self, hands: Array, leader: Array | int, key: Array | None = None) -> State:
        """The game after dealing ``hands`` ((n, 13) rank counts, the whole deck), ``leader`` holding the
        initiative; ``key`` deals the later games of a match."""
        key = jax.random.PRNGKey(0) if key is None else key
        return self._finish(self._new_game(hands, jnp.asarray(leader, INT), key))

    def _new_game(self, hands: Array, leader: Array, key: Array) -> State:
        """A game's state at the deal, before its mask and view."""
        n = self.num_players
        zero = jnp.zeros((), INT)
        no = jnp.zeros(n, bool)
        return State(
            **empty_table(hands, self.num_actions, self.layout.size),
            last_declared=zero,
            pile_declared=zero,
            building_declared=zero - 1,
            building_closed=zero,
            flushed=jnp.zeros((n, NUM_RANKS), INT),
            leading=jnp.ones((), bool),
            owner=zero - 1,
            turn=leader,
            passes=zero,
            window_open=jnp.zeros((), bool),
            eligible=no,
            queue=no,
            decided=no,
            challengers=no,
            **match_start(n, key),
            current_player=leader,
        )

    # ------------------------------------------------------------------ one decision
    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Apply ``action`` for the player to act (``key`` is unused: the later games of a match are dealt from
        ``state.key``). A finished game stays as it is, with zero rewards. An illegal action is not checked (mask
        it)."""
        del key
        s, a, opts, seats = state, jnp.asarray(action, INT), self.options, self._seats
        seat = s.current_player
        at_seat = seats == seat
        answering = s.window_open & s.queue.any()
        turn_action = ~answering
        # A call made in the window voids the turn player's pass or play (the reference's _window_voids_turn).
        voided = turn_action & (a != CHALLENGE) & s.window_open & s.challengers.any()
        call = turn_action & (a == CHALLENGE)
        passing = turn_action & (a == PASS) & ~voided
        build = turn_action & (a >= DECLARE) & ~voided
        is_declare = build & (a < PICK)
        is_pick = build & (a >= PICK) & (a < DONE)
        count = s.building_count + is_pick
        building = s.building + (is_pick & (jnp.arange(NUM_RANKS) == a - PICK))
        building_rank = jnp.where(is_declare, a - DECLARE, s.building_rank)
        if self.hidden_count:  # every play takes max_play pick-or-done steps after its declared count
            declared = jnp.where(build & (a >= COUNT), a - COUNT + 1, s.building_declared)
            closed = s.building_closed + (build & (a == DONE))
            commit = (is_pick | (build & (a == DONE))) & (count + closed == self.max_play)
            seen = jnp.asarray(self.max_play, INT)  # the others know that at most max_play cards left the hand
        else:
            declared, closed, seen = count, s.building_closed, count
            room = jnp.minimum(self.max_play, take(s.hands.sum(axis=1), seat))  # the play ends by itself once full
            commit = (build & (a == DONE)) | (is_pick & (room == count))

        # The window: an answer, or the turn player's call; it closes on the answer that empties its queue at the
        # flush point (and in model B, which asks the turn player too), on a call by the turn player, or on a
        # turn action (a pass, a commit, or a voided one).
        answers_call = at_seat & (a == CHALLENGE) & (answering | call)
        challengers = s.challengers | answers_call
        queue = s.queue & ~(at_seat & answering)
        if opts.challenge_model == "B":
            queue &= ~(answering & (a == CHALLENGE))
        flush_point = s.turn == s.owner
        closes = answering & ~queue.any()
        closes &= flush_point | (opts.challenge_model == "B")
        winner = next_seat(s.owner, challengers)
        challenge = (closes & challengers.any()) | call | voided
        flush = closes & ~challengers.any() & flush_point

        # A play placed: the previous owner's last cards are now safe (spec G1-a).
        hands = s.hands - (at_seat[:, None] & commit) * building
        placed = commit * building
        sizes = hands.sum(axis=1)
        previous_out = commit & (s.owner >= 0) & (take(sizes, s.owner) == 0)
        # After a pass or a play, the next player's window (or, at the flush point with nobody to ask, a flush).
        owner = jnp.where(commit, seat, s.owner)
        active = ~(s.out | (one_hot(s.owner, self.num_players) & previous_out))
        turn = next_seat(seat, active)
        opens = passing | commit
        at_flush = turn == owner
        window = self._window(owner, turn, active, at_flush)
        eligible, next_queue, exists = window
        flush |= passing & at_flush & ~exists
        opens &= exists

        # A call or a flush ends the run: the pile goes to the taker, or out of the game unseen.
        lie = (take(s.last_cards, s.claim_rank) != s.last_count) | (s.last_count != s.last_declared)
        taker = jnp.where(lie, s.owner, winner)
        pile = s.pile_by_seat.sum(axis=0)
        hands += (seats == taker)[:, None] * challenge * pile
        sizes = hands.sum(axis=1)
        resolve = challenge | flush
        owner_out = resolve & ~(challenge & lie) & (take(sizes, s.owner) == 0)  # G1-b, G1-c
        goes_out = jnp.where(previous_out | owner_out, s.owner, -1)
        out = s.out | one_hot(goes_out, self.num_players)
        hit = one_hot(goes_out, self.num_players)
        exit_place = jnp.where(hit, s.num_out, s.exit_place)
        num_out = s.num_out + hit.any()
        over = hit.any() & ((~out).sum() <= 1 if opts.play_to_ranking else True)
        points = self._points(out, exit_place, num_out, goes_out, over)
        leader = jnp.where(challenge & lie, winner, jnp.where(take(out, s.owner), next_seat(s.owner, ~out), s.owner))

        keep_pile = ~resolve
        window_stays = (s.window_open & ~closes & ~call & ~voided & ~passing & ~commit) | opens
        asking = jnp.where(opens, next_queue, queue)
        to_turn = jnp.where(opens, turn, s.turn)
        current = jnp.where(asking.any(), next_seat(owner, asking), to_turn)
        after = s._replace(
            hands=hands,
            pile_by_seat=keep_pile * (s.pile_by_seat + at_seat[:, None] * placed),
            pile_count=keep_pile * (s.pile_count + at_seat * commit * count),
            pile_size=keep_pile * (s.pile_size + commit * count),
            pile_plays=keep_pile * (s.pile_plays + commit),
            claim_rank=jnp.where(resolve, -1, jnp.where(commit & s.leading, building_rank, s.claim_rank)),
            last_seat=jnp.where(commit, seat, s.last_seat),
            last_cards=jnp.where(commit, building, s.last_cards),
            last_count=jnp.where(commit, count, s.last_count),
            last_declared=jnp.where(commit, declared, s.last_declared),
            pile_declared=keep_pile * (s.pile_declared + commit * declared),
            known_held=known_after(s, seat, taker, seen, jnp.zeros((), INT), commit, challenge),
            flushed=s.flushed + flush * s.pile_by_seat,
            building_rank=jnp.where(commit | resolve, -1, building_rank),
            building=jnp.where(commit | resolve, 0, building),
            building_count=jnp.where(commit | resolve, 0, count),
            building_min=jnp.where(commit | resolve, 0, jnp.where(is_pick, a - PICK, s.building_min)),
            building_declared=jnp.where(commit | resolve, -1, declared) if self.hidden_count else s.building_declared,
            building_closed=jnp.where(commit | resolve, 0, closed),
            leading=jnp.where(resolve, ~over, s.leading & ~commit),
            owner=jnp.where(resolve, -1, owner),
            turn=jnp.where(resolve, leader, to_turn),
            passes=jnp.where(resolve | commit, 0, s.passes + passing),
            window_open=window_stays & ~resolve & ~over,
            eligible=jnp.where(opens, eligible, s.eligible),
            queue=asking,
            decided=jnp.where(opens, False, s.decided | (at_seat & answering)),
            challengers=jnp.where(opens, False, challengers),
            out=out,
            exit_place=exit_place,
            num_out=num_out,
            current_player=jnp.where(over, -1, jnp.where(resolve, leader, current)),
            **step_end(over, self._rewards(points, over), s.step_count + 1, self.max_steps),
        )
        if opts.n_games > 1:
            after = play_on(after, self._next_game(after), points, opts.n_games, self.max_steps)
        return keep_finished(s, self._finish(after))

    def _next_game(self, s: State) -> State:
        """The match's next game: the winner (the first out) leads and is dealt to first."""
        winner = jnp.argmax(s.exit_place == 0).astype(INT)
        deal_key, key = jax.random.split(s.key)
        return self._new_game(self.deal(deal_key, winner), winner, key)

    def _window(self, owner: Array, turn: Array, active: Array, at_flush: Array) -> tuple[Array, Array, Array]:
        """The window at the sampling point before ``turn``'s action (``cardenvs.core.challenge``): who may call,
        whom it asks, and whether it exists (none at a flush point without answers)."""
        opts, seats = self.options, self._seats
        is_turn = seats == turn
        if opts.challenge_model == "C":
            return is_turn & ~at_flush, jnp.zeros_like(active), ~at_flush
        eligible = active & (seats != owner)
        exists = ~at_flush | (opts.window_before_flush & eligible.any())
        queue = eligible & ~(is_turn & ~at_flush) if opts.challenge_model == "A" else eligible
        return eligible, queue, exists

    def _points(self, out: Array, exit_place: Array, num_out: Array, first_out: Array, over: Array) -> Array:
        """The rewards times ``n − 1`` of a game that ends now (``over``): the first out +1 and the others share
        −1, or by place."""
        n = self.num_players
        if self.options.play_to_ranking:
            points = n - 1 - 2 * jnp.where(out, exit_place, num_out)
        else:
            points = jnp.where(self._seats == first_out, n - 1, -1)
        return jnp.where(over, points, 0).astype(INT)

    def _rewards(self, points: Array, over: Array) -> Array:
        """The float32 rewards of ``points`` (see :func:`~cardenvs.fast.claims.fraction`)."""
        n = self.num_players
        if self.options.play_to_ranking:
            rewards = fraction(points, n - 1, n - 1)
        else:  # two values: the table would cost the step more than a choice
            rewards = jnp.where(points > 0, 1.0, np.float32(-1 / (n - 1)))
        return jnp.where(over, rewards, 0.0)

    # ------------------------------------------------------------------ what the player to act sees
    def legal_mask(self, s: State) -> Array:
        """The legal actions of the player to act (all false once the game is over)."""
        live = s.current_player >= 0
        answering = s.window_open & s.queue.any() & live
        acting = live & ~answering
        declaring = acting & s.leading & (s.building_rank < 0)
        undeclared = s.building_declared < 0  # (allow_count_mismatch) the count comes first
        counting = acting & ~declaring & undeclared if self.hidden_count else jnp.zeros((), bool)
        turn = acting & ~s.leading & (s.building_count == 0) & undeclared
        hand = take(s.hands, s.current_player)
        picks = acting & ~declaring & ~counting & (s.building_closed == 0) & pickable(s, hand, self.max_play)
        done = acting & ~declaring & (s.building_count > 0)
        declarable = jnp.ones(NUM_RANKS, bool)
        if self.options.forbid_exhausted_rank:
            public = s.known_held[self.num_players]
            declarable = public.sum(axis=0) - take(public, s.current_player) < 4
        head = jnp.stack([answering | (turn & s.window_open), answering, turn])
        counts = jnp.broadcast_to(counting, (self.max_play,))
        return jnp.concatenate([head, declaring & declarable, picks, done[None], counts])

    def observe(self, s: State, player: Array | int) -> Array:
        """``player``'s observation vector, the reference encoder's layout."""
        return observe(self, s, jnp.asarray(player, INT))

    def _finish(self, s: State) -> State:
        return with_mask_and_view(s, self.legal_mask, self.observe)
