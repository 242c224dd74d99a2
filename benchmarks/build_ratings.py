"""Build the shipped tables of rated deals (``cardz_core/ratings_data/GAME.json.gz``).

    nice -n 10 python3 benchmarks/build_ratings.py (--all | GAME...) [--seeds A-B] [--jobs N]
        [--max-states K] [--timeout S] [--playouts K] [--time-box S] [--fresh] [--out-dir DIR]
        [--settings FILE] [--regrade | --lines]

For each game and each seed it runs ``cardz_core.ratings.rate_deal``: the solver's verdict within
``--max-states`` positions (``--timeout`` seconds is only a safety), and for a won deal the fair
playouts and the difficulty measure; then it assigns the levels and the game's winnability over
the rated deals (docs/winnability.md, "Rated deals and difficulty levels"). The table is
rewritten every few seconds (``SAVE_SECONDS``) and at the end, so the run can be stopped at any
time (losing the last few seconds' deals) and started again with the same command: it keeps the deals already rated when the game file and the settings are
unchanged (``--fresh`` starts over). ``--time-box`` starts no new deal after S seconds per
game, so a long range can be built in pieces. Progress goes to stderr, one line a deal.

**Per-game settings.** ``benchmarks/ratings_settings.json`` (``--settings``) gives each bundled
game its seeds, positions per deal, seconds per deal and time box, chosen from a short probe of
what the solver does with the game (docs/winnability.md, "The shipped tables"), and, for a game
the solver wins rarely or never, a ``note`` saying why, which the table keeps and
``cardz deal --winnable --difficulty`` repeats when it has no deal to give; for a game whose deals
the solver's usual sibling orders leave undecided, ``orders``: the orders its tries take instead
(``cardz_core.solver.problem.Weights``, six numbers each, seven with ``stuck``, eight with
``greedy``, whose try plays only moves that make progress and counts only a win; speed only,
never the answer); and ``beam``, a beam try the solver runs first (``width``, ``spread`` and
``buried`` of ``cardz_core.solver.beam.Beam``, two or three numbers; it counts only a win).
``--all`` builds every game the file lists, in its order; a game named on
the command line takes its settings from the file too. An option given on the command line
overrides the file's value for every game built; a game the file does not list takes the
options' defaults.

``--regrade`` keeps every row's verdict, positions and line and plays only the won deals'
playouts again, for their ``wins``, ``measure`` and so the levels: what a change to the playout
player (``usual``) calls for, at a small part of a rebuild's cost.

``--lines`` keeps every row and finds a winning line for each won row that keeps none (a table
made before rows kept them), with the table's solver settings, then ``LINE_BUDGET`` times its
positions; a row the solver no longer wins within that keeps none, and is named.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_winnability import span  # noqa: E402

from cardz_core import __version__  # noqa: E402
from cardz_core.cli.common import open_game  # noqa: E402
from cardz_core.engine.logs import game_hash  # noqa: E402
from cardz_core.engines import engine_of  # noqa: E402
from cardz_core.ratings import (PLAYOUT_MOVES, PLAYOUT_PLANNER, PLAYOUTS,  # noqa: E402
                                RATINGS_DIR, SLIP, TABLE_SUFFIX, beam_made, grade, line_text,
                                line_wins, orders_of, rate_deal, table_document, table_text)
from cardz_core.rulesets import game_file  # noqa: E402
from cardz_core.planners.solver import solve  # noqa: E402
from cardz_core.problems import CardzError  # noqa: E402
from cardz_core.solver.beam import Beam, beam_of  # noqa: E402
from cardz_core.solver.problem import ORDERINGS_VERSION, Weights  # noqa: E402

SETTINGS = Path(__file__).resolve().parent / "ratings_settings.json"
# the table is rewritten at most this often (and at the end): a table of tens of thousands of
# deals rewritten after each one would cost more than rating them
SAVE_SECONDS = 5.0
LINE_BUDGET = 10  # ``--lines``: a line is looked for with up to this many times the table's budget
# the settings a row depends on: a table made with others is not resumed (``default_orders``:
# the version of the solver's own orders, absent from tables made before it was kept)
RESULT_SETTINGS = ("max_states", "playouts", "slip", "planner", "playout_moves", "orders",
                   "beam", "default_orders")
# each per-game setting: its default and how the file's or the command line's text reads
DEFAULTS: dict[str, Any] = {"seeds": "0-199", "max_states": 100_000, "timeout": 120.0,
                            "playouts": PLAYOUTS, "time_box": None, "note": None,
                            "orders": None, "beam": None}


@dataclass(frozen=True)
class Settings:
    """What one game's table is built with."""

    seeds: list[int]
    max_states: int
    timeout: float
    playouts: int
    time_box: float | None
    note: str | None  # why the solver wins this game rarely or never, kept in the table
    orders: tuple[Weights, ...] | None  # the solver's sibling orders, when not its usual ones
    beam: Beam | None  # the beam try the solver runs first, if any


