"""Yoninkan shares Goninkan's summary (one engine plays both)."""

from cardenvs.text.goninkan import RULES

__all__ = ["RULES"]
