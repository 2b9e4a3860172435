"""App speed and memory: start to home (against a hello-world Textual app in the same run), chapter open to
first content, and peak RSS after visiting every chapter.

Run: uv run python benchmarks/app_performance.py [--runs N] [--start-only]
Targets (issues 5, 14 and 25): home <= 1.15x hello world in a real terminal; first content <= 100 ms for every
chapter; peak RSS <= 120 MB. Issue 48: home's text <= 1.15x a bare hello world (one Static, no header or
footer) until its text is shown, timed the same way in the same run.

Start-up is timed as a terminal shows it: `python -m tui` (a fresh data folder, TERM=xterm-256color) runs in
an 80x24 pseudo-terminal whose output feeds a terminal emulator (pyte), from just before the process is
started to the read after which the home screen, footer included, is on the emulated screen; the time of
the first byte is noted too. The hello-world app runs the same way. The headless figure beside it is the
older measure: the moment each app hands its first frame to Textual's headless driver, stamped by the app
itself. Interpreter teardown, which no learner waits for, is not counted: each app is killed once its home
is shown. The apps run alternately and each ringbook start is divided by the hello-world start just before
it: on a shared 2-core machine whose speed drifts from run to run, the median of those ratios is steadier
than the ratio of medians.

A chapter's first content is the first frame handed to the (headless) driver with its opening paragraphs in
it, from the call that opens it (the app warmed up, as a learner's is by then). Until issue 25's last stop it
was stamped when the chapter's fill-in began, which its comment took for "right after the first frame": it
comes three frames and ~40 ms later, once the screen's own resize and the layout it asks for are done. Both
figures are printed; the target is the first.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from terminal import Terminals

ROOT = Path(__file__).resolve().parent.parent

# Both apps stop at their first frame: the first screen update Textual hands to its driver to write (the
# headless driver then writes nothing). A screen's call_after_refresh can come several refreshes later.
STAMP_FIRST_FRAME = """
import os, sys, time

def stamp_first_frame(app_class, first_screen):
    display = app_class._display
    def _display(app, screen, update):
        if update is not None and type(screen).__name__ == first_screen:
            os.write(int(sys.argv[1]), str(time.monotonic()).encode())
            os._exit(0)
        return display(app, screen, update)
    app_class._display = _display
"""

HELLO_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Hello(App):
    def compose(self):
        yield Header()
        yield Static("Hello, world")
        yield Footer()
"""
HELLO = STAMP_FIRST_FRAME + HELLO_APP + """
stamp_first_frame(App, "Screen")
Hello().run(headless=True, size=(80, 24))
"""
# Issue 48's measure: the barest Textual app, one Static and nothing else, timed until its text is shown.
BARE_HELLO_APP = """
from textual.app import App
from textual.widgets import Static

class Hello(App):
    def compose(self):
        yield Static("Hello, world!")
"""
# What each app's first full screen shows in a terminal: its own text and the footer drawn.
HELLO_SHOWN = ("Hello, world", "palette")
BARE_HELLO_SHOWN = ("Hello, world!",)
HOME_SHOWN = ("Mastery ", "palette")

RINGBOOK = STAMP_FIRST_FRAME + """
import importlib.util

class PatchOnImport:
    # Patches Textual as `ringbook` imports it, so everything else runs as a learner's start does: the
    # same entry point, with imports in the same order and place. A finder needs only find_spec: deriving
    # from importlib.abc.MetaPathFinder would import importlib.resources, which ringbook never loads.
    def find_spec(self, name, path, target=None):
        if name != "textual.app":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        execute = spec.loader.exec_module
        def exec_module(module):
            execute(module)
            stamp_first_frame(module.App, "HomeScreen")
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, PatchOnImport())
os.environ["TEXTUAL_DRIVER"] = "textual.drivers.headless_driver:HeadlessDriver"  # no terminal here (80x25)
os.environ["RINGBOOK_DATA_DIR"] = sys.argv[2]
from tui.cli.main import main
sys.exit(main([]))
"""

