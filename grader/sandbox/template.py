"""The template: one sandboxed interpreter per app, started when a build exercise opens, that forks each run.

A fresh sandboxed Python costs about 35 ms of CPU before it runs a line of learner code (bubblewrap's
namespaces and mounts, the interpreter, the harness's imports and seal), a forked one about 2 ms; thirty
learners running at once on two cores waited 0.5 to 1.5 s for fresh ones (benchmarks/build_runs.py). The
template pays the start once: it starts inside the same bubblewrap sandbox a run gets, loads and seals the
harness, and waits (grader/sandbox/harness.py, `serve_runs`). For each run the app sends the run's settings
with the job's file and a fresh results pipe attached (SCM_RIGHTS over a socket pair); the template forks a
child, which applies the limits and the guard exactly as a script run does, and waits for it. The template
never runs learner code and reads nothing from a child but its exit status.

What a run could leave behind dies with its child: its memory (globals, modules, builtins, environment,
audit hooks, open files, threads) is its own copy. The sandbox's filesystem is read-only for the template
and its runs alike (runner.sandbox_command), so no file survives either. A run that does not finish in time,
or whose child outlives its report, has its template killed with it (the sandbox's PID namespace takes
every process), and the next run starts another.

The template is started and stopped by a thread of its own, never by the thread asking for it (a build
screen asks from a worker thread that ends at once); the same thread stops it after IDLE_SECONDS without a
run. It is stopped at exit. If the app is killed, bubblewrap (--die-with-parent) ends the sandbox with every
process in it, a run under way included; and a template whose app has closed its socket exits.
Where no template can start, runs go the old way, a fresh sandbox each.
"""

from __future__ import annotations

import atexit
import os
import select
import signal
import socket
import subprocess
import threading
import time

IDLE_SECONDS = 300.0   # a template with no run for this long is stopped; the next run or build screen starts one
START_SECONDS = 10.0   # the longest a run waits for a template to say it is ready, before running the old way
READY = b"ready"


class Template:
    """The app's one template, used by one run at a time (a second run at the same moment goes the old way)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)   # wanted, started or gone: the keeper looks again
        self._wanted: tuple[str, ...] = ()   # the command the keeper should have running (empty: none)
        self._command: tuple[str, ...] = ()  # the command of the running one
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._ready = False
        self._busy = False
        self._last_used = 0.0
        self._keeper: threading.Thread | None = None

    @property
    def pid(self) -> int | None:
        """The running template's bubblewrap process id (None when there is none): for tests and benchmarks."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def prepare(self, command: list[str]) -> None:
        """Have a template of `command` started, without waiting for it: a build screen opening."""
        with self._changed:
            self._want(tuple(command))

    def claim(self, command: list[str], deadline: float) -> socket.socket | None:
        """The ready template's socket, held for one run until `release`; None when it is busy with another run
        or none is ready by `deadline` (the caller then runs the old way)."""
        with self._changed:
            if self._busy:
                return None
            if self._process is not None and self._process.poll() is not None:   # it died while idle
                self._discard()
            wanted = tuple(command)
            self._want(wanted)
            while self._command != wanted or self._control is None:
                if self._wanted != wanted or not self._changed.wait(max(0.0, deadline - time.monotonic())):
                    return None   # it could not start, or not in time
            control = self._control
            if not self._ready:
                ready = select.select([control], [], [], max(0.0, deadline - time.monotonic()))[0]
                if not ready or control.recv(16) != READY:   # it could not start: not again until asked again
                    self._wanted = ()
                    self._discard()
                    return None
                self._ready = True
            self._busy = True
            return control

    def release(self, broken: bool) -> None:
        """The run is over; `broken`: its child may still be running, or the template said nothing, so it goes."""
        with self._changed:
            self._busy = False
            self._last_used = time.monotonic()
            if broken:
                self._wanted = ()
                self._discard()
            self._changed.notify_all()

    def stop(self) -> None:
        """Stop the template, if there is one (at exit, and in tests)."""
        with self._changed:
            self._wanted = ()
            self._discard()

    def _want(self, command: tuple[str, ...]) -> None:
        self._wanted = command
        self._last_used = time.monotonic()
        if self._keeper is None:
            self._keeper = threading.Thread(target=self._keep, name="build template keeper", daemon=True)
            self._keeper.start()
        self._changed.notify_all()

    def _keep(self) -> None:
        """The keeper: starts the wanted template, replaces one of another command or one that died, and stops
        one idle for IDLE_SECONDS. It holds the lock only while it acts."""
        with self._changed:
            while True:
                running = self._process is not None and self._process.poll() is None
                idle = time.monotonic() - self._last_used
                if self._busy:
                    self._changed.wait()
                elif self._wanted and idle >= IDLE_SECONDS:
                    self._wanted = ()
                    self._discard()
                elif self._wanted and (not running or self._command != self._wanted):
                    self._discard()
                    self._start(self._wanted)
                    self._changed.notify_all()
                    if self._process is None:   # it could not start: runs go the old way until asked again
                        self._wanted = ()
                else:
                    self._changed.wait(IDLE_SECONDS - idle if self._wanted else None)

    def _start(self, command: tuple[str, ...]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._process = subprocess.Popen(command, stdin=theirs.fileno(), stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL, cwd="/", env={}, close_fds=True,
                                             start_new_session=True)
        except OSError:   # no processes or memory to spare
            ours.close()
            return
        finally:
            theirs.close()
        self._control, self._command, self._ready = ours, command, False

    def _discard(self) -> None:
        """Kill the template and its sandbox (the lock is held): closing the socket alone would leave a run
        that is still going to its CPU limit."""
        process, control = self._process, self._control
        self._process, self._control, self._command, self._ready = None, None, (), False
        if control is not None:
            control.close()
        if process is None:
            return
        self._changed.notify_all()
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:   # not reaped yet; Popen reaps it later
            pass


TEMPLATE = Template()
atexit.register(TEMPLATE.stop)