def game_settings(name: str, listed: dict[str, Any], given: dict[str, Any]) -> Settings:
    """The settings of game ``name``: the command line's ``given`` over the file's entry over
    the defaults. Refuses bad values with ValueError."""
    entry = listed.get(name, {})
    unknown = set(entry) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"{name}: unknown setting(s) {', '.join(sorted(unknown))}")
    values = {**DEFAULTS, **entry, **{k: v for k, v in given.items() if v is not None}}
    seeds = values["seeds"] if isinstance(values["seeds"], list) else span(str(values["seeds"]))
    try:
        orders = orders_of(values)
    except TypeError:
        raise ValueError(f"{name}: orders must be lists of six to eight numbers") from None
    try:
        beam = beam_of(values["beam"])
    except CardzError as exc:
        raise ValueError(f"{name}: {exc}") from None
    s = Settings(seeds, int(values["max_states"]), float(values["timeout"]),
                 int(values["playouts"]),
                 None if values["time_box"] is None else float(values["time_box"]), values["note"],
                 orders, beam)
    if not seeds or s.max_states < 1 or s.playouts < 0 or not s.timeout > 0 or orders == ():
        raise ValueError(f"{name}: seeds must not be empty, max_states must be at least 1, "
                         "playouts at least 0, timeout more than 0, orders not empty")
    return s


_worker: dict[str, Any] = {}


def _start_worker(name: str) -> None:
    _worker["game"] = open_game(name)


def _rate(seed: int, max_states: int, timeout: float, playouts: int,
          orders: tuple[Weights, ...] | None, beam: Beam | None) -> dict[str, Any]:
    return rate_deal(_worker["game"], seed, max_states=max_states, timeout=timeout,
                     playouts=playouts, orders=orders, beam=beam).row


def _grade(seed: int, playouts: int, states: int, budget: int) -> dict[str, Any]:
    return {"seed": seed, **grade(_worker["game"], seed, playouts, states, budget)}


def _line(seed: int, max_states: int, timeout: float, orders: tuple[Weights, ...] | None,
          beam: Beam | None) -> dict[str, Any]:
    """A winning line of the deal of ``seed``: the table's solver, then ``LINE_BUDGET`` times its
    positions; ``line`` None when neither finds one that wins on the engine."""
    game = _worker["game"]
    state = game.deal(seed)
    for budget in (max_states, LINE_BUDGET * max_states):
        found = solve(game, state, max_states=budget, timeout=LINE_BUDGET * timeout,
                      orders=orders, beam=beam)
        if found.result == "won" and line_wins(game, state, found.line):
            return {"seed": seed, "line": line_text(found.line)}
    return {"seed": seed, "line": None}


def _current_table(name: str, out_dir: Path) -> tuple[Path, Path, dict[str, Any]]:
    """Game ``name``'s file, its table's path and document; the table must be of that file."""
    path = game_file(name)
    out = out_dir / (path.stem + TABLE_SUFFIX)
    doc = json.loads(table_text(out))
    if doc.get("hash") != game_hash(open_game(str(path)).spec):
        raise ValueError(f"{out}: made for another version of {path.name}; rebuild it instead")
    return path, out, doc


