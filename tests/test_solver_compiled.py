"""The solver reads the rules as compiled: a field a step kind defaults to the stock names the
stock whether the file writes it or not, as the engine plays it."""

from __future__ import annotations

import json
from pathlib import Path

from cardz_core.engine import compile
from cardz_core.planners.solver import solve
from cardz_core.solver.analysis import analysis_of
from cardz_core.spec import load_game

SPIDER = Path(__file__).resolve().parent.parent / "rulesets" / "spider.cardz"


def test_a_redeal_from_the_stock_reads_alike_written_or_left_to_default():
    doc = json.loads(SPIDER.read_text())
    (step,) = doc["redealRules"]
    assert "from" not in step  # the dealGroup's `from` defaults to the stock
    step["from"] = "stock"
    written, omitted = compile(load_game(doc)), compile(load_game(SPIDER))
    assert written.compiled.redeal == omitted.compiled.redeal
    a, b = analysis_of(written), analysis_of(omitted)
    stock = omitted.depot_index["stock"]
    assert (a.notes, a.classes, a.sinks) == (b.notes, b.classes, b.sinks)
    assert stock not in b.sinks  # the redeal takes cards from it: it is kept whole
    for seed in (0, 1):
        got, want = (solve(g, g.deal(seed), max_states=800) for g in (written, omitted))
        assert (got.result, got.states, got.line) == (want.result, want.states, want.line)
