"""The HTML report: one self-contained file (inline CSS and SVG, no scripts, nothing fetched), so
it opens offline in any browser. Each section is a ``<section id=...>``: how the run was made,
win rate, why games ended, how close lost games came, where they got stuck, game lengths by how
they ended, the paired (and unpaired) comparisons, notable deals with the commands that replay
them, scores, and per arm a heat map per dead-card measure."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from cardz_core.safe_text import markup
from cardz_core.sim import svg
from cardz_core.sim.notable import option_args
from cardz_core.sim.play import ENDS
from cardz_core.sim.summary import Tally
from cardz_core.sim.text import (END_TITLES, METRIC_TITLES, dead_cards, deals_text, fmt,
                                 games_text, interval_text, pct, planner_text)

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
td { white-space: nowrap; } table.notable td:first-child { white-space: normal; }
table.notable td:last-child { text-align: left; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
.note { color: #555; font-size: 0.9em; }
code { font-size: 0.85em; background: #f4f4f4; padding: 1px 3px; }
"""
SECTIONS = {  # id -> heading, in the order the report shows them
    "made": "How this run was made",
    "winrate": "Win rate",
    "ends": "Why games ended",
    "closeness": "How close lost games came",
    "stuck": "Where lost games got stuck",
    "lengths": "Game length by how the game ended",
    "compared": "Compared on the same deals",
    "notable": "Notable deals",
    "score": "Score",
    "cards": "Dead cards",
}
LEFT_SHOWN = 8  # depots listed per arm under "where lost games got stuck"


