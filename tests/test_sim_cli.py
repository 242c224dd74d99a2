"""`cardz simulate`: its arguments and limits (the runs on real games are further down)."""

from __future__ import annotations

import argparse

import pytest

from cardz_core.cli import cmd_simulate
from cardz_core.limits import MAX_SIM_GAMES, MAX_SIM_MAX_MOVES, SIM_MAX_MOVES


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
                                        ("--max-moves", MAX_SIM_MAX_MOVES)])
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