def _worked(path: Path, jobs: int, work: Callable[..., dict[str, Any]],
            calls: list[tuple[Any, ...]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """``work(*call)`` for each call in ``jobs`` processes on game ``path``: (how many are done,
    the answer), in the calls' order."""
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(str(path),)) as pool:
        futures = [pool.submit(work, *call) for call in calls]
        for done, fut in enumerate(futures, 1):
            yield done, fut.result()


def _rewrite(out: Path, doc: dict[str, Any], made: dict[str, Any],
             rows: dict[int, dict[str, Any]]) -> None:
    _write(out, table_document(doc["game"], doc["file"], doc["hash"], made, list(rows.values())))


def regrade(name: str, jobs: int, out_dir: Path) -> None:
    """Play the won deals' playouts of game ``name``'s table again and grade it anew (module
    docstring, ``--regrade``); the table must be of the current game file."""
    path, out, doc = _current_table(name, out_dir)
    made = doc["made"]
    rows = {r["seed"]: r for r in doc["deals"]}
    won = [r for r in rows.values() if r["result"] == "won"]
    started = time.perf_counter()
    calls = [(r["seed"], made["playouts"], r["states"], made["max_states"]) for r in won]
    for done, new in _worked(path, jobs, _grade, calls):
        row = rows[new["seed"]]
        print(f"{path.stem}: seed {row['seed']} wins {row['wins']} -> {new['wins']} "
              f"[{done}/{len(won)}]", file=sys.stderr, flush=True)
        row.update(new)
    made["planner"] = PLAYOUT_PLANNER
    made["cardz"] = __version__
    _rewrite(out, doc, made, rows)
    print(f"{path.stem}: regraded {len(won)} won deal(s) in {out} "
          f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)


def add_lines(name: str, jobs: int, out_dir: Path) -> None:
    """A winning line for each won row of game ``name``'s table that keeps none (module
    docstring, ``--lines``); the table must be of the current game file."""
    path, out, doc = _current_table(name, out_dir)
    made = doc["made"]
    rows = {r["seed"]: r for r in doc["deals"]}
    bare = [r for r in rows.values() if r["result"] == "won" and r.get("line") is None]
    started = time.perf_counter()
    calls = [(r["seed"], made["max_states"], made["timeout"], orders_of(made), beam_made(made))
             for r in bare]
    missing = []
    for done, new in _worked(path, jobs, _line, calls):
        if new["line"] is None:
            missing.append(new["seed"])
            said = "no line found"
        else:
            rows[new["seed"]]["line"] = new["line"]
            said = f"a line of {len(new['line'])} moves"
        print(f"{path.stem}: seed {new['seed']} {said} [{done}/{len(bare)}]",
              file=sys.stderr, flush=True)
    _rewrite(out, doc, made, rows)
    print(f"{path.stem}: lines for {len(bare)} won deal(s) in {out} "
          f"({time.perf_counter() - started:.0f} s)"
          + (f"; no line found for seeds {missing}" if missing else ""), file=sys.stderr)


def _write(path: Path, doc: dict[str, Any]) -> None:
    """Replace the table in one step, so a stopped run never leaves half a file. One deal a
    line, gzipped with no time stamp: the same table gives the same bytes, and unzipped it reads
    well in a diff."""
    head = json.dumps({k: v for k, v in doc.items() if k != "deals"}, indent=1)
    deals = ",\n".join(json.dumps(r, separators=(",", ":")) for r in doc["deals"])
    text = f'{head[:-2]},\n "deals": [\n{deals}\n]}}\n'
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    os.replace(tmp, path)


def _results(path: str, todo: list[int], s: Settings, jobs: int,
             started: float) -> Iterator[dict[str, Any]]:
    """The rows of the seeds ``todo``, in this process or in ``jobs`` workers (then in the
    order they finish), starting no deal once the time box is spent."""
    seeds = iter(todo)

    def more() -> int | None:
        boxed = s.time_box is not None and time.perf_counter() - started > s.time_box
        return None if boxed else next(seeds, None)

    budgets = (s.max_states, s.timeout, s.playouts, s.orders, s.beam)
    if jobs == 1:
        _start_worker(path)
        while (seed := more()) is not None:
            yield _rate(seed, *budgets)
        return
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(path,)) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        while True:
            while len(pending) < jobs and (seed := more()) is not None:
                pending.add(pool.submit(_rate, seed, *budgets))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()


