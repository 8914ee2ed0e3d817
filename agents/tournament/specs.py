"""Policy specs: the strings that name a tournament entrant, and the resolver that builds policies from them.

A spec is one of

* a registered policy name (``random``, ``verish_ne_verish/rule``; see :data:`agents.registry.POLICIES`);
* ``ckpt:PATH`` / ``ckpt-greedy:PATH``: a trained checkpoint (sampling / argmax), resolved by
  :data:`agents.registry.RESOLVERS` (``agents.sb3_policy`` is imported only when such a spec is used);
* ``py:package.module:Factory``: any callable ``Factory(context, seed) -> Policy`` (a class or a function), for
  policies that live outside this repository.

An entrant may carry a label: ``label=spec`` (``--policies rule=verish_ne_verish/rule``), so that one spec can
enter twice under different names or a long checkpoint path gets a short name in the report. New prefixes are
added with :func:`register_spec_prefix`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agents import registry
from agents.base import Policy, PolicyContext

SpecLoader = Callable[[str, PolicyContext, "int | None"], Policy]
"""``loader(argument, context, seed)``: builds a policy from the part of a spec after ``prefix:``."""


@dataclass(frozen=True)
class Entrant:
    """One policy in a tournament: the name it is reported under and the spec that builds it."""

    label: str
    spec: str

    @classmethod
    def parse(cls, text: str) -> Entrant:
        """``spec`` or ``label=spec``; the label defaults to the spec itself."""
        label, sep, spec = text.partition("=")
        if not sep:
            return cls(text.strip(), text.strip())
        if not label.strip() or not spec.strip():
            raise ValueError(f"a labelled policy is written label=spec, got {text!r}")
        return cls(label.strip(), spec.strip())


def parse_entrants(texts: Sequence[str]) -> list[Entrant]:
    """Entrants from ``spec`` / ``label=spec`` strings; labels must be distinct."""
    entrants = [Entrant.parse(t) for t in texts]
    labels = [e.label for e in entrants]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise ValueError(
            f"policy labels must be distinct, {duplicates} appear more than once; "
            "enter a policy twice with different labels: a=random b=random"
        )
    if not entrants:
        raise ValueError("a tournament needs at least one policy")
    return entrants


def _load_python(target: str, context: PolicyContext, seed: int | None) -> Policy:
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"a Python policy is written py:package.module:Factory, got py:{target}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name} for spec py:{target} (is it on sys.path?): {error}") from error
    factory = getattr(module, attribute, None)
    if factory is None:
        raise ValueError(f"{module_name} has no attribute {attribute!r} (from spec py:{target})")
    policy = factory(context, seed)
    if not isinstance(policy, Policy):
        raise ValueError(f"py:{target} returned {type(policy).__name__}, not an agents.Policy")
    return policy


SPEC_PREFIXES: dict[str, SpecLoader] = {"py": _load_python}
"""Spec prefix → loader. Any other spec goes to :func:`agents.registry.make_policy` (registered names and the
checkpoint prefixes of :data:`agents.registry.RESOLVERS`)."""


def register_spec_prefix(prefix: str, loader: SpecLoader) -> None:
    """Make ``prefix:argument`` specs resolve through ``loader``."""
    if not prefix.isidentifier():
        raise ValueError(f"a spec prefix is an identifier, got {prefix!r}")
    SPEC_PREFIXES[prefix] = loader


def resolve_policy(spec: str, context: PolicyContext, seed: int | None = None) -> Policy:
    """Build the policy a spec names, for the game described by ``context``.

    Checkpoint prefixes are left to the policy registry (``agents.registry.RESOLVERS``), the one place that
    knows how a checkpoint is loaded; the prefixes here cover the rest."""
    prefix, sep, argument = spec.partition(":")
    if sep and prefix in SPEC_PREFIXES:
        return SPEC_PREFIXES[prefix](argument, context, seed)
    return registry.make_policy(spec, context, seed)
