"""The claim, pile and challenge machinery of the bluffing games (Verish' ne verish', Yukushi).

Suits never matter in these games, so a hand is a vector of rank counts (lossless). A :class:`ClaimTable`
holds the hands, the face-down pile of the current round, the play under construction, and what each
player knows for certain about the others' hands. Games drive it and keep their own turn logic.

Composite plays are built in sub-steps by the same player: (lead only) ``declare`` a rank, then ``pick``
one card at a time in non-decreasing rank order, then ``done``. The order rule gives every multiset of
cards exactly one path, so masks are exact and a random policy draws moves without path bias.

How many decisions a play takes is public, so it depends only on what others know: with public counts a play
commits by itself at ``max_play`` cards or the whole hand, else waits for ``done`` (forced when no rank is left:
committing then would say the hand holds nothing higher); with ``hidden_count`` every play takes ``max_play``
pick-or-``done`` steps, the ones after the first ``done`` forced.

This module holds the table's state and how it changes; the moves a player can make from it are in
:mod:`cardenvs.core.claim_moves`, the observation groups read from it in :mod:`cardenvs.core.claim_encoding`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cardenvs.core.redeal import redeal_counts


@dataclass(slots=True)
class Play:
    """One face-down play of a round."""

    seat: int
    cards: np.ndarray
    """Rank counts of the cards actually placed."""
    count: int
    """Number of cards placed (public unless a game hides it)."""
    declared_rank: int
    declared_count: int

    def is_truthful(self) -> bool:
        """True iff every card has the declared rank and the number placed equals the declared count."""
        return bool(self.cards[self.declared_rank] == self.count == self.declared_count)


@dataclass(frozen=True, slots=True)
class ChallengeOutcome:
    """What a challenge revealed and who took the pile."""

    challenger: int
    owner: int
    lie: bool
    taker: int
    revealed: tuple[int, ...]
    """Ranks of the turned-over cards (public)."""
    pile_size: int


class ClaimTable:
    """Hands, the current face-down pile, the play under construction and certain knowledge of hands."""

    def __init__(
        self, num_players: int, num_ranks: int, rank_totals: Sequence[int], max_play: int, hidden_count: bool = False
    ):
        n, r = num_players, num_ranks
        self.num_players = n
        self.num_ranks = r
        self.max_play = max_play
        self.hidden_count = hidden_count
        """Whether the number of cards placed is hidden (every play then takes ``max_play`` pick-or-done steps)."""
        self.rank_totals = np.asarray(rank_totals, dtype=np.int16)
        self.hands = np.zeros((n, r), dtype=np.int16)
        self.hand_sizes = [0] * n
        self.plays: list[Play] = []
        self.claim_rank = -1
        self.pile_by_seat = np.zeros((n, r), dtype=np.int16)
        self.pile_count_by_seat = np.zeros(n, dtype=np.int16)
        self.pile_size = 0
        self.known_held = np.zeros((n + 1, n, r), dtype=np.int16)
        """``known_held[o, h, k]``: cards of rank ``k`` that player ``o`` knows for certain ``h`` holds; row ``n``
        is public knowledge (an onlooker's, who put no cards in the pile)."""
        self.removed_public = np.zeros(r, dtype=np.int16)
        """Cards removed face up (Verish' quads), per rank."""
        self.removed_own = np.zeros((n, r), dtype=np.int16)
        """Each player's own cards removed face down (Yukushi's flushes), per rank."""
        self.building_rank = -1
        self.building = np.zeros(r, dtype=np.int16)
        self.building_count = 0
        self.building_min = 0
        self.building_declared_count = -1
        """Count declared for the play under construction, where a game declares it apart (-1: not yet)."""
        self.building_closed = 0
        """``done`` steps taken on the play under construction (more than one only with ``hidden_count``)."""
        self.orders = [np.array([(me + k) % n for k in range(n)]) for me in range(n)]
        """Seat-relative order of each observer (me first, then in play order)."""
        self.others = [order[1:] for order in self.orders]
        self.known_index = [
            ((me * n + others[:, np.newaxis]) * r + np.arange(r)).ravel() for me, others in enumerate(self.others)
        ]
        """Flat indices of ``known_held[me, others[me]]`` per observer ``me`` (a ``take`` costs less than the
        fancy index the encoder would build at every step)."""

    def clone(self) -> ClaimTable:
        """An independent copy (the seat orders and rank totals, never changed, are shared)."""
        new = object.__new__(ClaimTable)
        new.__dict__.update(self.__dict__)
        new.hands = self.hands.copy()
        new.pile_by_seat = self.pile_by_seat.copy()
        new.pile_count_by_seat = self.pile_count_by_seat.copy()
        new.known_held = self.known_held.copy()
        new.removed_public = self.removed_public.copy()
        new.removed_own = self.removed_own.copy()
        new.building = self.building.copy()
        new.hand_sizes = list(self.hand_sizes)
        new.plays = [Play(p.seat, p.cards.copy(), p.count, p.declared_rank, p.declared_count) for p in self.plays]
        return new

    # ------------------------------------------------------------------ hands
    def set_hand(self, seat: int, counts: Sequence[int] | np.ndarray) -> None:
        self.hands[seat] = counts
        self.hand_sizes[seat] = int(self.hands[seat].sum())

    def remove_cards(self, seat: int, counts: np.ndarray, *, public: bool) -> None:
        """Take cards out of the game from ``seat``'s hand (face up if ``public``, else face down)."""
        self.hands[seat] -= counts
        self.hand_sizes[seat] -= int(counts.sum())
        if public:
            self.removed_public += counts
            self.known_held[:, seat] = np.maximum(self.known_held[:, seat] - counts, 0)
        else:
            self.removed_own[seat] += counts

    # ------------------------------------------------------------------ building a play
    def steps_left(self, seat: int) -> int:
        """Pick-or-done decisions the play under construction still takes after the ones made, on what the
        others know (see the module docstring); ``done`` ends it sooner unless the count is hidden."""
        if self.hidden_count:
            return self.max_play - self.building_count - self.building_closed
        return min(self.max_play, self.hand_sizes[seat]) - self.building_count

    def can_pick(self, seat: int) -> np.ndarray:
        """Per rank, whether ``seat`` may pick it next (non-decreasing order, cards still unpicked, room left, no
        ``done`` yet)."""
        allowed = np.zeros(self.num_ranks, dtype=bool)
        if self.building_count < self.max_play and not self.building_closed:
            low = self.building_min
            np.greater(self.hands[seat, low:], self.building[low:], out=allowed[low:])
        return allowed

    def pickable(self, seat: int) -> list[int]:
        """Ranks ``seat`` may pick next (see :meth:`can_pick`), ascending."""
        return np.flatnonzero(self.can_pick(seat)).tolist()

    def pick(self, rank: int) -> None:
        self.building[rank] += 1
        self.building_count += 1
        self.building_min = rank

    def commit(self, seat: int, declared_rank: int, seen_count: int | None = None) -> Play:
        """Place the built cards face down as a play claiming ``declared_rank`` (and the declared count, if one
        was declared apart). Others know that ``seen_count`` cards at most left the hand (default: the number
        placed, which is public unless a game hides it)."""
        cards = self.building.copy()
        count = self.building_count
        declared = self.building_declared_count
        play = Play(seat, cards, count, declared_rank, count if declared < 0 else declared)
        self.hands[seat] -= cards
        self.hand_sizes[seat] -= count
        # Others only know that some cards of unknown ranks left the hand.
        gone = count if seen_count is None else seen_count
        np.maximum(self.known_held[:, seat] - gone, 0, out=self.known_held[:, seat])
        self.plays.append(play)
        self.claim_rank = declared_rank
        self.pile_by_seat[seat] += cards
        self.pile_count_by_seat[seat] += count
        self.pile_size += count
        self.clear_building()
        return play

    def clear_building(self) -> None:
        """Forget the play under construction (its cards never left the hand)."""
        self.building_rank = -1
        self.building[:] = 0
        self.building_count = 0
        self.building_min = 0
        self.building_declared_count = -1
        self.building_closed = 0

    # ------------------------------------------------------------------ resolving the pile
    def challenge(self, challenger: int, owner_takes_on_lie: bool = True) -> ChallengeOutcome:
        """Turn over the latest play; the liar (or the wrong challenger) takes the whole pile."""
        latest = self.plays[-1]
        lie = not latest.is_truthful()
        taker = latest.seat if lie and owner_takes_on_lie else challenger
        revealed = tuple(k for k in range(self.num_ranks) for _ in range(int(latest.cards[k])))
        size = self.pile_size
        self._pick_up(taker, latest)
        return ChallengeOutcome(challenger, latest.seat, lie, taker, revealed, size)

    def _pick_up(self, taker: int, revealed_play: Play) -> None:
        pile = self.pile_by_seat.sum(axis=0, dtype=np.int16)
        self.hands[taker] += pile
        self.hand_sizes[taker] += self.pile_size
        # Everybody saw the revealed cards; each player knows its own cards in the pile; onlookers (row n)
        # know only the revealed ones.
        gained = np.empty_like(self.known_held[:, 0])
        gained[: self.num_players] = self.pile_by_seat + revealed_play.cards
        gained[self.num_players] = revealed_play.cards
        gained[revealed_play.seat] -= revealed_play.cards
        self.known_held[:, taker] += gained
        self.known_held[taker, taker] = 0
        self._clear_pile()

    def flush(self) -> np.ndarray:
        """Remove the pile from the game face down; returns what each seat had put in (rank counts)."""
        contributed = self.pile_by_seat.copy()
        self.removed_own += contributed
        self._clear_pile()
        return contributed

    def _clear_pile(self) -> None:
        self.plays.clear()
        self.claim_rank = -1
        self.pile_by_seat[:] = 0
        self.pile_count_by_seat[:] = 0
        self.pile_size = 0

    # ------------------------------------------------------------------ observation
    # ------------------------------------------------------------------ leak-test support
    def redeal_hidden(
        self, observer: int, to_act: int, rng: np.random.Generator, extra: Sequence[np.ndarray] = ()
    ) -> None:
        """Re-deal, in place, every card ``observer`` cannot see: the others' hands (with the play another
        player is building), their face-down plays in the pile, and the ``extra`` places (e.g. a set-aside
        card). Every place keeps its size; the observer's own cards, the cards it knows another player holds
        (``known_held``) and all public facts stay. What the *other* players knew of one another's hands is
        clipped to the re-dealt hands, so that every seat's view of the new state is still a possible one (a
        search that plays the others' policies from it needs that; the observer's own view is unchanged)."""
        builder = to_act if to_act != observer and self.building_count else -1
        hands = self.hands
        if builder >= 0:
            hands[builder] -= self.building
        # Whole-table operations, the observer's row kept as a place of no hidden cards: it takes no card in the
        # deal, so the draw is the one of the others' rows alone, and no row is picked out by index.
        kept = np.minimum(self.known_held[observer], hands)
        kept[observer] = hands[observer]
        kept_building: np.ndarray | int = 0
        if builder >= 0:
            kept_building = np.minimum(self.known_held[observer, builder] - kept[builder], self.building)
        hidden_plays = [p for p in self.plays if p.seat != observer]
        rows = [*extra, *(hands - kept), *(p.cards for p in hidden_plays)]
        if builder >= 0:
            rows.append(self.building - kept_building)
        dealt = redeal_counts(np.array(rows), rng)
        for place, row in zip(extra, dealt, strict=False):
            place[:] = row
        first = len(extra) + self.num_players
        np.add(dealt[len(extra) : first], kept, out=hands)
        for p, row in zip(hidden_plays, dealt[first:], strict=False):
            p.cards[:] = row
        if builder >= 0:
            self.building[:] = dealt[-1] + kept_building
            hands[builder] += self.building
            self.building_min = max(k for k in range(self.num_ranks) if self.building[k])
        pile = self.pile_by_seat
        pile[:] = 0
        for p in self.plays:
            pile[p.seat] += p.cards
        np.minimum(self.known_held, hands[np.newaxis], out=self.known_held)
