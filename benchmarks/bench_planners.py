"""Planner strength: win rate (95% Wilson interval) of each planner over a fixed set of deals, or
two planners paired on the same deals.

    python benchmarks/bench_planners.py --games 500 --planners usual,expectimax --workers 2
    python benchmarks/bench_planners.py --pair random usual --deals 500 --all --workers 2
    python benchmarks/bench_planners.py --deals 50 --planner bandit --set bandit.samples=16 \
        --winnable 20000

Every planner plays the same deals (seeds 1..N, or N from ``--first``) of the game (default:
Klondike draw 3, unlimited passes), seeing only the player's view with memory
(``cardz_core.view.Seat``), through the simulator's ``play_deal``, so each game ends as the
simulator says: won, lost (by the rules), stuck (no legal move), resigned (the planner gave up with
moves left) or unfinished (the move cap). Prints one line per planner: wins, win rate with its
interval, the other four ends, mean moves, CPU seconds per game; ``--json`` adds them as JSON. Deals
are split over worker processes; results do not depend on the number of workers.

``--winnable STATES`` also asks the solver, with every card known and STATES positions, which
true deals are winnable, and adds the share of those each planner won (deals the solver left
unknown count in neither part); ``--verdicts ROWS`` takes them instead from the rows of a
``bench_winnability.py --out`` run over seeds of the same game file. ``--set
PLANNER.OPTION=VALUE`` passes any option to a planner. ``--resigned STATES`` solves the true
position each resigned game ended on, every card known, and counts per planner the resignations
that gave up a position still winnable (the rest proved lost, or left unknown): a resignation
is honest when the position it left was lost anyway.

``--pair A B`` plays A and B on the same deals of one game (``--file``) or of every bundled game
a planner may play (``--all``; ``--games-list`` names some), and prints per game: the wins of
each, the deals both won, only A won and only B won, and McNemar's exact two-sided p on the
"only" counts. ``--rows`` appends every deal's result (with the planner's options and the move
cap) as it finishes, so a cut-short run keeps what it played: the same command run again takes
the deals already in the file from it and plays only the others. Published reference points
for Klondike draw 3 with hidden cards: a greedy player wins about 13%, the best search-based
players 37-48%.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.cli.common import planner_option  # noqa: E402
from cardz_core.engine.logs import game_hash  # noqa: E402
from cardz_core.planners import make_planner, planner_allowed  # noqa: E402
from cardz_core.planners.solver import solve  # noqa: E402
from cardz_core.rulesets import bundled, open_game  # noqa: E402
from cardz_core.sim.play import ENDS, foundation_flags, play_deal  # noqa: E402
from cardz_core.sim.stats import mcnemar_p, wilson_interval  # noqa: E402
from cardz_core.view import Seat  # noqa: E402

DEFAULT_FILE = ROOT / "rulesets" / "klondike_draw3.cardz"
SIGNIFICANT = 0.05
CHUNK = 5  # deals per task
_GAME: dict[str, Any] = {}

Row = dict[str, Any]


def _game(path: str) -> Any:
    if path not in _GAME:
        _GAME[path] = open_game(path)
    return _GAME[path]


def play_one(path: str, planner: str, seed: int, max_moves: int, options: dict[str, Any],
             resigned_states: int | None = None) -> Row:
    """One deal played by one planner: game, planner, seed, end, moves, CPU seconds, and the
    positions its solves recorded where the planner counts them (``klondike``). With
    ``resigned_states``, a resigned game's row also says what the solver, with every card known
    and that many positions, makes of the true position it ended on (``resigned_left``: won,
    lost or unknown; not in the CPU seconds)."""
    game = _game(path)
    started = time.process_time()  # CPU time: the machine is shared
    chooser = make_planner(game, planner, force=True, **options.get(planner, {}))
    rng = random.Random(seed * 7919 + len(planner))
    opening = game.deal(seed)
    last = [opening]
    row = play_deal(game, Seat, chooser, rng, opening, max_moves, foundation_flags(game),
                    on_move=lambda _before, _move, after: last.__setitem__(0, after))
    out = {"game": Path(path).stem, "planner": planner, "seed": seed, "end": row["end"],
           "moves": row["moves"], "seconds": time.process_time() - started,
           "options": options.get(planner, {}), "max_moves": max_moves}
    spent = getattr(chooser, "spent", None)  # the positions a planner that counts them recorded
    if isinstance(spent, int):
        out["positions"] = spent
    if resigned_states is not None and row["end"] == "resigned":
        out["resigned_left"] = solve(game, last[0], max_states=resigned_states,
                                     timeout=3600.0).result
    return out


def winnable(path: str, seed: int, states: int) -> Row:
    """The true deal solved with every card known: won, lost or unknown."""
    game = _game(path)
    return {"game": Path(path).stem, "planner": "solver", "seed": seed, "states": states,
            "result": solve(game, game.deal(seed), max_states=states, timeout=3600.0).result}


def row_key(path: str, planner: str, seed: int, cap: int, options: dict[str, Any]) -> str:
    """What makes two rows the same game played the same way: a row with this key in ``--rows``
    is not played again."""
    mine = {} if planner == "solver" else options.get(planner, {})
    return json.dumps([Path(path).stem, planner, seed, cap, mine], sort_keys=True)


def kept_rows(rows_file: str | None) -> dict[str, Row]:
    """The rows already in ``rows_file`` by key (none when it does not exist). A row written
    before rows named their options, or cut short by a stopped run, is played again."""
    if not rows_file or not Path(rows_file).exists():
        return {}
    kept = {}
    for line in Path(rows_file).read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        if r.get("planner") == "solver" and "states" in r:
            kept[row_key(r["game"], "solver", r["seed"], r["states"], {})] = r
        elif "options" in r and "max_moves" in r:
            kept[row_key(r["game"], r["planner"], r["seed"], r["max_moves"],
                         {r["planner"]: r["options"]})] = r
    return kept


def read_verdicts(rows_file: str, path: str) -> dict[int, str]:
    """Each seed's verdict from ``bench_winnability.py --out`` rows made for this game file
    (the same hash) over seeds, so a planner run can reuse a winnability run's solves."""
    lines = Path(rows_file).read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0]) if lines else {}
    want = game_hash(_game(path).spec)
    if head.get("hash") != want or head.get("deals") != "seeds":
        raise SystemExit(f"--verdicts {rows_file}: its rows were not made over seeds of this "
                         f"game file ({head.get('game')}, {head.get('hash')}; want {want})")
    return {r["deal"]: r["result"] for r in map(json.loads, lines[1:])}


