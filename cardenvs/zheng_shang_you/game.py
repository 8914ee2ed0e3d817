"""Zheng Shang You as the env plays it: the rules engine with the parts that read it and belong to the rules (the
illegal-action reasons, the move features and the re-deal). How the game is seen (the encoder, the renderer) is
attached by its definition (:meth:`~cardenvs.core.engine.RulesEngine.observed_by`), as for every game."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Self

import numpy as np

from cardenvs.core.layout import ObservationLayout
from cardenvs.zheng_shang_you.features import moves_features
from cardenvs.zheng_shang_you.options import ZsyOptions
from cardenvs.zheng_shang_you.reasons import illegal_reason
from cardenvs.zheng_shang_you.resample import resample_hidden
from cardenvs.zheng_shang_you.rules import ZsyRules


class ZsyGame(ZsyRules):
    """One episode of Zheng Shang You (a match of deals to the target, or a single deal)."""

    def _setup(self, options: ZsyOptions, rng: np.random.Generator) -> None:
        super()._setup(options, rng)
        self.layout: ObservationLayout = self._observer().layout(self)

    def _why_illegal(self, action: int) -> str:
        return illegal_reason(self, action)

    def legal_move_features(self) -> tuple[list[Hashable], np.ndarray]:
        """``legal_moves()`` with one feature row per move (layout: :func:`~.features.move_layout`)."""
        moves = self.legal_moves()
        return moves, moves_features(moves)

    def _resample_hidden(self, observer: int, rng: np.random.Generator) -> Self:
        return resample_hidden(self, observer, rng)
