"""What a search agent may look at: determinizations of the live game from the deciding seat's point of view.

A policy normally sees only its observation (:mod:`agents.base`). A search agent needs worlds to play forward, and
the engine that holds the true deal is exactly what it must not read. :class:`InformationSets` stands between
them: it keeps the env to itself and hands out only ``resample_hidden(seat, rng)`` copies, in which every card
the deciding seat cannot see has been re-dealt consistently with what that seat has seen, and whose chance still
to come (the engine's own ``rng``: later deals of a match, random choices) is reseeded from the agent's ``rng``.
So whatever the search does with a sample, it cannot learn the true hidden cards; the engines' re-deals depend
only on which cards are hidden and on ``rng``, so two worlds that one seat cannot tell apart give the same samples
and the search the same decision (``tests/search/test_ismcts.py`` checks it).

The game loop (:func:`agents.play.play_episode`, and so tournaments) hands the table to every policy that has a
``sit(tables)`` method (:class:`NeedsInformationSets`) when a game starts.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from cardenvs.core.engine import RulesEngine


class InformationSets:
    """Determinizations of the game an env is playing, as seen by the player to act (see the module docstring)."""

    def __init__(self, env: Any):
        self._env = env.unwrapped

    @property
    def _game(self) -> RulesEngine[Any]:
        game: RulesEngine[Any] | None = self._env.game
        if game is None:
            raise RuntimeError("the env has no game yet: reset it before searching")
        return game

    def sample(self, rng: np.random.Generator) -> RulesEngine[Any]:
        """A world the deciding seat cannot tell from the true one, drawn with ``rng``; the caller may play it out."""
        game = self._game
        world = game.resample_hidden(game.current_player, rng)
        if isinstance(getattr(world, "rng", None), np.random.Generator):  # future chance is hidden too
            world.rng = np.random.default_rng(int(rng.integers(2**63)))
        world.take_rewards()  # rewards already paid belong to the real game, not to this sample's future
        return world


@runtime_checkable
class NeedsInformationSets(Protocol):
    """A policy that searches: the game loop calls ``sit`` with the table when a game starts."""

    def sit(self, tables: InformationSets) -> None: ...
