"""`ringbook serve` in a real browser, which the suite cannot drive: starts a server on a fresh data folder
and opens its page in headless Chromium twice, starting the session once with a click on Start and once
with Enter. It checks that the terminal then has the keyboard, that `?` reaches the session, and that the
progress store is still empty (the starting click opened nothing); it screenshots each step into --out
(home as it was, the keys dialog, the header after a click on it, the notice after Ctrl+S) for a person
to look at. Exit status 1 when a check fails.

Playwright is not one of ringbook's dependencies; run this from a throwaway environment:

    uv venv /tmp/pw && uv pip install -p /tmp/pw playwright
    /tmp/pw/bin/python scripts/serve_in_chromium.py --chromium /usr/bin/chromium --out /tmp/serve-shots
"""

from __future__ import annotations

import argparse
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Not one of ringbook's dependencies (see above), so not installed where mypy checks the tree.
from playwright.sync_api import Page, sync_playwright  # type: ignore[import-not-found]

REPO = Path(__file__).resolve().parents[1]
KEY_URL = re.compile(r"http://\S+/\?token=\S+")
TERMINAL_HAS_KEYBOARD = "document.activeElement.classList.contains('xterm-helper-textarea')"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(data_dir: Path) -> tuple[subprocess.Popen, str]:
    log = data_dir.parent / "serve.log"
    server = subprocess.Popen(["uv", "run", "ringbook", "serve", "--port", str(free_port()), "--data-dir",
                               str(data_dir)], cwd=REPO, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = KEY_URL.search(log.read_text())
        if found:
            return server, found.group()
        if server.poll() is not None:
            break
        time.sleep(0.2)
    server.kill()
    sys.exit(f"ringbook serve did not print its address:\n{log.read_text()}")


def rows_kept(data_dir: Path) -> dict[str, int]:
    """How many rows each table of the progress store holds: all 0 for a learner who has done nothing."""
    with sqlite3.connect(data_dir / "progress.sqlite3") as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables}


class Tab:
    """A page and when its session last drew: the terminal is a canvas, so a quiet websocket is what says
    the app has finished drawing."""

    def __init__(self, page: Page):
        self.page = page
        self.last_drawn = time.monotonic()
        page.on("websocket", lambda socket: socket.on("framereceived", lambda frame: self.drew(frame)))

    def drew(self, _frame: object) -> None:
        self.last_drawn = time.monotonic()

    def settle(self, quiet_seconds: float = 2.5, at_most: float = 60) -> None:
        """Wait until the session has drawn nothing for `quiet_seconds`."""
        deadline = time.monotonic() + at_most
        self.page.wait_for_timeout(200)
        while time.monotonic() - self.last_drawn < quiet_seconds and time.monotonic() < deadline:
            self.page.wait_for_timeout(100)

    def press(self, key: str, at_most: float = 30) -> bool:
        """Press `key` and wait for the session to draw its answer (on a busy machine that can take
        seconds), then for it to finish; False when it drew nothing."""
        pressed = time.monotonic()
        self.page.keyboard.press(key)
        while self.last_drawn < pressed and time.monotonic() - pressed < at_most:
            self.page.wait_for_timeout(100)
        self.settle(1.0)
        return self.last_drawn >= pressed


def session(tab: Tab, url: str, how: str, out: Path) -> list[str]:
    """One tab: start it by `how` ("click" or "enter"); return what went wrong, if anything."""
    problems, page = [], tab.page
    page.goto(url)
    page.wait_for_function("document.body.classList.contains('-first-byte')", timeout=60_000)
    print(f"[{how}] tab title: {page.title()!r}; keyboard on: #{page.evaluate('document.activeElement.id')}")
    page.screenshot(path=out / f"{how}-1-before-start.png")
    if how == "click":
        page.click("#start")   # the button's middle, over the home screen's chapter list
    else:
        page.keyboard.press("Enter")
    if not page.evaluate(TERMINAL_HAS_KEYBOARD):
        problems.append(f"[{how}] the terminal does not have the keyboard after Start")
    tab.settle()
    page.screenshot(path=out / f"{how}-2-started.png")
    if not tab.press("?"):
        problems.append(f"[{how}] ? drew nothing: the keys did not reach the session")
    page.screenshot(path=out / f"{how}-3-question-mark.png")
    tab.press("Escape")
    return problems


def header_and_screenshot(tab: Tab, out: Path) -> None:
    page = tab.page
    page.mouse.click(page.viewport_size["width"] // 2, 8)    # the header's row
    tab.settle()
    page.screenshot(path=out / "header-clicked.png")
    popups = []
    page.context.on("page", lambda popup: popups.append(popup))
    tab.press("Control+s")
    page.screenshot(path=out / "ctrl-s.png")
    print(f"Ctrl+S opened {len(popups)} download tab(s): {[p.url.split('?')[0] for p in popups]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "ringbook-serve-shots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    data_dir = Path(tempfile.mkdtemp(prefix="ringbook-serve-")) / "data"
    server, url = start_server(data_dir)
    problems = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium)
            for how in ("click", "enter"):
                tab = Tab(browser.new_page(viewport={"width": 1100, "height": 700}))
                problems += session(tab, url, how, args.out)
                if how == "enter":
                    header_and_screenshot(tab, args.out)
                tab.page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    kept = rows_kept(data_dir)
    print(f"progress store rows after both sessions: {kept}")
    if any(kept.values()):
        problems.append("the sessions wrote to the progress store")
    print(f"screenshots in {args.out}")
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
