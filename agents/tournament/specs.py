"""Tournament entrants: the name a policy is reported under and the spec that builds it.

Specs are the one policy language of :mod:`agents.specs` (registered names, ``path/to/file.py:Name``,
``package.module:Name`` with ``?key=value`` parameters, ``ckpt:``, ``zoo:``). An entrant may carry a label:
``label=spec`` (``--policies rule=verish_ne_verish/rule``), so that one spec can enter twice under different
names or a long spec gets a short name in the report. A label has no ``:`` or ``?``, so
``mine.py:P?p=0.3`` is a spec, not a label. Each entrant also carries the fingerprint of the code that plays
(:func:`agents.specs.fingerprint`), so stored results never outlive a change of that code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardenvs.agents.specs import SPEC_PREFIXES, SpecLoader, fingerprinted_policy, register_spec_prefix, resolve_policy


@dataclass(frozen=True)
class Entrant:
    """One policy in a tournament: the name it is reported under, the spec that builds it and the fingerprint of
    its code (empty until :meth:`with_fingerprint`)."""

    label: str
    spec: str
    fingerprint: str = ""

    @classmethod
    def parse(cls, text: str) -> Entrant:
        """``spec`` or ``label=spec``; the label defaults to the spec itself."""
        label, sep, spec = text.partition("=")
        if not sep or ":" in label or "?" in label:
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


__all__ = [
    "SPEC_PREFIXES",
    "Entrant",
    "SpecLoader",
    "fingerprinted_policy",
    "parse_entrants",
    "register_spec_prefix",
    "resolve_policy",
]
