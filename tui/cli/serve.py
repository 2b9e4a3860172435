"""`ringbook serve`: the app in a web browser through textual-serve, one ringbook process per browser tab.

A tab runs ringbook as the person who started the server, and build exercises run Python, so reaching
the server means running code as them. Any web page open in their browser can send requests to
127.0.0.1, so, as Jupyter does, every request must carry a random per-launch token, a websocket must
come from the server's own page (Origin), and the Host header must name the served address, which
stops a page that points its own domain at 127.0.0.1 (DNS rebinding).

No cookie holds the key: a browser sends a host's cookies to every port of it, so a page that another
account serves on 127.0.0.1 at another port would receive it, and a program can send any Origin. The
page is served only to its address with the token, and its websocket address carries a ticket made for
that page load and good for one connection.

The page is textual-serve's with its fonts served from here, so it works offline, and a Start button in
front of the terminal: the click or Enter that starts lands on the button, never in the app, and hands
the keyboard to the terminal. Ctrl+C ends every tab
within about a second: a tab's ringbook that has not quit by then is killed, and no browser is waited for.

RingbookServer overrides textual-serve's Server internals (`_make_app`, its route names, `_process_messages`,
AppService's `_process`); tests/test_pinned_internals.py checks each, and pyproject.toml bounds textual-serve,
aiohttp and aiohttp-jinja2 to the series it passed with.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import os
import secrets
import shlex
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, log, to_int

from grader.safe_text import clipped
from tui.cli.common import counted

PAGE_TEMPLATES = Path(__file__).with_name("serve_page")
# How long a tab's ringbook gets to quit when the server stops or the tab closes, before it is killed, and
# how long a closing websocket waits for the browser's reply. A ringbook at rest quits in a few hundred ms.
QUIT_GRACE_SECONDS = 1.0
CLOSE_WAIT_SECONDS = 1.0

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})

# The routes whose websocket runs a session: textual-serve's own, and the page's with its ticket. Each needs the
# page's Origin, which a browser always sends on a websocket (issue 42.12: the ticketed one did not).
SESSION_ROUTES = frozenset({"websocket", "ticketed_websocket"})

# Pages loaded whose websocket has not connected yet; the oldest ticket is forgotten past this many.
OPEN_TICKETS = 64

NEEDS_TOKEN = ("This page needs the token that ringbook serve printed when it started. Open the full address "
               "it printed, the one that ends in ?token=...")
WRONG_HOST = ("ringbook serve answers only at the address it printed when it started. Open that address, with "
              "its token.")
OTHER_ORIGIN = ("ringbook refused this connection because it did not come from ringbook's own page. Open the "
                "address ringbook serve printed when it started.")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_and_port(netloc: str) -> tuple[str, int] | None:
    """("127.0.0.1", 8000) from "127.0.0.1:8000", ("::1", 80) from "[::1]"; None for anything else."""
    try:
        parts = urlsplit("//" + netloc)
        port = parts.port or 80
    except ValueError:
        return None
    if not parts.hostname or parts.netloc != netloc or "@" in netloc:
        return None
    return parts.hostname, port


class ServedAddress:
    """The names a request may use to reach this server. A page elsewhere that makes the browser talk to
    127.0.0.1 either sends its own Origin or, with DNS rebinding, its own name in Host; both fail here."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.wildcard = host in WILDCARD_HOSTS
        self.names = {host.strip("[]").lower()}
        if self.wildcard or is_loopback(host):
            self.names |= LOOPBACK_NAMES

    def accepts_host(self, netloc: str) -> bool:
        address = _host_and_port(netloc)
        if address is None or address[1] != self.port:
            return False
        name = address[0]
        if name in self.names:
            return True
        # Listening on every address, any of this machine's IP addresses may be used. An address written
        # as digits is not a rebinding attack: that needs a name the attacker's DNS can point here.
        return self.wildcard and _is_ip_address(name)

    def accepts_origin(self, origin: str | None, host: str) -> bool:
        """The Origin must be the page this request was addressed to: same scheme, name and port."""
        if not origin:
            return False
        scheme, _, netloc = origin.partition("://")
        origin_address = _host_and_port(netloc)
        return scheme.lower() == "http" and origin_address is not None and origin_address == _host_and_port(host)

    @property
    def url(self) -> str:
        """The address to open in a browser; listening on every address, this machine's loopback one."""
        name = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host, self.host)
        if ":" in name:
            name = f"[{name.strip('[]')}]"
        return f"http://{name}:{self.port}/"


