"""Yukushi's challenge extremes, for a bluffing benchmark (the shipped styles ``honest``, ``bluffer`` and
``counter`` cover lying and counting): both play their own cards as the ``counter`` style does.

* :class:`AlwaysCall`: calls ゆくし on every play it may (in the window and on its turn).
* :class:`NeverCall`: never calls.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardenvs.agents.base import PolicyContext
from cardenvs.agents.bots.yukushi import YukushiBot


class AlwaysCall(YukushiBot):
    """Calls every claim it may."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed, style="counter")
        self.name = "yukushi/always_call"

    def _should_call(self, observation: Mapping[str, np.ndarray]) -> bool:
        return True


class NeverCall(YukushiBot):
    """Never calls."""

    def __init__(self, context: PolicyContext, seed: int | None = None):
        super().__init__(context, seed, style="counter")
        self.name = "yukushi/never_call"

    def _should_call(self, observation: Mapping[str, np.ndarray]) -> bool:
        return False
