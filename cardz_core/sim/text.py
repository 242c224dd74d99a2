"""The summary as text on the terminal."""

from __future__ import annotations

import sys
from typing import Any, TextIO

DEAD_CARDS_SHOWN = 5
METRIC_TITLES = {"never_moved": "never moved", "never_foundation": "never reached a foundation",
                 "left": "left over in lost games"}


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def interval_text(interval: list[float] | None) -> str:
    return "-" if interval is None else f"{pct(interval[0])} .. {pct(interval[1])}"


def dead_cards(summary: dict[str, Any], planner: str, metric: str,
               count: int = DEAD_CARDS_SHOWN) -> list[tuple[str, float]]:
    """The cards with the highest rate of ``metric`` for ``planner`` (ties in deck order)."""
    rated = [(c["card"], c[metric][planner]) for c in summary["cards"]
             if c[metric][planner] is not None]
    rated = [r for r in rated if r[1] > 0]
    return sorted(rated, key=lambda r: -r[1])[:count]


def _columns(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                      enumerate(zip(r, widths))).rstrip() for r in [head, *rows]]


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The summary as lines of plain text: a table of planners, the paired comparisons, and
    the cards most often dead."""
    state = "" if summary["complete"] else " (partial)"
    lines = [f"{summary['game']}: {summary['deals_done']} of {summary['games']} deals, "
             f"seed {summary['seed']}, move cap {summary['max_moves']}{state}", ""]
    head = ["planner", "games", "won", "win rate", "95% interval", "lost", "unfinished",
            "moves mean", "median", "max", "score mean", "s/game"]
    rows = []
    for name, p in summary["planners"].items():
        score = p["score"]
        rows.append([name, str(p["games"]), str(p["won"]), pct(p["win_rate"]),
                     interval_text(p["win_interval"]), str(p["lost"]), str(p["unfinished"]),
                     fmt(p["moves"]["mean"]), fmt(p["moves"]["median"]),
                     "-" if p["moves"]["max"] is None else str(p["moves"]["max"]),
                     fmt(score["mean"]) if score else "-", fmt(p["seconds"]["mean"], 4)])
    lines += _columns(head, rows)
    if summary["paired"]:
        lines.append("")
    for pair in summary["paired"]:
        lines.append(f"{pair['a']} vs {pair['b']} on {pair['deals']} shared deals: "
                     f"{pair['note']}")
    dead = []
    for name in summary["planners"]:
        for metric, title in METRIC_TITLES.items():
            worst = dead_cards(summary, name, metric)
            if worst:
                cards = ", ".join(f"{card} {pct(rate)}" for card, rate in worst)
                dead.append(f"{name}: most often {title}: {cards}")
    return lines + ([""] + dead if dead else [])


def print_summary(summary: dict[str, Any], file: TextIO | None = None) -> None:
    print("\n".join(summary_lines(summary)), file=file or sys.stdout)
