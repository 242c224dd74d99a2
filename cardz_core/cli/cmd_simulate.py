"""`cardz simulate FILE [FILE2...] --games N --planner P[,P2...]`: play many deals on every
variant with every planner, summarise, report."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import (GAME_HELP, UsageError, add_option_arg, check_output, check_range,
                                   check_seed, planner_options, whole_number)
from cardz_core.interrupts import interrupt_exit_code
from cardz_core.limits import (MAX_SIM_GAMES, MAX_SIM_MAX_MOVES, MAX_SIM_VARIANTS, MAX_SIM_WORKERS,
                               PLANNER_MAX_NODES, SIM_MAX_MOVES)
from cardz_core.problems import CardzError

DEFAULT_GAMES = 100
DEFAULT_PLANNER = "usual"


def _count(limit: int, low: int = 1) -> Callable[[str], int]:
    """A whole-number flag from ``low`` to ``limit``, refused in the words ``whole_number`` and
    ``check_range`` use for every other command's numeric flags."""
    def parse(text: str) -> int:
        value = whole_number(text)
        if not low <= value <= limit:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {limit:,}, not {value:,}")
        return value
    return parse


def _rows_path(text: str) -> str:
    from cardz_core.sim.rows import row_format

    if row_format(text) is None:
        raise argparse.ArgumentTypeError(f"{text}: rows are written as .jsonl or .csv")
    return text


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "simulate", help=COMMANDS["simulate"],
        description="Play N deals of one or more variants of a game with one or more planners "
                    "(every planner plays the same deals on every variant), print a summary "
                    "(why games ended, win rate with a 95% Wilson interval, game length, score, "
                    "time, paired comparisons, dead cards, how it was made), and optionally "
                    "write per-deal rows and an HTML report. Deal i's seed depends only on "
                    "--seed and i, so results do not depend on --workers, --backend or "
                    "batching.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help=f"{GAME_HELP}; several: variants played on the same deals (at most "
                        f"{MAX_SIM_VARIANTS})")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--games", type=_count(MAX_SIM_GAMES), default=DEFAULT_GAMES,
                       metavar="N", help=f"deals to play, numbered 0 .. N-1 (default "
                                         f"{DEFAULT_GAMES})")
    which.add_argument("--deal", type=_count(MAX_SIM_GAMES - 1, 0), default=None, metavar="I",
                       help="play deal number I only, as a run of --games past I plays it "
                            "(to replay a deal the summary names)")
    p.add_argument("--planner", default=DEFAULT_PLANNER, metavar="P[,P2...]",
                   help=f"planner name(s), comma-separated (default {DEFAULT_PLANNER})")
    p.add_argument("--seed", type=whole_number, default=0, metavar="S",
                   help="master seed (default 0)")
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
                   help="write one row per deal, variant and planner to ROWS.jsonl or ROWS.csv")
    p.add_argument("--report", default=None, metavar="R.html", help="write an HTML report")
    p.add_argument("--log", default=None, metavar="LOG",
                   help="with --deal, one FILE and one planner: write the game played as a "
                        "cardz-log/1 (every move and the cards it turned up)")
    p.add_argument("--nodes", type=whole_number, default=None, metavar="N",
                   help="positions a searching planner (expectimax) may expand per move")
    add_option_arg(p)
    p.add_argument("--force", action="store_true",
                   help="let the planners play a game that keeps Cardz's own planners out")
    p.add_argument("--json", action="store_true", help="print the summary as JSON, no progress bar")
    p.set_defaults(func=run)


def _planner_names(text: str, games: list[Any], force: bool, options: dict[str, Any],
                   given: dict[str, Any]) -> tuple[str, ...]:
    """The planners' registered names, each checked by making it once for every game with
    ``options``; each must take by name every option of ``given`` (the ``--option`` ones)."""
    from cardz_core.planners import check_option_names, make_planner

    names = []
    for raw in text.split(","):
        raw = raw.strip()
        if not raw:
            continue
        for game in games:  # refuses unknown, shut out, bad budget, an option it does not take
            check_option_names(game, raw, given)
            make_planner(game, raw, force=force, **options)
        name = game.registry.canonical("planners", raw)  # every game has the one registry
        if name in names:
            raise UsageError(f"argument --planner: {name!r} is listed twice")
        names.append(name)
    if not names:
        raise UsageError("argument --planner: names no planner")
    return tuple(names)


