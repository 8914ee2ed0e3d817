"""PettingZoo's order-enforcing wrapper with the per-step paths made direct.

:class:`OrderEnforcingWrapper` answers every attribute of the wrapped env through ``__getattr__`` (a set
lookup and two calls), and ``AECEnv.last`` reads five of them per step, the agent iterator two more: about a
fifth of a fast env's step. :class:`FastOrderEnforcingWrapper` keeps the wrapper's checks and errors (it is a
subclass, so ``isinstance`` tests and ``unwrapped`` still work) but reads those attributes from the wrapped
env directly in ``last``, ``step`` and the agent iterator.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
    OrderEnforcingWrapper,
)


class FastOrderEnforcingWrapper(OrderEnforcingWrapper[str, Any, Any]):
    """:class:`OrderEnforcingWrapper` with direct ``last``, ``step`` and ``agent_iter`` (same behaviour)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # the wrapped env observes for itself: observe() only checks the reset

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self.env.step(action)

    def _repr_svg_(self) -> str | None:
        """The wrapped env's picture (``__getattr__`` does not forward private names)."""
        picture: str | None = self.env._repr_svg_()
        return picture

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable[str, Any, Any]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _FastIterable(self, max_iter)


class _FastIterable(AECOrderEnforcingIterable[str, Any, Any]):
    def __iter__(self) -> AECOrderEnforcingIterator[str, Any, Any]:
        return _FastIterator(self.env, self.max_iter)


class _FastIterator(AECOrderEnforcingIterator[str, Any, Any]):
    def __next__(self) -> str:
        wrapper: Any = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = inner.agent_selection
        return agent
