"""The statistics the summary uses, written out so the arithmetic is easy to check."""

from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
EXACT_MCNEMAR_MAX = 2000  # above this many discordant deals, the chi-square form is used


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for a binomial proportion (95% by default); None for no trials.

        centre = (p + z²/2n) / (1 + z²/n),  half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
    """
    if trials <= 0:
        return None
    n = trials
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_p(a_only: int, b_only: int) -> float | None:
    """Two-sided p-value of McNemar's test on the discordant pairs: deals won by one planner
    and not the other. Exact (binomial, p = 1/2) up to ``EXACT_MCNEMAR_MAX`` discordant deals,
    the continuity-corrected chi-square form above. None when no deal is discordant."""
    n = a_only + b_only
    if n == 0:
        return None
    k = min(a_only, b_only)
    if n <= EXACT_MCNEMAR_MAX:
        tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
        return min(1.0, 2 * tail)
    chi2 = (abs(a_only - b_only) - 1) ** 2 / n
    return math.erfc(math.sqrt(chi2 / 2))


def median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    s = sorted(values)
    mid = len(s) // 2
    return float(s[mid]) if len(s) % 2 else (s[mid - 1] + s[mid]) / 2
