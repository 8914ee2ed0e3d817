"""Zheng Shang You as the env plays it: the rules engine with its observers (the encoder, the renderer, the
illegal-action reasons, the move features and the re-deal), which read the engine and are brought together here."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Self

import numpy as np

from cardenvs.core.layout import ObservationLayout
from cardenvs.zheng_shang_you.encoding import encode, observation_layout
from cardenvs.zheng_shang_you.features import moves_features
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.reasons import illegal_reason
from cardenvs.zheng_shang_you.render import render
from cardenvs.zheng_shang_you.resample import resample_hidden
from cardenvs.zheng_shang_you.rules import ZsyRules


class ZsyGame(ZsyRules):
    """One episode of Zheng Shang You (a match of deals to the target, or a single deal), observed."""

    def _setup(self, options: ZsyOptions, rng: np.random.Generator) -> None:
        super()._setup(options, rng)
        self.layout: ObservationLayout = observation_layout(self.num_players)

    def observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def observe_into(self, player: int, out: np.ndarray) -> None:
        encode(self, player, out)

    def _why_illegal(self, action: int) -> str:

        return illegal_reason(self, action)

    def legal_move_features(self) -> tuple[list[Hashable], np.ndarray]:
        """``legal_moves()`` with one feature row per move (layout: :func:`~.features.move_layout`)."""

        moves = self.legal_moves()
        return moves, moves_features(moves)

    def render_text(self) -> str:

        return render(self)

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        return resample_hidden(self, observer, rng)
