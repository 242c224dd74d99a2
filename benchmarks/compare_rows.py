"""Two runs' rows compared deal by deal: the paired comparison every change to a planner or to the
solver is judged by.

    python3 benchmarks/compare_rows.py BEFORE.jsonl AFTER.jsonl [--planner-a P] [--planner-b P]
        [--json]

Each file holds the rows of one run, plain or gzipped (``.gz``):

- ``bench_planners.py --rows``: a row a game played. A file may hold several planners' rows (a
  ``--pair`` run); ``--planner-a`` and ``--planner-b`` pick one from each side when it does. The
  two sides are paired on the deals (game and seed) both hold, and compared by their wins: those
  of each, the deals only one side won and McNemar's exact two-sided p on them, the games that
  ended alike in as many moves, and the CPU seconds a game of each.
- ``bench_winnability.py --out``: a header, then a row a deal. Both files must be of the same game
  file (its hash). Compared on the deals both hold: won, proved lost and unknown of each, the
  positions a CPU second of each, the positions each spent on the deals both won and on those both
  proved lost (the same search spends the same positions), and each deal decided differently.
  A deal one side won and the other proved lost is a contradiction: one of the two searches is
  wrong, and the command exits with status 1.

The ``benchmarks/baselines/`` folder keeps main's rows of the runs that measure issue 18's goals
(its README names the commit and command of each), so that a later change can be paired with
them deal by deal instead of being run twice.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.sim.stats import mcnemar_p  # noqa: E402

WINNABILITY_FORMAT = "cardz-winnability-rows/1"
Row = dict[str, Any]


class RowsError(Exception):
    """A rows file that cannot be compared: the message names the file and what is wrong."""


def read_lines(path: Path) -> list[Row]:
    """The JSON rows of ``path`` (gzipped when it ends in ``.gz``); a last line cut short by a
    stopped run is left out, any other line that is not JSON is an error."""
    try:
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        lines = raw.decode("utf-8").splitlines()
    except (OSError, EOFError, UnicodeDecodeError) as why:
        raise RowsError(f"{path}: cannot be read ({why})") from None
    rows = []
    for n, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if n == len(lines):
                break
            raise RowsError(f"{path}, line {n}: not a JSON row") from None
        if not isinstance(row, dict):
            raise RowsError(f"{path}, line {n}: a row is a JSON object")
        rows.append(row)
    if not rows:
        raise RowsError(f"{path}: holds no rows")
    return rows


def planner_rows(path: Path, rows: list[Row], planner: str | None) -> dict[tuple[str, int], Row]:
    """The rows of one planner by (game, seed): ``planner``'s, or the only planner's. A run with
    ``--winnable`` holds the solver's rows too, which are passed over."""
    for n, r in enumerate(rows, 1):
        if r.get("planner") != "solver" and not {"game", "planner", "seed", "end"} <= r.keys():
            raise RowsError(f"{path}, row {n}: not a bench_planners.py row (game, planner, seed, "
                            "end)")
    names = sorted({r["planner"] for r in rows} - {"solver"})
    if planner is None:
        if len(names) != 1:
            raise RowsError(f"{path}: holds the rows of {', '.join(names) or 'no planner'}; "
                            "name one with --planner-a or --planner-b")
        planner = names[0]
    elif planner not in names:
        raise RowsError(f"{path}: holds no rows of planner {planner!r} (it holds "
                        f"{', '.join(names) or 'none'})")
    return {(r["game"], r["seed"]): r for r in rows if r["planner"] == planner}


def compare_planners(a: dict[tuple[str, int], Row], b: dict[tuple[str, int], Row]) -> Row:
    deals = sorted(a.keys() & b.keys())
    if not deals:
        raise RowsError("the two runs share no deal (game and seed)")
    won_a = {k for k in deals if a[k]["end"] == "won"}
    won_b = {k for k in deals if b[k]["end"] == "won"}
    only_a, only_b = len(won_a - won_b), len(won_b - won_a)

    def seconds(rows: dict[tuple[str, int], Row]) -> float:
        return sum(rows[k].get("seconds", 0.0) for k in deals) / len(deals)

    return {"kind": "planner", "deals": len(deals), "won_a": len(won_a), "won_b": len(won_b),
            "only_a": only_a, "only_b": only_b, "p": mcnemar_p(only_a, only_b),
            "same_games": sum(a[k]["end"] == b[k]["end"] and a[k].get("moves") == b[k].get("moves")
                              for k in deals),
            "seconds_a": seconds(a), "seconds_b": seconds(b)}


def winnability_rows(path: Path, rows: list[Row]) -> tuple[Row, dict[int, Row]]:
    header, body = rows[0], rows[1:]
    for n, r in enumerate(body, 2):
        if not {"deal", "result", "states", "cpu"} <= r.keys():
            raise RowsError(f"{path}, row {n}: not a bench_winnability.py row (deal, result, "
                            "states, cpu)")
    return header, {r["deal"]: r for r in body}


