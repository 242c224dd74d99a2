"""`cardz simulate`: its arguments and limits (the runs on real games are further down)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pytest

from cardz_core.cli import cmd_simulate
from cardz_core.cli.main import main
from cardz_core.engines import engine_of
from cardz_core.limits import MAX_SIM_VARIANTS
from cardz_core.rulesets import open_game
from cardz_core.sim.rows import read_rows
from cardz_core.limits import (MAX_SIM_GAMES, MAX_SIM_MAX_MOVES, MAX_SIM_WORKERS, SIM_MAX_MOVES,
                               USUAL_SOLVE_STATES)
from cardz_core.planners import expectimax


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cardz")
    cmd_simulate.add_parser(parser.add_subparsers())
    return parser.parse_args(["simulate", "game.cardz", *argv])


def test_defaults():
    args = parse()
    assert (args.games, args.planner, args.seed, args.max_moves, args.backend) == (
        cmd_simulate.DEFAULT_GAMES, "usual", 0, SIM_MAX_MOVES, "local")
    assert args.workers is None and args.out is None and not args.json
    assert args.files == ["game.cardz"] and args.deal is None and args.log is None


def test_a_deal_or_a_count_of_games_not_both(capsys):
    assert parse("--deal", "0").deal == 0
    assert parse("--deal", str(MAX_SIM_GAMES - 1)).deal == MAX_SIM_GAMES - 1
    for argv in (("--deal", "-1"), ("--deal", str(MAX_SIM_GAMES)), ("--deal", "3", "--games", "2")):
        with pytest.raises(SystemExit) as exc:
            parse(*argv)
        assert exc.value.code == 2


@pytest.mark.parametrize("flag,limit", [("--games", MAX_SIM_GAMES),
                                        ("--max-moves", MAX_SIM_MAX_MOVES),
                                        ("--workers", MAX_SIM_WORKERS)])
def test_limits_at_and_past(flag, limit, capsys):
    assert getattr(parse(flag, str(limit)), flag[2:].replace("-", "_")) == limit
    for bad in (str(limit + 1), "0", "many"):
        with pytest.raises(SystemExit) as exc:
            parse(flag, bad)
        assert exc.value.code == 2
    assert f"must be from 1 to {limit:,}, not {limit + 1:,}" in capsys.readouterr().err


def test_rows_file_must_be_jsonl_or_csv(capsys):
    assert parse("--out", "rows.CSV").out == "rows.CSV"
    with pytest.raises(SystemExit) as exc:
        parse("--out", "rows.txt")
    assert exc.value.code == 2 and ".jsonl or .csv" in capsys.readouterr().err


GAME = str(Path(__file__).resolve().parent.parent / "rulesets" / "pocket_patience.cardz")


def simulate(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", GAME, "--games", "6", "--planner", "random,usual", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def comparable(summary: dict) -> dict:
    """The summary without wall-clock times and what tells runs apart: where they ran and
    wrote."""
    out = {k: v for k, v in summary.items() if k not in ("made", "rows", "report")}
    out["planners"] = {k: {f: v for f, v in p.items() if f != "seconds"}
                       for k, p in summary["planners"].items()}
    return out


def test_json_summary_rows_and_report(tmp_path, capsys):
    code, out, err = simulate(capsys, "--json", "--workers", "1", "--out",
                              str(tmp_path / "rows.jsonl"), "--report", str(tmp_path / "r.html"))
    assert code == 0 and err == ""  # no progress bar when the output is not a terminal
    summary = json.loads(out)
    assert summary["game"] == "Pocket Patience" and summary["complete"]
    assert set(summary["planners"]) == {"random", "usual"}
    cards = summary["cards"]["pocket_patience"]
    assert len(cards) == 52 and cards[0]["card"] == "AC"
    rows = read_rows(tmp_path / "rows.jsonl")
    assert [(r["deal"], r["variant"], r["planner"]) for r in rows] == [
        (d, "pocket_patience", p) for d in range(6) for p in ("random", "usual")]
    assert all(r["result"] in ("won", "lost", "unfinished") for r in rows)
    names = {c["card"] for c in cards}
    for row in rows:  # cards are named in rows, and lost games say where they were left
        assert set(row["never_moved"]) <= names and set(row["never_foundation"]) <= names
        assert all(set(cards) <= names for cards in row["left"].values())
        assert (row["left"] != {}) == (row["result"] == "lost")
    assert 'id="plot-winrate"' in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_same_numbers_with_one_and_two_workers(tmp_path, capsys):
    _, one, _ = simulate(capsys, "--json", "--workers", "1", "--out", str(tmp_path / "1.csv"))
    _, two, _ = simulate(capsys, "--json", "--workers", "2", "--batch-size", "2",
                         "--out", str(tmp_path / "2.csv"))
    assert comparable(json.loads(one)) == comparable(json.loads(two))
    rows = [[{k: v for k, v in r.items() if k != "seconds"} for r in read_rows(tmp_path / name)]
            for name in ("1.csv", "2.csv")]
    assert rows[0] == rows[1]


def test_same_numbers_on_ray(capsys):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardz[ray]')")
    _, here, _ = simulate(capsys, "--json", "--workers", "1")
    code, ray_out, _ = simulate(capsys, "--json", "--backend", "ray", "--workers", "2")
    assert code == 0 and comparable(json.loads(here)) == comparable(json.loads(ray_out))


def test_text_summary(capsys):
    code, out, _ = simulate(capsys, "--workers", "1", "--seed", "3")
    assert code == 0
    assert out.startswith("Pocket Patience: 6 of 6 deals, seed 3")
    assert "95% interval" in out and "random vs usual on 6 shared deals" in out
    assert "why games ended" in out and "resigned" in out
    assert "report written" not in out
    summary = json.loads(simulate(capsys, "--workers", "1", "--seed", "3", "--json")[1])
    usual = summary["planners"]["usual"]
    for key, words in (("shortest_win", "shortest win"), ("longest_loss", "longest loss")):
        if usual[key]:  # each notable deal with the command that replays it
            assert f"usual: {words}: deal {usual[key]['deal']}" in out
            assert usual[key]["replay"] in out
    (pair,) = summary["paired"]
    if pair["a_only_deals"]:
        assert "won by random only: deals " + ", ".join(
            str(d["deal"]) for d in pair["a_only_deals"]) in out


def test_unknown_planner_is_refused(capsys):
    code, _, err = simulate(capsys, "--planner", "usual,nobody")
    assert code == 1 and "no planner named 'nobody' (registered: " in err  # nothing close
    code, _, err = simulate(capsys, "--planner", "expectimx")
    assert code == 1 and "no planner named 'expectimx' (did you mean 'expectimax'?)" in err
    code, _, err = simulate(capsys, "--planner", "usual,Usual")  # flags that do not go together
    assert code == 2 and "argument --planner: 'usual' is listed twice" in err
    code, _, err = simulate(capsys, "--planner", " , ")
    assert code == 2 and "argument --planner: names no planner" in err


def test_a_game_that_keeps_planners_out(tmp_path, capsys):
    doc = json.loads(Path(GAME).read_text(encoding="utf-8"))
    doc["planner"] = False
    closed = tmp_path / "closed.cardz"
    closed.write_text(json.dumps(doc), encoding="utf-8")
    argv = ["simulate", str(closed), "--games", "2", "--workers", "1", "--json"]
    assert main([*argv, "--planner", "usual"]) == 1
    assert "offers no planner" in capsys.readouterr().err
    assert main([*argv, "--planner", "usual", "--force"]) == 0
    assert json.loads(capsys.readouterr().out)["planners"]["usual"]["games"] == 2
    assert main([*argv, "--planner", "random"]) == 0  # random knows nothing of the game


def test_unwritable_outputs_are_refused_before_playing(tmp_path, capsys):
    code, _, err = simulate(capsys, "--out", str(tmp_path / "missing" / "rows.csv"))
    assert code == 1 and "cannot write" in err
    code, _, err = simulate(capsys, "--report", str(tmp_path / "missing" / "r.html"))
    assert code == 1 and "no such directory" in err


def test_a_node_budget_reaches_the_planners(capsys):
    code, out, _ = simulate(capsys, "--planner", "expectimax", "--nodes", "20", "--games", "1",
                            "--max-moves", "5", "--json", "--workers", "1")
    assert code == 0 and json.loads(out)["planners"]["expectimax"]["moves"]["max"] <= 5
    code, _, err = simulate(capsys, "--planner", "expectimax", "--nodes", "0")
    assert code == 2 and "error: argument --nodes: must be from 1 to" in err  # as hint and play


def test_a_terminal_gets_a_progress_bar_with_the_time_left(tmp_path: Path) -> None:
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    game = Path(__file__).resolve().parent.parent / "rulesets" / "golf.cardz"
    proc = subprocess.Popen([sys.executable, "-m", "cardz_core.cli.main", "simulate", str(game),
                             "--games", "30", "--planner", "random", "--workers", "1"],
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, cwd=tmp_path)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed: the command has ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.wait(timeout=120) == 0
    text = seen.decode(errors="replace")
    assert "simulating" in text and "left" in text and "/30" in text


def test_every_result_says_how_it_was_made(tmp_path, capsys):
    import hashlib

    from cardz_core import __version__
    from cardz_core.sim.rows import read_made

    code, out, _ = simulate(capsys, "--json", "--workers", "1", "--seed", "5",
                            "--planner", "usual,expectimax", "--nodes", "30", "--games", "2",
                            "--max-moves", "40", "--out", str(tmp_path / "rows.csv"),
                            "--report", str(tmp_path / "r.html"))
    assert code == 0
    summary = json.loads(out)
    made = summary["made"]
    assert made["cardz"] == __version__
    (variant,) = made["variants"]
    assert variant["sha256"] == hashlib.sha256(Path(GAME).read_bytes()).hexdigest()
    engine = engine_of(open_game(GAME))[0]  # the engine compile chose (auto: native)
    assert (variant["engine"], variant["game"], variant["file"]) == (engine, "Pocket Patience",
                                                                     GAME)
    assert made["planners"] == [{"name": "usual", "options": {"solve": USUAL_SOLVE_STATES}},
                                {"name": "expectimax", "options": {
                                    "nodes": 30, "depth": expectimax.MAX_DEPTH,
                                    "samples": expectimax.CHANCE_SAMPLES,
                                    "width": expectimax.WIDTH, "solve": USUAL_SOLVE_STATES}}]
    assert (made["options"], made["seed"], made["max_moves"], made["backend"],
            made["workers"], made["games"]) == ({"nodes": 30}, 5, 40, "local", 1, 2)
    assert read_made(tmp_path / "rows.csv") == made
    assert len(read_rows(tmp_path / "rows.csv")) == 4
    report = (tmp_path / "r.html").read_text(encoding="utf-8")
    made_with = f"expectimax (nodes 30, depth 2, samples 3, width 3, solve {USUAL_SOLVE_STATES})"
    assert variant["sha256"] in report and made_with in report
    assert __version__ in report
    assert summary["report"] == str(tmp_path / "r.html")
    code, out, _ = simulate(capsys, "--workers", "1", "--games", "2", "--planner",
                            "expectimax", "--nodes", "30", "--max-moves", "20",
                            "--report", str(tmp_path / "r.html"))
    assert made_with in out and variant["sha256"][:12] in out
    assert f"{engine} engine" in out and "master seed 0, move cap 20" in out
    assert f"report written to {tmp_path / 'r.html'}" in out  # the summary names the report


RULESETS = Path(GAME).parent


def test_variants_that_deal_alike_are_paired(tmp_path, capsys):
    # one more free cell deals the same deals: Klondike's opening has no card in it
    doc = json.loads((RULESETS / "klondike.cardz").read_text(encoding="utf-8"))
    doc["depots"].insert(2, {"name": "cell", "type": "Cell", "col": 8, "row": 0,
                             "acceptRule": {"emptyOnly": True, "single": True},
                             "ejectRule": "topOnly"})
    cell = tmp_path / "klondike_cell.cardz"
    cell.write_text(json.dumps(doc), encoding="utf-8")
    code = main(["simulate", "klondike", str(cell), "--games", "3", "--planner", "usual",
                 "--workers", "1", "--json", "--out", str(tmp_path / "rows.jsonl")])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["unpaired"] == []
    (pair,) = summary["paired"]
    assert (pair["a"], pair["b"], pair["by"], pair["deals"]) == (
        "klondike/usual", "klondike_cell/usual", "variant", 3)
    assert [v["name"] for v in summary["made"]["variants"]] == ["klondike", "klondike_cell"]
    rows = read_rows(tmp_path / "rows.jsonl")
    assert [(r["deal"], r["variant"]) for r in rows] == [
        (d, v) for d in range(3) for v in ("klondike", "klondike_cell")]
    assert rows[0]["opening"] == rows[1]["opening"] != rows[2]["opening"]


def test_variants_that_deal_differently_are_compared_unpaired(capsys):
    code = main(["simulate", GAME, "golf", "--games", "4", "--planner", "random",
                 "--workers", "1", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["paired"] == []
    (pair,) = summary["unpaired"]
    assert (pair["a"], pair["b"]) == ("pocket_patience/random", "golf/random")
    assert pair["reason"].startswith("4 of 4 deals open differently (deal 0: ")
    assert "not the same deals" in pair["note"] and pair["difference_interval"] is not None


def test_the_same_file_twice_is_refused(capsys, tmp_path, monkeypatch):
    code = main(["simulate", GAME, GAME, "--games", "1"])
    assert code == 2 and f"argument FILE: {GAME} is listed twice" in capsys.readouterr().err
    # spelt two ways: a copy's path with and without ./, a bundled game by name and by path
    monkeypatch.chdir(tmp_path)
    Path("k.cardz").write_text(Path(GAME).read_text(encoding="utf-8"), encoding="utf-8")
    for first, second in (("k.cardz", "./k.cardz"),
                          ("klondike", str(RULESETS / "klondike.cardz"))):
        code = main(["simulate", first, second, "--games", "1"])
        assert code == 2, (first, second)
        assert f"argument FILE: {second} is {first} again" in capsys.readouterr().err


@pytest.mark.parametrize("flags", [("--out", "--report"), ("--out", "--log"),
                                   ("--report", "--log")])
def test_two_outputs_in_one_file_are_refused(capsys, tmp_path, flags):
    """The one written last replaced the other, and both were said to be written."""
    same = tmp_path / "same.jsonl"
    argv = ["simulate", GAME, "--deal", "1", flags[0], str(same), flags[1],
            f"{tmp_path}/./same.jsonl"]
    assert main(argv) == 2
    assert f"argument {flags[1]}: {tmp_path}/./same.jsonl is the file {flags[0]} writes too" \
        in capsys.readouterr().err
    assert not same.exists()  # refused before any work


def test_a_notable_deal_replays_exactly_and_logs(tmp_path, capsys, monkeypatch):
    from cardz_core.engine.logs import replay
    from cardz_core.rulesets import open_game

    code, out, _ = simulate(capsys, "--json", "--workers", "1", "--planner", "usual")
    summary = json.loads(out)
    found = summary["planners"]["usual"]["shortest_win"] or \
        summary["planners"]["usual"]["longest_loss"]
    argv = found["replay"].split()
    assert argv[:3] == ["cardz", "simulate", GAME] and argv[-2:] == ["--log",
                                                                    f"deal-{found['deal']}.log"]
    monkeypatch.chdir(tmp_path)
    code, again, _ = (main([*argv[1:], "--json"]), *capsys.readouterr())
    assert code == 0
    arm = json.loads(again)["planners"]["usual"]
    assert arm["games"] == 1 and arm["moves"]["max"] == found["moves"]
    log = json.loads((tmp_path / f"deal-{found['deal']}.log").read_text(encoding="utf-8"))
    assert log["seed"] == found["seed"] and len(log["steps"]) == found["moves"]
    assert len(replay(open_game(GAME), log)) == found["moves"] + 1


def test_at_most_max_sim_variants_game_files(capsys):
    files = ["golf", "aces_up", "accordion", "black_hole", "clock", "fortress", "pyramid",
             "tripeaks", "bisley"][:MAX_SIM_VARIANTS + 1]
    argv = ["simulate", "--games", "1", "--planner", "random", "--max-moves", "5", "--json"]
    assert main([*argv, *files[:MAX_SIM_VARIANTS]]) == 0
    assert len(json.loads(capsys.readouterr().out)["planners"]) == MAX_SIM_VARIANTS  # one a file
    assert main([*argv, *files]) == 2
    assert (f"argument FILE: at most {MAX_SIM_VARIANTS} game files at once, "
            f"not {MAX_SIM_VARIANTS + 1}") in capsys.readouterr().err


def test_a_log_is_one_game(capsys):
    code, _, err = simulate(capsys, "--log", "g.log")  # a usage error: no file is read
    assert code == 2 and "argument --log: it writes one game" in err
