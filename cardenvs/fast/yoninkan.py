"""Yoninkan (``cardenvs/yoninkan-v1``: 4 players, the 40-card deck, deal 1's hidden pair, trick-1 declarations, the
joker lowest in trick 10) for JAX: :mod:`cardenvs.fast.goninkan`'s program, which reads the differences from the
reference's :class:`~cardenvs.goninkan.ruleset.Ruleset` (Yoninkan's own logic: :mod:`cardenvs.fast.yoninkan_rules`)."""

from __future__ import annotations

from cardenvs.fast.goninkan import KankeiFast
from cardenvs.goninkan.options import YoninkanOptions


class YoninkanFast(KankeiFast):
    """Yoninkan for JAX; options as ``cardenvs/yoninkan-v1`` takes them (a round or a match per episode)."""

    game = "yoninkan-v1"
    options_type = YoninkanOptions
