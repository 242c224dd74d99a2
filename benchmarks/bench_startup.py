"""Start-up: the CPU time of the ``cardz`` command's start, and of opening each bundled game.

    python3 benchmarks/bench_startup.py [--runs 5] [--games klondike_draw3,freecell,gaps]
                                        [--bytecode cached|none|both] [--no-table]

Commands: ``python -c pass`` (the interpreter's own start in this environment, the floor),
``cardz --help`` and ``cardz moves GAME --board B`` for each of ``--games`` (B is the board of
deal 1, written beforehand), each run ``--runs`` times in a fresh process. A run's time is the
child's user + system CPU time (``getrusage(RUSAGE_CHILDREN)``), so that other work on the
machine disturbs the figures less; the best and the median of the runs are printed.

Bytecode: ``cached`` runs every command with its bytecode compiled and cached beforehand (what
an installed package gives: a warm-up run writes it into a temporary ``PYTHONPYCACHEPREFIX``,
so the tree is left as it is); ``none`` runs with ``PYTHONDONTWRITEBYTECODE=1`` and no prefix,
so each run compiles whatever of the tree has no bytecode beside it (the header says whether
``cardz_core`` has).

The table (in-process, after the commands): per bundled game, the CPU milliseconds to load it
(find the file, read and check it), compile it for the default engine, and deal 0 and list its
first legal moves, each the best of three calls (the first call also pays the imports), and
which games exceed the goal of 50 ms for the three together. Run on demand; never a timed test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.engines import compile, engine_of  # noqa: E402
from cardz_core.registry import default_registry  # noqa: E402
from cardz_core.rulesets import bundled, game_file  # noqa: E402
from cardz_core.spec import load_game  # noqa: E402

GOAL_MS = 50.0  # compile plus first listing of a bundled game (issue 17)
GAMES = "klondike_draw3,freecell,gaps,pyramid"
clock = time.process_time


def child_cpu_ms(argv: list[str], env: dict[str, str]) -> float:
    """CPU time (user + system) of one run of ``argv``, in ms; the run must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def write_boards(games: list[str], folder: Path) -> dict[str, Path]:
    """The board of deal 1 of each game, as a file in ``folder``."""
    out = {}
    for name in games:
        path = game_file(name)
        game = compile(load_game(path, file=str(path)), engine="python")
        out[name] = folder / f"{name}.json"
        out[name].write_text(json.dumps(game.board_document(game.deal(1))))
    return out


def commands(games: list[str], boards: dict[str, Path]) -> dict[str, list[str]]:
    cardz = [sys.executable, "-m", "cardz_core.cli.main"]
    runs = {"python -c pass": [sys.executable, "-c", "pass"], "cardz --help": cardz + ["--help"]}
    for name in games:
        runs[f"cardz moves {name}"] = cardz + ["moves", name, "--board", str(boards[name])]
    return runs


def environment(bytecode: str, prefix: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if bytecode == "cached":
        env["PYTHONPYCACHEPREFIX"] = str(prefix)
    else:
        env.pop("PYTHONPYCACHEPREFIX", None)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def tree_has_bytecode() -> bool:
    main = ROOT / "cardz_core" / "cli" / "main.py"
    return Path(importlib.util.cache_from_source(str(main))).exists()


def time_commands(runs: dict[str, list[str]], bytecode: str, repeat: int, prefix: Path) -> None:
    env = environment(bytecode, prefix)
    if bytecode == "cached":
        for argv in runs.values():  # the warm-up writes every module's bytecode
            child_cpu_ms(argv, env)
        print("bytecode: cached (compiled beforehand into a PYTHONPYCACHEPREFIX)")
    else:
        print("bytecode: none written (PYTHONDONTWRITEBYTECODE=1); cardz_core's own is "
              + ("cached beside the sources" if tree_has_bytecode() else "absent: compiled "
                 "on every run"))
    print(f"| command | best ms | median ms | best - python ms |\n|---|---|---|---|")
    floor = None
    for name, argv in runs.items():
        times = [child_cpu_ms(argv, env) for _ in range(repeat)]
        best = min(times)
        floor = best if floor is None else floor
        print(f"| `{name}` | {best:.0f} | {statistics.median(times):.0f} | {best - floor:.0f} |",
              flush=True)


def best_of(fn: Callable[[], Any], runs: int = 3) -> tuple[Any, float]:
    """(the last result, the best CPU milliseconds of ``runs`` calls)."""
    best, out = float("inf"), None
    for _ in range(runs):
        start = clock()
        out = fn()
        best = min(best, clock() - start)
    return out, best * 1000


def open_table() -> None:
    print(f"\n| game | engine | load ms | compile ms | deal + first moves ms | total ms |"
          f"\n|---|---|---|---|---|---|")
    registry = default_registry()
    over, totals = [], []
    for rs in bundled():
        spec, load_ms = best_of(lambda: load_game(game_file(rs.path.stem), registry=registry,
                                                  file=str(rs.path)))
        game, compile_ms = best_of(lambda: compile(spec, registry))
        _, first_ms = best_of(lambda: game.legal_moves(game.deal(0)))
        total = load_ms + compile_ms + first_ms
        totals.append(total)
        flag = " **over**" if total > GOAL_MS else ""
        if flag:
            over.append(rs.path.stem)
        print(f"| {rs.path.stem} | {engine_of(game)[0]} | {load_ms:.1f} | {compile_ms:.1f} "
              f"| {first_ms:.1f} | {total:.1f}{flag} |", flush=True)
    print(f"\n{len(totals)} games: median {statistics.median(totals):.1f} ms, most "
          f"{max(totals):.1f} ms; over {GOAL_MS:.0f} ms: {', '.join(over) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per command")
    parser.add_argument("--games", default=GAMES, help="comma-separated games for `cardz moves`")
    parser.add_argument("--bytecode", choices=("cached", "none", "both"), default="both")
    parser.add_argument("--no-table", action="store_true", help="leave out the per-game table")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        runs = commands(games, write_boards(games, Path(tmp)))
        for bytecode in (("cached", "none") if args.bytecode == "both" else (args.bytecode,)):
            time_commands(runs, bytecode, args.runs, Path(tmp) / "pycache")
            print()
    if not args.no_table:
        open_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