def build(name: str, s: Settings, *, jobs: int, fresh: bool, out_dir: Path) -> None:
    path = game_file(name)
    game = open_game(str(path))
    out = out_dir / (path.stem + TABLE_SUFFIX)
    made: dict[str, Any] = {"max_states": s.max_states, "timeout": s.timeout,
                            "playouts": s.playouts, "slip": SLIP, "planner": PLAYOUT_PLANNER,
                            "playout_moves": PLAYOUT_MOVES, "engine": engine_of(game)[0],
                            "cardz": __version__, "default_orders": ORDERINGS_VERSION}
    if s.note:
        made["note"] = s.note
    if s.orders:
        made["orders"] = [w.numbers() for w in s.orders]
    if s.beam:
        made["beam"] = s.beam.numbers()
    rows: dict[int, dict[str, Any]] = {}
    if out.exists() and not fresh:
        old = json.loads(table_text(out))
        same = old.get("hash") == game_hash(game.spec) and \
            all(old["made"].get(k) == made.get(k) for k in RESULT_SETTINGS)
        if same:
            rows = {r["seed"]: r for r in old["deals"]}
        else:
            print(f"{path.stem}: the table was made for another game file or other settings; "
                  "starting over", file=sys.stderr)
    todo = [seed for seed in s.seeds if seed not in rows]
    print(f"{path.stem}: {len(rows)} deal(s) kept, {len(todo)} to rate", file=sys.stderr)

    def save() -> None:
        _write(out, table_document(game.spec.name, path.name, game_hash(game.spec), made,
                                   list(rows.values())))

    started = saved = time.perf_counter()
    for row in _results(str(path), todo, s, jobs, started):
        rows[row["seed"]] = row
        if time.perf_counter() - saved > SAVE_SECONDS:
            save()
            saved = time.perf_counter()
        extra = f", {row['wins']}/{s.playouts} playouts won" \
            if row.get("wins") is not None else ""
        print(f"{path.stem}: seed {row['seed']} {row['result']} "
              f"({row['states']:,} positions{extra}) [{len(rows)}/{len(s.seeds)}]",
              file=sys.stderr, flush=True)
    save()  # also when nothing was rated: the levels, winnability and note of the current code
    print(f"{path.stem}: done, {len(rows)} deal(s) in {out} "
          f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", nargs="*", metavar="GAME", help="game files or bundled names")
    p.add_argument("--all", action="store_true", help="every game the settings file lists")
    p.add_argument("--settings", type=Path, default=SETTINGS,
                   help="the per-game settings (default benchmarks/ratings_settings.json)")
    p.add_argument("--seeds", type=span, help="deal seeds A-B, or a list such as 3,5,8-10 "
                                              f"(default {DEFAULTS['seeds']})")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--max-states", type=int, help="the solver's positions per deal "
                                                  f"(default {DEFAULTS['max_states']})")
    p.add_argument("--timeout", type=float, help="a safety: the solver's seconds per deal "
                                                 f"(default {DEFAULTS['timeout']:.0f})")
    p.add_argument("--playouts", type=int,
                   help=f"fair playouts per won deal (default {PLAYOUTS})")
    p.add_argument("--time-box", type=float, help="start no new deal of a game after S seconds")
    p.add_argument("--fresh", action="store_true", help="rate every deal again")
    p.add_argument("--regrade", action="store_true",
                   help="keep the verdicts, play the won deals' playouts again")
    p.add_argument("--lines", action="store_true",
                   help="keep every row and find a winning line for each won row that keeps none")
    p.add_argument("--out-dir", type=Path, default=RATINGS_DIR,
                   help="where the tables go (default the shipped folder)")
    args = p.parse_args(argv)
    if args.regrade and args.lines:
        p.error("--regrade and --lines are separate runs")
    if args.all == bool(args.games):
        p.error("name the games to build, or --all (not both)")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    try:
        listed = json.loads(args.settings.read_text(encoding="utf-8"))["games"]
    except (OSError, KeyError, TypeError, json.JSONDecodeError) as exc:
        p.error(f"--settings {args.settings}: not a settings file ({exc})")
    given = {"seeds": args.seeds, "max_states": args.max_states, "timeout": args.timeout,
             "playouts": args.playouts, "time_box": args.time_box}
    names = list(listed) if args.all else args.games
    try:  # every game's settings are checked before the first is built
        plans = [(n, game_settings(Path(n).stem, listed, given)) for n in names]
    except ValueError as exc:
        p.error(str(exc))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    if args.regrade or args.lines:
        try:
            for name, _ in plans:
                (regrade if args.regrade else add_lines)(name, args.jobs, args.out_dir)
        except (OSError, ValueError) as exc:
            p.error(str(exc))
        return 0
    for name, settings in plans:
        build(name, settings, jobs=args.jobs, fresh=args.fresh, out_dir=args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