def _is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class RingbookServer(Server):
    """textual-serve's server behind a token, Origin and Host check, with a page that needs no other site,
    and sessions that end promptly: textual-serve waits for each tab's ringbook to quit and for each
    browser to answer its websocket's close, so Ctrl+C with a tab open took ten seconds or more."""

    def __init__(self, command: str, host: str, port: int, token: str, book_title: str):
        super().__init__(command, host=host, port=port, title=f"ringbook — {book_title}",   # as the app's header
                         templates_path=PAGE_TEMPLATES)
        self.token = token
        self.address = ServedAddress(host, port)
        self.key_url = f"{self.address.url}?token={token}"
        self._tickets: dict[str, None] = {}   # each page load's websocket ticket, oldest first
        self._sessions: set[asyncio.Task] = set()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/ws/{ticket}", self.handle_websocket, name="ticketed_websocket")
        app.middlewares.append(self._guard)
        return app

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Refuse a request with a plain 403 before any handler runs, so no ringbook starts for it."""
        refusal = await self._refusal(request)
        if refusal is not None:
            reason, text = refusal
            shown = "/ws/TICKET" if request.match_info.route.name == "ticketed_websocket" else request.path
            print(f"ringbook serve: refused {request.method} {clipped(shown, 60)}: {reason}",
                  file=sys.stderr, flush=True)
            return web.Response(status=403, text=text)
        response = await handler(request)
        if not response.prepared:  # a websocket has already sent its headers
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
            if request.match_info.route.name == "index":
                response.headers["Cache-Control"] = "no-store"   # it holds a ticket: going back fetches a new one
        return response

    async def _refusal(self, request: web.Request) -> tuple[str, str] | None:
        """(why, for the log; what to tell the browser) when the request must be refused, else None."""
        host = request.headers.get("Host", "")
        if not self.address.accepts_host(host):
            return f"addressed to '{clipped(host, 60)}', not to this server", WRONG_HOST
        origin = request.headers.get("Origin")
        route = request.match_info.route.name
        # A browser always sends Origin on a websocket; on a page load it may leave it out. Checked before a
        # ticket is spent, so a refused connection does not use up the page's.
        if (origin is not None or route in SESSION_ROUTES) and not self.address.accepts_origin(origin, host):
            return f"sent from '{clipped(origin or 'no page', 60)}', not from ringbook's own page", OTHER_ORIGIN
        if route == "static":  # textual-serve's own scripts, styles and fonts: nothing of the learner's
            return None
        if route == "ticketed_websocket":
            ticket = request.match_info["ticket"]
            if ticket in self._tickets:
                del self._tickets[ticket]   # good for one connection
                return None
            return "with a ticket this server did not give, or has taken", NEEDS_TOKEN
        if route == "download" and await self._is_delivery(request.match_info["key"]):
            return None   # a tab's file: its key, random, went only to that tab's page over its websocket
        if not self._is_token(request.query.get("token")):
            return "without the token", NEEDS_TOKEN
        return None

    async def _is_delivery(self, key: str) -> bool:
        try:
            await self.download_manager.get_download_metadata(key)
        except KeyError:
            return False
        return True

    def _ticket(self) -> str:
        """A new page's websocket ticket; the oldest unused one is forgotten past OPEN_TICKETS."""
        ticket = secrets.token_urlsafe(32)
        self._tickets[ticket] = None
        while len(self._tickets) > OPEN_TICKETS:
            del self._tickets[next(iter(self._tickets))]
        return ticket

    def _is_token(self, presented: str | None) -> bool:
        if presented is None:
            return False
        return hmac.compare_digest(presented.encode("utf-8", "surrogatepass"), self.token.encode())

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict:
        """textual-serve's page, with its websocket at the address this page was loaded from (checked by
        `_guard`) and a ticket for one connection in its path (the page's script adds ?width=...)."""
        host = request.headers["Host"]
        return {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"ws://{host}/ws/{self._ticket()}",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One browser tab: its own ringbook, fed the tab's keys, until either side ends or the server stops."""
        websocket = web.WebSocketResponse(heartbeat=15, timeout=CLOSE_WAIT_SECONDS)
        await websocket.prepare(request)

        async def close() -> None:
            await websocket.close()

        tab = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                         close=close, download_manager=self.download_manager, debug=self.debug)
        session = asyncio.current_task()
        assert session is not None  # aiohttp handles each request in a task of its own
        self._sessions.add(session)
        try:
            await tab.start(to_int(request.query.get("width", "80"), 80), to_int(request.query.get("height", "24"), 24))
            await self._process_messages(websocket, tab)
        except asyncio.CancelledError:
            pass  # the server is stopping (on_shutdown)
        except Exception as error:  # a tab's failure ends that tab, not the server
            log.error("a session ended on an error: %s", clipped(repr(error), 200))
        finally:
            self._sessions.discard(session)
            await asyncio.gather(end_tab(tab), websocket.close())
        return websocket

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: textual-serve says "Serving" here, before the port is bound; `_announce` says it after."""

    async def on_shutdown(self, app: web.Application) -> None:
        sessions = list(self._sessions)
        open_ones = f", ending {counted(len(sessions), 'open session')}" if sessions else ""
        print(f"Stopping ringbook serve{open_ones}.", flush=True)
        for session in sessions:
            session.cancel()
        await asyncio.gather(*sessions, return_exceptions=True)

    def serve(self, debug: bool = False) -> None:
        """textual-serve's serve, except that the banner comes once every socket is bound (aiohttp calls
        its `print` then), so a busy port is reported without a misleading banner first."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(signal_number, self.request_exit)
            except NotImplementedError:  # Windows
                pass
        # No access log: it would print each request's token and the browser's own text to the terminal.
        web.run_app(self._make_app(), host=self.host, port=self.port, handle_signals=False, loop=loop,
                    access_log=None, print=lambda _aiohttp_banner: self._announce())

    def _announce(self) -> None:
        print(f"ringbook is served at {self.key_url}\n"
              "Each browser tab that opens this address runs ringbook as you, and build exercises run Python "
              "code with your permissions. The address with its token is a key: do not share it.\n"
              "Press Ctrl+C to stop the server and every open session.", flush=True)


