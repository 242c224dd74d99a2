"""Run one program and report its CPU time and peak memory, apart from the benchmark's.

    python -S benchmarks/peer_launch.py REPORT SECONDS PROGRAM [ARG ...]

Linux starts a program's peak RSS at the peak of the process it replaces, so a peer started
straight from the benchmark (tens of MiB of Python) would seem at least that big. This small
process (a bare interpreter, ``-S``) starts it instead, kills it after SECONDS of wall-clock
time, reaps it with ``os.wait4`` and writes to REPORT, as JSON, its user + system seconds
(``cpu``), its peak RSS in KiB (``peak_kib``) and this process's own peak (``floor_kib``), under
which the child's is not its own. Standard input and output pass through to the program.
"""

import json
import os
import signal
import sys


def main() -> int:
    report, seconds, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    with open("/proc/self/status") as f:
        floor = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            break
        except InterruptedError:  # the alarm came while waiting: the kill is sent, wait again
            continue
    signal.setitimer(signal.ITIMER_REAL, 0)
    with open(report, "w") as f:
        json.dump({"cpu": usage.ru_utime + usage.ru_stime, "peak_kib": usage.ru_maxrss,
                   "floor_kib": floor, "killed": os.WIFSIGNALED(status)}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
