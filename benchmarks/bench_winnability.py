"""How winnable is a game with every card known: the solver over a range of deals.

    python3 benchmarks/bench_winnability.py FILE [--seeds LIST | --ms LIST] [--timeout S]
        [--max-states K] [--time-box S] [--out ROWS.jsonl [--fresh]] [--ship] [--json]

For each deal (``Game.deal(seed)``, or Microsoft FreeCell deal numbers with ``--ms``) it runs
``cardz_core.planners.solver.solve`` (the native search wherever the game allows it) with the
per-deal budgets and counts won, proved lost and unknown. The win rate's 95% Wilson interval is
printed twice: counting unknown deals as lost (a lower bound) and as won (an upper bound); the
true figure for these deals lies between. Every won line is replayed to a won board.

``--out`` keeps one JSON row per deal, after a first line that names the game file's hash and
the budgets; started again with the same file, game and budgets, the run skips the deals already
in it and appends (``--fresh`` starts over), and the summary covers every row in the file.
``--time-box`` stops starting new deals after S seconds of the clock. ``--ship`` writes the
summary, with the commit and the command, into the shipped measurements
(``cardz_core/winnability_data.json``) that ``cardz games --json`` reports. Seconds per deal
are CPU seconds (``time.process_time``), so a loaded machine changes them less; the budget in
seconds is of the clock and only a safety: the positions decide. Results and commands are
collected in docs/winnability.md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.cli.common import open_game  # noqa: E402
from cardz_core.engine.logs import game_hash  # noqa: E402
from cardz_core.engine.state import WON  # noqa: E402
from cardz_core.msdeal import deal_ms  # noqa: E402
from cardz_core.planners.solver import check_budget, replay, solve  # noqa: E402
from cardz_core.problems import CardzError  # noqa: E402
from cardz_core.solver.analysis import analysis_of  # noqa: E402
from cardz_core.winnability import DATA_FILE, ROWS_FORMAT, counts, ship  # noqa: E402


def span(text: str) -> list[int]:
    """Deal numbers from "A-B", "A" or a comma-separated list of those ("3,5,8-10")."""
    deals: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        deals.extend(range(int(a), int(b or a) + 1))
    return deals


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--seeds", type=span, default=span("0-99"), help="deal seeds A-B, or a list such as 3,5,8-10 (default 0-99)")
    which.add_argument("--ms", type=span, help="Microsoft FreeCell deal numbers, as for --seeds")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds of the clock per deal, a safety (default 10)")
    p.add_argument("--max-states", type=int, default=200_000, help="positions per deal (default 200000)")
    p.add_argument("--time-box", type=float, default=None, help="start no deal after S seconds")
    p.add_argument("--out", type=Path, help="keep one JSON row per deal in this file (resumed when started again)")
    p.add_argument("--fresh", action="store_true", help="with --out: start the file over")
    p.add_argument("--ship", action="store_true", help=f"write the summary into {DATA_FILE.name}")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.ship and args.out is None:
        raise SystemExit("--ship needs --out: the shipped figures name the rows they came from")
    try:  # a budget the solver refuses stops the run before any row is written
        check_budget(args.max_states, args.timeout)
    except CardzError as e:
        raise SystemExit(str(e)) from None
    game = open_game(args.file)
    analysis = analysis_of(game)
    header = {"format": ROWS_FORMAT, "game": game.spec.name, "hash": game_hash(game.spec),
              "deals": "ms" if args.ms is not None else "seeds",
              "budget": {"states": args.max_states, "seconds": args.timeout}}
    rows = kept_rows(args.out, header) if args.out and not args.fresh else []
    done = {r["deal"] for r in rows}
    deals = [n for n in (args.ms if args.ms is not None else args.seeds) if n not in done]
    notes: dict[str, None] = {}  # the reductions the deals were searched with, in order met
    start = time.perf_counter()
    out = open_rows(args.out, header, fresh=args.fresh or not rows) if args.out else None
    try:
        for n in deals:
            if args.time_box is not None and time.perf_counter() - start > args.time_box:
                break
            row = solve_deal(game, analysis, n, args, notes)
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
    finally:
        if out:
            out.close()
    summary = summarise(game.spec.name, rows, args, list(notes))
    if args.ship:
        ship(Path(args.file).stem, {**counts(rows), **made_by(args, header, rows)})
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 0


def solve_deal(game: Any, analysis: Any, n: int, args: argparse.Namespace,
               notes: dict[str, None]) -> dict[str, Any]:
    """One row: the verdict on deal ``n``, its positions and CPU seconds (a won line replayed)."""
    state = deal_ms(game, n) if args.ms is not None else game.deal(n)
    cpu = time.process_time()
    r = solve(game, state, max_states=args.max_states, timeout=args.timeout, analysis=analysis)
    cpu = time.process_time() - cpu
    if r.result == "won" and game.status(replay(game, state, r.line)) != WON:
        raise SystemExit(f"deal {n}: the winning line does not replay to a won board")
    notes.update(dict.fromkeys(r.notes))
    row: dict[str, Any] = {"deal": n, "result": r.result, "states": r.states,
                           "cpu": round(cpu, 4), "moves": len(r.line) if r.result == "won" else None}
    if r.stopped_by == "seconds":
        row["stoppedBy"] = "seconds"  # the clock, not the positions, ended it: a load effect
    return row


def kept_rows(path: Path, header: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows already in ``path`` (none when it does not exist), refused when its first line
    names another game file or other budgets: a resumed run adds only rows of the same kind."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0]) if lines else None
    if first != header:
        raise SystemExit(f"{path}: its rows were made for another game file or budget "
                         f"({first}); use --fresh to start it over, or another --out")
    rows = []
    for line in lines[1:]:
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a row cut short by a stopped run: it is solved again
    return rows


def open_rows(path: Path, header: dict[str, Any], *, fresh: bool) -> TextIO:
    """``path`` opened for rows: started with its header, or rewritten with the rows kept
    (dropping a last line cut short) so that appending continues a whole file."""
    if fresh:
        out = path.open("w", encoding="utf-8")
        out.write(json.dumps(header) + "\n")
        return out
    whole = [json.dumps(header)] + [json.dumps(r) for r in kept_rows(path, header)]
    path.write_text("\n".join(whole) + "\n", encoding="utf-8")
    return path.open("a", encoding="utf-8")


def made_by(args: argparse.Namespace, header: dict[str, Any],
            rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How a shipped figure was made: game, budget, commit, date, and the command that makes
    these rows again (the deals in the file, without the time box that cut the run short)."""
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or None
    words = [args.file, f"--{header['deals']}", spans(sorted(r["deal"] for r in rows)),
             "--timeout", f"{args.timeout:g}", "--max-states", str(args.max_states),
             "--out", str(args.out)]
    return {"game": header["game"], "budget": header["budget"], "hash": header["hash"],
            "commit": commit, "date": date.today().isoformat(),
            "command": "python3 benchmarks/bench_winnability.py " + shlex.join(words)}