def _batch(args: tuple) -> list[Row]:
    path, planner, seeds, max_moves, options, resigned_states = args
    if planner == "solver":
        return [winnable(path, s, max_moves) for s in seeds]
    return [play_one(path, planner, s, max_moves, options, resigned_states) for s in seeds]


def _run(jobs: list[tuple], workers: int, rows_file: str | None) -> Iterator[list[Row]]:
    """Each job's rows as it finishes (in job order), appended to ``rows_file`` too; the deals
    whose rows ``rows_file`` already holds are taken from it, not played again."""
    kept = kept_rows(rows_file)

    def known(job: tuple) -> list[Row]:
        path, planner, seeds, cap, options, _ = job
        keys = (row_key(path, planner, s, cap, options) for s in seeds)
        return [kept[k] for k in keys if k in kept]

    def keep(job: tuple, part: list[Row]) -> list[Row]:
        if rows_file:
            with open(rows_file, "a", encoding="utf-8") as out:
                for r in part:
                    out.write(json.dumps(r) + "\n")
        old = known(job)
        return sorted(old + part, key=lambda r: r["seed"])

    todo = []
    for job in jobs:
        done = {r["seed"] for r in known(job)}
        todo.append(job[:2] + ([s for s in job[2] if s not in done],) + job[3:])
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for job, part in zip(jobs, pool.map(_batch, todo)):
                yield keep(job, part)
    else:
        for job, rest in zip(jobs, todo):
            yield keep(job, _batch(rest))


def planner_line(name: str, mine: list[Row]) -> Row:
    """The summary of one planner's games: wins, rate and interval, ends, moves, seconds."""
    wins = sum(r["end"] == "won" for r in mine)
    lo, hi = wilson_interval(wins, len(mine)) or (0.0, 0.0)
    return {"planner": name, "games": len(mine), "wins": wins, "rate": wins / len(mine),
            "low": lo, "high": hi, "ends": {e: sum(r["end"] == e for r in mine) for e in ENDS},
            "moves": sum(r["moves"] for r in mine) / len(mine),
            "seconds_per_game": sum(r["seconds"] for r in mine) / len(mine)}


def pair_line(game: str, a: str, b: str, rows: list[Row]) -> Row:
    """Two planners on the same deals of one game: wins, both, only A, only B, McNemar's p."""
    won = {(r["planner"], r["seed"]): r["end"] == "won" for r in rows}
    seeds = sorted({s for (p, s) in won if (a, s) in won and (b, s) in won})
    both = sum(won[a, s] and won[b, s] for s in seeds)
    only_a = sum(won[a, s] and not won[b, s] for s in seeds)
    only_b = sum(won[b, s] and not won[a, s] for s in seeds)
    p = mcnemar_p(only_a, only_b)
    seconds = {n: sum(r["seconds"] for r in rows if r["planner"] == n) / max(1, len(seeds))
               for n in (a, b)}
    ends = {n: {e: sum(r["end"] == e for r in rows if r["planner"] == n) for e in ENDS}
            for n in (a, b)}
    return {"game": game, "deals": len(seeds), "a": a, "b": b, "a_wins": both + only_a,
            "b_wins": both + only_b, "both": both, "only_a": only_a, "only_b": only_b,
            "p_value": p, "b_better": p is not None and p < SIGNIFICANT and only_b > only_a,
            "seconds": seconds, "ends": ends}


