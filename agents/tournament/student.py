"""Student's t distribution without SciPy: the central probability and its quantile."""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

EXPANSION_DF = 100
"""Degrees of freedom from which :func:`t_quantile` uses its series (the exact CDF costs ``df`` terms)."""


@lru_cache(maxsize=2048)
def t_quantile(confidence: float, df: int) -> float:
    """``t`` with ``P(|T| ≤ t) = confidence`` for Student's t with ``df`` degrees of freedom (exact for integer
    ``df``: the closed-form CDF of Abramowitz & Stegun 26.7.3–4, inverted by bisection; from
    :data:`EXPANSION_DF` on, the Cornish–Fisher expansion of 26.7.5, within 1e-9 there)."""
    if df < 1 or not 0 < confidence < 1:
        raise ValueError(f"t_quantile needs df ≥ 1 and 0 < confidence < 1, got df={df}, confidence={confidence}")
    if df >= EXPANSION_DF:
        z = NormalDist().inv_cdf((1 + confidence) / 2)
        terms = (
            (z**3 + z) / 4,
            (5 * z**5 + 16 * z**3 + 3 * z) / 96,
            (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
            (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
        )
        return z + sum(g / df ** (i + 1) for i, g in enumerate(terms))
    low, high = 0.0, 1.0
    while t_central(high, df) < confidence:
        high *= 2
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if t_central(mid, df) < confidence else (low, mid)
    return (low + high) / 2


def t_central(t: float, df: int) -> float:
    """``P(|T| ≤ t)`` for Student's t with integer ``df``."""
    theta = math.atan(t / math.sqrt(df))
    s, c2 = math.sin(theta), math.cos(theta) ** 2
    term, total = 1.0, 1.0
    if df % 2 == 0:
        for j in range(1, df // 2):  # 1 + ½c² + (1·3)/(2·4)c⁴ + …
            term *= c2 * (2 * j - 1) / (2 * j)
            total += term
        return s * total
    if df == 1:
        return 2 * theta / math.pi
    for j in range(1, (df - 1) // 2):  # c (1 + ⅔c² + (2·4)/(3·5)c⁴ + …)
        term *= c2 * (2 * j) / (2 * j + 1)
        total += term
    return 2 / math.pi * (theta + s * math.sqrt(c2) * total)


def whole_df(df: float) -> int:
    """Welch–Satterthwaite degrees of freedom rounded down (the t quantile only grows from there: conservative)."""
    return max(1, math.floor(df + 1e-9))
