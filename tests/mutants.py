"""Deliberately broken variants of Verish' ne verish', to prove the conformance kit catches each bug class."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from cardenvs.verish_ne_verish.env import DEFINITION
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


def _definition(engine: type[VerishGame], name: str):  # type: ignore[no-untyped-def]
    return replace(DEFINITION, name=name, new_game=engine)


LEAKS_SET_ASIDE = _definition(LeaksSetAsideCard, "mutant_leaks_set_aside")
LEAKS_LAST_PLAY = _definition(LeaksLastPlayCards, "mutant_leaks_last_play")
ANNOUNCES_PLAYED_CARDS = _definition(AnnouncesPlayedCards, "mutant_announces_played_cards")
CHALLENGE_ON_LEAD = _definition(ChallengeOnLead, "mutant_challenge_on_lead")
LOSES_A_CARD = _definition(LosesACard, "mutant_loses_a_card")
GLOBAL_RANDOMNESS = _definition(UsesGlobalRandomness, "mutant_global_randomness")
