"""Start-up: the CPU time of the ``cardz`` command's start, and of opening each bundled game.

    python3 benchmarks/bench_startup.py [--runs 5] [--games klondike_draw3,freecell,gaps]
                                        [--bytecode cached|none|both] [--no-table | --only-table]
                                        [--before TREE]

Commands: ``python -c pass`` (the interpreter's own start in this environment, the floor),
``python -S -c pass`` (without the site packages' start: their ``.pth`` files, the editable
install's finder), ``cardz --help`` and ``cardz moves GAME --board B`` for each of ``--games``
(B is the board of deal 1, written beforehand), with the program cache and without it
(``CARDZ_NO_CACHE=1``), and the first game's again under ``python -S`` with the packages laid
out as a wheel installs them (what a clean install would start with: no ``.pth`` file and no
editable finder run), each run ``--runs`` times in a fresh process. A run's time is the
child's user + system CPU time (``getrusage(RUSAGE_CHILDREN)``), so that other work on the
machine disturbs the figures less; the best and the median of the runs are printed. The
program cache is a temporary folder, filled by a warm-up run.

Bytecode: ``cached`` runs every command with its bytecode compiled and cached beforehand (what
an installed package gives: the warm-up writes it into a temporary ``PYTHONPYCACHEPREFIX``,
so the tree is left as it is); ``none`` runs with ``PYTHONDONTWRITEBYTECODE=1`` and no prefix,
so each run compiles whatever of the tree has no bytecode beside it (the header says whether
``cardz_core`` has).

``--before TREE``: the commands run in TREE too (its ``cardz_core`` imported from it as the
working folder, its plugins from ``TREE/plugins``), the two trees in turn run after run, with
the ratio of the best times (this tree's over TREE's): a busy machine slows both alike.

The table (in-process, after the commands): per bundled game, the CPU milliseconds to load it
(find the file, read and check it) without the program cache and with it, to compile it for
the default engine, and to deal 0 and list its first legal moves, each the best of three calls
(the first call also pays the imports), and which games exceed the goal of 50 ms for the three
together. Run on demand; never a timed test.
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from cardz_core.engines import compile, engine_of  # noqa: E402
from cardz_core.registry import default_registry  # noqa: E402
from cardz_core.rulesets import bundled, game_file  # noqa: E402
from cardz_core.spec import load_game  # noqa: E402

from bench_engine import timed  # noqa: E402  (the best CPU time of three calls)

GOAL_MS = 50.0  # compile plus first listing of a bundled game (issue 17)
GAMES = "klondike_draw3,freecell,gaps,pyramid"


def child_cpu_ms(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """CPU time (user + system) of one run of ``argv``, in ms; the run must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
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


Runs = dict[str, tuple[list[str], dict[str, str]]]


def commands(games: list[str], boards: dict[str, Path]) -> Runs:
    """Each command's argv and what it adds to the environment."""
    cardz = [sys.executable, "-m", "cardz_core.cli.main"]
    runs: Runs = {
        "python -c pass": ([sys.executable, "-c", "pass"], {}),
        "python -S -c pass (no site)": ([sys.executable, "-S", "-c", "pass"], {}),
        "cardz --help": (cardz + ["--help"], {}),
    }
    for name in games:
        argv = cardz + ["moves", name, "--board", str(boards[name])]
        runs[f"cardz moves {name}"] = (argv, {})
        runs[f"cardz moves {name}, CARDZ_NO_CACHE=1"] = (argv, {"CARDZ_NO_CACHE": "1"})
    if games:
        name = games[0]
        runs[f"cardz moves {name}, python -S (no site)"] = (
            [sys.executable, "-S", "-m", "cardz_core.cli.main", "moves", name, "--board",
             str(boards[name])], {NO_SITE: "1"})
    return runs


NO_SITE = "BENCH_NO_SITE"  # a marker, taken out of the environment: lay the packages out flat


def flat_layout(tree: Path, where: Path) -> str:
    """A ``PYTHONPATH`` that finds ``tree``'s packages as a wheel installs them, beside the
    site packages, for an interpreter started with ``-S`` (no ``.pth`` files run, no editable
    finder): a folder of links named as the distribution names its packages."""
    where.mkdir(parents=True, exist_ok=True)
    for package, source in (("cardz_core", "cardz_core"), ("cardz_vocabulary",
                            "plugins/cardz_vocabulary"), ("cardz_deck", "plugins/cardz_deck"),
                            ("cardz_rulesets", "rulesets")):
        link = where / package
        if not link.exists():
            link.symlink_to(tree / source, target_is_directory=True)
    return os.pathsep.join([str(where)] + [p for p in sys.path if p.endswith("site-packages")])


