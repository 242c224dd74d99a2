"""The summary as text on the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

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


def print_summary(summary: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console(highlight=False)
    state = "" if summary["complete"] else " (partial)"
    console.print(f"{summary['game']}: {summary['deals_done']} of {summary['games']} deals, "
                  f"seed {summary['seed']}, move cap {summary['max_moves']}{state}")
    table = Table(show_edge=False)
    for title in ("planner", "games", "won", "win rate", "95% interval", "lost", "unfinished",
                  "moves mean", "median", "max", "score mean", "s/game"):
        table.add_column(title, justify="left" if title == "planner" else "right")
    for name, p in summary["planners"].items():
        score = p["score"]
        table.add_row(name, str(p["games"]), str(p["won"]), pct(p["win_rate"]),
                      interval_text(p["win_interval"]), str(p["lost"]), str(p["unfinished"]),
                      fmt(p["moves"]["mean"]), fmt(p["moves"]["median"]),
                      str(p["moves"]["max"] if p["moves"]["max"] is not None else "-"),
                      fmt(score["mean"]) if score else "-", fmt(p["seconds"]["mean"], 4))
    console.print(table)
    for pair in summary["paired"]:
        console.print(f"{pair['a']} vs {pair['b']} on {pair['deals']} shared deals: {pair['note']}")
    for name in summary["planners"]:
        for metric, title in METRIC_TITLES.items():
            worst = dead_cards(summary, name, metric)
            if worst:
                cards = ", ".join(f"{card} {pct(rate)}" for card, rate in worst)
                console.print(f"{name}: most often {title}: {cards}")
