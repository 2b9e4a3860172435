"""`ringbook serve`: the app in a web browser through textual-serve, one ringbook process per browser tab.

There is no authentication: whoever reaches the port uses ringbook as the person who started it, with
their progress. So it binds to loopback unless told otherwise, and warns when told otherwise.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import shlex
import sys
from pathlib import Path

from textual_serve.server import Server


class RingbookServer(Server):
    """textual-serve's server, which also ends the open browser sessions when it stops: aiohttp would
    otherwise wait a minute for each open websocket before Ctrl+C takes effect."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sessions: set[asyncio.Task] = set()

    async def handle_websocket(self, request):
        session = asyncio.current_task()
        self._sessions.add(session)
        try:
            return await super().handle_websocket(request)
        finally:
            self._sessions.discard(session)

    async def on_shutdown(self, app) -> None:
        for session in self._sessions:
            session.cancel()  # textual-serve then closes the websocket and asks that tab's ringbook to quit


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def app_command(content: Path | None, data_dir: Path | None) -> str:
    """The shell command each browser tab runs: this same ringbook, on the same book and data folder."""
    command = [sys.executable, "-m", "tui"]
    if content is not None:
        command += ["--content", str(content.resolve())]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir.resolve())]
    return shlex.join(command)


def run_serve(host: str, port: int, content: Path | None, data_dir: Path | None) -> int:
    from tui.cli.common import load_or_report

    if load_or_report(content) is None:  # say what is wrong with the book once, not in every browser tab
        return 1
    if not is_loopback(host):
        print(f"ringbook serve: warning: {host} is not a loopback address. ringbook serve has no "
              "authentication: anyone who can reach this port uses ringbook as you, with your progress.",
              file=sys.stderr)
    try:
        RingbookServer(app_command(content, data_dir), host=host, port=port, title="ringbook").serve()
    except OSError as exc:
        # aiohttp wraps a bind error's errno in a long message; a name that does not resolve has its own text.
        reason = os.strerror(exc.errno).lower() if (exc.errno or 0) > 0 else (exc.strerror or str(exc)).lower()
        print(f"ringbook serve: cannot listen on {host}:{port}: {reason}.", file=sys.stderr)
        return 1
    return 0
