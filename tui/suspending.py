"""Ctrl+Z stops ringbook as it stops any program in a shell, and `fg` brings it back: only where a shell can.

Textual stops the process with SIGSTOP, which nothing refuses. With no job-control shell to continue it
(ringbook as an SSH session's own program, a `ringbook serve` tab, a terminal that runs it directly) the
learner would be left with a frozen screen, so there Ctrl+Z says why it does nothing instead."""

from __future__ import annotations

import os


def resumable() -> bool:
    """Whether a shell can continue this process once stopped: an ancestor in another process group of the
    same session, as a job-control shell is (the group is not orphaned). Where that cannot be read (no /proc),
    False: a frozen screen is worse than a key that says it does nothing."""
    group, session = os.getpgrp(), os.getsid(0)
    parent = os.getppid()
    try:
        while parent > 1:
            if os.getpgid(parent) != group:
                return os.getsid(parent) == session
            parent = _parent_of(parent)
    except OSError:   # no /proc, or the parent has gone
        return False
    return False


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
        return int(stat.read().rpartition(")")[2].split()[1])   # after the command's name, which may hold spaces
