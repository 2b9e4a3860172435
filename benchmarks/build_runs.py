"""Build runs with N learners at once: a fresh sandbox per run (the old way, the baseline) against a run forked
from each learner's template (grader/sandbox/template.py), in the same command, alternating.

Run: uv run python benchmarks/build_runs.py [--learners 30] [--runs 5]
Target (issue 48): thirty learners' runs at once, p99 <= 0.5 s on 2 cores.

N learner processes each hold their template, started and used once before timing, as a build screen's
opening would start it. In each round every learner gets "run" at the same moment, once the old way and
once from its template (which goes first alternates by round), and times its own run_tests of the book's
exercise 0.5 with its solution, from the word to the result.

CPU per run is the sandbox's, user plus system, measured from outside it:
- the old way: what the run's processes used, from the kernel's accounting of reaped children
  (RUSAGE_CHILDREN). bubblewrap's outer process exits without reaping the sandbox's first process, which
  would hide the interpreter's CPU, so each learner is made a child subreaper (prctl) and reaps it itself;
- the template: the growth of its processes' CPU and their reaped children's (utime, stime, cutime, cstime
  in /proc/PID/stat, 10 ms ticks, summed over all runs) across each run: the fork, the run, the reaping.
The learner's own CPU per run (json, the pipes, the wait) is shown apart, and the template's start, paid once
per learner when a build opens, is its processes' CPU after the warm-up run. The kernel tears a sandbox's
namespaces down in its own worker threads, which no process's figure includes, so the whole machine's busy
time (/proc/stat) over each round of runs and SETTLE_SECONDS after it is shown too, per run: it counts
everything else the host does as well, so read it on a quiet host.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.exercise import CodeTest  # noqa: E402 - after the path is set
from grader.sandbox import runner  # noqa: E402
from grader.sandbox.template import TEMPLATE  # noqa: E402

MODES = ("fresh", "template")
SETTLE_SECONDS = 1.0   # after a round: the kernel's deferred teardown of the sandboxes is counted in its round
TICK = 1 / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy() -> float:
    """Seconds of CPU the whole machine has spent busy (all but idle and iowait), from /proc/stat."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) * TICK


def children() -> set[int]:
    found: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            found |= {int(pid) for pid in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def reap_orphans() -> None:
    """Reap the sandboxes' first processes, handed to this subreaper when their bubblewrap exited."""
    for pid in children() - {TEMPLATE.pid}:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


def tree_cpu(pid: int | None) -> float:
    """CPU of `pid`, the processes under it and the children they reaped, in seconds."""
    if pid is None:
        return 0.0
    total, frontier = 0.0, [pid]
    while frontier:
        current = frontier.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15]) * TICK   # utime stime cutime cstime
            for task in Path(f"/proc/{current}/task").iterdir():
                frontier += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
    return total


def learner(job: dict) -> None:
    """One learner's process: its template warm, then one run per word on stdin, in the mode the word names."""
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER
    tests = tuple(CodeTest(args=t["args"], expected=t["expected"]) for t in job["tests"])

    def run(mode: str) -> tuple[float, float, float]:
        """(wall s, sandbox CPU s, own CPU s) of one run."""
        # The baseline, the old way: with no template's run to be had, run_tests starts a fresh sandbox.
        the_way = contextlib.nullcontext() if mode == "template" else \
            mock.patch.object(runner, "_run_in_template", return_value=None)
        sandbox, own = children_cpu() + tree_cpu(TEMPLATE.pid), own_cpu()
        started = time.monotonic()
        with the_way:
            result = runner.run_tests(job["source"], job["function"], tests)
        wall = time.monotonic() - started
        reap_orphans()
        if result.passed != len(tests) or (mode == "template" and TEMPLATE.pid is None):
            raise SystemExit(f"a {mode} run went wrong: {result.problem or result.passed}")
        return wall, children_cpu() + tree_cpu(TEMPLATE.pid) - sandbox, own_cpu() - own

    run("fresh")
    run("template")
    print(json.dumps({"start": tree_cpu(TEMPLATE.pid)}), flush=True)
    for line in sys.stdin:
        print(json.dumps(run(line.strip())), flush=True)
    TEMPLATE.stop()


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--runs", type=int, default=5, help="rounds: each learner's runs each way")
    parser.add_argument("--learner", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.learner:
        learner(json.loads(args.learner))
        return
    if runner.sandbox_status().mode != "sandboxed":
        raise SystemExit(f"no sandbox here: {runner.sandbox_status().why}")
    from grader.book.load import load_book

    ring = load_book().exercise("0.5")
    job = json.dumps({"source": ring.solution, "function": ring.function,   # type: ignore[union-attr]  # 0.5 is a build
                      "tests": [{"args": t.args, "expected": t.expected} for t in ring.tests]})  # type: ignore[union-attr]
    learners = [subprocess.Popen([sys.executable, __file__, "--learner", job], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, bufsize=1) for _ in range(args.learners)]
    starts = [json.loads(one.stdout.readline())["start"] for one in learners]   # type: ignore[union-attr]
    seen: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in MODES}
    machine = {mode: 0.0 for mode in MODES}
    for round_ in range(args.runs):
        for mode in MODES if round_ % 2 == 0 else MODES[::-1]:
            busy = machine_busy()
            for one in learners:
                one.stdin.write(mode + "\n")   # type: ignore[union-attr]
            seen[mode] += [tuple(json.loads(one.stdout.readline())) for one in learners]  # type: ignore[union-attr]
            time.sleep(SETTLE_SECONDS)
            machine[mode] += machine_busy() - busy
    for one in learners:
        one.stdin.close()   # type: ignore[union-attr]
        one.wait()

    def figures(mode: str) -> list[float]:
        walls = [s[0] * 1000 for s in seen[mode]]
        return [percentile(walls, 50), percentile(walls, 99), statistics.fmean(s[1] * 1000 for s in seen[mode]),
                statistics.fmean(s[2] * 1000 for s in seen[mode]), machine[mode] * 1000 / len(seen[mode])]

    before, now = figures("fresh"), figures("template")
    print(f"build runs: {args.learners} learners at once, {args.runs} rounds each way, alternating "
          f"({os.cpu_count()} cores)")
    print(f"{'':34}{'fresh sandbox':>15}{'template':>10}{'ratio':>8}")
    rows = ("run, p50 (ms)", "run, p99 (ms)", "sandbox CPU per run (ms)", "app CPU per run (ms)",
            "whole machine's CPU per run (ms)")
    for name, old, new in zip(rows, before, now, strict=True):
        print(f"{name:34}{old:>15.1f}{new:>10.1f}{new / old if old else float('nan'):>8.2f}")
    print(f"{'template start, once (ms CPU)':34}{'':>15}{statistics.median(starts) * 1000:>10.0f}")
    print("sandbox CPU: user + system of the sandbox's processes (fresh: reaped children, as a subreaper; template: "
          "/proc ticks); whole machine: /proc/stat over each round, quiet hosts only")


if __name__ == "__main__":
    main()
