"""The name nearest a mistyped one, for the "did you mean" of an error. It imports nothing of
cardz, so that every module may use it."""

from __future__ import annotations

from typing import Any


def closest(word: str, choices: Any) -> str | None:
    """The choice closest to ``word`` in any letter case, if any is close."""
    import difflib  # for a mistyped name only (start time)

    by_lower = {str(c).lower(): str(c) for c in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[close[0]] if close else None


def did_you_mean(word: str, choices: Any) -> str:
    """`` (did you mean 'a'?)`` for the choice closest to ``word``, else ``""``."""
    near = closest(word, choices)
    return f" (did you mean {near!r}?)" if near is not None else ""
