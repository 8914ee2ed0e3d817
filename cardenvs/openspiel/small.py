"""The small variants solved exactly: two players and a deck of a few ranks, options of the existing ids, each
registered with its deal an explicit chance node (``docs/openspiel.md``, "Small variants solved exactly")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pyspiel
from open_spiel.python import policy as policy_lib

from cardenvs.agents.equilibria import ROOT, digest, read_table


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
    v.game: v
    for v in (
        SmallVariant(
            "verish_ne_verish", "verish_ne_verish-v0", {"num_players": 2, "deck_size": 8, "dealer": 0, "max_steps": 12}
        ),
        SmallVariant("yukushi", "yukushi-v0", {"num_players": 2, "deck_size": 8, "leader": 0, "max_steps": 12}),
        SmallVariant(
            "kyuuri", "kyuuri-v0", {"num_players": 2, "deck_size": 16, "deal_size": 3, "episode": "deal", "dealer": 0}
        ),
    )
}
"""Game → its small variant. Verish' ne verish': K and A (8 cards, one set aside, hands of 4 and 3), 12 decisions
at most; Yukushi: K and A (hands of 4), 12 decisions at most; Kyuuri: J Q K A (16 cards), 3 cards each, one deal.
A game cut by the step cap is a draw (0 each)."""


def register_small(game: str) -> str:
    """Register ``game``'s small variant with OpenSpiel (explicit deal) and return its name."""
    from cardenvs.openspiel import register

    variant = SMALL_VARIANTS[game]
    return register(variant.env_id, name=variant.name, explicit_deal=True, **variant.options)


class InformationTablePolicy(policy_lib.Policy):
    """An OpenSpiel policy read from a table keyed by the digest of the information-state string (the exact
    equilibria of :mod:`agents.equilibria`)."""

    def __init__(self, game: Any, rows: Mapping[str, Mapping[int, float]]):
        super().__init__(game, list(range(game.num_players())))
        self.rows = rows

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        player = state.current_player() if player_id is None else player_id
        key = state.information_state_string(player)
        row = self.rows.get(digest(key))
        if row is None:
            raise KeyError(f"the table has no information set {key[:200]!r}")
        return {a: row.get(a, 0.0) for a in state.legal_actions(player)}


def equilibrium(game: str) -> InformationTablePolicy:
    """The shipped equilibrium of ``game``'s small variant as an OpenSpiel policy of its game (exact: keyed by the
    information state, so that ``exploitability.nash_conv(pyspiel.load_game(register_small(game)), policy)`` is
    the recorded NashConv)."""
    rows = read_table(ROOT / f"{game}-small.npz", "info")
    return InformationTablePolicy(pyspiel.load_game(register_small(game)), rows)
