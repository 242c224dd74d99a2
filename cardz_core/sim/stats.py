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


def quartiles(values: Sequence[float]) -> tuple[float, float]:
    """The lower and upper quartiles: the medians of the lower and upper halves (the middle
    value of an odd count left out of both); a single value is both."""
    s = sorted(values)
    half = len(s) // 2
    if half == 0:
        return float(s[0]), float(s[0])
    low, high = median(s[:half]), median(s[-half:])
    assert low is not None and high is not None  # both halves hold a value
    return low, high


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float] | None:
    """The 95% normal interval of the mean, ``mean ± z·s/√n`` with ``s`` the sample standard
    deviation; None for fewer than two values. Game lengths are bounded (the move cap), so the
    mean is close to normal for the few dozen games a length class usually holds."""
    n = len(values)
    if n < 2:
        return None
    m = sum(values) / n
    s = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = z * s / math.sqrt(n)
    return m - half, m + half


def two_proportion_p(won_a: int, games_a: int, won_b: int, games_b: int) -> float | None:
    """Two-sided p-value of the pooled two-proportion z test, for win rates measured on
    different deals; None when it is undefined (no game on a side, or every game won or every
    game lost over both)."""
    if games_a <= 0 or games_b <= 0:
        return None
    pooled = (won_a + won_b) / (games_a + games_b)
    var = pooled * (1 - pooled) * (1 / games_a + 1 / games_b)
    if var <= 0:
        return None
    z = abs(won_a / games_a - won_b / games_b) / math.sqrt(var)
    return math.erfc(z / math.sqrt(2))