async def end_tab(tab: AppService) -> None:
    """Ask a tab's ringbook to quit, and kill it if it has not within QUIT_GRACE_SECONDS (busy, or stopped).
    Its progress is safe either way: the store commits each answer as it is given."""
    process = tab._process  # textual-serve keeps it private, and gives no other way to end a ringbook that hangs
    if process is None:
        return
    stopping = asyncio.create_task(tab.stop())  # sends "quit", then passes on the tab's output to its end
    try:
        await asyncio.wait_for(process.wait(), QUIT_GRACE_SECONDS)
    except TimeoutError:
        process.kill()
        await process.wait()
    # Its last output, and the websocket close it asks for, get as long as a browser gets to answer a close.
    _, unfinished = await asyncio.wait({stopping}, timeout=CLOSE_WAIT_SECONDS)
    if unfinished:
        stopping.cancel()
        await asyncio.gather(stopping, return_exceptions=True)


def app_command(content: Path | None, data_dir: Path | None) -> str:
    """The shell command each browser tab runs: this same ringbook, on the same book and data folder. The
    shell execs it, so the process textual-serve holds is ringbook itself, and killing it leaves no orphan."""
    command = [sys.executable, "-m", "tui"]
    if content is not None:
        command += ["--content", str(content.resolve())]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir.resolve())]
    return "exec " + shlex.join(command)


def run_serve(host: str, port: int, content: Path | None, data_dir: Path | None) -> int:
    from tui.cli.common import load_or_report

    problem = why_not_listen(host, port)   # before the book loads, so that a busy port is said at once
    if problem is not None:
        return _cannot_listen(host, port, problem)
    book = load_or_report(content)   # say what is wrong with the book once, not in every browser tab
    if book is None:
        return 1
    if not is_loopback(host):
        print(f"ringbook serve: warning: {host} is not a loopback address, so other machines can reach this "
              "server. Anyone who has the address with its token uses ringbook as you and can run code as "
              "you, and the token crosses the network unencrypted. An SSH tunnel to 127.0.0.1 is safer.",
              file=sys.stderr)
    server = RingbookServer(app_command(content, data_dir), host=host, port=port, token=secrets.token_urlsafe(32),
                            book_title=book.title)
    try:
        server.serve()
    except OSError as exc:  # taken between the check and the server's own bind
        return _cannot_listen(host, port, reason(exc))
    return 0


def _cannot_listen(host: str, port: int, problem: str) -> int:
    print(f"ringbook serve: cannot listen on {host}:{port}: {problem}.", file=sys.stderr)
    return 1


def why_not_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (the port is taken, the name is unknown), found by
    binding each address it would and letting go at once; None when it can."""
    try:
        for family, kind, protocol, _, address in socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                                     flags=socket.AI_PASSIVE):
            with socket.socket(family, kind, protocol) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp: TIME_WAIT is no obstacle
                if family == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
    except OSError as exc:
        return reason(exc)
    return None


def reason(exc: OSError) -> str:
    """An OSError in a few words: aiohttp wraps a bind error's errno in a long message, and a name that
    does not resolve has its own text."""
    number = exc.errno or 0
    return os.strerror(number).lower() if number > 0 else (exc.strerror or str(exc)).lower()
