"""App speed and memory: start to first frame (against a hello-world Textual app in the same run),
chapter open to first content, and peak RSS after visiting every chapter.

Run: uv run python benchmarks/app_performance.py [--runs N]
Targets (issue 5): first frame <= 1.15x hello world; first content <= 100 ms; peak RSS <= 120 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HELLO = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Hello(App):
    def compose(self):
        yield Header()
        yield Static("Hello, world")
        yield Footer()
    def on_mount(self):
        self.call_after_refresh(self.exit)

Hello().run(headless=True, size=(80, 24))
"""

RINGBOOK = """
import os, sys
from tui import app
from tui.cli.main import main
from tui.screens.home import HomeScreen

class FirstFrame(app.RingbookApp):
    def __init__(self, book, store):
        super().__init__(book, store, warm=False)
    def run(self):
        return super().run(headless=True, size=(80, 24))

def exit_after_first_frame(screen):
    screen.call_after_refresh(screen.app.exit)   # once the home screen itself has been painted

HomeScreen.on_mount = exit_after_first_frame

app.RingbookApp = FirstFrame                 # the real `ringbook` entry point, exiting after its first frame
os.environ["TEXTUAL_DRIVER"] = "headless"    # no terminal here; run_app accepts a named driver
os.environ["RINGBOOK_DATA_DIR"] = sys.argv[1]
sys.exit(main([]))
"""

VISIT_ALL = """
import asyncio, resource, sys, time
from pathlib import Path
from tui.cli.common import load_or_report, open_store_or_report
from tui.app import RingbookApp
from tui.screens import chapter as chapter_module

first_content = {}
original = chapter_module.ChapterScreen._fill_in
ROUNDS = 3

async def timed_fill_in(self):
    # called right after the first frame with the opening paragraphs painted: first content is visible
    first_content.setdefault(self.chapter.id, []).append(time.perf_counter() - self.app.opened_at)
    await original(self)

chapter_module.ChapterScreen._fill_in = timed_fill_in

class Visitor(RingbookApp):
    async def on_mount(self):
        super().on_mount()
        # After the warm-up, as a learner would. A worker, not a timer handler: a handler that awaits
        # would hold up the app's own message queue for the whole visit.
        self.set_timer(1.5, lambda: self.run_worker(self.visit()))

    async def visit(self):
        for _ in range(ROUNDS):
            for chapter in self.book.chapters:
                seen = len(first_content.get(chapter.id, []))
                self.opened_at = time.perf_counter()
                self.open_chapter(chapter)
                for _ in range(200):                # wait for the whole narrative to render
                    await asyncio.sleep(0.02)
                    if len(first_content.get(chapter.id, [])) > seen and self.screen.query('#exercise-list'):
                        break
                await asyncio.sleep(0.3)
                self.pop_screen()
                await asyncio.sleep(0.5)            # the closed chapter's widgets are torn down first
        self.exit()

store = open_store_or_report(Path(sys.argv[1]))
book = load_or_report(None, cache_dir=store.path.parent)
Visitor(book, store, warm=True).run(headless=True, size=(80, 24))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(" ".join(f"{k}=" + ",".join(f"{x * 1000:.1f}" for x in v) for k, v in first_content.items()))
print(f"peak={peak:.1f}")
"""


# As on a learner's machine, Python may cache compiled modules (some sandboxes turn that off, which makes
# every start recompile everything and measures the compiler, not the app).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(script: str, *args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", script, *args], check=True, cwd=ROOT, capture_output=True, env=ENV)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs

    with tempfile.TemporaryDirectory() as data_dir:
        timed(RINGBOOK, data_dir)  # first run creates the store and warms the OS file cache
        timed(HELLO)
        hello, ringbook = [], []
        for _ in range(runs):      # interleaved, so machine noise hits both alike
            hello.append(timed(HELLO))
            ringbook.append(timed(RINGBOOK, data_dir))
        h, r = statistics.median(hello), statistics.median(ringbook)
        print(f"start to first frame (median of {runs}, process start to exit after the first frame):")
        print(f"  hello-world Textual app  {h * 1000:7.0f} ms")
        print(f"  ringbook home screen     {r * 1000:7.0f} ms   ratio {r / h:.2f}x (target <= 1.15x)")

        output = subprocess.run([sys.executable, "-c", VISIT_ALL, data_dir], check=True, cwd=ROOT,
                                capture_output=True, text=True, env=ENV).stdout.splitlines()
    times = {k: [float(x) for x in v.split(",")] for k, v in (pair.split("=") for pair in output[0].split())}
    peak = float(output[1].split("=")[1])
    medians = {k: statistics.median(v) for k, v in times.items()}
    every = [x for v in times.values() for x in v]
    print("\nchapter open to first content (ms, median of 3 visits per chapter):")
    print("  " + "  ".join(f"{k}:{v:.0f}" for k, v in medians.items()))
    print(f"  median {statistics.median(every):.0f} ms over all visits; slowest chapter {max(medians.values()):.0f} ms"
          " (target <= 100 ms)")
    print(f"\npeak RSS after visiting every chapter (units warmed; sympy lives in the proof worker's own process): "
          f"{peak:.0f} MB (target <= 120 MB)")


if __name__ == "__main__":
    main()
