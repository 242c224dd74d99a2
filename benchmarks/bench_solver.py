"""The solver beside other solvers: the same deals, one run, CPU time per deal.

    python benchmarks/bench_solver.py (--ms LIST | --seeds LIST) [--game FILE]
        [--fc-solve PATH [--fc-solve-args ARGS]] [--solvitaire PATH] [--timeout S] [--max-states K]
        [--peer-timeout S] [--isolate] [--peer-memory] [--time-box S] [--out ROWS.jsonl [--resume]]
        [--json] [--quiet]

``--ms`` takes Microsoft FreeCell deal numbers (default game rulesets/freecell.cardz), ``--seeds``
our deal seeds (default rulesets/klondike_draw3.cardz); LIST is "A-B", "A" or a comma list of
those. Each deal is solved by ``cardz_core.planners.solver.solve`` and by every peer given:
fc-solve (FreeCell only) and Solvitaire (FreeCell with its ``free-cell`` preset, Klondike with
rules matching ours: ``peer_formats.solvitaire_klondike_rules``). With neither, cardz runs alone.
``benchmarks/peer_formats.py`` converts the deals; the peers are never part of the project.

Measured per deal: the verdict (won, lost, unknown), CPU seconds (``time.process_time`` around
``solve`` for cardz, whose per-game tables, the analysis and the native search's plan, are built
once before the first deal, as for any caller that solves many deals of one game; the child's
user + system time from ``os.wait4`` for a peer, which this process starts and reaps itself),
positions searched and stored, and memory: a peer's peak RSS (the program's own few MiB
included), known only where it rose above the peak Linux starts it at, that of the process that
started it: this one's tens of MiB, or with ``--peer-memory`` the 8-9 MiB of ``peer_launch.py``,
which then starts each peer (a Python start a deal more); for cardz only with ``--isolate``,
which solves each deal in a forked child and takes how far its peak RSS rose over its RSS once
forked. KiB per stored position is that memory over the positions stored, on the deals that stored
at least ``MEMORY_MIN_STORED``. The summary gives each solver's counts, median
and mean CPU per deal, positions per CPU second, the ratios of cardz's median and mean CPU to
each peer's, and the deals both decided, with every contradiction listed. Every won line of
cardz is replayed to a won board.

The budgets: ``--timeout`` and ``--max-states`` for cardz (its time budget is wall-clock, as in
``cardz solve``), ``--peer-timeout`` (default: ``--timeout``) for the peers: Solvitaire's own
``--timeout``, a wall-clock one like ours; fc-solve has none, so it gets ``--max-states`` as its
iteration budget (``-mi``). Either is killed (answer unknown) at twice the time budget and
``KILL_GRACE`` more, the allowance a loaded machine needs. The figures go in
docs/solver.md, "Beside the peers".

A long run is cut with ``--time-box`` and carried on later with ``--resume``: the rows already in
``--out`` are kept (made with the same peers), their deals are not solved again, the new rows are
added to the file, and the summary covers them all.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
try:  # the cardz_core of the Python that runs this script, so another tree can be measured
    import cardz_core
except ImportError:
    sys.path.insert(0, str(ROOT))
    import cardz_core
sys.path.insert(0, str(HERE))

from bench_winnability import span  # noqa: E402
from cardz_core.cli.common import open_game  # noqa: E402
from cardz_core.engine.state import WON  # noqa: E402
from cardz_core.msdeal import deal_ms  # noqa: E402
from cardz_core.planners.solver import prepare, replay, solve  # noqa: E402
from cardz_core.solver.analysis import analysis_of  # noqa: E402
from peer_formats import (ms_fcsolve_board, ms_solvitaire_deal, parse_fcsolve,  # noqa: E402
                          parse_solvitaire, solvitaire_klondike_deal, solvitaire_klondike_rules)

MEMORY_MIN_STORED = 2_000  # smaller searches say more about the allocator's first blocks than per position
KILL_GRACE = 10.0  # seconds past twice its own (wall-clock) budget before a peer is killed


def run_child(argv: list[str], stdin_text: str, kill_after: float,
              memory: bool = False) -> tuple[str, float, int | None]:
    """Run ``argv`` with ``stdin_text`` as input; (its output, its CPU seconds, its peak RSS in
    KiB or None where it never rose above the peak it was started at). It is killed after
    ``kill_after`` seconds (its output then says no verdict). Linux starts a program's peak RSS
    at the peak of the process that started it: with ``memory`` that is ``peer_launch.py``, a
    bare interpreter of a few MiB; without, this process (tens of MiB), which starts it
    straight away and saves a Python start per deal. The CPU time is the program's alone
    either way: its user + system time, from ``os.wait4``."""
    with tempfile.TemporaryFile("w+") as inp, tempfile.TemporaryFile("w+") as out:
        inp.write(stdin_text)
        inp.flush()
        inp.seek(0)
        cpu, peak, floor = (_launched if memory else _reaped)(argv, inp, out, kill_after)
        out.seek(0)
        return out.read(), cpu, peak if peak > floor else None


def _launched(argv: list[str], inp: IO[str], out: IO[str], kill_after: float) -> tuple[float, int, int]:
    """``argv`` run by ``peer_launch.py``: (CPU seconds, peak RSS, the launcher's own peak)."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as report:
        subprocess.run([sys.executable, "-S", str(HERE / "peer_launch.py"), report.name,
                        str(kill_after), *argv], stdin=inp, stdout=out, stderr=subprocess.STDOUT,
                       check=True)
        usage = json.load(report)
    return usage["cpu"], usage["peak_kib"], usage["floor_kib"]


def _reaped(argv: list[str], inp: IO[str], out: IO[str], kill_after: float) -> tuple[float, int, int]:
    """``argv`` started from here and reaped with ``os.wait4``: (CPU seconds, peak RSS, this
    process's peak as it started it)."""
    floor = _own_peak()
    child = subprocess.Popen(argv, stdin=inp, stdout=out, stderr=subprocess.STDOUT)
    done = os.pidfd_open(child.pid)
    try:
        if not select.select([done], [], [], kill_after)[0]:
            os.kill(child.pid, signal.SIGKILL)  # not reaped yet, so the pid is still the child's
        _, status, usage = os.wait4(child.pid, 0)
    finally:
        os.close(done)
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen has nothing to wait for
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, floor


def _own_peak() -> int:
    """This process's peak RSS in KiB."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))


class Peer:
    """One peer solver: its name, and how a deal becomes its command line and input."""

    def __init__(self, name: str, command: Callable[[Any, float], tuple[list[str], str]],
                 parse: Callable[[str], dict[str, Any]]) -> None:
        self.name, self.command, self.parse = name, command, parse

    def solve(self, deal: Any, seconds: float, memory: bool = False) -> dict[str, Any]:
        argv, text = self.command(deal, seconds)
        output, cpu, peak = run_child(argv, text, 2 * seconds + KILL_GRACE, memory)
        return {**self.parse(output), "cpu": round(cpu, 4), "peak_kib": peak}


def fcsolve_peer(path: str, max_states: int, extra: list[str]) -> Peer:
    """fc-solve with an iteration budget (``-mi``) of ``max_states`` and the options ``extra``;
    ``-sel`` tells an exhausted budget apart from a search that ran out of positions."""
    argv = [path, "-sel", "-mi", str(max_states), *extra]
    return Peer("fc-solve", lambda deal, _s: (argv, ms_fcsolve_board(deal)), parse_fcsolve)


def solvitaire_peer(path: str, game: Any, ms: bool, workdir: Path) -> Peer:
    """Solvitaire on a FreeCell deal number (its ``free-cell`` preset) or on one of our Klondike
    opening positions (``peer_formats.solvitaire_klondike_rules``, drawing as the game does)."""
    deal_file = workdir / "deal.json"
    if ms:
        rules = ["--type", "free-cell"]
    else:
        rules_file = workdir / "rules.json"
        draw = next(d.count for d in game.draws if d is not None)
        rules_file.write_text(json.dumps(solvitaire_klondike_rules(draw)))
        rules = ["--custom-rules", str(rules_file)]

    def command(deal: Any, seconds: float) -> tuple[list[str], str]:
        doc = ms_solvitaire_deal(deal) if ms else solvitaire_klondike_deal(
            game.board_document(game.deal(deal)), game.roles)
        deal_file.write_text(json.dumps(doc))
        return [path, *rules, "--timeout", str(max(1, round(seconds * 1000))), str(deal_file)], ""

    return Peer("Solvitaire", command, parse_solvitaire)


def solve_cardz(game: Any, analysis: Any, deal: int, ms: bool, max_states: int,
                timeout: float) -> dict[str, Any]:
    state = deal_ms(game, deal) if ms else game.deal(deal)
    cpu = time.process_time()
    r = solve(game, state, max_states=max_states, timeout=timeout, analysis=analysis)
    cpu = time.process_time() - cpu
    if r.result == "won" and game.status(replay(game, state, r.line)) != WON:
        raise SystemExit(f"deal {deal}: cardz's winning line does not replay to a won board")
    return {"result": r.result, "cpu": round(cpu, 4), "searched": r.states, "stored": r.states}


def _reset_peak() -> int | None:
    """Start this process's peak RSS afresh (Linux ``clear_refs`` 5); its RSS in KiB then, or
    None where the kernel does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    except OSError:
        return None


def solve_cardz_isolated(*args: Any) -> dict[str, Any]:
    """``solve_cardz`` in a forked child, adding ``memory_kib``: how far the child's peak RSS
    rose over its RSS once forked (the Python search's and the native one's allocations alike).
    A forked child's peak starts at its parent's, so the child first starts its own afresh."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: solve, send the row, leave without running the parent's exits
        os.close(read)
        base = _reset_peak()
        try:
            row = {**solve_cardz(*args), "base_kib": base}
        except SystemExit as e:
            row = {"error": str(e)}
        os.write(write, json.dumps(row).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    _, _, usage = os.wait4(pid, 0)
    row = json.loads(text)
    if "error" in row:
        raise SystemExit(row["error"])
    base = row.pop("base_kib")
    return {**row, "memory_kib": None if base is None else max(0, usage.ru_maxrss - base)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--ms", type=span, help="Microsoft FreeCell deal numbers, e.g. 1-200")
    which.add_argument("--seeds", type=span, help="deal seeds of --game, e.g. 1-50")
    p.add_argument("--game", help="the game file (default FreeCell for --ms, Klondike draw 3 for --seeds)")
    p.add_argument("--fc-solve", metavar="PATH", help="the fc-solve program (FreeCell only)")
    p.add_argument("--fc-solve-args", default="", metavar="ARGS",
                   help='more options for fc-solve, e.g. "-to 01ABCDE" (its atomic moves)')
    p.add_argument("--solvitaire", metavar="PATH", help="the solvitaire program")
    p.add_argument("--timeout", type=float, default=10.0, help="cardz's seconds per deal (default 10)")
    p.add_argument("--max-states", type=int, default=1_000_000, help="cardz's positions per deal (default 1000000)")
    p.add_argument("--peer-timeout", type=float, help="the peers' seconds per deal (default --timeout)")
    p.add_argument("--isolate", action="store_true", help="solve each deal of cardz in a forked child, to measure its memory")
    p.add_argument("--peer-memory", action="store_true",
                   help="start each peer through peer_launch.py, to measure its memory from a few MiB up")
    p.add_argument("--time-box", type=float, help="start no deal after S seconds")
    p.add_argument("--out", type=Path, help="write one JSON row per deal to this file")
    p.add_argument("--resume", action="store_true", help="keep the rows already in --out and solve only the other deals")
    p.add_argument("--json", action="store_true", help="print the rows and the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no line per deal")
    args = p.parse_args(argv)
    if args.resume and not args.out:
        p.error("--resume carries on the rows of --out: give --out")
    ms = args.ms is not None
    if args.fc_solve and not ms:
        p.error("fc-solve solves FreeCell only: use it with --ms")
    game = open_game(args.game or str(ROOT / "rulesets" / ("freecell.cardz" if ms else "klondike_draw3.cardz")))
    analysis = analysis_of(game)
    prepare(game, analysis)  # the per-game tables, built once before any deal is timed
    peer_seconds = args.peer_timeout if args.peer_timeout is not None else args.timeout
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench_solver") as work:
        peers = ([fcsolve_peer(args.fc_solve, args.max_states, shlex.split(args.fc_solve_args))]
                 if args.fc_solve else []) + \
                ([solvitaire_peer(args.solvitaire, game, ms, Path(work))] if args.solvitaire else [])
        rows = run(game, analysis, args, ms, peers, peer_seconds)
    summary = summarise(rows, [q.name for q in peers])
    summary["budgets"] = {"cardz": {"seconds": args.timeout, "states": args.max_states},
                          "peers": {"seconds": peer_seconds}}
    if args.fc_solve:
        summary["budgets"]["fc-solve"] = {"iterations": args.max_states, "options": args.fc_solve_args}
    summary["game"] = game.spec.name
    summary["cardz tree"] = tree_version()
    summary["load average (start, end)"] = [round(load, 2), round(os.getloadavg()[0], 2)]
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
    else:
        print_summary(summary)
    return 0


def tree_version() -> str:
    """Where the cardz_core measured lives, and its commit (``+changes`` when the tree differs)."""
    tree = Path(cardz_core.__file__).resolve().parent.parent
    git = ["git", "-C", str(tree)]
    try:
        commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        changed = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return str(tree)
    return f"{tree} at {commit}{' +changes' if changed else ''}"


def kept_rows(path: Path, peers: list[Peer]) -> dict[int, dict[str, Any]]:
    """The rows of an earlier run in ``path`` (none if it does not exist), by deal; each must
    hold every peer of this run."""
    if not path.exists():
        return {}
    rows = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise SystemExit(f"{path}:{number}: not a row ({e}); cut the line off to resume") from None
        missing = [q.name for q in peers if q.name not in row]
        if missing:
            raise SystemExit(f"{path}:{number}: deal {row.get('deal')} has no row of {', '.join(missing)}")
        rows[row["deal"]] = row
    return rows


def run(game: Any, analysis: Any, args: argparse.Namespace, ms: bool, peers: list[Peer],
        peer_seconds: float) -> list[dict[str, Any]]:
    rows = []
    started = time.perf_counter()
    kept = kept_rows(args.out, peers) if args.resume else {}
    out = args.out.open("a" if args.resume else "w") if args.out else None
    cardz = solve_cardz_isolated if args.isolate else solve_cardz
    for n in (args.ms if ms else args.seeds):
        if n in kept:
            rows.append(kept[n])
            continue
        if args.time_box is not None and time.perf_counter() - started > args.time_box:
            break
        row: dict[str, Any] = {"deal": n, "cardz": cardz(game, analysis, n, ms, args.max_states, args.timeout)}
        for peer in peers:
            row[peer.name] = peer.solve(n, peer_seconds, args.peer_memory)
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
        if not args.quiet and not args.json:
            print(f"{n:>6}  " + " | ".join(f"{name}: {r['result']} {r['cpu']:.4f} s {r['searched']} pos"
                                           for name, r in row.items() if name != "deal"), flush=True)
    if out:
        out.close()
    return rows


def solver_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, CPU per deal, speed and memory of one solver's rows. Memory per stored position
    is the median, over the deals that stored at least ``MEMORY_MIN_STORED`` and whose memory was
    measured, of that memory over the positions stored."""
    cpu = [r["cpu"] for r in rows]
    searched = sum(r["searched"] or 0 for r in rows)
    per_stored = [r[k] / r["stored"] for r in rows for k in ("memory_kib", "peak_kib")
                  if r.get(k) is not None and (r["stored"] or 0) >= MEMORY_MIN_STORED]
    return {
        "won": sum(r["result"] == "won" for r in rows),
        "lost": sum(r["result"] == "lost" for r in rows),
        "unknown": sum(r["result"] == "unknown" for r in rows),
        "cpu median": round(statistics.median(cpu), 4),
        "cpu mean": round(statistics.fmean(cpu), 4),
        "cpu max": round(max(cpu), 4),
        "positions per cpu second": round(searched / sum(cpu)) if sum(cpu) > 0 else None,
        "KiB per stored position": round(statistics.median(per_stored), 3) if per_stored else None,
        "memory measured on": len(per_stored),
    }


def summarise(rows: list[dict[str, Any]], peers: list[str]) -> dict[str, Any]:
    if not rows:
        return {"deals": 0}
    summary: dict[str, Any] = {"deals": len(rows), "first": rows[0]["deal"], "last": rows[-1]["deal"],
                               "cardz": solver_summary([r["cardz"] for r in rows])}
    for name in peers:
        s = summary[name] = solver_summary([r[name] for r in rows])
        ours = summary["cardz"]
        s["cardz cpu / peer cpu (median, mean)"] = [
            round(ours["cpu median"] / s["cpu median"], 2) if s["cpu median"] > 0 else None,
            round(ours["cpu mean"] / s["cpu mean"], 2) if s["cpu mean"] > 0 else None]
        both = [r for r in rows if r["cardz"]["result"] != "unknown" and r[name]["result"] != "unknown"]
        s["both decided"] = len(both)
        s["contradictions"] = [{"deal": r["deal"], "cardz": r["cardz"]["result"], name: r[name]["result"]}
                               for r in both if r["cardz"]["result"] != r[name]["result"]]
    return summary


def print_summary(summary: dict[str, Any]) -> None:
    for key, value in summary.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for k, v in value.items():
                print(f"  {k}: {v}")
        else:
            print(f"{key}: {value}")


if __name__ == "__main__":
    sys.exit(main())
