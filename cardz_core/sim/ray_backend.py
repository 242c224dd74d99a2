"""The Ray backend: the same batches as the local one, run as Ray tasks.

``--address`` (or ``RAY_ADDRESS``) connects to a running cluster; without either a local Ray is
started for the run and stopped after it. Every node must have cardz and the plugins the game
uses installed: a task receives the ``Job`` (names and text), never live objects. Results stream
back batch by batch; at most a few batches per CPU are in flight, so a run of any size keeps a
bounded queue. On Ctrl-C the batches not finished are cancelled and the finished ones kept.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from cardz_core.problems import CardzError
from cardz_core.sim.job import Job, run_batch

Emit = Callable[[list[dict[str, Any]]], None]
IN_FLIGHT_PER_CPU = 4


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise CardzError("the ray backend needs Ray: pip install 'cardz[ray]'") from None
    return ray


def _get(ray: Any, ref: Any) -> list[dict[str, Any]]:
    """A task's rows; a CardzError raised in the task comes back as itself, not wrapped."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, CardzError):
            raise exc.cause from None
        raise


def run_ray(job: Job, batches: Sequence[tuple[int, int]], emit: Emit, address: str | None = None,
            workers: int | None = None) -> None:
    """Play the batches as Ray tasks. ``workers`` caps the CPUs of a local Ray started here."""
    ray = _ray()
    started = False
    if not ray.is_initialized():
        target = address or os.environ.get("RAY_ADDRESS") or None
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": "ERROR"}
        if target is None and workers:
            options["num_cpus"] = workers
        ray.init(address=target, **options)
        started = True
    try:
        task = ray.remote(run_batch)
        job_ref = ray.put(job)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        limit = cpus * IN_FLIGHT_PER_CPU
        queue = list(reversed(batches))
        running: list[Any] = []
        try:
            while queue or running:
                while queue and len(running) < limit:
                    start, stop = queue.pop()
                    running.append(task.remote(job_ref, start, stop))
                done, running = ray.wait(running, num_returns=1)
                emit(_get(ray, done[0]))
        except KeyboardInterrupt:
            done = []
            if running:
                done, running = ray.wait(running, num_returns=len(running), timeout=0)
            for ref in running:
                ray.cancel(ref, force=True)
            for ref in done:
                emit(_get(ray, ref))
            raise
    finally:
        if started:
            ray.shutdown()
