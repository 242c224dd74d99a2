"""Simulation throughput: deals per second with 1 and 2 local workers, and a Ray run.

    python3 benchmarks/bench_sim.py [--file rulesets/klondike.cardz] [--planner usual]
                                    [--games 400] [--workers 1,2] [--seed 0] [--repeat 3]
                                    [--ray N] [--ray-address A] [--json]

Each measurement is one whole ``simulate`` call, timed from the first batch handed out to the last
row back: worker start-up (processes, or Ray tasks on a running Ray) counts against the run. With
1 worker the deals are played in this process. The speed-up is deals/s with K workers over deals/s
with 1. The worker counts run in turn ``--repeat`` times and each keeps its best time, so a machine
busy with other work slows all of them alike. Every run plays the same deals, so the summaries
must agree (checked; times excluded).
On a shared machine other work takes its share of the cores, and the speed-up measured means
little on its own; so the benchmark also measures what the machine gives right now: the speed-up
of a pure-Python loop split over the same number of processes (``machine`` in the output). The
harness's own cost shows in ``speedup / machine``: near 1.0 means it parallelises as well as the
machine allows.

Under load the machine may give two processes no more than one (Linux's autogroup scheduling
shares the CPUs between sessions first, and only then between one session's processes). So the
benchmark also counts CPU time: the run's own process plus its workers (started with ``spawn``
here so that they are this process's children and their CPU time can be read once they exit).
``cpu_speedup`` = K * (CPU seconds of the 1-worker run) / (CPU seconds of the K-worker run, all
processes, start-up included): the speed-up K free cores would give if the batches balance,
which they do closely with about eight per worker. It is a projection, printed beside the
measured figure, not instead of it.

``--ray N`` adds a run of N deals as Ray tasks (a local Ray, or ``--ray-address`` /
``RAY_ADDRESS``); Ray's own start-up is timed separately and not counted.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.engine import compile as compile_spec  # noqa: E402
from cardz_core.registry import default_registry  # noqa: E402
from cardz_core.sim import local  # noqa: E402
from cardz_core.sim.job import Job, Variant, deck  # noqa: E402
from cardz_core.sim.run import Collector, simulate  # noqa: E402
from cardz_core.sim.summary import Tally  # noqa: E402
from cardz_core.spec import load_game  # noqa: E402


def timeless(summary: dict) -> dict:
    out = dict(summary)
    out["planners"] = {k: {f: v for f, v in p.items() if f != "seconds"}
                       for k, p in summary["planners"].items()}
    return out


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_speedup(k: int, n: int = 3_000_000) -> float:
    """How much faster ``k`` processes finish ``k`` equal pure-Python loops than one process
    finishes them one after the other: ``k`` on an idle machine with ``k`` free cores."""
    import multiprocessing

    started = time.perf_counter()
    for _ in range(k):
        _spin(n)
    alone = time.perf_counter() - started
    with multiprocessing.get_context("spawn").Pool(k) as pool:
        pool.map(_spin, [n // 100] * k)  # start the processes before timing
        started = time.perf_counter()
        pool.map(_spin, [n] * k)
        together = time.perf_counter() - started
    return alone / together


def _spawn_context():
    return multiprocessing.get_context("spawn")


def _cpu() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def measure(job: Job, game, games: int, **how) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of this process and its workers, summary) of one run."""
    tally = Tally(job.planners, games, [deck(job.variants[0].name, game)], seed=job.seed)
    cpu = _cpu()
    started = time.perf_counter()
    interrupted = simulate(job, games, Collector(tally), compiled=[game], **how)
    elapsed = time.perf_counter() - started
    if interrupted:
        raise SystemExit("interrupted")
    return elapsed, _cpu() - cpu, tally.summary()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--file", default=str(ROOT / "rulesets" / "klondike.cardz"))
    ap.add_argument("--planner", default="usual")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-moves", type=int, default=1000)
    ap.add_argument("--ray", type=int, default=0, metavar="N", help="deals for a Ray run (0: none)")
    ap.add_argument("--ray-address", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    registry = default_registry()
    text = Path(args.file).read_text(encoding="utf-8")
    game = compile_spec(load_game(text, registry=registry, file=args.file), registry)
    planners = tuple(registry.canonical("planners", p.strip()) or p.strip()
                     for p in args.planner.split(","))
    job = Job(variants=(Variant(text=text, file=args.file, name=Path(args.file).stem),),
              planners=planners, seed=args.seed, max_moves=args.max_moves,
              plugin_names=tuple(registry.plugin_names))
    result: dict = {"game": game.spec.name, "planners": list(planners), "games": args.games,
                    "cpus": os.cpu_count(), "load_before": os.getloadavg()[0], "local": []}
    reference = None
    counts = [int(w) for w in args.workers.split(",")]
    best: dict[int, float] = {}
    cpu: dict[int, float] = {}
    local._context = _spawn_context  # workers as this process's children: their CPU is readable
    for _ in range(args.repeat):
        for k in counts:
            seconds, cpu_seconds, summary = measure(job, game, args.games, workers=k)
            if reference is None:
                reference = timeless(summary)
            elif timeless(summary) != reference:
                raise SystemExit(f"{k} workers gave different results")
            best[k] = min(best.get(k, seconds), seconds)
            cpu[k] = min(cpu.get(k, cpu_seconds), cpu_seconds)
    base = args.games / best[counts[0]]
    for k in counts:
        rate = args.games / best[k]
        machine = max(machine_speedup(k) for _ in range(args.repeat)) if k > 1 else 1.0
        projected = k * cpu[counts[0]] / cpu[k]
        result["local"].append({"workers": k, "seconds": round(best[k], 2),
                                "deals_per_second": round(rate, 2),
                                "speedup": round(rate / base, 2), "machine": round(machine, 2),
                                "cpu_seconds": round(cpu[k], 2),
                                "cpu_speedup": round(projected, 2)})
        if not args.json:
            print(f"local  {k} worker(s): {args.games} deals in {best[k]:7.2f} s  "
                  f"{rate:8.2f} deals/s  speed-up {rate / base:.2f}  (best of {args.repeat}; "
                  f"the machine gives {machine:.2f})  CPU {cpu[k]:.1f} s, "
                  f"speed-up on {k} free cores {projected:.2f}", flush=True)
    result["win_rate"] = {p: s["win_rate"] for p, s in reference["planners"].items()}
    result["load_after"] = os.getloadavg()[0]
    if not args.json:
        print(f"load average (1 min) before {result['load_before']:.2f}, "
              f"after {result['load_after']:.2f}, on {os.cpu_count()} CPUs")
    if args.ray:
        import ray

        started = time.perf_counter()
        target = args.ray_address or os.environ.get("RAY_ADDRESS") or None
        ray.init(address=target, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR")
        startup = time.perf_counter() - started
        cpus = int(ray.cluster_resources().get("CPU", 1))
        seconds, _, summary = measure(job, game, args.ray, backend="ray",
                                   address=args.ray_address)
        ray.shutdown()
        rate = args.ray / seconds
        result["ray"] = {"deals": args.ray, "cpus": cpus, "startup_seconds": round(startup, 2),
                         "seconds": round(seconds, 2), "deals_per_second": round(rate, 2),
                         "win_rate": {p: s["win_rate"] for p, s in summary["planners"].items()}}
        if not args.json:
            print(f"ray    {cpus} CPU(s): {args.ray} deals in {seconds:7.2f} s  "
                  f"{rate:8.2f} deals/s  (Ray start-up {startup:.1f} s, not counted)")
    if args.json:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