def resigned_left(mine: list[Row]) -> dict[str, int]:
    """How many of these resigned games ended on a position the solver found winnable, proved
    lost or left unknown; ``unchecked`` counts resigned rows kept from a run without
    ``--resigned``."""
    left = [r.get("resigned_left", "unchecked") for r in mine if r["end"] == "resigned"]
    return {k: left.count(k) for k in ("won", "lost", "unknown", "unchecked")}


PAIR_HEAD = ("game", "deals", "A won", "B won", "both", "only A", "only B", "McNemar p",
             "B better")


def pair_cells(line: Row) -> list[str]:
    p = line["p_value"]
    return [line["game"], str(line["deals"]), str(line["a_wins"]), str(line["b_wins"]),
            str(line["both"]), str(line["only_a"]), str(line["only_b"]),
            "-" if p is None else f"{p:.2g}", "yes" if line["b_better"] else "no"]


def playable_games(names: list[str] | None) -> list[str]:
    """The bundled game files a planner may play (``planner_allowed``): all, or those named,
    in the order named. A name that is no bundled game, or one no planner may play, is an
    error (a misspelt name must not quietly shrink the run)."""
    paths = {Path(r.path).stem: str(r.path) for r in bundled()}
    if not names:
        return [p for p in paths.values() if planner_allowed(_game(p))]
    for n in names:
        if n not in paths:
            words = sorted(n.split("_"))  # the same words in another order first
            near = [stem for stem in paths if sorted(stem.split("_")) == words] \
                or difflib.get_close_matches(n, paths, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise SystemExit(f"--games-list: no bundled game {n!r}{hint}")
        if not planner_allowed(_game(paths[n])):
            raise SystemExit(f"--games-list: planners may not play {n!r} (its file says so)")
    return [paths[n] for n in names]


def _setting(text: str) -> tuple[str, str, Any]:
    """``PLANNER.OPTION=VALUE`` as (planner, option, value), the value read as the command
    line's ``--option`` reads it."""
    name, _, rest = text.partition(".")
    try:
        key, value = planner_option(rest)
    except argparse.ArgumentTypeError:
        name = ""
    if not name:
        raise argparse.ArgumentTypeError(f"--set wants PLANNER.OPTION=VALUE, not {text!r}")
    return name, key, value


def _options(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    given = {"nodes": args.nodes, "depth": args.depth, "samples": args.samples, "deals": args.deals}
    takes = {"expectimax": ("nodes", "depth", "samples"), "sampling": ("nodes", "deals"),
             "bandit": ("nodes",)}
    options = {name: {k: given[k] for k in keys if given[k] is not None}
               for name, keys in takes.items()}
    for name, key, value in args.settings:
        options.setdefault(name, {})[key] = value
    return options


def run_pair(args: argparse.Namespace) -> int:
    a, b = args.pair
    files = playable_games(args.games_list.split(",") if args.games_list else None) \
        if args.all else [args.file]
    seeds = deal_seeds(args)
    options = _options(args)
    lines = []
    print("  ".join(PAIR_HEAD), flush=True)
    for path in files:
        jobs = [(path, name, seeds[i:i + CHUNK], args.max_moves, options, None)
                for i in range(0, len(seeds), CHUNK) for name in (a, b)]
        rows = [r for part in _run(jobs, args.workers, args.rows) for r in part]
        line = pair_line(Path(path).stem, a, b, rows)
        lines.append(line)
        print("  ".join(pair_cells(line)), flush=True)
    better = sum(line["b_better"] for line in lines)
    print(f"{b} beats {a} (McNemar p < {SIGNIFICANT}) on {better} of {len(lines)} games")
    if args.json:
        Path(args.json).write_text(json.dumps({"pair": [a, b], "deals": len(seeds),
                                               "max_moves": args.max_moves,
                                               "games": lines}, indent=2))
    return 0


def deal_seeds(args: argparse.Namespace) -> list[int]:
    """The seeds of the deals asked for: ``--games`` of them from ``--first``."""
    if args.games < 1 or args.first < 1:
        raise SystemExit("--deals and --first are at least 1")
    return list(range(args.first, args.first + args.games))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--file", default=str(DEFAULT_FILE), help="game file (default Klondike draw 3)")
    p.add_argument("--games", "--deals", type=int, default=500, dest="games",
                   help="deals, seeds 1..N (default 500)")
    p.add_argument("--first", type=int, default=1, metavar="SEED",
                   help="the first deal's seed: seeds SEED..SEED+N-1 (default 1)")
    p.add_argument("--planners", "--planner", dest="planners", default="random,usual,expectimax")
    p.add_argument("--pair", nargs=2, metavar=("A", "B"),
                   help="play A and B on the same deals and compare them (McNemar)")
    p.add_argument("--all", action="store_true",
                   help="with --pair, every bundled game a planner may play")
    p.add_argument("--games-list", metavar="NAMES",
                   help="with --pair --all, only these bundled games (file stems, comma-separated)")
    p.add_argument("--nodes", type=int, default=None,
                   help="node budget per move of expectimax, sampling and bandit")
    p.add_argument("--depth", type=int, default=None, help="expectimax depth limit")
    p.add_argument("--samples", type=int, default=None, help="expectimax samples per chance node")
    p.add_argument("--sampling-deals", type=int, default=None, dest="deals",
                   help="deals sampling solves per decision")
    p.add_argument("--set", dest="settings", type=_setting, action="append", default=[],
                   metavar="PLANNER.OPTION=VALUE", help="an option for one planner (repeatable)")
    p.add_argument("--winnable", type=int, metavar="STATES", default=None,
                   help="also solve each true deal with STATES positions and report the share "
                        "of the winnable deals each planner won")
    p.add_argument("--verdicts", metavar="ROWS",
                   help="instead of --winnable, take which deals are winnable from the rows of "
                        "a bench_winnability.py run over seeds of the same game file")
    p.add_argument("--resigned", type=int, metavar="STATES", default=None,
                   help="solve the true position each resigned game ended on with STATES "
                        "positions and count the resignations that left a winnable one")
    p.add_argument("--max-moves", type=int, default=1000, help="move cap per game")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", metavar="OUT", help="also write the summary as JSON to OUT")
    p.add_argument("--rows", metavar="ROWS", help="append each deal's row to ROWS (JSON lines) as "
                                                   "it finishes, so a cut-short run keeps them")
    args = p.parse_args(argv)
    if args.pair:
        if args.resigned is not None:
            raise SystemExit("--resigned counts per planner: run it without --pair")
        return run_pair(args)
    if args.verdicts and args.winnable is not None:
        raise SystemExit("--verdicts and --winnable both say which deals are winnable: give one")
    seeds = deal_seeds(args)
    options = _options(args)
    names = args.planners.split(",")
    # chunk by chunk, every planner (and the solver) in turn: a run cut short keeps paired rows
    budgets = [(name, args.max_moves) for name in names]
    if args.winnable is not None:
        budgets.append(("solver", args.winnable))
    jobs = [(args.file, name, seeds[i:i + CHUNK], cap, options, args.resigned)
            for i in range(0, len(seeds), CHUNK) for name, cap in budgets]
    rows = [r for part in _run(jobs, args.workers, args.rows) for r in part]
    verdicts = {r["seed"]: r["result"] for r in rows if r["planner"] == "solver"}
    if args.verdicts:
        every = read_verdicts(args.verdicts, args.file)
        verdicts = {s: every[s] for s in seeds if s in every}
    if verdicts:
        told = {k: sum(1 for v in verdicts.values() if v == k) for k in ("won", "lost", "unknown")}
        source = args.verdicts or f"{args.winnable} positions each"
        print(f"solver      {told['won']} winnable, {told['lost']} not, {told['unknown']} unknown "
              f"({source})", flush=True)
    summary = []
    for name in names:
        mine = [r for r in rows if r["planner"] == name]
        line = planner_line(name, mine)
        line["options"] = options.get(name, {})
        extra = ""
        if verdicts:
            able = [r for r in mine if verdicts.get(r["seed"]) == "won"]
            line["winnable"] = len(able)
            line["winnable_won"] = sum(r["end"] == "won" for r in able)
            share = line["winnable_won"] / len(able) if able else 0.0
            extra = f"  {line['winnable_won']}/{len(able)} winnable won ({100 * share:.1f}%)"
        if args.resigned is not None:
            line["resigned_left"] = resigned_left(mine)
            extra += "  resigned on: " + ", ".join(f"{k} {n}" for k, n in
                                                    line["resigned_left"].items())
        summary.append(line)
        others = ", ".join(f"{e} {n}" for e, n in line["ends"].items() if e != "won" and n)
        print(f"{name:11} {line['wins']:4}/{line['games']} won  {100 * line['rate']:5.1f}% "
              f"[{100 * line['low']:5.1f}%, {100 * line['high']:5.1f}%]  {others}  "
              f"{line['moves']:6.1f} moves  {line['seconds_per_game']:7.2f} s/game{extra}",
              flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"file": args.file, "deals": len(seeds),
                                               "max_moves": args.max_moves,
                                               "winnable_states": args.winnable,
                                               "verdicts_from": args.verdicts,
                                               "solver": verdicts, "planners": summary},
                                              indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