def _distinct_outputs(outputs: dict[str, str | None]) -> None:
    """Refuse two output flags naming one file: the one written last replaced the other, and
    both were said to be written."""
    seen: dict[str, str] = {}
    for flag, path in outputs.items():
        if path is None:
            continue
        where = path if path == "-" else os.path.realpath(path)
        if where in seen:
            raise UsageError(f"argument {flag}: {path} is the file {seen[where]} writes too")
        seen[where] = flag


def _variant_names(files: list[str]) -> list[str]:
    """The name rows give each variant: its file's stem, or the path as given where two stems
    are the same."""
    stems = [Path(f).stem for f in files]
    names = [stem if stems.count(stem) == 1 else f for stem, f in zip(stems, files)]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise UsageError(f"argument FILE: {files[i]} is listed twice")
    return names


def _planner_options(game: Any, name: str, force: bool, options: dict[str, Any]
                     ) -> dict[str, Any]:
    """The options planner ``name`` plays with, defaults filled in, as it reports them
    (``settings()``: those set, and one given as None, such as ``reveal=none``); none for a
    planner that reports none."""
    from cardz_core.planners import make_planner

    planner = make_planner(game, name, force=force, **options)
    settings = getattr(planner, "settings", None)
    if not callable(settings):
        return {}
    return {k: v for k, v in settings().items() if v is not None or k in options}


