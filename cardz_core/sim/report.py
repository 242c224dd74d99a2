"""The HTML report: one self-contained file (inline CSS and SVG, no scripts, nothing fetched), so
it opens offline in any browser. Plots: win rate per planner with 95% intervals, game lengths,
scores, and per planner a heat map per dead-card measure; then the summary tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardz_core.safe_text import markup
from cardz_core.sim import svg
from cardz_core.sim.summary import Tally
from cardz_core.sim.text import METRIC_TITLES, dead_cards, fmt, interval_text, pct

CAPTIONS = {
    "never_moved": "share of its games in which each card never moved",
    "never_foundation": "share of its games in which each card never reached a foundation",
    "left": "share of its lost games in which each card was left outside the foundations",
}
STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1000px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
.note { color: #555; font-size: 0.9em; }
"""


def _table(head: list[str], rows: list[list[Any]]) -> str:
    out = ["<table><thead><tr>", *(f"<th>{markup(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{markup(str(c))}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _figure(ident: str, chart: str, caption: str) -> str:
    return (f'<figure id="{ident}" class="plot">{chart}'
            f'<figcaption>{markup(caption)}</figcaption></figure>')


def render_report(summary: dict[str, Any], tally: Tally) -> str:
    """The report's HTML text."""
    planners = list(summary["planners"])
    title = f"cardz simulation: {summary['game']}"
    parts = [f"<h1>{markup(title)}</h1>",
             f'<p>{summary["deals_done"]} of {summary["games"]} deals, master seed '
             f'{summary["seed"]}, move cap {summary["max_moves"]}'
             f'{"" if summary["complete"] else " (interrupted: partial results)"}.</p>']

    parts.append("<h2>Win rate</h2>")
    stats = summary["planners"]
    parts.append(_figure("plot-winrate", svg.win_rate_chart(
        planners, [stats[p]["win_rate"] for p in planners],
        [stats[p]["win_interval"] for p in planners], "win rate per planner"),
        "Win rate per planner; whiskers show the 95% Wilson interval."))
    parts.append(_table(
        ["planner", "games", "won", "win rate", "95% interval", "lost", "unfinished",
         "moves mean", "moves median", "moves max", "score mean", "score median",
         "seconds per game"],
        [[p, s["games"], s["won"], pct(s["win_rate"]), interval_text(s["win_interval"]),
          s["lost"], s["unfinished"], fmt(s["moves"]["mean"]), fmt(s["moves"]["median"]),
          s["moves"]["max"] if s["moves"]["max"] is not None else "-",
          fmt(s["score"]["mean"]) if s["score"] else "-",
          fmt(s["score"]["median"]) if s["score"] else "-", fmt(s["seconds"]["mean"], 4)]
         for p, s in stats.items()]))
    if summary["paired"]:
        parts.append("<h2>Planners on the same deals</h2>")
        parts.append(_table(
            ["planner A", "planner B", "shared deals", "both won", "A only", "B only",
             "neither", "McNemar p"],
            [[q["a"], q["b"], q["deals"], q["both"], q["a_only"], q["b_only"], q["neither"],
              "-" if q["p_value"] is None else f"{q['p_value']:.3g}"] for q in summary["paired"]]))
        parts += [f'<p class="note">{markup(q["note"])}.</p>' for q in summary["paired"]]

    parts.append("<h2>Game length</h2>")
    parts.append(_figure("plot-moves", svg.histogram_chart(
        {p: tally.by_planner[p].moves for p in planners}, "game lengths", "moves per game"),
        "How many moves each game took, per planner."))

    parts.append("<h2>Score</h2>")
    scores = {p: tally.by_planner[p].scores for p in planners}
    if any(len(v) for v in scores.values()):
        parts.append(_figure("plot-score", svg.histogram_chart(scores, "score distribution",
                                                               "final score"),
                             "Final scores, per planner."))
    else:
        parts.append('<p class="note">This game keeps no score.</p>')

    parts.append("<h2>Dead cards</h2>")
    parts.append('<p class="note">Per card, in deck order: how often it never left the place it '
                 'was dealt to, never reached a foundation, and (over lost games only) was still '
                 'outside the foundations when the game was lost.</p>')
    labels = list(tally.card_labels)
    for i, p in enumerate(planners):
        for metric, words in METRIC_TITLES.items():
            values = [tally.card_rate(p, metric, c) for c in range(len(labels))]
            caption = f"{p}: {CAPTIONS[metric]}"
            parts.append(_figure(f"plot-cards-{i}-{metric}",
                                 svg.heat_map(labels, values, caption), caption))
            worst = dead_cards(summary, p, metric)
            if worst:
                parts.append(_table(["card", words], [[c, pct(r)] for c, r in worst]))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{markup(title)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(parts) + "</body></html>\n")


def write_report(path: str | Path, summary: dict[str, Any], tally: Tally) -> None:
    Path(path).write_text(render_report(summary, tally), encoding="utf-8")
