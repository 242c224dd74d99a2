"""Seeds for a simulation, derived so that a row depends only on (master seed, deal index, planner).

Both derivations hash a short UTF-8 text with SHA-256 and keep the first 8 bytes, big-endian, masked
to 53 bits (so a seed survives a round trip through JSON readers that use doubles). They do not
depend on the platform, the Python version, the worker that plays the deal or how deals are batched.

- deal seed:    ``sha256("cardz-deal:<S>:<i>")``             -> ``Game.deal(seed)``
- planner seed: ``sha256("cardz-planner:<S>:<i>:<planner>")`` -> ``random.Random(seed)``

``<S>`` and ``<i>`` are written in decimal (``-`` for a negative master seed), ``<planner>`` is the
planner's registered name.
"""

from __future__ import annotations

import hashlib

SEED_BITS = 53
_MASK = (1 << SEED_BITS) - 1


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") & _MASK


def deal_seed(master: int, deal: int) -> int:
    """The seed deal number ``deal`` is dealt with, for master seed ``master``."""
    return _digest(f"cardz-deal:{master}:{deal}")


def planner_seed(master: int, deal: int, planner: str) -> int:
    """The seed of the random generator planner ``planner`` gets for deal number ``deal``."""
    return _digest(f"cardz-planner:{master}:{deal}:{planner}")
