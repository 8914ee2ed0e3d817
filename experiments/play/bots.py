"""Asking an opponent policy for its action without trusting it: in a thread of its own, within a time limit,
and refusing what is not an integer (the table checks that the action is legal).

A policy that raises, answers late or answers something that is not an action id raises
:class:`PolicyFailed`, whose message names the policy, its seat and what went wrong; the table then ends the
game with that message. A policy that never returns cannot be stopped in Python: its thread is left behind as
a daemon, so that it neither blocks the table nor keeps the process alive at exit.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np

from cardenvs.agents.base import Policy
from cardenvs.core.errors import ActionTypeError
from cardenvs.core.views import PublicView, policy_action

T = TypeVar("T")


class PolicyFailed(RuntimeError):
    """An opponent policy raised, took too long, or chose an action that cannot be played."""


def in_thread(function: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
    """Start ``function(*args)`` in a new daemon thread; its result (or exception) arrives in the future."""
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(function(*args))
        except BaseException as error:  # the caller reports it; nothing may escape a thread unseen
            future.set_exception(error)

    threading.Thread(target=run, daemon=True, name=f"play:{getattr(function, '__qualname__', 'call')}").start()
    return future


def ask(
    policy: Policy, observation: Mapping[str, np.ndarray], who: str, timeout: float, view: PublicView | None = None
) -> int:
    """The action id ``policy`` (called ``who`` in messages) chooses for ``observation``; a policy that wants its
    seat's public view is given ``view`` too (see :func:`agents.play.seat_policies`)."""
    future = in_thread(policy_action, policy, observation, view)
    done, _ = concurrent.futures.wait([future], timeout=timeout)
    if not done:
        raise PolicyFailed(f"{who} did not choose an action within {timeout:g} s")
    error = future.exception()
    if isinstance(error, ActionTypeError):  # the one rule for what an action id is (cardenvs.core.views)
        raise PolicyFailed(f"{who} returned something that is not an integer action id: {error}")
    if error is not None:
        raise PolicyFailed(f"{who} failed: {type(error).__name__}: {error}")
    return future.result()
