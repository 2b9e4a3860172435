"""What a process and everything below it costs, from Linux's /proc: proportional set size (PSS: each shared
page divided among the processes that map it, so the figures of many learners add up to the memory they
really take) and CPU time."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found |= {int(child) for child in task.read_text().split()}
    return found


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, nearest first."""
    found: list[int] = []
    frontier = [pid]
    while frontier:
        below = sorted(children(frontier.pop(0)) - set(found))
        found += below
        frontier += below
    return found


def pss_kb(pid: int) -> int:
    """The process's PSS in kB (0 once it has gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process, and the children it has waited for (a sandboxed run), have
    used so far (0 once it has gone)."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / CLOCK_TICKS   # utime, stime, cutime, cstime: stat's 14-17
    return 0.0


def is_python(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return Path(os.readlink(f"/proc/{pid}/exe")).name.startswith("python")
    return False


@dataclass(frozen=True)
class TreeMemory:
    """PSS in MB of a program started through a shell: the program (its first Python process), the
    processes it started (a proof worker, a sandboxed run), and the rest (the login shell, if it stayed)."""

    app: float
    children: float
    other: float

    @property
    def total(self) -> float:
        return self.app + self.children + self.other


def tree_memory(pid: int) -> TreeMemory:
    tree = [pid, *descendants(pid)]
    app = next((p for p in tree if is_python(p)), None)
    below = set(descendants(app)) if app is not None else set()
    app_kb = pss_kb(app) if app is not None else 0
    children_kb = sum(pss_kb(p) for p in below)
    other_kb = sum(pss_kb(p) for p in tree if p != app and p not in below)
    return TreeMemory(app_kb / 1024, children_kb / 1024, other_kb / 1024)


def tree_cpu_seconds(pid: int) -> float:
    """CPU time used so far by `pid` and every process below it that is still running."""
    return sum(cpu_seconds(p) for p in [pid, *descendants(pid)])
