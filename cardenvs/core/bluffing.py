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
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from cardenvs.core.layout import ObservationLayout


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


def multisets(counts: Sequence[int], max_size: int, min_rank: int = 0) -> Iterator[tuple[int, ...]]:
    """Every non-empty multiset of ranks (as a sorted tuple) of at most ``max_size`` cards drawable from
    ``counts``, using ranks ``>= min_rank`` only."""
    pool = [r for r in range(min_rank, len(counts)) for _ in range(int(counts[r]))]
    seen: set[tuple[int, ...]] = set()
    for size in range(1, max_size + 1):
        for combo in itertools.combinations(pool, size):
            if combo not in seen:
                seen.add(combo)
                yield combo


def claim_feature_groups(num_players: int, num_ranks: int, deck_size: int) -> list[tuple[str, int, float, str]]:
    """Observation groups shared by the bluffing games, in the order :meth:`ClaimTable.encode` writes them."""
    n, r, d = num_players, num_ranks, float(deck_size)
    return [
        ("hand", r, 4, "my cards, count per rank"),
        ("unseen", r, 4, "copies per rank not in my hand, not mine in the pile and not removed face up or by me"),
        ("claim_rank", r, 1, "one-hot rank claimed for the current pile (all 0 when the pile is empty)"),
        ("pile_size", 1, d, "cards in the face-down pile"),
        ("pile_plays", 1, d, "plays made on the current pile"),
        ("my_cards_in_pile", r, 4, "my own cards in the pile, count per rank"),
        ("last_play_count", 1, d, "cards placed by the latest play"),
        ("last_play_by", n, 1, "one-hot relative seat of the latest play's owner"),
        ("pile_by_seat", n, d, "cards each relative seat put into the current pile"),
        ("hand_sizes", n, d, "cards held by each relative seat"),
        ("known_held", (n - 1) * r, 4, "per other relative seat: cards of each rank I know for certain it still holds"),
        ("to_act", n, 1, "one-hot relative seat of the player to decide"),
        ("building_rank", r, 1, "(my turn) one-hot rank declared for the play I am building"),
        ("building_cards", r, 4, "(my turn) cards picked so far for the play I am building"),
    ]


def match_feature_groups(num_players: int, n_games: int) -> list[tuple[str, int, float, str, float]]:
    """The groups of a match of several games, written by :func:`encode_match`."""
    return [
        ("match_points", num_players, n_games, "rewards won so far in this match, per relative seat", -n_games),
        ("games_left", 1, 1, "share of the match's games still to play, this one included", 0),
    ]


