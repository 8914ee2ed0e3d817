"""The small variants solved exactly: two players and a deck of a few ranks, options of the existing ids, each
registered with its deal an explicit chance node (``docs/openspiel.md``, "Small variants solved exactly"). A game
has one where its definition declares ``openspiel.small_variant``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardenvs.games import definitions


@dataclass(frozen=True)
class SmallVariant:
    """One small variant: the id, its options (the step cap included) and its OpenSpiel name."""

    game: str
    env_id: str
    options: dict[str, Any]

    @property
    def name(self) -> str:
        return f"python_cardenvs_{self.game}_small"

    @property
    def reward_range(self) -> float:
        """Highest return minus lowest (the loser −1, the winner +1)."""
        return 2.0


SMALL_VARIANTS: dict[str, SmallVariant] = {
    d.name: SmallVariant(d.name, f"{d.name}-v{d.version}", dict(d.openspiel.small_variant))
    for d in definitions()
    if d.openspiel.small_variant
}
"""Game → its small variant (from the definitions). Verish' ne verish': K and A (8 cards, one set aside, hands of 4
and 3), 12 decisions at most; Yukushi: K and A (hands of 4), 12 decisions at most; Kyuuri: J Q K A (16 cards), 3
cards each, one deal. A game cut by the step cap is a draw (0 each)."""


def register_small(game: str) -> str:
    """Register ``game``'s small variant with OpenSpiel (explicit deal) and return its name."""
    from cardenvs.openspiel import register

    variant = SMALL_VARIANTS[game]
    return register(variant.env_id, name=variant.name, explicit_deal=True, **variant.options)
