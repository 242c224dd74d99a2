"""One problem type for everything a game file or document can get wrong."""

from __future__ import annotations

import math
import numbers
from typing import Iterable

import attrs

ERROR = "error"
WARNING = "warning"


@attrs.frozen
class Problem:
    """A problem found in an input: where it is (a JSON pointer) and what is wrong."""

    path: str
    message: str
    severity: str = ERROR
    file: str = ""

    def as_dict(self) -> dict[str, str]:
        return {"file": self.file, "path": self.path, "message": self.message, "severity": self.severity}

    def __str__(self) -> str:
        where = f"{self.file}: " if self.file else ""
        if self.path:
            where += f"{self.path}: "
        return f"{where}{self.message}"


class CardzError(Exception):
    """Raised when input is invalid; carries every problem found, never just the first."""

    def __init__(self, problems: Iterable[Problem] | str, path: str = "") -> None:
        if isinstance(problems, str):
            problems = [Problem(path, problems)]
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


def is_whole(value: object, low: float = -math.inf, high: float = math.inf) -> bool:
    """Whether ``value`` is a whole number from ``low`` to ``high`` (any, without them): an
    ``int`` or a numpy integer, not a bool (which Python counts as one), a float or a text
    ``int()`` would turn into one."""
    return not isinstance(value, bool) and isinstance(value, numbers.Integral) \
        and low <= int(value) <= high


def pointer(*parts: object) -> str:
    """Build a JSON pointer (RFC 6901) from path parts."""
    out = []
    for part in parts:
        out.append(str(part).replace("~", "~0").replace("/", "~1"))
    return "".join("/" + p for p in out)


def join(base: str, *parts: object) -> str:
    """Extend an existing JSON pointer."""
    return base + pointer(*parts)
