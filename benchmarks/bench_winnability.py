"""How winnable is a game with every card known: the solver over a range of deals.

    python3 benchmarks/bench_winnability.py FILE [--seeds LIST | --ms LIST] [--timeout S]
        [--max-states K] [--time-box S] [--out ROWS.jsonl] [--json]

For each deal (``Game.deal(seed)``, or Microsoft FreeCell deal numbers with ``--ms``) it runs
``cardz_core.planners.solver.solve`` with the per-deal budgets and counts won, proved lost and
unknown. The win rate's 95% Wilson interval is printed twice: counting unknown deals as lost
(a lower bound) and as won (an upper bound); the true figure for these deals lies between.
``--time-box`` stops starting new deals after S seconds, so a long range can be cut short and
still report honestly on the deals it finished. Every won line is replayed to a won board.
Results and commands are collected in docs/winnability.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.cli.common import open_game  # noqa: E402
from cardz_core.engine.state import WON  # noqa: E402
from cardz_core.msdeal import deal_ms  # noqa: E402
from cardz_core.planners.solver import replay, solve  # noqa: E402
from cardz_core.sim.stats import wilson_interval  # noqa: E402
from cardz_core.solver.analysis import analysis_of  # noqa: E402


def span(text: str) -> list[int]:
    """Deal numbers from "A-B", "A" or a comma-separated list of those ("3,5,8-10")."""
    deals: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        deals.extend(range(int(a), int(b or a) + 1))
    return deals


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--seeds", type=span, default=span("0-99"), help="deal seeds A-B, or a list such as 3,5,8-10 (default 0-99)")
    which.add_argument("--ms", type=span, help="Microsoft FreeCell deal numbers, as for --seeds")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per deal (default 10)")
    p.add_argument("--max-states", type=int, default=200_000, help="positions per deal (default 200000)")
    p.add_argument("--time-box", type=float, default=None, help="start no deal after S seconds")
    p.add_argument("--out", type=Path, help="write one JSON row per deal to this file")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = p.parse_args(argv)

    game = open_game(args.file)
    analysis = analysis_of(game)
    deals = args.ms if args.ms is not None else args.seeds
    rows = []
    notes: dict[str, None] = {}  # the reductions the deals were searched with, in order met
    start = time.perf_counter()
    out = args.out.open("w") if args.out else None
    for n in deals:
        if args.time_box is not None and time.perf_counter() - start > args.time_box:
            break
        state = deal_ms(game, n) if args.ms is not None else game.deal(n)
        r = solve(game, state, max_states=args.max_states, timeout=args.timeout, analysis=analysis)
        if r.result == "won" and game.status(replay(game, state, r.line)) != WON:
            raise SystemExit(f"deal {n}: the winning line does not replay to a won board")
        row = {"deal": n, "result": r.result, "states": r.states, "seconds": round(r.seconds, 4),
               "moves": len(r.line) if r.result == "won" else None}
        rows.append(row)
        notes.update(dict.fromkeys(r.notes))
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    if out:
        out.close()
    summary = summarise(game.spec.name, rows, args, list(notes))
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 0


def summarise(name: str, rows: list[dict], args: argparse.Namespace, notes: list[str]) -> dict:
    n = len(rows)
    won = sum(r["result"] == "won" for r in rows)
    lost = sum(r["result"] == "lost" for r in rows)
    unknown = n - won - lost
    low = wilson_interval(won, n)
    high = wilson_interval(won + unknown, n)
    pct = (lambda x: None if x is None else round(100 * x, 2))
    times = [r["seconds"] for r in rows]
    return {
        "game": name, "deals": n,
        "first": rows[0]["deal"] if rows else None, "last": rows[-1]["deal"] if rows else None,
        "won": won, "lost": lost, "unknown": unknown,
        "won %": pct(won / n) if n else None,
        "won % if unknown are lost (95% CI)": [pct(x) for x in low] if low else None,
        "won % if unknown are won (95% CI)": [pct(x) for x in high] if high else None,
        "seconds per deal (median, mean, max)": [round(statistics.median(times), 3),
                                                 round(statistics.fmean(times), 3),
                                                 round(max(times), 3)] if times else None,
        "budget per deal": {"seconds": args.timeout, "states": args.max_states},
        "pruning": notes,
    }


if __name__ == "__main__":
    sys.exit(main())
