"""Pure rules engine of Kyuuri (spec: ``shared/rules/kyuuri.md``).

Players ``0..n-1`` sit clockwise and play passes to ``i + 1`` (the left neighbour). Suits never matter,
so hands, the stock and the played cards are 13-bin rank counts (canonical rank index ``2`` = 0 … ``A`` = 12,
which is also Kyuuri's strength order). One engine plays one episode: a whole elimination game by default,
``fixed_deals`` deals, or a single deal.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Self

import numpy as np

from cardenvs.core.cards import NUM_RANKS, RANK_TEXT, rank_counts, ranks_text
from cardenvs.core.engine import TERMINAL, RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.events import EventLog
from cardenvs.core.options import deal_seat
from cardenvs.core.redeal import redeal_counts
from cardenvs.core.seating import next_seat
from cardenvs.core.tricks import PlayedCards, Trick, winning_position
from cardenvs.kyuuri.actions import ACTIONS, PlayRank
from cardenvs.kyuuri.options import KyuuriOptions
from cardenvs.kyuuri.scoring import apply_limit, places_by_penalty, score_last_trick, share_rewards

COPIES = 4
ACE = NUM_RANKS - 1
ALL_RANKS = (1 << NUM_RANKS) - 1
AT_LEAST = tuple(ALL_RANKS & ~((1 << r) - 1) for r in range(NUM_RANKS))
"""``AT_LEAST[r]``: bit set of the ranks ``>= r``."""
MASKS = ((np.arange(1 << NUM_RANKS)[:, None] >> np.arange(NUM_RANKS)) & 1).astype(np.int8)
"""``MASKS[bits]``: the action mask of a bit set of ranks (read-only rows, shared by every game)."""
MASKS.flags.writeable = False
NOTHING_TO_BEAT = -1
RANK_BITS = 1 << np.arange(NUM_RANKS, dtype=np.int64)
"""``RANK_BITS[r]``: the bit of rank ``r`` in a bit set of ranks."""


class KyuuriGame(RulesEngine[KyuuriOptions]):
    """One Kyuuri episode: deals until one player survives (or ``fixed_deals`` / one deal / ``max_deals``)."""

    def __init__(self, options: KyuuriOptions, rng: np.random.Generator):
        self._setup(options, rng)
        self.dealer = options.dealer if options.dealer is not None else int(rng.integers(self.num_players))
        self._start_deal(self._random_hands())

    def _setup(self, options: KyuuriOptions, rng: np.random.Generator) -> None:
        n = options.num_players
        self.options = options
        self.rng = rng
        self.num_players = n
        self.hand_size = options.hand_size
        self.actions = ACTIONS
        self.layout = self._observer().layout(self)
        self.events = EventLog()
        self.penalties_array = np.zeros(n, dtype=np.int16)
        self.eliminated_array = np.zeros(n, dtype=bool)
        self.cucumbers_array = np.zeros(n, dtype=bool)
        self.alive = [True] * n
        self.returns = np.zeros(n, dtype=np.float64)
        """Rewards paid so far this episode, per seat."""
        self.places: list[int] = [0] * n
        """Final place per seat once known (1 = best), 0 while undecided."""
        self.deals_played = 0
        self.queued_deals: list[Sequence[str]] = []
        self.hands = np.zeros((n, NUM_RANKS), dtype=np.int8)
        self.held = [0] * n
        """Per seat, the bit set of ranks in hand (masks and the lowest card read it)."""
        self.stock = np.zeros(NUM_RANKS, dtype=np.int8)
        self.played = PlayedCards(n, NUM_RANKS)
        self.copies = options.rank_copies
        """Copies of each rank in the deck (four, or none for ranks left out of a small deck)."""
        self.unseen_base = self.copies.copy()
        """Copies per rank not played this deal (an observer subtracts its own hand)."""
        self.trick = Trick(leader=-1)
        self.trick_winner = -1
        self.to_beat = NOTHING_TO_BEAT
        self.tricks_played = 0
        self.in_play = 0
        self.current_player = TERMINAL
        self._rewards = None

    # ------------------------------------------------------------------ set-up
    @classmethod
    def from_deal(
        cls,
        options: KyuuriOptions,
        hands: Sequence[str],
        *,
        dealer: int | None = None,
        penalties: Sequence[int] | None = None,
        eliminated: Sequence[int] = (),
        cucumbers: Sequence[int] = (),
        deals_played: int = 0,
        later_deals: Sequence[Sequence[str]] = (),
        rng: np.random.Generator | None = None,
    ) -> Self:
        """A game from an explicit deal, for tests and analysis.

        ``dealer`` defaults to the options' dealer (else seat 0). ``hands[i]`` lists player ``i``'s ranks as
        text (``"6 K 3 9 9 2 A"``; ``""`` for an eliminated player); the stock is the rest of the deck.
        ``penalties``, ``eliminated`` and ``cucumbers`` set the scores so far, ``deals_played`` the deals already
        completed, and ``later_deals`` the hands of the following deals, in order, each read when its deal starts
        (random deals follow once they run out)."""
        game = cls.__new__(cls)
        game._setup(options, rng if rng is not None else np.random.default_rng(0))
        n = game.num_players
        dealer = deal_seat("dealer", dealer, options.dealer, n)
        if not 0 <= deals_played < options.deals_cap:
            raise InvalidOptionError(f"deals_played must be in 0..{options.deals_cap - 1}, got {deals_played}")
        game.dealer = dealer
        game.deals_played = deals_played
        game._set_scores(penalties if penalties is not None else [0] * n, eliminated, cucumbers)
        game.queued_deals = list(later_deals)
        game._start_deal(game._parse_hands(hands))
        return game

    def _set_scores(self, penalties: Sequence[int], eliminated: Sequence[int], cucumbers: Sequence[int]) -> None:
        n, options = self.num_players, self.options
        if len(penalties) != n or not all(0 <= p <= options.penalty_bound for p in penalties):
            raise InvalidOptionError(f"penalties must be {n} numbers in 0..{options.penalty_bound}, got {penalties}")
        self.penalties_array[:] = penalties
        for seat in eliminated:
            self.eliminated_array[seat] = True
            self.alive[seat] = False
        self.cucumbers_array[list(cucumbers)] = True
        if sum(self.alive) < 2:
            raise InvalidOptionError("at least two players must still be in the game")
        over = [s for s in range(n) if self.alive[s] and options.eliminates and options.is_over_limit(penalties[s])]
        if over:
            raise InvalidOptionError(f"players {over} are still in the game but over the limit of {options.threshold}")

    def _parse_hands(self, hands: Sequence[str]) -> list[np.ndarray]:
        n = self.num_players
        if len(hands) != n:
            raise InvalidOptionError(f'need {n} hands ("" for eliminated players), got {len(hands)}')
        counts = [rank_counts(h) for h in hands]
        for seat, c in enumerate(counts):
            wanted = 0 if self.eliminated_array[seat] else self.hand_size
            if c.sum() != wanted:
                raise InvalidOptionError(f"player {seat} must be dealt {wanted} cards, got {hands[seat]!r}")
        total = np.sum(counts, axis=0)
        if (total > self.copies).any():
            raise InvalidOptionError(
                f"a rank is dealt more than {COPIES} times, or is not in the deck ({ranks_text(self.copies)}): "
                f"{ranks_text(total)}"
            )
        return counts

    def _random_hands(self) -> list[np.ndarray]:
        """Shuffle the deck and deal one at a time from the dealer's left neighbour, clockwise."""
        n = self.num_players
        ranks = self.rng.permutation(np.repeat(np.arange(NUM_RANKS), self.copies))
        alive = self._alive_from(next_seat(self.dealer, self.alive))
        dealt = ranks[: self.hand_size * len(alive)]
        hands = [np.zeros(NUM_RANKS, dtype=np.int8) for _ in range(n)]
        for k, seat in enumerate(alive):
            hands[seat] = np.bincount(dealt[k :: len(alive)], minlength=NUM_RANKS).astype(np.int8)
        return hands

    def _start_deal(self, hands: Sequence[np.ndarray]) -> None:
        n = self.num_players
        for seat in range(n):
            self.hands[seat] = hands[seat]
            self.held[seat] = sum(1 << r for r in range(NUM_RANKS) if hands[seat][r])
        self.stock[:] = self.copies - self.hands.sum(axis=0)
        self.played.clear()
        self.unseen_base[:] = self.copies
        self.tricks_played = 0
        alive = self.alive
        self.in_play = sum(alive)
        leader = next_seat(self.dealer, alive)
        self.events.add(
            "deal",
            public={"deal": self.deals_played, "dealer": self.dealer, "players": self._alive_from(leader)},
            private={s: {"hand": ranks_text(self.hands[s])} for s in range(n) if alive[s]},
            secret={"stock": ranks_text(self.stock)},
        )
        self._start_trick(leader)

    def _start_trick(self, leader: int) -> None:
        self.trick = Trick(leader=leader)
        self.trick_winner = -1
        self.to_beat = NOTHING_TO_BEAT
        self.current_player = leader

    # ------------------------------------------------------------------ engine protocol
    def _legal_bits(self) -> int:
        seat = self.current_player
        if seat == TERMINAL:
            return 0
        held = self.held[seat]
        if not self.trick.cards:
            return held
        lowest = held & -held
        if self.options.ace_lead_forces_lowest and self.trick.cards[0] == ACE:
            return lowest
        return (held & AT_LEAST[self.to_beat]) | lowest

    def _legal_mask(self) -> np.ndarray:
        return MASKS[self._legal_bits()]

    def _why_illegal(self, action: int) -> str:
        held = self.held[self.current_player]
        if not held >> action & 1:
            return f"the player holds no {RANK_TEXT[action]}"
        lowest = RANK_TEXT[(held & -held).bit_length() - 1]
        if self.options.ace_lead_forces_lowest and self.trick.cards[0] == ACE:
            return f"an Ace was led, so every other player must play their lowest card ({lowest})"
        compared = "the previous card" if self.options.swedish_gurka else "the highest card in the trick"
        return (
            f"a follower must play a card at least as high as {compared} ({RANK_TEXT[self.to_beat]}) "
            f"or their lowest card ({lowest})"
        )

    def _apply(self, action: int) -> None:
        seat, rank = self.current_player, action
        self.hands[seat, rank] -= 1
        if not self.hands[seat, rank]:
            self.held[seat] &= ~(1 << rank)
        self.played.record(seat, rank)
        self.unseen_base[rank] -= 1
        trick = self.trick
        trick.add(seat, rank)
        best = winning_position(trick.cards, ties_to_last=True)  # the last-played of the highest rank wins
        self.trick_winner = trick.seats[best]
        self.to_beat = rank if self.options.swedish_gurka else trick.cards[best]
        self.events.add("play", seat, public={"card": RANK_TEXT[rank], "trick": self.tricks_played})
        if len(trick) < self.in_play:
            self.current_player = next_seat(seat, self.alive)
        else:
            self._finish_trick()

    def legal_moves(self) -> list[Hashable]:
        bits = self._legal_bits()
        return [PlayRank(r) for r in range(NUM_RANKS) if bits >> r & 1]

    def move_actions(self, move: Hashable) -> list[int]:
        if not isinstance(move, PlayRank):
            raise TypeError(f"not a Kyuuri move: {move!r}")
        return [move.rank]

    def privileged_state(self) -> dict[str, Any]:
        return {
            "deals_played": self.deals_played,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "hands": [ranks_text(h) for h in self.hands],
            "stock": ranks_text(self.stock),
            "played": [ranks_text(p) for p in self.played.by_seat],
            "trick": {"leader": self.trick.leader, "seats": list(self.trick.seats), "cards": self._trick_text()},
            "tricks_played": self.tricks_played,
            "penalties": self.penalties_array.tolist(),
            "eliminated": self.eliminated_array.tolist(),
            "cucumbers": self.cucumbers_array.tolist(),
            "places": list(self.places),
        }

    def clone(self) -> Self:
        """A cheap independent copy (see :meth:`RulesEngine._clone_members`): the members are arrays, flat lists,
        the trick, the played cards, the event log and immutable parts."""
        return self._clone_members()

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        copy = self.clone()
        # The stock, then every hand in seat order, the observer's as a place of no hidden cards: it takes no card,
        # so the draw is the one of the stock and the others' hands alone, with no row picked out by index.
        places = np.concatenate((copy.stock[np.newaxis], copy.hands))
        places[1 + observer] = 0
        dealt = redeal_counts(places, rng)
        copy.stock[:] = dealt[0]
        dealt[1 + observer] = copy.hands[observer]
        copy.hands[:] = dealt[1:]
        copy.held = (copy.hands > 0).dot(RANK_BITS).tolist()
        return copy

    def card_multiset(self) -> list[int]:
        counts = self.hands.sum(axis=0) + self.stock + self.played.all_played()
        return [r for r in range(NUM_RANKS) for _ in range(int(counts[r]))]

    # ------------------------------------------------------------------ tricks and deals
    def _finish_trick(self) -> None:
        trick, winner = self.trick, self.trick_winner
        self.tricks_played += 1
        self.events.add(
            "trick",
            winner,
            public={
                "trick": self.tricks_played - 1,
                "seats": list(trick.seats),
                "cards": self._trick_text(),
                "winner": winner,
            },
        )
        if self.tricks_played < self.hand_size:
            self._start_trick(winner)
        else:
            self._score_deal()

    def _score_deal(self) -> None:
        n, opts = self.num_players, self.options
        score = score_last_trick(self.trick.seats, self.trick.cards, self.penalties_array.tolist(), opts.ties_all_score)
        deltas = score.deltas(n)
        self.penalties_array += np.asarray(deltas, dtype=np.int16)
        self.deals_played += 1
        self.events.add(
            "deal_over",
            public={
                "deal": self.deals_played - 1,
                "losers": list(score.losers),
                "card": RANK_TEXT[score.rank],
                "points": score.value,
                "bonus": [list(b) for b in score.bonus],
                "penalties": self.penalties_array.tolist(),
            },
        )
        if opts.reward_mode == "penalty":
            self._pay(-np.asarray(deltas, dtype=np.float64))
        if opts.episode == "deal":
            others = [s for s in range(n) if s not in score.losers]
            self._end_game(others, "one deal", share_rewards(n, score.losers, -1.0))
            return
        if opts.eliminates and self._apply_limit():
            return
        if self.deals_played >= opts.deals_cap:
            alive = [s for s in range(n) if not self.eliminated_array[s]]
            best = min(int(self.penalties_array[s]) for s in alive)
            reason = "fixed deals played" if opts.fixed_deals is not None else "max_deals reached"
            self._end_game([s for s in alive if self.penalties_array[s] == best], reason)
            return
        self.dealer = next_seat(self.dealer, self.alive)
        hands = self._parse_hands(self.queued_deals.pop(0)) if self.queued_deals else self._random_hands()
        self._start_deal(hands)

    def _apply_limit(self) -> bool:
        """Eliminate or reincarnate the players over the limit; ``True`` if that ended the game."""
        alive = [s for s in range(self.num_players) if not self.eliminated_array[s]]
        outcome = apply_limit(alive, self.penalties_array.tolist(), self.cucumbers_array.tolist(), self.options)
        for seat, reset in outcome.reincarnated:
            self.cucumbers_array[seat] = True
            self.penalties_array[seat] = reset
            self.events.add("reincarnate", seat, public={"penalty": reset})
        place = len(alive) - len(outcome.out) + 1  # players going out together share a place
        for seat in outcome.out:
            self.eliminated_array[seat] = True
            self.alive[seat] = False
            self.places[seat] = place
            self.events.add("out", seat, public={"place": place, "penalty": int(self.penalties_array[seat])})
        if outcome.last_standing:
            self._end_game(list(outcome.last_standing), "everybody left went over the limit")
            return True
        survivors = [s for s in alive if s not in outcome.out]
        if len(survivors) == 1:
            self._end_game(survivors, "last survivor")
            return True
        return False

    def _end_game(self, winners: Sequence[int], reason: str, rewards: np.ndarray | None = None) -> None:
        """Finish the episode: places, outcome rewards (unless given or ``reward_mode='penalty'``), the event."""
        n = self.num_players
        if self.options.episode == "deal":
            self.places = [1 if s in winners else len(winners) + 1 for s in range(n)]
        else:  # players still in are ranked by penalty: the winners come first
            undecided = [s for s in range(n) if not self.places[s]]
            ranked = places_by_penalty(undecided, self.penalties_array.tolist())
            self.places = [self.places[s] or ranked[s] for s in range(n)]
        if self.options.reward_mode == "outcome":
            self._pay(rewards if rewards is not None else share_rewards(n, winners, 1.0))
        self.current_player = TERMINAL
        self.events.add(
            "game_over",
            public={
                "reason": reason,
                "winners": list(winners),
                "places": list(self.places),
                "penalties": self.penalties_array.tolist(),
                "deals": self.deals_played,
                "rewards": self.returns.tolist(),
            },
        )

    def _pay(self, rewards: np.ndarray) -> None:
        self.returns += rewards
        self._rewards = rewards if self._rewards is None else self._rewards + rewards

    # ------------------------------------------------------------------ helpers
    def _alive_from(self, start: int) -> list[int]:
        n = self.num_players
        return [(start + k) % n for k in range(n) if self.alive[(start + k) % n]]

    def _trick_text(self) -> list[str]:
        return [RANK_TEXT[r] for r in self.trick.cards]