def compare_winnability(a: dict[int, Row], b: dict[int, Row]) -> Row:
    deals = sorted(a.keys() & b.keys())
    if not deals:
        raise RowsError("the two runs share no deal")

    def counts(rows: dict[int, Row]) -> dict[str, int]:
        return {v: sum(rows[d]["result"] == v for d in deals) for v in ("won", "lost", "unknown")}

    def rate(rows: dict[int, Row]) -> float | None:
        cpu = sum(rows[d]["cpu"] for d in deals)
        return sum(rows[d]["states"] for d in deals) / cpu if cpu > 0 else None

    both = {v: [d for d in deals if a[d]["result"] == b[d]["result"] == v] for v in ("won", "lost")}
    changed = [{"deal": d, "a": a[d]["result"], "cpu_a": a[d]["cpu"], "b": b[d]["result"],
                "cpu_b": b[d]["cpu"]} for d in deals if a[d]["result"] != b[d]["result"]]
    return {"kind": "winnability", "deals": len(deals), "a": counts(a), "b": counts(b),
            "positions_a_second": rate(a), "positions_b_second": rate(b),
            **{f"both_{v}": {"deals": len(ds), "positions_a": sum(a[d]["states"] for d in ds),
                             "positions_b": sum(b[d]["states"] for d in ds)}
               for v, ds in both.items()},
            "changed": changed,
            "contradictions": [c["deal"] for c in changed if {c["a"], c["b"]} == {"won", "lost"}]}


def compare(path_a: Path, path_b: Path, planner_a: str | None = None,
            planner_b: str | None = None) -> Row:
    """The comparison of the two files' rows (see the module's comment)."""
    rows_a, rows_b = read_lines(path_a), read_lines(path_b)
    solver = [rows[0].get("format") == WINNABILITY_FORMAT for rows in (rows_a, rows_b)]
    if solver[0] != solver[1]:
        raise RowsError(f"{path_a if solver[0] else path_b} holds solver rows and the other "
                        "planner rows: compare rows of one kind")
    if solver[0]:
        head_a, a = winnability_rows(path_a, rows_a)
        head_b, b = winnability_rows(path_b, rows_b)
        if head_a.get("hash") != head_b.get("hash"):
            raise RowsError(f"{path_a} and {path_b} are rows of different game files "
                            f"({head_a.get('game')}, {head_b.get('game')})")
        return compare_winnability(a, b)
    return compare_planners(planner_rows(path_a, rows_a, planner_a),
                            planner_rows(path_b, rows_b, planner_b))


def report(c: Row) -> str:
    if c["kind"] == "planner":
        p = "-" if c["p"] is None else f"{c['p']:.3g}"
        return (f"{c['deals']} deals: A won {c['won_a']}, B won {c['won_b']}; only A "
                f"{c['only_a']}, only B {c['only_b']} (McNemar p {p}); {c['same_games']} games "
                f"alike; {c['seconds_a']:.2f} against {c['seconds_b']:.2f} CPU s a game")

    def side(name: str) -> str:
        n, rate = c[name], c[f"positions_{name}_second"]
        speed = "-" if rate is None else f"{rate:,.0f}"
        return (f"{name.upper()} {n['won']} / {n['lost']} / {n['unknown']}, {speed} positions "
                "a CPU s")

    lines = [f"{c['deals']} deals (won / lost / unknown): {side('a')}; {side('b')}"]
    for v in ("won", "lost"):
        both = c[f"both_{v}"]
        lines.append(f"both {v} ({both['deals']} deals): {both['positions_a']:,} positions against "
                     f"{both['positions_b']:,}")
    lines += [f"  deal {x['deal']}: {x['a']} ({x['cpu_a']:.2f} s) against {x['b']} "
              f"({x['cpu_b']:.2f} s)" for x in c["changed"]]
    if c["contradictions"]:
        lines.append("CONTRADICTION: won on one side, proved lost on the other: "
                     + ", ".join(map(str, c["contradictions"])))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", type=Path, help="the first run's rows (A)")
    p.add_argument("b", type=Path, help="the second run's rows (B)")
    p.add_argument("--planner-a", help="the planner of A's rows, when A holds several")
    p.add_argument("--planner-b", help="the planner of B's rows, when B holds several")
    p.add_argument("--json", action="store_true", help="print the comparison as a JSON object")
    args = p.parse_args(argv)
    try:
        c = compare(args.a, args.b, args.planner_a, args.planner_b)
    except RowsError as why:
        print(f"compare_rows: {why}", file=sys.stderr)
        return 2
    try:
        print(json.dumps(c, indent=2) if args.json else report(c))
    except BrokenPipeError:  # the reader went away (`| head`): not an error of ours
        sys.stderr.close()
    return 1 if c.get("contradictions") else 0


if __name__ == "__main__":
    sys.exit(main())