VISIT_ALL = """
import asyncio, resource, sys, time
from pathlib import Path
from tui.cli.common import load_or_report, open_store_or_report
from tui.app import RingbookApp
from tui.screens import chapter as chapter_module

from textual.app import App
from textual.widgets.markdown import MarkdownBlock

first_frame = {}     # the first frame handed to the driver with the chapter's opening paragraphs in it
filled_in = {}       # the whole narrative and the exercise list, a few frames later
original = chapter_module.ChapterScreen._fill_in
display = App._display
ROUNDS = 3

def stamped_display(app, screen, update):
    if (update is not None and getattr(app, "awaiting_frame", False)
            and isinstance(screen, chapter_module.ChapterScreen) and screen.query(MarkdownBlock)):
        app.awaiting_frame = False
        first_frame.setdefault(screen.chapter.id, []).append(time.perf_counter() - app.opened_at)
    return display(app, screen, update)

async def timed_fill_in(self):
    await original(self)
    filled_in.setdefault(self.chapter.id, []).append(time.perf_counter() - self.app.opened_at)

App._display = stamped_display
chapter_module.ChapterScreen._fill_in = timed_fill_in

class Visitor(RingbookApp):
    async def on_mount(self):
        super().on_mount()
        # After the warm-up, as a learner would. A worker, not a timer handler: a handler that awaits
        # would hold up the app's own message queue for the whole visit.
        self.set_timer(1.5, lambda: self.run_worker(self.visit()))

    async def visit(self):
        for _ in range(ROUNDS):
            for chapter in self.session.book.chapters:
                seen = len(filled_in.get(chapter.id, []))
                self.opened_at = time.perf_counter()
                self.awaiting_frame = True
                self.open_chapter(chapter)
                for _ in range(200):                # wait for the whole narrative and the list
                    await asyncio.sleep(0.02)
                    if len(filled_in.get(chapter.id, [])) > seen:
                        break
                await asyncio.sleep(0.3)
                self.pop_screen()
                await asyncio.sleep(0.5)            # the closed chapter's widgets are torn down first
        self.exit()

store = open_store_or_report(Path(sys.argv[1]))
book = load_or_report(None)
Visitor(book, store, quiet_host=False).run(headless=True, size=(80, 24))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
for stamped in (first_frame, filled_in):
    print(" ".join(f"{k}=" + ",".join(f"{x * 1000:.1f}" for x in v) for k, v in stamped.items()))
print(f"peak={peak:.1f}")
"""


# As on a learner's machine, Python may cache compiled modules (some sandboxes turn that off, which makes
# every start recompile everything and measures the compiler, not the app).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(script: str, *args: str) -> float:
    """Seconds from just before the process starts to its first frame (headless)."""
    read, write = os.pipe()
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", script, str(write), *args], check=True, cwd=ROOT, capture_output=True,
                   env=ENV, pass_fds=(write,))
    os.close(write)
    with os.fdopen(read) as stamp:
        return float(stamp.read()) - started


@dataclass
class Starts:
    """Seconds from start, in a terminal, to the first byte, to the screen's own text (home's book list)
    and to the whole screen with its footer of keys; and to the first frame, headless."""

    first_byte: list[float] = field(default_factory=list)
    content: list[float] = field(default_factory=list)
    home: list[float] = field(default_factory=list)
    headless: list[float] = field(default_factory=list)


async def in_terminal(terminals: Terminals, argv: list[str], env: dict[str, str], shown: tuple[str, ...],
                      starts: Starts | None) -> None:
    session = terminals.start(argv, env, ROOT)
    try:   # both waits are set before any byte comes, so each gets the read that first satisfied it
        content, home = await asyncio.gather(session.wait_for(shown[0], timeout=60),
                                             session.wait_for(*shown, timeout=60))
    finally:
        terminals.end(session)
    if starts is not None:
        assert session.first_byte is not None, "home was shown, so bytes came"
        starts.first_byte.append(session.first_byte - session.started)
        starts.content.append(content - session.started)
        starts.home.append(home - session.started)


async def time_starts(runs: int, data_dir: str) -> tuple[Starts, Starts, Starts]:
    """The hello world with a header and footer, ringbook, and the bare hello world, in turn, `runs` times."""
    hello_argv = [sys.executable, "-c", HELLO_APP + "Hello().run()"]
    bare_argv = [sys.executable, "-c", BARE_HELLO_APP + "Hello().run()"]
    ringbook_argv = [sys.executable, "-m", "tui"]
    env = {**ENV, "TERM": "xterm-256color", "RINGBOOK_DATA_DIR": data_dir}
    hello, ringbook, bare = Starts(), Starts(), Starts()
    terminals = Terminals()
    try:
        # The first run creates the store and the book cache, and warms the OS file cache.
        await in_terminal(terminals, ringbook_argv, env, HOME_SHOWN, None)
        await in_terminal(terminals, hello_argv, env, HELLO_SHOWN, None)
        await in_terminal(terminals, bare_argv, env, BARE_HELLO_SHOWN, None)
        for _ in range(runs):      # interleaved, so machine noise hits all alike
            await in_terminal(terminals, hello_argv, env, HELLO_SHOWN, hello)
            await in_terminal(terminals, ringbook_argv, env, HOME_SHOWN, ringbook)
            await in_terminal(terminals, bare_argv, env, BARE_HELLO_SHOWN, bare)
            hello.headless.append(timed(HELLO))
            ringbook.headless.append(timed(RINGBOOK, data_dir))
    finally:
        terminals.close()
    return hello, ringbook, bare


