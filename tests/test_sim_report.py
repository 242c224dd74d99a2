"""The HTML report renders as one self-contained page with every plot and table."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from cardz_core.cli.main import main
from cardz_core.sim.notable import add_replays
from cardz_core.sim.report import SECTIONS, render_report, write_report
from cardz_core.sim.summary import Deck, Tally
from cardz_core.sim.text import dead_cards
from test_sim_harness import fake_job, run

MADE = {"cardz": "0", "variants": [{"name": "fake", "game": "fake <game>", "file": "f.cardz",
                                    "sha256": "ab" * 32, "engine": "python"}],
        "planners": [{"name": "fake-greedy", "options": {}}], "options": {}, "force": False,
        "seed": 7, "first_deal": 0, "games": 12, "max_moves": 200, "backend": "local",
        "workers": 1}


class Outline(HTMLParser):
    """Figure ids with the number of <svg> each holds, tables, and anything fetched from outside."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, int] = {}
        self.current: str | None = None
        self.tables = 0
        self.external: list[str] = []
        self.tags: list[str] = []
        self.sections: list[str] = []
        self.text: dict[str, str] = {}  # section id -> its text
        self.section: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "section":
            self.section = attrs["id"]
            self.sections.append(self.section)
            self.text[self.section] = ""
        if tag == "figure":
            self.current = attrs["id"]
            self.figures[self.current] = 0
        elif tag == "svg" and self.current:
            self.figures[self.current] += 1
        elif tag == "table":
            self.tables += 1
        for key in ("src", "href"):
            if key in attrs:
                self.external.append(attrs[key])

    def handle_endtag(self, tag):
        if tag == "figure":
            self.current = None
        elif tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.section is not None:
            self.text[self.section] += data


def outline(text: str) -> Outline:
    parser = Outline()
    parser.feed(text)
    parser.close()
    return parser


def test_report_has_every_plot_and_table(tmp_path):
    job = fake_job()
    _, tally = run(job, 12, workers=1)
    summary = tally.summary(game="fake <game>", seed=7, max_moves=200, interrupted=False,
                            made=MADE)
    add_replays(summary)
    write_report(tmp_path / "r.html", summary, tally)
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    page = outline(text)
    expected = {"plot-winrate", "plot-moves", "plot-score", "plot-ends", "plot-closeness"} | {
        f"plot-cards-{i}-{m}" for i in range(2)
        for m in ("never_moved", "never_foundation", "left")}
    assert set(page.figures) == expected
    assert all(n == 1 for n in page.figures.values())
    assert page.tables >= 2  # planners and the paired comparison
    assert page.external == [] and "script" not in page.tags and "link" not in page.tags
    assert "fake &lt;game&gt;" in text and "fake <game>" not in text
    assert text.count('class="interval"') == 2  # a whisker per planner


def test_report_of_a_game_without_score_or_games():
    tally = Tally(("only",), 3, [Deck("fake", ("AS", "2S"), has_foundations=False)])
    summary = tally.summary(game="g", seed=0, max_moves=10, interrupted=True, made=MADE)
    text = render_report(summary, tally)
    page = outline(text)
    assert page.sections == list(SECTIONS)
    assert "plot-score" not in page.figures and "keeps no score" in text
    assert "No game was lost" in page.text["closeness"] and "nothing to compare" in text
    assert {"plot-winrate", "plot-moves", "plot-cards-0-left"} <= set(page.figures)
    assert "partial results" in text


def test_a_real_run_explains_itself(tmp_path, capsys):
    """A real small run's report: every section there, each saying what it is for."""
    game = Path(__file__).resolve().parent.parent / "rulesets" / "pocket_patience.cardz"
    report = tmp_path / "r.html"
    code = main(["simulate", str(game), "--games", "8", "--planner", "random,usual",
                 "--workers", "1", "--max-moves", "300", "--report", str(report), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    page = outline(report.read_text(encoding="utf-8"))
    assert page.sections == list(SECTIONS)
    text = page.text
    made = summary["made"]
    assert made["variants"][0]["sha256"] in text["made"] and "0.1.0" in text["made"]
    for words in ("won", "lost by the rules", "stuck", "resigned", "unfinished"):
        assert words in text["ends"]
    usual = summary["planners"]["usual"]
    if usual["lost"]:
        assert "cards home mean" in text["closeness"]
        assert usual["left_in"][0]["depot"] in text["stuck"]
    assert "95% interval of the mean" in text["lengths"]
    assert "McNemar" in text["compared"]
    notable = [arm[key] for arm in summary["planners"].values()
               for key in ("shortest_win", "longest_loss") if arm[key]]
    assert notable and all(n["replay"] in text["notable"] for n in notable)
    assert all(str(n["seed"]) in text["notable"] for n in notable)
    # card names, not card numbers, in the dead-card tables
    worst = [card for name in summary["planners"]
             for card, _ in dead_cards(summary, name, "never_foundation")]
    assert worst and all(f"{card}" in text["cards"] for card in worst)
