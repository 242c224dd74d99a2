"""The engine's own random numbers: splitmix64 and Fisher-Yates, the same on every platform.

The generator's whole state is one 64-bit int, kept in ``State.rng`` so that shuffles during
play (a ``shuffle`` step in a redeal or trigger) continue the deal's sequence exactly.
"""

from __future__ import annotations

from cardz_core.problems import CardzError, is_whole

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for an int seed (any size or sign: taken modulo 2**64; a numpy
    integer too). Anything else, a bool included, is a CardzError: ``"5"`` or ``1.5`` is no
    deal's seed."""
    if not is_whole(seed):
        raise CardzError(f"a seed is a whole number, not {seed!r}")
    return int(seed) & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """One splitmix64 step: (new state, 64-bit output)."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """An unbiased int in [0, n): rejection sampling on 64-bit outputs."""
    limit = (1 << 64) - ((1 << 64) % n)  # largest multiple of n that fits
    while True:
        state, r = next_u64(state)
        if r < limit:
            return state, r % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place, from the last position down; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
