"""`cardz simulate FILE --games N --planner P[,P2...]`: play many deals, summarise, report."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable

from cardz_core.cli.common import GAME_HELP, check_output, check_range, check_seed
from cardz_core.interrupts import interrupt_exit_code
from cardz_core.limits import (MAX_SIM_GAMES, MAX_SIM_MAX_MOVES, MAX_SIM_WORKERS, PLANNER_MAX_NODES,
                               SIM_MAX_MOVES)
from cardz_core.problems import CardzError

DEFAULT_GAMES = 100
DEFAULT_PLANNER = "usual"


def _count(limit: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not 1 <= value <= limit:
            raise argparse.ArgumentTypeError(f"{value} is not between 1 and {limit:,}")
        return value
    return parse


def _rows_path(text: str) -> str:
    from cardz_core.sim.rows import row_format

    if row_format(text) is None:
        raise argparse.ArgumentTypeError(f"{text}: rows are written as .jsonl or .csv")
    return text


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "simulate", help="play many deals with planners and summarise the results",
        description="Play N deals of a game with one or more planners (each planner plays the "
                    "same deals), print a summary (win rate with a 95% Wilson interval, game "
                    "length, score, time, paired comparison, dead cards), and optionally write "
                    "per-deal rows and an HTML report. Deal i's seed depends only on --seed and "
                    "i, so results do not depend on --workers, --backend or batching.")
    p.add_argument("file", metavar="FILE", help=GAME_HELP)
    p.add_argument("--games", type=_count(MAX_SIM_GAMES), default=DEFAULT_GAMES, metavar="N",
                   help=f"deals to play (default {DEFAULT_GAMES})")
    p.add_argument("--planner", default=DEFAULT_PLANNER, metavar="P[,P2...]",
                   help=f"planner name(s), comma-separated (default {DEFAULT_PLANNER})")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="master seed (default 0)")
    p.add_argument("--workers", type=_count(MAX_SIM_WORKERS), default=None, metavar="K",
                   help="worker processes (local: default all cores; ray: CPUs of a local Ray)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local worker processes (default) or Ray tasks")
    p.add_argument("--address", default=None, metavar="A",
                   help="Ray cluster address (default: $RAY_ADDRESS, else a local Ray)")
    p.add_argument("--batch-size", type=_count(MAX_SIM_GAMES), default=None, metavar="B",
                   help="deals per batch (default: up to 100 locally, 200 per Ray task)")
    p.add_argument("--max-moves", type=_count(MAX_SIM_MAX_MOVES), default=SIM_MAX_MOVES,
                   metavar="M", help=f"move cap per game, then it is unfinished "
                                     f"(default {SIM_MAX_MOVES})")
    p.add_argument("--out", type=_rows_path, default=None, metavar="ROWS",
                   help="write one row per deal and planner to ROWS.jsonl or ROWS.csv")
    p.add_argument("--report", default=None, metavar="R.html", help="write an HTML report")
    p.add_argument("--nodes", type=int, default=None, metavar="N",
                   help="positions a searching planner (expectimax) may expand per move")
    p.add_argument("--force", action="store_true",
                   help="let the planners play a game that keeps Cardz's own planners out")
    p.add_argument("--json", action="store_true", help="print the summary as JSON, no progress bar")
    p.set_defaults(func=run)


def _planner_names(text: str, game: Any, force: bool, options: dict[str, Any]) -> tuple[str, ...]:
    """The planners' registered names, each checked by making it once for ``game``."""
    from cardz_core.planners import make_planner

    names = []
    for raw in text.split(","):
        raw = raw.strip()
        if not raw:
            continue
        make_planner(game, raw, force=force, **options)  # refuses unknown, shut out, bad budget
        name = game.registry.canonical("planners", raw)
        if name in names:
            raise CardzError(f"planner {name!r} is listed twice")
        names.append(name)
    if not names:
        raise CardzError("--planner names no planner")
    return tuple(names)


def run(args: argparse.Namespace) -> int:
    from cardz_core.engine import compile as compile_spec
    from cardz_core.registry import default_registry
    from cardz_core.rulesets import game_file
    from cardz_core.sim.job import Job
    from cardz_core.sim.play import foundation_flags
    from cardz_core.sim.rows import RowWriter
    from cardz_core.sim.run import Collector, card_labels, simulate
    from cardz_core.sim.summary import Tally
    from cardz_core.spec import load_game

    check_seed(args.seed)
    check_range(args.nodes, "--nodes", 1, PLANNER_MAX_NODES)  # the same rule as hint and play
    check_output(args.out, "--out")
    check_output(args.report, "--report")
    path = game_file(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardzError(f"{args.file}: cannot read: {exc.strerror}") from None
    registry = default_registry()
    spec = load_game(text, registry=registry, file=args.file)
    game = compile_spec(spec, registry)
    options = {} if args.nodes is None else {"nodes": args.nodes}
    planners = _planner_names(args.planner, game, args.force, options)
    job = Job(text=text, planners=planners, seed=args.seed, max_moves=args.max_moves,
              plugin_names=tuple(registry.plugin_names), file=args.file, force=args.force,
              options=tuple(options.items()))
    workers = args.workers
    if workers is None and args.backend == "local":
        workers = os.cpu_count() or 1
    tally = Tally(planners, args.games, card_labels(game), any(foundation_flags(game)))
    show_bar = not args.json and sys.stdout.isatty() and sys.stderr.isatty()
    with ExitStack() as stack:
        writer = None
        if args.out:
            try:
                writer = RowWriter(args.out)
            except OSError as exc:
                raise CardzError(f"--out {args.out}: cannot write: {exc.strerror}") from None
            stack.callback(writer.close)
        advance = stack.enter_context(_progress(args.games)) if show_bar else None
        collector = Collector(tally, writer, advance)
        interrupted = simulate(job, args.games, collector, backend=args.backend, workers=workers,
                               batch_size=args.batch_size, address=args.address, game=game)
    summary = tally.summary(game=spec.name, file=args.file, seed=args.seed,
                            max_moves=args.max_moves, interrupted=interrupted)
    if args.report:
        from cardz_core.sim.report import write_report

        try:
            write_report(args.report, summary, tally)
        except OSError as exc:
            raise CardzError(f"--report {args.report}: cannot write: {exc.strerror}") from None
    if args.json:
        from cardz_core.cli.common import print_json

        print_json(summary)
    else:
        from cardz_core.sim.text import print_summary

        print_summary(summary)
    if interrupted:
        print(f"interrupted: {summary['deals_done']} of {args.games} deals finished",
              file=sys.stderr)
        return interrupt_exit_code()
    return 0


class _progress:
    """A rich progress bar on standard error with the time left; yields ``advance(n)``."""

    def __init__(self, total: int) -> None:
        from rich.console import Console

        from cardz_core.safe_text import raw_stream  # the bar draws with its own sequences
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        self._bar = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                             console=Console(file=raw_stream(sys.stderr)), transient=True)
        self._task = self._bar.add_task("deals", total=total)

    def __enter__(self) -> Callable[[int], None]:
        self._bar.__enter__()
        return lambda n: self._bar.advance(self._task, n)

    def __exit__(self, *exc: Any) -> None:
        self._bar.__exit__(*exc)