def _table(head: list[str], rows: list[list[Any]]) -> str:
    out = ["<table><thead><tr>", *(f"<th>{markup(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{markup(str(c))}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _figure(ident: str, chart: str, caption: str) -> str:
    return (f'<figure id="{ident}" class="plot">{chart}'
            f'<figcaption>{markup(caption)}</figcaption></figure>')


def _section(ident: str, body: list[str]) -> str:
    return (f'<section id="{ident}"><h2>{markup(SECTIONS[ident])}</h2>' + "\n".join(body)
            + "</section>")


def _made(summary: dict[str, Any]) -> list[str]:
    made = summary["made"]
    workers = "all CPUs" if made["workers"] is None else made["workers"]
    rows = [["cardz version", made["cardz"]],
            ["planners", ", ".join(planner_text(p) for p in made["planners"])],
            ["options given to every planner",
             shlex.join(option_args(made["options"])) or "none"],
            ["master seed", made["seed"]],
            ["deals", f"{made['first_deal']} .. {made['first_deal'] + made['games'] - 1}"],
            ["move cap", made["max_moves"]], ["backend", made["backend"]],
            ["workers", workers], ["--force", "yes" if made["force"] else "no"]]
    rows += [[what, summary[key]] for key, what in (("rows", "rows file"),
                                                    ("report", "this report"))
             if summary.get(key)]
    return [_table(["variant", "game", "file", "sha256 of the file", "engine"],
                   [[v["name"], v["game"], v["file"], v["sha256"], v["engine"]]
                    for v in made["variants"]]),
            _table(["setting", "value"], rows)]


def _ends(summary: dict[str, Any]) -> list[str]:
    stats = summary["planners"]
    names = list(stats)
    parts = [_figure("plot-ends", svg.stacked_bars(
        names, [END_TITLES[e] for e in ENDS], [[stats[n]["ends"][e] for e in ENDS]
                                               for n in names], "why games ended"),
        "Share of each arm's games by how they ended.")]
    parts.append(_table(["planner", "games", *(END_TITLES[e] for e in ENDS)],
                        [[n, s["games"], *(f"{s['ends'][e]} ({pct(s['ends'][e] / s['games'])})"
                                           if s["games"] else "0" for e in ENDS)]
                         for n, s in stats.items()]))
    parts.append('<p class="note">Lost by the rules: the game\'s own loss condition. Stuck: no '
                 'legal move was left. Resigned: the planner gave up while moves were left '
                 '(<code>usual</code> does rather than go round in circles). Unfinished: the '
                 'move cap was reached. Stuck and resigned games count as lost.</p>')
    return parts


def _closeness(summary: dict[str, Any], n_cards: int) -> list[str]:
    stats = summary["planners"]
    series = {n: [h["cards"] for h in s["home_when_lost"] for _ in range(h["games"])]
              for n, s in stats.items()}
    if not any(series.values()):
        return ['<p class="note">No game was lost.</p>']
    rows = []
    for n, values in series.items():
        values.sort()
        count = len(values)
        rows.append([n, count, fmt(sum(values) / count) if count else "-",
                     values[count // 2] if count else "-", values[-1] if count else "-"])
    return [_figure("plot-closeness", svg.histogram_chart(series, "cards home when lost",
                                                          "cards home at the end"),
                    f"Cards on the foundations (of {n_cards}) when a game was lost, per arm."),
            _table(["planner", "lost games", "cards home mean", "median", "most"], rows)]


def _stuck(summary: dict[str, Any]) -> list[str]:
    rows = []
    for n, s in summary["planners"].items():
        for entry in s["left_in"][:LEFT_SHOWN]:
            rows.append([n, entry["depot"], fmt(entry["cards"]), pct(entry["games"])])
    if not rows:
        return ['<p class="note">No game was lost.</p>']
    return ['<p class="note">Per arm, the depots that held the cards left outside the '
            'foundations when a game was lost, most cards first.</p>',
            _table(["planner", "depot", "cards left there (mean per lost game)",
                    "lost games with cards there"], rows)]


def _lengths(summary: dict[str, Any], tally: Tally) -> list[str]:
    rows = []
    for n, s in summary["planners"].items():
        for end, st in s["moves_by_end"].items():
            rows.append([n, END_TITLES[end], st["games"], fmt(st["mean"]),
                         interval_text(st["mean_interval"], fmt), fmt(st["median"]),
                         interval_text(st["quartiles"], fmt), st["min"], st["max"]])
    return [_figure("plot-moves", svg.histogram_chart(
                {tally.label(arm): tally.by_arm[arm].moves() for arm in tally.arms},
                "game lengths", "moves per game"), "How many moves each game took, per arm."),
            _table(["planner", "ended", "games", "moves mean", "95% interval of the mean",
                    "median", "quartiles", "min", "max"], rows)]


def _compared(summary: dict[str, Any]) -> list[str]:
    parts = []
    if summary["paired"]:
        parts.append(_table(
            ["A", "B", "by", "shared deals", "both won", "A only", "B only", "neither",
             "McNemar p"],
            [[q["a"], q["b"], q["by"], q["deals"], q["both"], q["a_only"], q["b_only"],
              q["neither"], "-" if q["p_value"] is None else f"{q['p_value']:.3g}"]
             for q in summary["paired"]]))
        parts += [f'<p class="note">{markup(q["note"])}.'
                  + (f' Paired on the deals that open alike only: {markup(q["reason"])}.'
                     if q["reason"] else "") + "</p>" for q in summary["paired"]]
    for q in summary["unpaired"]:
        parts.append(f'<p class="note">{markup(q["a"])} and {markup(q["b"])} cannot be paired: '
                     f'{markup(q["reason"])}. Compared as independent samples: '
                     f'{markup(q["note"])}.</p>')
    return parts or ['<p class="note">One planner on one variant: nothing to compare.</p>']


def _notable(summary: dict[str, Any]) -> list[str]:
    rows = []
    for n, s in summary["planners"].items():
        for key, words in (("shortest_win", "shortest win"), ("longest_loss", "longest loss")):
            found = s[key]
            if found is not None:
                rows.append([f"{n}: {words}, {found['moves']} moves", found["deal"],
                             found["seed"], found["replay"]])
    for q in summary["paired"]:
        for key, who in (("a_only_deals", q["a"]), ("b_only_deals", q["b"])):
            for found in q[key]:
                rows.append([f"won by {who} only (vs {q['b'] if who == q['a'] else q['a']})",
                             found["deal"], found["seed"], found["replay"]])
    if not rows:
        return ['<p class="note">No deal stands out.</p>']
    out = ['<table class="notable"><thead><tr>',
           *(f"<th>{h}</th>" for h in ("deal", "number", "seed", "replay it with")),
           "</tr></thead><tbody>"]
    for what, deal, seed, command in rows:
        out.append(f"<tr><td>{markup(what)}</td><td>{deal}</td><td>{seed}</td>"
                   f"<td><code>{markup(command)}</code></td></tr>")
    out.append("</tbody></table>")
    return ["".join(out), '<p class="note">Each command plays the deal again exactly (the same '
            'deal seed and planner seed); <code>--log</code> writes the game move by move.</p>']


def render_report(summary: dict[str, Any], tally: Tally) -> str:
    """The report's HTML text."""
    labels = [tally.label(arm) for arm in tally.arms]
    title = f"cardz simulation: {games_text(summary)}"
    parts = [f"<h1>{markup(title)}</h1>",
             f'<p>{deals_text(summary)}, master seed {summary["seed"]}, move cap '
             f'{summary["max_moves"]}'
             f'{"" if summary["complete"] else " (interrupted: partial results)"}.</p>']
    parts.append(_section("made", _made(summary)))
    stats = summary["planners"]
    parts.append(_section("winrate", [_figure("plot-winrate", svg.win_rate_chart(
        labels, [stats[p]["win_rate"] for p in labels],
        [stats[p]["win_interval"] for p in labels], "win rate per planner"),
        "Win rate per planner; whiskers show the 95% Wilson interval."), _table(
        ["planner", "games", "won", "win rate", "95% interval", *(END_TITLES[e] for e in ENDS[1:]),
         "moves mean", "moves median", "moves max", "score mean", "score median",
         "seconds per game"],
        [[p, s["games"], s["won"], pct(s["win_rate"]), interval_text(s["win_interval"]),
          *(s["ends"][e] for e in ENDS[1:]), fmt(s["moves"]["mean"]), fmt(s["moves"]["median"]),
          s["moves"]["max"] if s["moves"]["max"] is not None else "-",
          fmt(s["score"]["mean"]) if s["score"] else "-",
          fmt(s["score"]["median"]) if s["score"] else "-", fmt(s["seconds"]["mean"], 4)]
         for p, s in stats.items()])]))
    parts.append(_section("ends", _ends(summary)))
    parts.append(_section("closeness", _closeness(summary, max(
        len(d.card_labels) for d in tally.decks))))
    parts.append(_section("stuck", _stuck(summary)))
    parts.append(_section("lengths", _lengths(summary, tally)))
    parts.append(_section("compared", _compared(summary)))
    parts.append(_section("notable", _notable(summary)))

    scores = {tally.label(arm): tally.by_arm[arm].scores for arm in tally.arms}
    if any(len(v) for v in scores.values()):
        parts.append(_section("score", [_figure("plot-score", svg.histogram_chart(
            scores, "score distribution", "final score"), "Final scores, per arm.")]))
    else:
        parts.append(_section("score", ['<p class="note">This game keeps no score.</p>']))

    cards = ['<p class="note">Per card, in deck order: how often it never left the place it '
             'was dealt to, never reached a foundation, and (over lost games only) was still '
             'outside the foundations when the game was lost.</p>']
    for i, arm in enumerate(tally.arms):
        deck = next(d for d in tally.decks if d.name == arm[0])
        label = tally.label(arm)
        for metric, words in METRIC_TITLES.items():
            values = [tally.card_rate(arm, metric, c) for c in range(len(deck.card_labels))]
            caption = f"{label}: {CAPTIONS[metric]}"
            cards.append(_figure(f"plot-cards-{i}-{metric}",
                                 svg.heat_map(list(deck.card_labels), values, caption), caption))
            worst = dead_cards(summary, label, metric)
            if worst:
                cards.append(_table(["card", words], [[c, pct(r)] for c, r in worst]))
    parts.append(_section("cards", cards))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{markup(title)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(parts) + "</body></html>\n")


def write_report(path: str | Path, summary: dict[str, Any], tally: Tally) -> None:
    Path(path).write_text(render_report(summary, tally), encoding="utf-8")
