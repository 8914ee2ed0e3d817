"""What a search agent may look at: determinizations of the live game from the deciding seat's point of view.

A policy normally sees only its observation (:mod:`agents.base`). A search agent needs worlds to play forward, and
the engine that holds the true deal is exactly what it must not read. :class:`InformationSets` stands between
them: it keeps the env to itself and hands out only ``resample_hidden(seat, rng)`` copies, in which every card
the deciding seat cannot see has been re-dealt consistently with what that seat has seen, and whose chance still
to come (the engine's own ``rng``: later deals of a match, random choices) is reseeded from the agent's ``rng``.
So whatever the search does with a sample, it cannot learn the true hidden cards; the engines' re-deals depend
only on which cards are hidden and on ``rng``, so two worlds that one seat cannot tell apart give the same samples
and the search the same decision (``tests/search/test_ismcts.py`` checks it).

Every game loop (:func:`agents.play.play_episode` and so tournaments and the benchmark, the play table, the local
best response's rollouts) hands the table to every policy that has a ``sit(tables)`` method
(:class:`NeedsInformationSets`) when a game starts, through :func:`agents.play.seat_policies`.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from cardenvs.core.engine import RulesEngine
from cardenvs.core.views import PublicView
from cardenvs.core.worlds import sample_world


class InformationSets:
    """Determinizations of the game an env is playing, as seen by the player to act (see the module docstring)."""

    def __init__(self, table: Any):
        """``table``: an env (its current game is read at each call, so the table follows its resets) or a rules
        engine (a world played out on its own, as in a rollout)."""
        self._table = table if isinstance(table, RulesEngine) else table.unwrapped

    @property
    def _game(self) -> RulesEngine[Any]:
        if isinstance(self._table, RulesEngine):
            return self._table
        game: RulesEngine[Any] | None = self._table.game
        if game is None:
            raise RuntimeError("the env has no game yet: reset it before searching")
        return game

    def public_view(self, seat: int) -> PublicView:
        """What ``seat`` has seen of the current game (a new game, after a reset, needs a new view)."""
        return PublicView(self._game.events, seat)

    def sample(self, rng: np.random.Generator) -> RulesEngine[Any]:
        """A world the deciding seat cannot tell from the true one, drawn with ``rng``; the caller may play it out."""
        game = self._game
        return sample_world(game, game.current_player, rng)


@runtime_checkable
class NeedsInformationSets(Protocol):
    """A policy that searches: the game loop calls ``sit`` with the table when a game starts."""

    def sit(self, tables: InformationSets) -> None: ...
