"""Deliberately broken variants of the games, to prove the conformance kit catches each bug class."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from cardenvs.core.claim_moves import ClaimMove
from cardenvs.core.engine import TERMINAL
from cardenvs.core.position import Lines, PositionFields
from cardenvs.goninkan.game import KankeiGame
from cardenvs.goninkan.play import TrickPlay, open_declarations
from cardenvs.goninkan.table import PLAY, KankeiTable
from cardenvs.goninkan.yoninkan_env import DEFINITION as YONINKAN
from cardenvs.verish_ne_verish.env import DEFINITION
from cardenvs.verish_ne_verish.position import read_position, write_position
from cardenvs.verish_ne_verish.rules import VerishGame


class LeaksSetAsideCard(VerishGame):
    """Shows everyone the rank of the card set aside."""

    def observation(self, player: int) -> np.ndarray:
        obs = super().observation(player)
        obs[self.layout["discarded"]] += self.aside
        return obs


class LeaksLastPlayCards(VerishGame):
    """Remembers the face-down cards of the latest play in a feature everybody sees."""

    def _commit(self, seat: int) -> None:
        self.last_cards = self.table.building.copy()
        super()._commit(seat)

    def observation(self, player: int) -> np.ndarray:
        obs = super().observation(player)
        if hasattr(self, "last_cards"):
            obs[self.layout["unseen"]] = self.last_cards
        return obs


class AnnouncesPlayedCards(VerishGame):
    """Logs the face-down cards of every play in the play event's public part (the observation stays right)."""

    def _commit(self, seat: int) -> None:
        super()._commit(seat)
        play = next(e for e in reversed(self.events.events) if e["kind"] == "play")
        play["public"]["cards"] = play["private"][play["player"]]["cards"]


class ChallengeOnLead(VerishGame):
    """Masks a challenge as legal on the round's first play."""

    def _legal_mask(self) -> np.ndarray:
        mask = super()._legal_mask()
        if self.leading and self.current_player >= 0:
            mask[self.CHALLENGE] = 1
        return mask


class LosesACard(VerishGame):
    """Drops one card of the pile when someone picks it up."""

    def _challenge(self, challenger: int) -> None:
        super()._challenge(challenger)
        taker = self.events.of_kind("challenge")[-1]["public"]["taker"]
        held = np.flatnonzero(self.table.hands[taker])
        if len(held):
            self.table.hands[taker, held[0]] -= 1
            self.table.hand_sizes[taker] -= 1


class UsesGlobalRandomness(VerishGame):
    """Shuffles with a generator seeded from NumPy's global RNG instead of the one passed down."""

    def _deal_from_deck(self) -> None:
        seeded = self.rng
        self.rng = np.random.default_rng(np.random.randint(2**31))
        super()._deal_from_deck()
        self.rng = seeded


class LeaksSetAsideAtTheEnd(VerishGame):
    """Shows everyone the set-aside card once the game is over (only final observations leak)."""

    def observation(self, player: int) -> np.ndarray:
        obs = super().observation(player)
        if self.current_player == TERMINAL:
            obs[self.layout["discarded"]] += self.aside
        return obs


class CommitsWhenNothingHigherIsHeld(VerishGame):
    """A play commits by itself once no further pick is possible, so a missing ``done`` tells the table that the
    hand holds nothing of a higher rank (the rule before issue 23)."""

    def _build_step(self, action: int, commit) -> None:  # type: ignore[no-untyped-def]
        super()._build_step(action, commit)
        t = self.table
        if t.building_count and not t.pickable(self.current_player):
            commit(self.current_player)

    def move_actions(self, move):  # type: ignore[no-untyped-def]
        ids = super().move_actions(move)
        if isinstance(move, ClaimMove) and ids[-1] == self.DONE:
            rest = self.table.hands[self.current_player].tolist()
            last = move.cards[-1]
            if rest[last] == move.cards.count(last) and not any(rest[last + 1 :]):
                ids.pop()
        return ids


class AsksOnlyThoseWithADeclaration(TrickPlay):
    """Yoninkan's trick-1 declaration step is skipped for a player whose side has none left, so the turns
    name the hidden partner of a declarer (the rule before issue 23)."""

    def declaring(self, table: KankeiTable[Any]) -> bool:
        return (
            table.phase == PLAY
            and table.rules.trick1_declarations
            and table.trick_no == 1
            and table.decl_choice is None
            and bool(open_declarations(table, bool(table.is_kankei[table.current_player])))
        )


class AsksOnlyPlayersWithADeclaration(KankeiGame):  # type: ignore[type-arg]
    """The game with that phase in place of its play of the tricks."""

    tricks = AsksOnlyThoseWithADeclaration()


def _definition(engine: type[VerishGame], name: str):  # type: ignore[no-untyped-def]
    return replace(DEFINITION, name=name, new_game=engine)


LEAKS_SET_ASIDE = _definition(LeaksSetAsideCard, "mutant_leaks_set_aside")
LEAKS_LAST_PLAY = _definition(LeaksLastPlayCards, "mutant_leaks_last_play")
ANNOUNCES_PLAYED_CARDS = _definition(AnnouncesPlayedCards, "mutant_announces_played_cards")
CHALLENGE_ON_LEAD = _definition(ChallengeOnLead, "mutant_challenge_on_lead")
LOSES_A_CARD = _definition(LosesACard, "mutant_loses_a_card")
GLOBAL_RANDOMNESS = _definition(UsesGlobalRandomness, "mutant_global_randomness")
LEAKS_SET_ASIDE_AT_THE_END = _definition(LeaksSetAsideAtTheEnd, "mutant_leaks_set_aside_at_the_end")
COMMITS_WHEN_NOTHING_HIGHER = _definition(CommitsWhenNothingHigherIsHeld, "mutant_commits_when_nothing_higher")
ASKS_ONLY_PLAYERS_WITH_A_DECLARATION = replace(
    YONINKAN, name="mutant_asks_only_players_with_a_declaration", new_game=AsksOnlyPlayersWithADeclaration
)


def _hides_two_hands(game: VerishGame, seat: int | None) -> Lines:
    """Writes players 0 and 1's hands as '?' in the full position: a world read back deals them anew."""
    lines = write_position(game, seat)
    hidden = ("hand 0", "hand 1") if seat is None else ()
    return [(key, " ".join("?" * len(value.split())) if key in hidden else value) for key, value in lines]


def _reads_the_dealer_with_int(options: Any, fields: PositionFields, rng: np.random.Generator) -> VerishGame:
    """Reads the dealer with a bare ``int()`` first, so a malformed dealer line raises ValueError."""
    int(fields.values.get("dealer", "0"))
    return read_position(options, fields, rng)


HIDES_TWO_HANDS = replace(DEFINITION, name="mutant_hides_two_hands", write_position=_hides_two_hands)
READS_THE_DEALER_WITH_INT = replace(
    DEFINITION, name="mutant_reads_dealer_with_int", read_position=_reads_the_dealer_with_int
)
