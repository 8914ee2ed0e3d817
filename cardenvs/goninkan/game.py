"""Goninkan and Yoninkan as the env plays them: the rules engine with its observers (the encoder, the renderer,
the knowledge-consistent re-deal), which read the engine and are brought together here only."""

from __future__ import annotations

from typing import Self

import numpy as np

from cardenvs.goninkan import knowledge
from cardenvs.goninkan.encoding import encode, observation_layout
from cardenvs.goninkan.render import render
from cardenvs.goninkan.rules import KankeiRules
from cardenvs.goninkan.table import OptionsT


class KankeiGame(KankeiRules[OptionsT]):
    """One Goninkan or Yoninkan episode (a round, or a match of rounds), observed."""

    def _setup(self, options: OptionsT, rng: np.random.Generator) -> None:
        super()._setup(options, rng)
        self.layout = observation_layout(self.rules, options.n_rounds)

    def observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def observe_into(self, player: int, out: np.ndarray) -> None:
        encode(self, player, out=out)

    def render_text(self) -> str:
        return render(self)

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        return knowledge.resample(self, observer, rng)
