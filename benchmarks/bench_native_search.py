"""The native search's own figures: CPU per deal, positions a second, bytes per position.

    python3 benchmarks/bench_native_search.py FILE (--ms A-B | --seeds A-B) [--also N...]
        [--max-states K] [--timeout S]

Each deal is solved by the native search alone (``cardz_core/planners/solver.py``'s
``_native_solver``, the tries of ``solve`` in Rust, no replay), timed in CPU seconds
(``time.process_time``). Positions a second are all deals' positions over all deals' CPU time;
bytes per position are the search tables' peak allocated size over the positions of the deal,
the median and the largest over the deals. The fingerprint is the first 16 hex digits of the
SHA-256 of every deal's ``repr((deal, result, positions, line))`` in turn: a change that keeps
what is searched keeps it (given budgets the clock never cuts). docs/solver.md, "The native
search", has the runs.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardz_core.cli.common import open_game  # noqa: E402
from cardz_core.msdeal import deal_ms  # noqa: E402
from cardz_core.native import _as_tuple  # noqa: E402
from cardz_core.planners.solver import _native_solver  # noqa: E402
from cardz_core.solver.analysis import analysis_of  # noqa: E402


def span(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--ms", type=span, help="Microsoft FreeCell deal numbers A-B")
    which.add_argument("--seeds", type=span, help="deal seeds A-B")
    p.add_argument("--also", type=int, nargs="*", default=[], help="more deals after the range")
    p.add_argument("--max-states", type=int, default=1_000_000, help="positions per deal (default 1000000)")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per deal (default 5)")
    args = p.parse_args(argv)
    game = open_game(args.file)
    search = _native_solver(game, analysis_of(game))
    if search is None:
        raise SystemExit(f"{args.file}: the native search does not play this game")
    cpu: list[float] = []
    per_position: list[float] = []
    answers: dict[str, int] = {}
    positions = 0
    fingerprint = hashlib.sha256()
    for n in [*(args.ms if args.ms is not None else args.seeds), *args.also]:
        state = deal_ms(game, n) if args.ms is not None else game.deal(n)
        start = time.process_time()
        result, line, states, _, table_bytes = search.solve(_as_tuple(state), args.max_states, args.timeout)
        cpu.append(time.process_time() - start)
        fingerprint.update(repr((n, result, states, line)).encode())
        positions += states
        per_position.append(table_bytes / max(states, 1))
        answers[result] = answers.get(result, 0) + 1
    print(f"{game.spec.name}: {answers}; median CPU per deal {statistics.median(cpu):.4f} s, "
          f"mean {statistics.mean(cpu):.4f} s; {positions / max(sum(cpu), 1e-9):,.0f} positions a second; "
          f"bytes per position median {statistics.median(per_position):.1f}, largest {max(per_position):.1f}; "
          f"{positions:,} positions, fingerprint {fingerprint.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
