"""`cardz simulate`: its arguments and limits (the runs on real games are further down)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pytest

from cardz_core.cli import cmd_simulate
from cardz_core.cli.main import main
from cardz_core.sim.rows import read_rows
from cardz_core.limits import MAX_SIM_GAMES, MAX_SIM_MAX_MOVES, MAX_SIM_WORKERS, SIM_MAX_MOVES


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cardz")
    cmd_simulate.add_parser(parser.add_subparsers())
    return parser.parse_args(["simulate", "game.cardz", *argv])


def test_defaults():
    args = parse()
    assert (args.games, args.planner, args.seed, args.max_moves, args.backend) == (
        cmd_simulate.DEFAULT_GAMES, "usual", 0, SIM_MAX_MOVES, "local")
    assert args.workers is None and args.out is None and not args.json


@pytest.mark.parametrize("flag,limit", [("--games", MAX_SIM_GAMES),
                                        ("--max-moves", MAX_SIM_MAX_MOVES),
                                        ("--workers", MAX_SIM_WORKERS)])
def test_limits_at_and_past(flag, limit, capsys):
    assert getattr(parse(flag, str(limit)), flag[2:].replace("-", "_")) == limit
    for bad in (str(limit + 1), "0", "many"):
        with pytest.raises(SystemExit) as exc:
            parse(flag, bad)
        assert exc.value.code == 2
    assert "between 1 and" in capsys.readouterr().err


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
    """The summary without wall-clock times."""
    out = dict(summary)
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
    assert len(summary["cards"]) == 52 and summary["cards"][0]["card"] == "AC"
    rows = read_rows(tmp_path / "rows.jsonl")
    assert [(r["deal"], r["planner"]) for r in rows] == [
        (d, p) for d in range(6) for p in ("random", "usual")]
    assert all(r["result"] in ("won", "lost", "unfinished") for r in rows)
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


def test_unknown_planner_is_refused(capsys):
    code, _, err = simulate(capsys, "--planner", "usual,nobody")
    assert code == 1 and "no planner named 'nobody'" in err
    code, _, err = simulate(capsys, "--planner", "usual,Usual")
    assert code == 1 and "listed twice" in err


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
