"""The HTML report renders as one self-contained page with every plot and table."""

from __future__ import annotations

from html.parser import HTMLParser

from cardz_core.sim.report import render_report, write_report
from cardz_core.sim.summary import Tally
from test_sim_harness import fake_job, run


class Outline(HTMLParser):
    """Figure ids with the number of <svg> each holds, tables, and anything fetched from outside."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, int] = {}
        self.current: str | None = None
        self.tables = 0
        self.external: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
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


def outline(text: str) -> Outline:
    parser = Outline()
    parser.feed(text)
    parser.close()
    return parser


def test_report_has_every_plot_and_table(tmp_path):
    job = fake_job()
    _, tally = run(job, 12, workers=1)
    summary = tally.summary(game="fake <game>", seed=7, max_moves=200, interrupted=False)
    write_report(tmp_path / "r.html", summary, tally)
    text = (tmp_path / "r.html").read_text(encoding="utf-8")
    page = outline(text)
    expected = {"plot-winrate", "plot-moves", "plot-score"} | {
        f"plot-cards-{i}-{m}" for i in range(2)
        for m in ("never_moved", "never_foundation", "left")}
    assert set(page.figures) == expected
    assert all(n == 1 for n in page.figures.values())
    assert page.tables >= 2  # planners and the paired comparison
    assert page.external == [] and "script" not in page.tags and "link" not in page.tags
    assert "fake &lt;game&gt;" in text and "fake <game>" not in text
    assert text.count('class="interval"') == 2  # a whisker per planner


def test_report_of_a_game_without_score_or_games():
    tally = Tally(("only",), 3, ["AS", "2S"], has_foundations=False)
    summary = tally.summary(game="g", seed=0, max_moves=10, interrupted=True)
    text = render_report(summary, tally)
    page = outline(text)
    assert "plot-score" not in page.figures and "keeps no score" in text
    assert {"plot-winrate", "plot-moves", "plot-cards-0-left"} <= set(page.figures)
    assert "partial results" in text