def spans(deals: list[int]) -> str:
    """Sorted deal numbers written as ``span`` reads them: "0-99,120,130-131"."""
    parts: list[str] = []
    i = 0
    while i < len(deals):
        j = i
        while j + 1 < len(deals) and deals[j + 1] == deals[j] + 1:
            j += 1
        parts.append(str(deals[i]) if i == j else f"{deals[i]}-{deals[j]}")
        i = j + 1
    return ",".join(parts)


def summarise(name: str, rows: list[dict], args: argparse.Namespace, notes: list[str]) -> dict:
    c = counts(rows)
    pct = (lambda x: None if x is None else round(100 * x, 2))
    times = [r["cpu"] for r in rows]
    return {
        "game": name, "deals": c["deals"], "first": c["first"], "last": c["last"],
        "won": c["won"], "lost": c["lost"], "unknown": c["unknown"],
        "won %": pct(c["rate"]),
        "won % if unknown are lost (95% CI)": [pct(x) for x in c["low"]] if c["low"] else None,
        "won % if unknown are won (95% CI)": [pct(x) for x in c["high"]] if c["high"] else None,
        "CPU seconds per deal (median, mean, max)": [round(statistics.median(times), 4),
                                                     round(statistics.fmean(times), 4),
                                                     round(max(times), 3)] if times else None,
        "stopped by the clock": sum(r.get("stoppedBy") == "seconds" for r in rows),
        "budget per deal": {"seconds": args.timeout, "states": args.max_states},
        "pruning": notes,
    }


if __name__ == "__main__":
    sys.exit(main())
