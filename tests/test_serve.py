"""`ringbook serve` for real: the server as a subprocess on a free loopback port, its page over HTTP, and
browser sessions over its websocket, each one its own ringbook."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

ESCAPE_SEQUENCE = re.compile(rb"\x1b(\[[0-9;?$]*[a-zA-Z]|\][^\x07]*\x07)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(tmp_path: Path, *args: str) -> subprocess.Popen:
    log = (tmp_path / "serve.log").open("w")
    return subprocess.Popen([sys.executable, "-m", "tui", "serve", *args], stdout=log, stderr=subprocess.STDOUT)


def wait_for_page(server: subprocess.Popen, url: str, log: Path, timeout: float = 60) -> str:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"ringbook serve exited with {server.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"no page at {url} within {timeout}s:\n{log.read_text()}")


def descendants(pid: int) -> set[int]:
    """The processes below `pid` (Linux /proc): the ringbook each browser tab runs."""
    found, frontier = set(), {pid}
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            children = {int(child) for child in task.read_text().split()}
            frontier |= children - found
            found |= children
    return found


@pytest.fixture
def served(tmp_path: Path):
    """ringbook serve on a free loopback port and a temp data dir; yields (port, server, data dir)."""
    port = free_port()
    data_dir = tmp_path / "data"
    server = start_server(tmp_path, "--port", str(port), "--data-dir", str(data_dir))
    try:
        yield port, server, data_dir
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)


class Session:
    """One browser tab's websocket: what the app has drawn so far, as text without escape codes."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse):
        self.websocket = websocket
        self.output = b""

    def text(self) -> str:
        return ESCAPE_SEQUENCE.sub(b"", self.output).decode("utf-8", "replace")

    async def wait_for(self, text: str, timeout: float = 60) -> None:
        try:
            async with asyncio.timeout(timeout):
                while text not in self.text():
                    message = await self.websocket.receive()
                    if message.type != aiohttp.WSMsgType.BINARY:
                        raise AssertionError(f"the session ended ({message.type.name}) before {text!r} arrived")
                    self.output += message.data
        except TimeoutError:
            raise AssertionError(f"{text!r} did not arrive within {timeout}s; got:\n{self.text()[-2000:]}") from None

    async def press(self, keys: str) -> None:
        await self.websocket.send_json(["stdin", keys])

    async def wait_closed(self, timeout: float = 20) -> None:
        try:
            async with asyncio.timeout(timeout):
                while (await self.websocket.receive()).type == aiohttp.WSMsgType.BINARY:
                    pass
        except TimeoutError:
            raise AssertionError(f"the session was still open after {timeout}s") from None


async def test_page_and_two_tabs_each_their_own_ringbook(served, tmp_path: Path):
    port, server, data_dir = served
    page = wait_for_page(server, f"http://127.0.0.1:{port}/", tmp_path / "serve.log")
    assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page

    async with aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{port}/ws?width=80&height=24"
        async with http.ws_connect(url) as first_socket, http.ws_connect(url) as second_socket:
            first, second = Session(first_socket), Session(second_socket)
            await first.wait_for("Mastery 0 / ")
            await second.wait_for("Mastery 0 / ")
            await first.press("q")                       # quitting one tab ends only its ringbook
            await first.wait_closed()
            await second.press("\r")                     # the other still answers: open chapter 0
            await second.wait_for("e Exercises")
            tab_processes = descendants(server.pid)
            assert tab_processes

            server.send_signal(signal.SIGINT)           # Ctrl+C with a tab still open
            await second.wait_closed(timeout=10)
            assert await asyncio.to_thread(server.wait, 10) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in tab_processes), "a tab's ringbook outlived the server"
    assert (data_dir / "progress.sqlite3").exists()     # the served app used the server's --data-dir


def test_warns_when_not_on_loopback(tmp_path: Path):
    port = free_port()
    server = start_server(tmp_path, "--host", "0.0.0.0", "--port", str(port), "--data-dir", str(tmp_path / "data"))
    try:
        wait_for_page(server, f"http://127.0.0.1:{port}/", tmp_path / "serve.log")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=20)
    log = " ".join((tmp_path / "serve.log").read_text().split())
    assert "warning: 0.0.0.0 is not a loopback address" in log and "no authentication" in log


def test_port_in_use_is_a_plain_message(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "tui", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert f"ringbook serve: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