def encode_match(
    obs: np.ndarray, layout: ObservationLayout, order: np.ndarray, points: np.ndarray, played: int, n_games: int
) -> None:
    """Write the match groups: points per relative seat (``order``) and the share of games left."""
    if n_games > 1:
        obs[layout.slices["match_points"]] = points[order]
    obs[layout.offsets["games_left"]] = (n_games - played) / n_games


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
        self.order_lists = [order.tolist() for order in self.orders]
        self.others = [order[1:] for order in self.orders]

    def clone(self) -> ClaimTable:
        """An independent copy (the seat orders and rank totals, never changed, are shared)."""
        new = copy.copy(self)
        for name in ("hands", "pile_by_seat", "pile_count_by_seat", "known_held", "removed_public", "removed_own"):
            setattr(new, name, getattr(self, name).copy())
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

    def pickable(self, seat: int) -> list[int]:
        """Ranks ``seat`` may pick next (non-decreasing order, cards still unpicked, room left, no ``done`` yet)."""
        if self.building_count >= self.max_play or self.building_closed:
            return []
        hand, building = self.hands[seat], self.building
        return [k for k in range(self.building_min, self.num_ranks) if hand[k] > building[k]]

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

    def claim_moves(self, seat: int, declarable: Sequence[int], counts: Sequence[int] = ()) -> list[ClaimMove]:
        """Every complete claim ``seat`` can still make: completions of the play under construction; when
        nothing is built yet on a lead, one per rank in ``declarable`` (ignored once a rank is set). Where a game
        declares the count apart, one per count in ``counts`` until it is declared."""
        if self.building_rank >= 0:
            ranks: Sequence[int] = (self.building_rank,)
        elif self.claim_rank >= 0:
            ranks = (self.claim_rank,)
        else:
            ranks = declarable
        built = tuple(k for k in range(self.num_ranks) for _ in range(int(self.building[k])))
        rest = self.hands[seat] - self.building
        room = 0 if self.building_closed else self.max_play - self.building_count
        extensions: list[tuple[int, ...]] = [()] if built else []
        extensions.extend(multisets(rest, room, self.building_min))
        if not counts:
            return [ClaimMove(rank, built + ext) for rank in ranks for ext in extensions]
        declared = (self.building_declared_count,) if self.building_declared_count >= 0 else counts
        return [ClaimMove(rank, built + ext, m) for rank in ranks for m in declared for ext in extensions]

    def claim_actions(
        self, seat: int, move: ClaimMove, declare_id0: int, pick_id0: int, done_id: int, count_id0: int = -1
    ) -> list[int]:
        """Action ids that finish ``move`` from the current state of the play under construction (``count_id0``:
        first id of the declared-count block, for a move with a ``declared_count`` not yet declared)."""
        cards, nb = move.cards, self.building_count
        built = tuple(k for k in range(self.num_ranks) for _ in range(int(self.building[k]))) if nb else ()
        if cards[:nb] != built or list(cards) != sorted(cards):
            raise ValueError(f"{move} does not extend the cards already picked {built} in rank order")
        ids = [declare_id0 + move.declared_rank] if self.building_rank < 0 and self.claim_rank < 0 else []
        if move.declared_count is not None and self.building_declared_count < 0:
            ids.append(count_id0 + move.declared_count - 1)
        ids.extend(pick_id0 + k for k in cards[nb:])
        picked_now = len(cards) - nb
        if self.hidden_count:
            ids.extend([done_id] * (self.steps_left(seat) - picked_now))
        elif self.steps_left(seat) > picked_now:
            ids.append(done_id)
        return ids

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
    def encode(self, obs: np.ndarray, layout: ObservationLayout, me: int, to_act: int) -> None:
        """Write the shared feature groups of ``me``'s observation into ``obs`` (seat-relative)."""
        n = self.num_players
        order = self.orders[me]
        s, o = layout.slices, layout.offsets
        hand = self.hands[me]
        mine_in_pile = self.pile_by_seat[me]
        obs[s["hand"]] = hand
        obs[s["unseen"]] = self.rank_totals - hand - mine_in_pile - self.removed_public - self.removed_own[me]
        if self.claim_rank >= 0:
            obs[o["claim_rank"] + self.claim_rank] = 1.0
            latest = self.plays[-1]
            obs[o["last_play_count"]] = latest.count
            obs[o["last_play_by"] + (latest.seat - me) % n] = 1.0
            obs[o["pile_size"]] = self.pile_size
            obs[o["pile_plays"]] = len(self.plays)
            obs[s["my_cards_in_pile"]] = mine_in_pile
            obs[s["pile_by_seat"]] = self.pile_count_by_seat[order]
        sizes = self.hand_sizes
        obs[s["hand_sizes"]] = [sizes[k] for k in self.order_lists[me]]
        obs[s["known_held"]] = self.known_held[me, self.others[me]].ravel()
        if to_act >= 0:
            obs[o["to_act"] + (to_act - me) % n] = 1.0
        if to_act == me:
            if self.building_rank >= 0:
                obs[o["building_rank"] + self.building_rank] = 1.0
            if self.building_count:
                obs[s["building_cards"]] = self.building

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
        if builder >= 0:
            self.hands[builder] -= self.building
        others = [s for s in range(self.num_players) if s != observer]
        known = self.known_held[observer]
        kept = {s: np.minimum(known[s], self.hands[s]) for s in others}
        kept_building = np.minimum(known[builder] - kept[builder], self.building) if builder >= 0 else 0
        for s in others:
            self.hands[s] -= kept[s]
        self.building -= kept_building
        slots: list[np.ndarray] = [*extra, *(self.hands[s] for s in others)]
        slots.extend(p.cards for p in self.plays if p.seat != observer)
        if builder >= 0:
            slots.append(self.building)
        redeal_slots(slots, rng)
        for s in others:
            self.hands[s] += kept[s]
        self.building += kept_building
        if builder >= 0:
            self.hands[builder] += self.building
            self.building_min = max(k for k in range(self.num_ranks) if self.building[k])
        self.pile_by_seat[:] = 0
        for p in self.plays:
            self.pile_by_seat[p.seat] += p.cards
        np.minimum(self.known_held, self.hands[np.newaxis], out=self.known_held)


def redeal_slots(slots: Sequence[np.ndarray], rng: np.random.Generator) -> None:
    """Shuffle the cards held in ``slots`` (rank-count arrays) among them, each keeping its size; in place.

    The cards are sorted before the shuffle, so the result depends on which cards are hidden and on ``rng`` only,
    not on where they lay: re-dealt worlds of one information set give one search the same samples."""
    tokens = np.sort(np.concatenate([np.repeat(np.arange(len(s)), s) for s in slots]))
    rng.shuffle(tokens)
    start = 0
    for s in slots:
        size = int(s.sum())
        s[:] = np.bincount(tokens[start : start + size], minlength=len(s))
        start += size


def claim_action_blocks(rank_labels: Sequence[str]) -> list[tuple[str, Sequence[str], str]]:
    """The ``declare`` / ``pick`` / ``done`` action blocks every bluffing game uses to build a claim."""
    return [
        ("declare", rank_labels, "lead: declare the rank claimed for the new pile"),
        ("pick", rank_labels, "put one card of this rank into the play being built (ranks in non-decreasing order)"),
        ("done", [""], "finish the play with the cards picked so far (at least one)"),
    ]


@dataclass(frozen=True, slots=True)
class Challenge:
    """The move that challenges the latest play (ネ・ベリシ, ゆくし)."""


@dataclass(frozen=True, slots=True)
class ClaimMove:
    """A complete claim: the cards placed (sorted ranks) under a declared rank (and declared count)."""

    declared_rank: int
    cards: tuple[int, ...]
    declared_count: int | None = None
