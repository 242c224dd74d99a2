"""`--option NAME=VALUE`: a planner's own options from `simulate`, `hint` and `play`, each refused
clearly where the planner does not take it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardz_core.cli.main import main
from cardz_core.engines import engine_of
from cardz_core.limits import PLANNER_MAX_NODES, USUAL_SOLVE_STATES
from cardz_core.planners import BUILTIN_PLANNERS, option_names
from cardz_core.planners import klondike as klondike_planner
from cardz_core.rulesets import open_game
from cardz_core.sim.notable import option_args

# the klondike planner runs on the native engine only: the commands must choose it
needs_native = pytest.mark.skipif(engine_of(open_game("klondike_draw3"))[0] != "native",
                                  reason="the commands do not choose the native engine")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # the parser's own refusals
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def made_with(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options every klondike planner made in this process was given."""
    seen: list[dict[str, Any]] = []
    real = klondike_planner.KlondikePlanner.__init__

    def init(self: Any, game: Any, **options: Any) -> None:
        seen.append(options)
        real(self, game, **options)

    monkeypatch.setattr(klondike_planner.KlondikePlanner, "__init__", init)
    return seen


def test_each_builtin_planner_names_the_options_it_takes():
    takes = {name: option_names(f) or frozenset() for name, f in BUILTIN_PLANNERS.items()}
    assert takes["random"] == frozenset() and takes["usual"] == {"solve"}
    assert {"samples", "limit", "game_nodes", "reveal", "commit"} <= takes["klondike"]
    assert "nodes" in takes["expectimax"] and "samples" not in takes["sampling"]

    def reads_anything(game: Any, **options: Any) -> Any: ...

    assert option_names(reads_anything) is None  # a plugin's own reading: taken at its word


@needs_native
def test_simulate_gives_the_options_to_the_planner(capsys, made_with):
    code, out, err = run(capsys, "simulate", "klondike_draw3", "--planner", "klondike",
                         "--games", "1", "--workers", "1", "--max-moves", "12", "--json",
                         "--option", "samples=20", "--option", "limit=300",
                         "--option", "reveal=0.5", "--option", "commit=false")
    given = {"samples": 20, "limit": 300, "reveal": 0.5, "commit": False}
    assert code == 0, err
    assert made_with and all(o == given for o in made_with)
    assert json.loads(out)["made"]["options"] == given


@needs_native
def test_none_turns_an_option_off(capsys, made_with):
    code, out, err = run(capsys, "simulate", "klondike_draw3", "--planner", "klondike",
                         "--games", "1", "--workers", "1", "--max-moves", "12", "--json",
                         "--option", "samples=20", "--option", "reveal=none")
    assert code == 0, err
    assert made_with and all(o == {"samples": 20, "reveal": None} for o in made_with)
    (made,) = json.loads(out)["made"]["planners"]
    assert made["options"]["reveal"] is None
    assert option_args({"reveal": None}) == ["--option", "reveal=none"]


@needs_native
def test_the_summary_names_the_options_as_the_command_line_gives_them(capsys):
    code, out, err = run(capsys, "simulate", "klondike_draw3", "--planner", "klondike",
                         "--games", "1", "--workers", "1", "--max-moves", "12", "--nodes", "600",
                         "--option", "samples=20", "--option", "in_order=false")
    assert code == 0, err
    assert "(given --nodes 600 --option samples=20 --option in_order=false)" in out


@needs_native
def test_the_run_records_the_options_the_klondike_planner_played_with(capsys, tmp_path):
    report = tmp_path / "r.html"
    code, out, err = run(capsys, "simulate", "klondike_draw3", "--planner", "klondike",
                         "--games", "1", "--workers", "1", "--max-moves", "12", "--json",
                         "--option", "samples=20", "--option", "in_order=false",
                         "--report", str(report))
    assert code == 0, err
    (made,) = json.loads(out)["made"]["planners"]
    assert made == {"name": "klondike", "options": {
        "samples": 20, "limit": klondike_planner.LIMIT, "unknown": klondike_planner.UNKNOWN_SHARE,
        "reveal": klondike_planner.REVEAL_MARGIN, "commit": klondike_planner.COMMIT,
        "in_order": False}}
    # the report names the given options as the command line takes them
    assert "--option samples=20 --option in_order=false" in report.read_text(encoding="utf-8")


