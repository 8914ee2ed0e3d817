"""The error every conformance check raises."""

from __future__ import annotations


class ConformanceError(AssertionError):
    """An env broke the cardenvs contract."""


def fail(condition: bool, message: str) -> None:
    """Raise :class:`ConformanceError` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise ConformanceError(message)
