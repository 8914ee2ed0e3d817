"""The engine parts that the claim-and-challenge games (Verish' ne verish', Yukushi) share.

:class:`BluffingGame` sits between :class:`~cardenvs.core.engine.RulesEngine` and a game: rank text for
deals and logs, explicit deals from text, the ``play`` / ``challenge`` / ``out`` events in the one format
the tournament metrics read, the turning of the latest play (with going out on a truthful last play),
rewards hand-over and card conservation. The game keeps its own turn order, windows and end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Self

import numpy as np

from cardenvs.core.bluffing import ChallengeOutcome, ClaimTable, Play
from cardenvs.core.cards import RANK_TEXT, Deck, rank_index, rank_of
from cardenvs.core.engine import OptionsT, RulesEngine
from cardenvs.core.errors import InvalidOptionError
from cardenvs.core.events import EventLog
from cardenvs.core.layout import ActionTable


@cache
def rank_labels(deck: Deck) -> tuple[str, ...]:
    """Text of the deck's ranks, ascending."""
    return tuple(RANK_TEXT[r] for r in deck.ranks())


_RANK_TEXTS: dict[tuple[str, ...], dict[tuple[str, bytes], str]] = {}
"""Text of rank counts already written, per deck's labels (see :meth:`BluffingGame._ranks_text`)."""
_RANK_TEXTS_HELD = 4096
"""Texts kept per deck before the cache starts over (hands and plays make far fewer in practice)."""


@cache
def rank_ids(num_ranks: int) -> np.ndarray:
    """``0 … num_ranks - 1`` (read-only, shared)."""
    ids = np.arange(num_ranks)
    ids.flags.writeable = False
    return ids


@cache
def rank_totals(deck: Deck) -> tuple[int, ...]:
    """Copies of each of the deck's ranks."""
    counts = deck.rank_counts()
    return tuple(counts[r] for r in deck.ranks())


@cache
def local_rank_of_card(deck: Deck) -> tuple[int, ...]:
    """Index into the deck's ranks of every card id (-1 for cards not in the deck)."""
    ranks = deck.ranks()
    return tuple(ranks.index(rank_of(c)) if c in deck.cards else -1 for c in range(52))


def per_rank(labels: Sequence[str], counts: Sequence[int]) -> str:
    """``"2:1 3:0 …"``: counts labelled by rank, for error messages."""
    return " ".join(f"{label}:{count}" for label, count in zip(labels, counts, strict=True))


def ranking_rewards(order: Sequence[int], num_players: int) -> np.ndarray:
    """Zero-sum rewards linear in the finishing order: +1 for the first, −1 for the last, place ``k`` (0-based)
    getting ``(n − 1 − 2k) / (n − 1)``."""
    n = num_players
    rewards = np.zeros(n, dtype=np.float64)
    for place, seat in enumerate(order):
        rewards[seat] = (n - 1 - 2 * place) / (n - 1)
    return rewards


