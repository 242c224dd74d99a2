"""The name nearest a mistyped one, for the "did you mean" of an error. It imports nothing of
cardz, so that every module may use it."""

from __future__ import annotations

from typing import Any


CLOSE = 0.6  # the least similarity (difflib's ratio, 0 to 1) a suggestion needs


def closest(word: str, choices: Any) -> str | None:
    """The choice closest to ``word`` in any letter case, if any is close; of equally close
    ones the first given (``column-1`` for ``colum``, where difflib would pick ``column-7``)."""
    import difflib  # for a mistyped name only (start time)

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word.lower())
    best, best_ratio = None, CLOSE
    for choice in map(str, choices):
        matcher.set_seq1(choice.lower())
        if matcher.real_quick_ratio() >= best_ratio and matcher.quick_ratio() >= best_ratio:
            ratio = matcher.ratio()
            if ratio > best_ratio or (best is None and ratio == best_ratio):
                best, best_ratio = choice, ratio
    return best


def did_you_mean(word: str, choices: Any) -> str:
    """`` (did you mean 'a'?)`` for the choice closest to ``word``, else ``""``."""
    near = closest(word, choices)
    return f" (did you mean {near!r}?)" if near is not None else ""