def ratio_line(hello: list[float], ringbook: list[float], target: str = "") -> str:
    ratios = [r / h for h, r in zip(hello, ringbook, strict=True)]
    quartiles = " ".join(f"{q:.2f}" for q in statistics.quantiles(ratios, n=4))
    return f"ratio {statistics.median(ratios):.2f}x, median of paired runs{target}; quartiles {quartiles}"


def report_starts(runs: int, hello: Starts, ringbook: Starts, bare: Starts) -> None:
    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:7.0f} ms"

    def after(later: list[float], earlier: list[float]) -> str:
        return ms([b - a for a, b in zip(earlier, later, strict=True)]).strip()

    print(f"start to home in an 80x24 pseudo-terminal (median of {runs} runs each):")
    print("                           first byte     its text  with footer")
    for name, starts in (("hello-world Textual app", hello), ("ringbook home screen", ringbook)):
        print(f"  {name:<24} {ms(starts.first_byte)}   {ms(starts.content)}   {ms(starts.home)}")
    print(f"  {'bare hello world':<24} {ms(bare.first_byte)}   {ms(bare.content)}   (one Static, no footer)")
    print(f"  home's text against the bare hello world's: "
          f"{ratio_line(bare.content, ringbook.content, ' (target <= 1.15x, issue 48)')}")
    print(f"  home with footer: {ratio_line(hello.home, ringbook.home, ' (target <= 1.15x)')}")
    print(f"  home's text:      {ratio_line(hello.content, ringbook.content)}")
    print(f"  first byte:       {ratio_line(hello.first_byte, ringbook.first_byte)}")
    print(f"  first byte to text: ringbook {after(ringbook.content, ringbook.first_byte)}, "
          f"hello world {after(hello.content, hello.first_byte)}; "
          f"text to footer: ringbook {after(ringbook.home, ringbook.content)}, "
          f"hello world {after(hello.home, hello.content)}")
    print(f"start to first frame, headless driver (median of {runs} runs each):")
    print(f"  hello-world Textual app  {ms(hello.headless)}")
    print(f"  ringbook home screen     {ms(ringbook.headless)}")
    print(f"  {ratio_line(hello.headless, ringbook.headless)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--start-only", action="store_true", help="time the start only, not the chapters")
    options = parser.parse_args()
    runs = options.runs

    with tempfile.TemporaryDirectory() as data_dir:
        hello, ringbook, bare = asyncio.run(time_starts(runs, data_dir))
        report_starts(runs, hello, ringbook, bare)
        if options.start_only:
            return
        output = subprocess.run([sys.executable, "-c", VISIT_ALL, data_dir], check=True, cwd=ROOT,
                                capture_output=True, text=True, env=ENV).stdout.splitlines()
    first_frame, filled_in = (
        {k: [float(x) for x in v.split(",")] for k, v in (pair.split("=") for pair in line.split())}
        for line in output[:2])
    peak = float(output[2].split("=")[1])
    medians = {k: statistics.median(v) for k, v in first_frame.items()}
    every = [x for v in first_frame.values() for x in v]
    print("\nchapter open to its first frame, the opening paragraphs in it (ms, median of 3 visits per chapter):")
    print("  " + "  ".join(f"{k}:{v:.0f}" for k, v in medians.items()))
    print(f"  median {statistics.median(every):.0f} ms over all visits; slowest chapter {max(medians.values()):.0f} ms"
          " (target <= 100 ms)")
    whole = {k: statistics.median(v) for k, v in filled_in.items()}
    print(f"  the whole chapter filled in (narrative and exercise list): median "
          f"{statistics.median(x for v in filled_in.values() for x in v):.0f} ms, slowest chapter "
          f"{max(whole.values()):.0f} ms")
    print(f"\npeak RSS after visiting every chapter (units warmed; sympy lives in the proof worker's own process): "
          f"{peak:.0f} MB (target <= 120 MB)")


if __name__ == "__main__":
    main()
