"""`ringbook serve` with N browser tabs opened together, each driven as textual-serve's page drives it: the
page at the printed address, then its websocket (tests/cli/test_serve.py talks to it the same way)."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from process_tree import children, tree_memory

ESCAPE_SEQUENCE = re.compile(rb"\x1b(\[[0-9;?$<>=]*[a-zA-Z~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>])")
KEY_URL = re.compile(r"http://\S+/\?token=[A-Za-z0-9_-]+")
TAB_HOME = "Mastery "


@dataclass
class ServeFigures:
    """Seconds from opening a tab's websocket to its first frame and to home on it; PSS in MB."""

    first_frame: list[float] = field(default_factory=list)
    home: list[float] = field(default_factory=list)
    tab_memory: list[float] = field(default_factory=list)
    server_memory: float = 0.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def key_url(server: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"ringbook serve exited with {server.returncode}:\n{log.read_text()}")
        found = KEY_URL.search(log.read_text())
        if found:
            return found.group()
        await asyncio.sleep(0.1)
    raise RuntimeError(f"ringbook serve printed no address within {timeout} s:\n{log.read_text()}")


async def open_tab(http: aiohttp.ClientSession, url: str, origin: str,
                   figures: ServeFigures) -> aiohttp.ClientWebSocketResponse:
    """Load the page, open its websocket, and read until home is drawn; the socket stays open."""
    async with http.get(url) as response:
        page = await response.text()
    [socket_url] = re.findall(r'data-session-websocket-url="([^"]+)"', page)
    started = time.monotonic()
    websocket = await http.ws_connect(socket_url + "?width=80&height=24", origin=origin)
    output = b""
    while TAB_HOME not in ESCAPE_SEQUENCE.sub(b"", output).decode("utf-8", "replace"):
        message = await asyncio.wait_for(websocket.receive(), 120)
        if message.type != aiohttp.WSMsgType.BINARY:
            raise RuntimeError(f"a tab ended ({message.type.name}) before its home screen")
        if not output:
            figures.first_frame.append(time.monotonic() - started)
        output += message.data
    figures.home.append(time.monotonic() - started)
    return websocket


async def serve_with_tabs(folder: Path, tabs: int) -> ServeFigures:
    """Start the server on a fresh data folder (the book is read from the copy beside it), open `tabs` tabs at
    once, read memory."""
    data = folder / "data"
    data.mkdir(parents=True)
    log = folder / "serve.log"
    port = free_port()
    with log.open("w") as output:
        server = subprocess.Popen([sys.executable, "-m", "tui", "serve", "--port", str(port), "--data-dir", str(data)],
                                  stdout=output, stderr=subprocess.STDOUT)
    figures = ServeFigures()
    try:
        url = await key_url(server, log)
        async with aiohttp.ClientSession() as http:
            sockets = await asyncio.gather(*(open_tab(http, url, f"http://127.0.0.1:{port}", figures)
                                             for _ in range(tabs)))
            await asyncio.sleep(1)
            figures.tab_memory = [tree_memory(pid).total for pid in children(server.pid)]   # a ringbook per tab
            figures.server_memory = tree_memory(server.pid).total - sum(figures.tab_memory)
            for websocket in sockets:
                await websocket.close()
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)       # as Ctrl+C: the server ends its tabs
            try:
                await asyncio.to_thread(server.wait, 30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    return figures