def test_the_run_records_what_every_builtin_planner_played_with(capsys):
    from cardz_core.planners import bandit, expectimax, sampling, value

    code, out, err = run(capsys, "simulate", "klondike_draw3", "--planner",
                         "sampling,bandit,expectimax,value,usual", "--nodes", "300",
                         "--games", "1", "--workers", "1", "--max-moves", "2", "--json")
    assert code == 0, err
    made = {p["name"]: p["options"] for p in json.loads(out)["made"]["planners"]}
    assert made == {
        "sampling": {"nodes": 300, "deals": sampling.DEALS},
        "bandit": {"nodes": 300, "samples": bandit.SAMPLES, "unknown": bandit.UNKNOWN_SHARE,
                   "resign": bandit.RESIGN_SAMPLES, "lines": True},
        "expectimax": {"nodes": 300, "depth": expectimax.MAX_DEPTH,
                       "samples": expectimax.CHANCE_SAMPLES, "width": expectimax.WIDTH,
                       "solve": USUAL_SOLVE_STATES},
        "value": {"samples": value.CHANCE_SAMPLES},
        "usual": {"solve": USUAL_SOLVE_STATES}}
    code, out, err = run(capsys, "simulate", "klondike_draw3", "--planner", "bandit",
                         "--games", "1", "--workers", "1", "--max-moves", "2", "--json",
                         "--option", "samples=5", "--option", "lines=false")
    assert code == 0, err
    (made_bandit,) = json.loads(out)["made"]["planners"]
    assert made_bandit["options"] == {"nodes": bandit.NODES, "samples": 5,
                                      "unknown": bandit.UNKNOWN_SHARE,
                                      "resign": bandit.RESIGN_SAMPLES, "lines": False}


@needs_native
@pytest.mark.parametrize("argv, code, says", [
    (["--planner", "random", "--option", "samples=4"], 1,
     "planner 'random' takes no option 'samples' (it takes: none)"),
    (["--planner", "usual", "--option", "samples=4"], 1,
     "planner 'usual' takes no option 'samples' (it takes: solve)"),
    (["--planner", "usual", "--option", f"solve={PLANNER_MAX_NODES + 1}"], 1,
     f"look ahead (option solve) records 0 to {PLANNER_MAX_NODES} positions"),
    (["--planner", "expectimax", "--option", "solve=-1"], 1,
     "look ahead (option solve) records 0 to"),
    (["--planner", "klondike,usual", "--option", "limit=300"], 1, "'usual' takes no option 'limit'"),
    (["--planner", "klondike", "--option", "samples=0"], 1, "samples (solves a decision) is 1 to"),
    (["--planner", "klondike", "--option", "samples=4", "--option", "samples=5"], 2,
     "argument --option: samples is given twice"),
    (["--planner", "klondike", "--nodes", "5000", "--option", "nodes=4"], 2, "nodes is given twice"),
    (["--planner", "klondike", "--option", "=4"], 2, "argument --option: wants NAME=VALUE"),
    (["--planner", "klondike", "--option", "samples"], 2, "wants NAME=VALUE")])
def test_simulate_refuses_an_option_before_playing(capsys, argv, code, says):
    got, out, err = run(capsys, "simulate", "klondike_draw3", "--games", "1", *argv)
    assert got == code and says in err and out == ""


@needs_native
def test_hint_gives_the_options_to_its_planner(capsys, made_with, tmp_path: Path):
    code, board, _ = run(capsys, "deal", "klondike_draw3", "--seed", "4")
    assert code == 0
    path = tmp_path / "board.json"
    path.write_text(board, encoding="utf-8")
    code, out, err = run(capsys, "hint", "klondike_draw3", "--board", str(path), "--planner",
                         "klondike", "--option", "samples=30", "--option", "game_nodes=50000")
    assert code == 0 and out.strip(), err
    assert made_with == [{"samples": 30, "game_nodes": 50_000}]
    code, _, err = run(capsys, "hint", "klondike_draw3", "--board", str(path), "--option",
                       "limit=30")  # the default planner, usual
    assert code == 1 and "planner 'usual' takes no option 'limit'" in err


@needs_native
def test_a_notable_deals_command_plays_it_again_with_the_options(capsys, monkeypatch, tmp_path):
    import shlex

    monkeypatch.chdir(tmp_path)  # the command writes its log here
    code, out, err = run(capsys, "simulate", "klondike_draw3", "--planner", "klondike",
                         "--games", "2", "--workers", "1", "--json", "--option", "samples=20",
                         "--option", "limit=300", "--option", "commit=false")
    assert code == 0, err
    (arm,) = json.loads(out)["planners"].values()
    notable = arm["shortest_win"] or arm["longest_loss"]
    argv = shlex.split(notable["replay"])
    assert argv[argv.index("--option") + 1] == "samples=20" and "commit=false" in argv
    code, again, err = run(capsys, *argv[1:], "--json")
    assert code == 0, err
    (replayed,) = json.loads(again)["planners"].values()
    assert replayed["moves"]["max"] == notable["moves"]
