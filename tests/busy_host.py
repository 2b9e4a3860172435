"""A busy host for a test: busy loops pinned to the test process's own cores, so whatever the test starts
(the proof worker inherits them) waits for a core as it would with a class answering at once. The loops
are stopped when the `with` ends, however it ends."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

LOOPS_PER_CORE = 3


@contextmanager
def busy_host(per_core: int = LOOPS_PER_CORE) -> Iterator[int]:
    """`per_core` busy loops for each core this process may run on; yields how many were started."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("pinning processes to cores needs os.sched_setaffinity (Linux)")
    cores = os.sched_getaffinity(0)
    loops: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(per_core * len(cores)):
            loop = subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL)
            loops.append(loop)
            os.sched_setaffinity(loop.pid, cores)
        yield len(loops)
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()