def run(args: argparse.Namespace) -> int:
    import hashlib

    from cardz_core import __version__
    from cardz_core.engine import compile as compile_spec
    from cardz_core.registry import default_registry
    from cardz_core.rulesets import game_file
    from cardz_core.sim.job import Job, Variant, deck
    from cardz_core.sim.notable import add_replays
    from cardz_core.sim.rows import RowWriter
    from cardz_core.sim.run import Collector, local_processes, simulate
    from cardz_core.sim.seeds import deal_seed
    from cardz_core.sim.summary import Tally
    from cardz_core.sim.variants import opening_difference
    from cardz_core.engines import engine_of
    from cardz_core.spec import load_game

    check_seed(args.seed)
    check_range(args.nodes, "--nodes", 1, PLANNER_MAX_NODES)  # the same rule as hint and play
    check_output(args.out, "--out")
    check_output(args.report, "--report")
    check_output(args.log, "--log")
    _distinct_outputs({"--out": args.out, "--report": args.report, "--log": args.log})
    if args.address is not None and args.backend != "ray":  # a cluster's address, for Ray only
        raise UsageError("argument --address: it goes with --backend ray")
    named = [name for name in args.planner.split(",") if name.strip()]
    if args.log is not None and (args.deal is None or len(args.files) > 1 or len(named) > 1):
        raise UsageError("argument --log: it writes one game: give --deal, one FILE and one "
                         "planner")
    if len(args.files) > MAX_SIM_VARIANTS:
        raise UsageError(f"argument FILE: at most {MAX_SIM_VARIANTS} game files at once, "
                         f"not {len(args.files)}")
    names = _variant_names(args.files)
    paths = [game_file(given) for given in args.files]
    for i, path in enumerate(paths):  # the same file spelt two ways (k.cardz, ./k.cardz)
        twin = next((args.files[j] for j in range(i) if paths[j].samefile(path)), None)
        if twin is not None:
            raise UsageError(f"argument FILE: {args.files[i]} is {twin} again")
    registry = default_registry()
    variants, games, about = [], [], []
    for name, given, path in zip(names, args.files, paths):
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CardzError(f"{given}: cannot read: {exc.strerror}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CardzError(f"{given}: not UTF-8 text (byte {exc.start})") from None
        spec = load_game(text, registry=registry, file=given)
        game = compile_spec(spec, registry)
        variants.append(Variant(text=text, file=given, name=name))
        games.append(game)
        about.append({"name": name, "game": spec.name, "file": given,
                      "sha256": hashlib.sha256(data).hexdigest(), "engine": engine_of(game)[0]})
    options = planner_options(args.planner_options, args.nodes)
    planners = _planner_names(args.planner, games, args.force, options,
                              dict(args.planner_options))
    first, count = (0, args.games) if args.deal is None else (args.deal, 1)
    log = None if args.log is None else _GameLog(games[0], deal_seed(args.seed, first))
    job = Job(variants=tuple(variants), planners=planners, seed=args.seed,
              max_moves=args.max_moves, plugin_names=tuple(registry.plugin_names),
              force=args.force, options=tuple(options.items()))
    workers = args.workers
    if args.backend == "local":
        workers = 1 if log is not None else local_processes(
            count, workers or os.cpu_count() or 1, args.batch_size)
    made = {"cardz": __version__, "variants": about,
            "planners": [{"name": p, "options": _planner_options(games[0], p, args.force,
                                                                 options)} for p in planners],
            "options": options, "force": args.force, "seed": args.seed, "first_deal": first,
            "games": count, "max_moves": args.max_moves, "backend": args.backend,
            "workers": workers}
    tally = Tally(planners, count, [deck(v.name, g) for v, g in zip(variants, games)],
                  seed=args.seed, first=first)
    show_bar = not args.json and sys.stdout.isatty() and sys.stderr.isatty()
    with ExitStack() as stack:
        writer = None
        if args.out:
            try:
                writer = RowWriter(args.out, made)
            except OSError as exc:
                raise CardzError(f"--out {args.out}: cannot write: {exc.strerror}") from None
            stack.callback(writer.close)
        advance = stack.enter_context(_progress(count)) if show_bar else None
        collector = Collector(tally, writer, advance)
        interrupted = simulate(job, count, collector, backend=args.backend, workers=workers,
                               batch_size=args.batch_size, address=args.address,
                               compiled=games, first=first,
                               on_move=log)
    by_name = dict(zip(names, games))

    def explain(a: str, b: str, deal: int) -> str | None:
        return opening_difference(by_name[a], a, by_name[b], b, deal_seed(args.seed, deal))

    summary = tally.summary(explain, game=about[0]["game"], file=args.files[0],
                            seed=args.seed, max_moves=args.max_moves, interrupted=interrupted,
                            made=made, report=args.report, rows=args.out)
    add_replays(summary)
    if args.report:
        from cardz_core.sim.report import write_report

        try:
            write_report(args.report, summary, tally)
        except OSError as exc:
            raise CardzError(f"--report {args.report}: cannot write: {exc.strerror}") from None
    if log is not None and not interrupted:
        log.write(args.log)
    if args.json:
        from cardz_core.cli.common import print_json

        print_json(summary)
    else:
        from cardz_core.sim.text import print_summary

        print_summary(summary)
    if interrupted:
        print(f"interrupted: {summary['deals_done']} of {count} deals finished",
              file=sys.stderr)
        return interrupt_exit_code()
    return 0


class _GameLog:
    """Records every move of the one game played (``--log``) and writes it as a cardz-log/1."""

    def __init__(self, game: Any, seed: int) -> None:
        from cardz_core.engine.logs import LogRecorder

        self.recorder = LogRecorder(game, seed=seed)
        self.final = game.deal(seed)

    def __call__(self, before: Any, move: Any, after: Any) -> None:
        self.recorder.record(before, move, after)
        self.final = after

    def write(self, path: str) -> None:
        import json

        text = json.dumps(self.recorder.document(self.final), indent=1) + "\n"
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CardzError(f"--log {path}: cannot write: {exc.strerror}") from None


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