def environment(bytecode: str, tmp: Path, tree: Path) -> dict[str, str]:
    """The commands' environment for the tree ``tree`` (its cardz_core from the working folder,
    its plugins from ``tree/plugins``): bytecode as asked, the program cache in ``tmp``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "CARDZ_NO_CACHE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(tree / "plugins")
    env["CARDZ_CACHE_DIR"] = str(tmp / "programs")
    if bytecode == "cached":
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def tree_has_bytecode(tree: Path) -> bool:
    main = tree / "cardz_core" / "cli" / "main.py"
    return Path(importlib.util.cache_from_source(str(main))).exists()


def time_commands(runs: Runs, bytecode: str, repeat: int, tmp: Path, trees: list[Path]) -> None:
    """Each command ``repeat`` times in each tree, the trees in turn run after run."""
    envs = [environment(bytecode, tmp / str(i), tree) for i, tree in enumerate(trees)]

    def run(argv: list[str], extra: dict[str, str], tree: Path, env: dict[str, str]) -> float:
        if NO_SITE in extra:
            extra = {"PYTHONPATH": flat_layout(tree, tmp / "flat" / tree.name)}
        return child_cpu_ms(argv, {**env, **extra}, tree)

    for tree, env in zip(trees, envs):  # the warm-up: bytecode (when cached), program cache
        for argv, extra in runs.values():
            run(argv, extra, tree, env)
    if bytecode == "cached":
        print("bytecode: cached (compiled beforehand into a PYTHONPYCACHEPREFIX)")
    else:
        print("bytecode: none written (PYTHONDONTWRITEBYTECODE=1); cardz_core's own "
              + ", ".join(f"{t}: {'cached beside the sources' if tree_has_bytecode(t) else 'absent'}"
                          for t in trees))
    names = [str(t) for t in trees]
    if len(trees) == 1:
        print("| command | best ms | median ms | best - python ms |\n|---|---|---|---|")
    else:
        print(f"| command | {names[0]} best ms | {names[1]} best ms | ratio |\n|---|---|---|---|")
    floor = None
    for name, (argv, extra) in runs.items():
        times: list[list[float]] = [[] for _ in trees]
        for _ in range(repeat):
            for i, (tree, env) in enumerate(zip(trees, envs)):
                times[i].append(run(argv, extra, tree, env))
        best = [min(t) for t in times]
        if len(trees) == 1:
            floor = best[0] if floor is None else floor
            print(f"| `{name}` | {best[0]:.0f} | {statistics.median(times[0]):.0f} "
                  f"| {best[0] - floor:.0f} |", flush=True)
        else:
            print(f"| `{name}` | {best[0]:.0f} | {best[1]:.0f} | {best[1] / best[0]:.2f} |",
                  flush=True)


def open_table() -> None:
    """The per-game table; each game's first load writes its program cache entry."""
    print("\n| game | engine | load ms (no cache) | load ms | compile ms | deal + first moves ms "
          "| total ms (no cache) | total ms |\n|---|---|---|---|---|---|---|---|")
    registry = default_registry()
    over, totals = [], []

    def load(rs: Any) -> Any:
        return load_game(game_file(rs.path.stem), registry=registry, file=str(rs.path))

    for rs in bundled():
        os.environ["CARDZ_NO_CACHE"] = "1"
        _, cold_ms = timed(lambda: load(rs))
        del os.environ["CARDZ_NO_CACHE"]
        load(rs)  # writes the entry
        spec, load_ms = timed(lambda: load(rs))
        game, compile_ms = timed(lambda: compile(spec, registry))
        _, first_ms = timed(lambda: game.legal_moves(game.deal(0)))
        cold, total = cold_ms + compile_ms + first_ms, load_ms + compile_ms + first_ms
        totals.append((cold, total))
        if cold > GOAL_MS:
            over.append(f"{rs.path.stem} ({cold:.0f} ms, {total:.0f} ms with the cache)")
        print(f"| {rs.path.stem} | {engine_of(game)[0]} | {cold_ms:.1f} | {load_ms:.1f} "
              f"| {compile_ms:.1f} | {first_ms:.1f} | {cold:.1f} | {total:.1f} |", flush=True)
    print(f"\n{len(totals)} games, without the program cache: median "
          f"{statistics.median(c for c, _ in totals):.1f} ms, most {max(c for c, _ in totals):.1f} "
          f"ms; with it: median {statistics.median(t for _, t in totals):.1f} ms, most "
          f"{max(t for _, t in totals):.1f} ms. Over {GOAL_MS:.0f} ms without the cache: "
          f"{', '.join(over) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per command")
    parser.add_argument("--games", default=GAMES, help="comma-separated games for `cardz moves`")
    parser.add_argument("--bytecode", choices=("cached", "none", "both"), default="both")
    parser.add_argument("--no-table", action="store_true", help="leave out the per-game table")
    parser.add_argument("--only-table", action="store_true", help="the per-game table alone")
    parser.add_argument("--before", type=Path, metavar="TREE",
                        help="another source tree (a git archive with its extension built): "
                             "each command run in it and in this one in turn, with the ratio")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    modes = ("cached", "none") if args.bytecode == "both" else (args.bytecode,)
    trees = [args.before.resolve(), ROOT] if args.before else [ROOT]
    with tempfile.TemporaryDirectory() as tmp:
        # this process's own loads keep their programs there too, not in the user's cache
        os.environ["CARDZ_CACHE_DIR"] = str(Path(tmp) / "programs")
        if not args.only_table:
            runs = commands(games, write_boards(games, Path(tmp)))
            for bytecode in modes:
                time_commands(runs, bytecode, args.runs, Path(tmp) / bytecode, trees)
                print()
        if not args.no_table:
            open_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