class BluffingGame(RulesEngine[OptionsT]):
    """Shared machinery of the bluffing engines (see the module docstring). Subclasses call
    :meth:`_init_deck` during set-up and create ``self.table`` for each game."""

    deck: Deck
    canonical_ranks: tuple[int, ...]
    rank_labels: tuple[str, ...]
    num_ranks: int
    table: ClaimTable
    out: list[bool]
    exit_order: list[int]
    match_points: np.ndarray
    games_played: int

    # The ``challenge`` id, the first ids of the ``declare`` and ``pick`` blocks and the ``done`` id
    # (set by :meth:`_init_claim_actions` from the game's action table).
    CHALLENGE: int
    DECLARE: int
    PICK: int
    DONE: int

    def _init_common(self, options: OptionsT, rng: np.random.Generator, num_players: int, deck: Deck) -> None:
        """Set-up every bluffing engine shares: options, RNG, players, deck, event log, match points."""
        self.options = options
        self.rng = rng
        self.num_players = num_players
        self._init_deck(deck)
        self.events = EventLog()
        self.match_points = np.zeros(num_players, dtype=np.float64)
        self.games_played = 0
        self._rewards = None

    def _init_claim_actions(self, actions: ActionTable) -> ActionTable:
        """Take the game's action table and the ids of its ``challenge``, ``declare``, ``pick`` and ``done``."""
        self.actions = actions
        self.CHALLENGE = actions["challenge"].offset
        self.DECLARE = actions["declare"].offset
        self.PICK = actions["pick"].offset
        self.DONE = actions["done"].offset
        return actions

    def _init_deck(self, deck: Deck) -> None:
        self.deck = deck
        self.canonical_ranks = deck.ranks()
        self.rank_labels = rank_labels(deck)
        self.num_ranks = len(self.canonical_ranks)
        self._rank_ids = rank_ids(self.num_ranks)

    # ------------------------------------------------------------------ deals and text
    def _ranks_text(self, counts: np.ndarray) -> str:
        # Every play is logged as text: the same few counts recur, and a dict look-up costs less than building it.
        key = (counts.dtype.char, counts.tobytes())
        texts = _RANK_TEXTS.setdefault(self.rank_labels, {})
        text = texts.get(key)
        if text is None:
            labels = self.rank_labels
            text = " ".join([labels[k] for k in np.repeat(self._rank_ids, counts).tolist()])
            if len(texts) >= _RANK_TEXTS_HELD:
                texts.clear()
            texts[key] = text
        return text

    def _counts_from_text(self, text: str) -> np.ndarray:
        counts = np.zeros(self.num_ranks, dtype=np.int16)
        for token in text.split():
            canonical = rank_index(token)
            if canonical not in self.canonical_ranks:
                raise InvalidOptionError(
                    f"rank {token!r} is not in the {self.deck.name} deck ({' '.join(self.rank_labels)})"
                )
            counts[self.canonical_ranks.index(canonical)] += 1
        return counts

    def _hands_from_text(
        self, hands: Sequence[str], extra: np.ndarray | None = None, what: str = "the hands"
    ) -> list[np.ndarray]:
        """Rank counts of explicit hands, which (with ``extra``) must make up the deck exactly."""
        if len(hands) != self.num_players:
            raise InvalidOptionError(f"need {self.num_players} hands, got {len(hands)}")
        counts = [self._counts_from_text(h) for h in hands]
        total = np.sum(counts, axis=0) + (extra if extra is not None else 0)
        expected = [self.deck.rank_counts()[r] for r in self.canonical_ranks]
        if list(total) != expected:
            raise InvalidOptionError(
                f"{what} must be the {self.deck.name} deck exactly: per rank "
                f"{per_rank(self.rank_labels, expected)}, got {per_rank(self.rank_labels, total.tolist())}"
            )
        return counts

    def _deal_counts(self, first: int, skip: int = 0) -> tuple[list[np.ndarray], np.ndarray]:
        """A shuffled deck dealt one card at a time clockwise from ``first``, after ``skip`` cards set aside."""
        local = local_rank_of_card(self.deck)
        cards = self.deck.shuffled(self.rng)
        aside = np.zeros(self.num_ranks, dtype=np.int16)
        for card in cards[:skip]:
            aside[local[card]] += 1
        hands = np.zeros((self.num_players, self.num_ranks), dtype=np.int16)
        for i, card in enumerate(cards[skip:]):
            hands[(first + i) % self.num_players, local[card]] += 1
        return list(hands), aside

    # ------------------------------------------------------------------ events shared by the bluffing games
    def _log_play(self, play: Play, lead: bool, count_public: bool = True) -> None:
        public: dict[str, Any] = {"claim": self.rank_labels[play.declared_rank], "lead": lead}
        if count_public:
            public["count"] = play.count
        else:
            public["declared_count"] = play.declared_count
        private: dict[str, Any] = {"cards": self._ranks_text(play.cards)}
        if not count_public:
            private["count"] = play.count
        self.events.add(
            "play", play.seat, public=public, private={play.seat: private}, secret={"truthful": play.is_truthful()}
        )

    def _turn_over(self, challenger: int, size_public: bool = True) -> ChallengeOutcome:
        """Turn over the latest play, hand the pile to whoever takes it, log it, and put out a player whose
        truthful last play was challenged."""
        outcome = self.table.challenge(challenger)
        public: dict[str, Any] = {
            "owner": outcome.owner,
            "revealed": [self.rank_labels[k] for k in outcome.revealed],
            "lie": outcome.lie,
            "taker": outcome.taker,
        }
        private: dict[int, dict[str, Any]] = {}
        if size_public:
            public["pile_size"] = outcome.pile_size
        else:
            private[outcome.taker] = {"pile_size": outcome.pile_size}
        self.events.add("challenge", challenger, public=public, private=private)
        if not outcome.lie and self.table.hand_sizes[outcome.owner] == 0:
            self._go_out(outcome.owner)
        return outcome

    def _go_out(self, seat: int) -> None:
        self.out[seat] = True
        self.exit_order.append(seat)
        self.events.add("out", seat, public={"place": len(self.exit_order)})

    # ------------------------------------------------------------------ masks and reasons
    def _mask_picks(self, mask: np.ndarray) -> np.ndarray:
        """Set the ``pick`` ids the player to act may take next, and ``done`` once a card is picked."""
        t = self.table
        mask[self.PICK : self.PICK + t.num_ranks] = t.can_pick(self.current_player)
        if t.building_count:
            mask[self.DONE] = 1
        return mask

    def _build_step(self, action: int, commit: Callable[[int], None]) -> None:
        """Apply a ``declare``, ``pick`` or ``done`` id to the play under construction; ``commit(seat)`` places it
        once it is finished (after its last step, or at ``done`` where the count is public)."""
        t, seat = self.table, self.current_player
        if action < self.PICK:
            t.building_rank = action - self.DECLARE
            return
        if action < self.DONE:
            t.pick(action - self.PICK)
        else:
            t.building_closed += 1
        if t.steps_left(seat) == 0 or (action == self.DONE and not t.hidden_count):
            commit(seat)

    def _pick_reason(self, action: int) -> str:
        """Why a ``pick`` or ``done`` id is illegal while a play is being built."""
        t = self.table
        if action == self.DONE:
            return "a play needs at least one card"
        k = action - self.PICK
        if t.building_closed:
            return "after done, the play's remaining steps are done (its number of cards stays hidden)"
        if t.building_count >= t.max_play:
            return f"a play has at most {t.max_play} cards"
        if k < t.building_min:
            return f"cards are picked in non-decreasing rank order (last pick was {self.rank_labels[t.building_min]})"
        return f"no unpicked {self.rank_labels[k]} in hand"

    # ------------------------------------------------------------------ protocol parts
    def clone(self) -> Self:
        """An independent copy, made cheaply (search agents and the conformance kit clone at every decision): see
        :meth:`RulesEngine._clone_members`. A game with mutable members it does not know (a dict, a list of
        lists) copies them in :meth:`_clone_into`."""
        new = self._clone_members()
        self._clone_into(new)
        return new

    def _clone_into(self, new: Self) -> None:
        """Copy into ``new`` the game's own mutable members that :meth:`clone` does not know."""

    def _pay(self, rewards: np.ndarray) -> None:
        """Add a game's rewards to those not yet handed over."""
        self._rewards = rewards if self._rewards is None else self._rewards + rewards

    def _table_cards(self) -> np.ndarray:
        """Rank counts of every card in hands and in the pile."""
        return self.table.hands.sum(axis=0) + self.table.pile_by_seat.sum(axis=0)

    def _multiset(self, counts: np.ndarray) -> list[int]:
        return [self.canonical_ranks[k] for k in range(self.num_ranks) for _ in range(int(counts[k]))]

    def _seats_from(self, start: int) -> list[int]:
        return [(start + k) % self.num_players for k in range(self.num_players)]
