"""Errors raised by cardenvs. Each message says what is wrong and what would be valid."""

from __future__ import annotations


class CardenvsError(Exception):
    """Base class of every error cardenvs raises on purpose."""


class InvalidOptionError(CardenvsError, ValueError):
    """An unknown option, or an option value outside its valid range."""


class CardTextError(InvalidOptionError):
    """Text that names no card or rank (the message lists what may be written)."""


class IllegalActionError(CardenvsError, ValueError):
    """An action the rules do not allow in the current state (the message says why)."""


class ActionTypeError(CardenvsError, TypeError):
    """An action that is not an integer action id."""


class GameOverError(CardenvsError, RuntimeError):
    """A step on a game that has already ended (call ``reset()``)."""


class UnknownAgentError(CardenvsError, KeyError):
    """An agent name the env does not have."""

    def __str__(self) -> str:  # KeyError would show the message quoted
        return str(self.args[0]) if self.args else ""
