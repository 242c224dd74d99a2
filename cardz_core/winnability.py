"""Measured winnability: how many deals of a game the solver wins with every card known, shipped
as data (docs/winnability.md).

``winnability_data.json`` holds one compact entry per measured game, keyed by the game file's
name without ``.cardz``: the counts over the deals solved (``counts``), the budget per deal, the
game file's hash, and the commit, date and command that made the rows
(``benchmarks/bench_winnability.py --ship`` writes it). The rows themselves stay outside the
package: they are large, and the command makes them again. A game whose file changed since its
entry was made has no figure (``measured_for`` matches the hash), as with the rated tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).resolve().parent / "winnability_data.json"
DATA_FORMAT = "cardz-winnability/1"
ROWS_FORMAT = "cardz-winnability-rows/1"  # the first line of a rows file (bench_winnability.py)


def counts(rows: list[dict[str, Any]], key: str = "deal") -> dict[str, Any]:
    """Won, lost and unknown over ``rows`` (deals ``first`` to ``last``, read from each row's
    ``key``), with the won share's 95% Wilson interval counting the unknown deals as lost (a
    lower bound) and as won (an upper bound)."""
    from cardz_core.sim.stats import wilson_interval

    n = len(rows)
    won = sum(r["result"] == "won" for r in rows)
    lost = sum(r["result"] == "lost" for r in rows)
    unknown = n - won - lost
    low, high = wilson_interval(won, n), wilson_interval(won + unknown, n)
    deals = [r[key] for r in rows]
    return {"deals": n, "first": min(deals, default=None), "last": max(deals, default=None),
            "won": won, "lost": lost, "unknown": unknown,
            "rate": round(won / n, 4) if n else None,
            "low": [round(x, 4) for x in low] if low else None,
            "high": [round(x, 4) for x in high] if high else None}


def shipped(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Every entry of ``path`` (the shipped ``DATA_FILE`` by default), by game file name (none
    when the file is missing)."""
    path = DATA_FILE if path is None else path
    if not path.exists():
        return {}
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != DATA_FORMAT:
        raise ValueError(f"{path}: not a {DATA_FORMAT} file")
    return dict(doc["games"])


def measured_for(stem: str, hash_: str,
                 entries: dict[str, dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The entry of the game file named ``stem`` when it was made for this version of the file
    (``hash_``), else None; from ``entries`` (``shipped()``, read once for many games) or the
    shipped data."""
    entry = (shipped() if entries is None else entries).get(stem)
    return entry if entry is not None and entry["hash"] == hash_ else None


def ship(stem: str, entry: dict[str, Any], path: Path | None = None) -> None:
    """Put ``entry`` in ``path`` (the shipped data by default) as the figure of the game file
    named ``stem``, replacing an earlier one; sorted by name, so a change reads as one entry."""
    path = DATA_FILE if path is None else path
    games = shipped(path)
    games[stem] = entry
    doc = {"format": DATA_FORMAT, "games": dict(sorted(games.items()))}
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
