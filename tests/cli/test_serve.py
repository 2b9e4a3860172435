"""`ringbook serve` for real: the server as a subprocess on a free loopback port, its page over HTTP, and
browser sessions over its websocket, each one its own ringbook. A session runs code as the user, so the
server must refuse every request that lacks the printed token, comes from another page's Origin, or
names another Host (DNS rebinding), and must refuse it before any ringbook starts."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from grader.book.load import load_book
from tests.helpers import RINGBOOK, free_port, ringbook_subprocess
from tui.cli.serve import ServedAddress

ESCAPE_SEQUENCE = re.compile(rb"\x1b(\[[0-9;?$]*[a-zA-Z]|\][^\x07]*\x07)")
KEY_URL = re.compile(r"http://\S+/\?token=([A-Za-z0-9_-]+)")


def start_server(tmp_path: Path, *args: str) -> subprocess.Popen:
    log = (tmp_path / "serve.log").open("w")
    return subprocess.Popen([*RINGBOOK, "serve", *args], stdout=log, stderr=subprocess.STDOUT)


def wait_for_key_url(server: subprocess.Popen, log: Path, timeout: float = 60) -> str:
    """The address with its token, as the startup banner prints it once the server listens."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"ringbook serve exited with {server.returncode}:\n{log.read_text()}")
        found = KEY_URL.search(log.read_text())
        if found:
            return found.group()
        time.sleep(0.2)
    raise AssertionError(f"no address with a token was printed within {timeout}s:\n{log.read_text()}")


def fetch_page(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


def descendants(pid: int) -> set[int]:
    """The processes below `pid` (Linux /proc): the ringbook each browser tab runs."""
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            children = {int(child) for child in task.read_text().split()}
            frontier |= children - found
            found |= children
    return found


@dataclass
class Served:
    port: int
    server: subprocess.Popen
    data_dir: Path
    key_url: str
    log: Path

    @property
    def token(self) -> str:
        return self.key_url.rsplit("=", 1)[1]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def serve_on_loopback(tmp_path: Path):
    """ringbook serve on a free loopback port and a temp data dir, stopped afterwards as Ctrl+C stops it (it
    ends its tabs' ringbooks); what is still running then is killed. Killing the server outright orphaned a
    tab's ringbook, which outlived the suite."""
    port = free_port()
    data_dir = tmp_path / "data"
    server = start_server(tmp_path, "--port", str(port), "--data-dir", str(data_dir))
    try:
        yield Served(port, server, data_dir, wait_for_key_url(server, tmp_path / "serve.log"), tmp_path / "serve.log")
    finally:
        tabs = descendants(server.pid) if server.poll() is None else set()
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
        for pid in tabs:                                # still there, and still this server's tab (not a reused pid)
            try:
                if str(data_dir).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGKILL)
            except (FileNotFoundError, ProcessLookupError):
                pass


@pytest.fixture
def served(tmp_path: Path):
    yield from serve_on_loopback(tmp_path)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """One server for the tests that only send requests it must refuse (none of them starts a tab)."""
    yield from serve_on_loopback(tmp_path_factory.mktemp("guarded"))


async def status_of(url: str, *, headers: dict[str, str] | None = None) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url, headers=headers or {}) as response:
        return response.status, await response.text()


async def handshake_status(url: str, *, origin: str | None, headers: dict[str, str] | None = None) -> int:
    """The HTTP status a websocket handshake gets: 101 when it opens, else the refusal."""
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(url, origin=origin, headers=headers or {}):
                return 101
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status


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


async def page_websocket(http: aiohttp.ClientSession, served: Served) -> str:
    """What the page at the printed address has its script open: its websocket address (with the ticket
    made for this page load), plus the size the script adds."""
    async with http.get(served.key_url) as response:
        assert response.status == 200
        page = await response.text()
    [url] = re.findall(r'data-session-websocket-url="([^"]+)"', page)
    assert url.startswith(f"ws://127.0.0.1:{served.port}/ws/") and served.token not in url
    return url + "?width=80&height=24"


async def test_page_and_two_tabs_each_their_own_ringbook(served):
    """The printed address opens the page, whose websocket address lets it in, as in a browser: two tabs."""
    server, data_dir = served.server, served.data_dir
    async with aiohttp.ClientSession() as http:
        first_url, second_url = await page_websocket(http, served), await page_websocket(http, served)
        async with http.ws_connect(first_url, origin=served.origin) as first_socket, \
                http.ws_connect(second_url, origin=served.origin) as second_socket:
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


async def test_ctrl_c_ends_a_tab_that_will_not_quit_and_a_browser_that_does_not_answer(served):
    """Stopping waited for each tab's ringbook to quit and for each browser to answer the websocket's close:
    ten seconds with a tab open, for ever with a ringbook that hangs. Now a ringbook that has not quit
    within a second is killed, and the server says that it is stopping."""
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(await page_websocket(http, served), origin=served.origin) as tab:
            await Session(tab).wait_for("Mastery 0 / ")
            [ringbook] = descendants(served.server.pid)   # the tab's ringbook itself: the shell execs it
            os.kill(ringbook, signal.SIGSTOP)              # it can no longer quit; this client reads no more
            try:
                served.server.send_signal(signal.SIGINT)
                assert await asyncio.to_thread(served.server.wait, 20) == 0
            finally:
                if Path(f"/proc/{ringbook}").exists():
                    os.kill(ringbook, signal.SIGKILL)
    assert not Path(f"/proc/{ringbook}").exists(), "the tab's ringbook outlived the server"
    assert "Stopping ringbook serve, ending 1 open session." in served.log.read_text()


async def test_the_page_needs_no_other_site(guarded):
    """textual-serve's page loaded its font from Google: offline the terminal fell back to another font,
    and online Google learned of every launch. Every address the page and its styles use is this server's."""
    async with aiohttp.ClientSession() as http:
        async with http.get(guarded.key_url) as response:
            assert response.status == 200
            page = await response.text()
        css_links = re.findall(r'<link[^>]*href="([^"]+)"', page)
        sheets = [page] + [await (await http.get(guarded.origin + link)).text() for link in css_links]
        addresses = [found for sheet in sheets
                     for found in re.findall(r'(?:href|src)\s*=\s*"([^"]*)"|url\(\s*["\']?([^"\')]+)', sheet)]
        addresses = [href or url for href, url in addresses]
        assert any("fonts/RobotoMono" in address for address in addresses)
        for address in addresses:
            assert urlsplit(address).netloc in ("", f"127.0.0.1:{guarded.port}"), address
            async with http.get(guarded.origin + urlsplit(address).path) as fetched:
                assert fetched.status == 200, address
                if address.endswith(".ttf"):
                    assert (await fetched.read())[:4] == b"\x00\x01\x00\x00", address   # a TrueType font
    assert "googleapis" not in page and "https://" not in page


def test_the_banner_gives_the_address_with_its_token_and_says_it_is_a_key(guarded):
    banner = " ".join(guarded.log.read_text().split())
    assert guarded.key_url.startswith(f"http://127.0.0.1:{guarded.port}/?token=")
    assert len(guarded.token) >= 40
    assert "run Python code with your permissions" in banner and "do not share it" in banner


async def test_without_the_token_every_route_is_refused(guarded):
    base = f"http://127.0.0.1:{guarded.port}"
    for path in ("/", "/download/anything"):
        status, text = await status_of(base + path)
        assert status == 403, path
        assert "needs the token that ringbook serve printed" in text and "<html" not in text
    assert await handshake_status(f"ws://127.0.0.1:{guarded.port}/ws", origin=guarded.origin) == 403


async def test_a_wrong_token_is_refused(guarded):
    base = f"http://127.0.0.1:{guarded.port}"
    off_by_one = guarded.token[:-1] + ("A" if guarded.token[-1] != "A" else "B")
    for wrong in (off_by_one, "", guarded.token[:-1], guarded.token + "x", "\u00e9"):
        assert (await status_of(f"{base}/?token={wrong}"))[0] == 403, wrong
        cookie = {"Cookie": f"ringbook-token-{guarded.port}={wrong}"}
        assert (await status_of(f"{base}/", headers=cookie))[0] == 403, wrong
        assert await handshake_status(f"ws://127.0.0.1:{guarded.port}/ws?token={wrong}", origin=guarded.origin) == 403
    # another server's cookie (browsers send cookies to every port of a host) is not this one's
    other = {"Cookie": f"ringbook-token-{guarded.port + 1}={guarded.token}"}
    assert (await status_of(f"{base}/", headers=other))[0] == 403


async def test_another_origin_is_refused_even_with_the_token_and_no_ringbook_starts(guarded):
    """The attack: a page at evil.example opens ws://127.0.0.1:PORT/ws. It once drove a ringbook that
    ran its code; now the handshake is refused before any ringbook process exists."""
    url = f"ws://127.0.0.1:{guarded.port}/ws?width=80&height=24&token={guarded.token}"
    cookie = {"Cookie": f"ringbook-token-{guarded.port}={guarded.token}"}
    for origin in ("http://evil.example", f"http://evil.example:{guarded.port}", "null",
                   f"https://127.0.0.1:{guarded.port}", f"http://127.0.0.1:{guarded.port + 1}", None):
        assert await handshake_status(url, origin=origin) == 403, origin
        assert await handshake_status(url.split("&token")[0], origin=origin, headers=cookie) == 403, origin
    status, text = await status_of(guarded.key_url, headers={"Origin": "http://evil.example"})
    assert status == 403 and "did not come from ringbook's own page" in text
    assert descendants(guarded.server.pid) == set(), "a ringbook was started for a refused connection"
    assert not (guarded.data_dir / "progress.sqlite3").exists()


async def test_another_host_is_refused_even_with_the_token(guarded):
    """DNS rebinding: evil.example now resolves to 127.0.0.1, so the browser sends Host: evil.example."""
    for host in (f"evil.example:{guarded.port}", "evil.example", f"127.0.0.1:{guarded.port + 1}",
                 f"127.0.0.1.evil.example:{guarded.port}", f"evil@127.0.0.1:{guarded.port}"):
        status, text = await status_of(guarded.key_url, headers={"Host": host})
        assert status == 403, host
        assert "answers only at the address it printed" in text
        rebound = f"http://{host}"
        assert await handshake_status(f"ws://127.0.0.1:{guarded.port}/ws?token={guarded.token}", origin=rebound,
                                      headers={"Host": host}) == 403, host
    assert descendants(guarded.server.pid) == set()


async def test_no_cookie_is_a_key_since_browsers_send_it_to_every_port(guarded):
    """Issue 22.7: the token was kept in a cookie, and a browser sends 127.0.0.1's cookies to every port of
    it (chromium did, see the report), so a page another account serves on 127.0.0.1 received it, and a
    program of theirs could replay it with any Origin and run ringbook as the learner. Now no cookie is
    set, and a request carrying only that cookie, as the other port received it, is refused."""
    async with aiohttp.ClientSession() as http, http.get(guarded.key_url) as response:
        assert response.status == 200 and "Set-Cookie" not in response.headers
        assert response.headers["Cache-Control"] == "no-store"
    stolen = {"Cookie": f"ringbook-token-{guarded.port}={guarded.token}"}
    status, text = await status_of(f"http://127.0.0.1:{guarded.port}/", headers=stolen)
    assert status == 403 and "needs the token" in text
    for path in ("/ws", "/ws/" + guarded.token, "/ws/any-ticket"):
        assert await handshake_status(f"ws://127.0.0.1:{guarded.port}{path}?width=80&height=24",
                                      origin=guarded.origin, headers=stolen) == 403, path
    assert descendants(guarded.server.pid) == set(), "a ringbook was started for the cookie alone"
    assert "refused GET /ws/TICKET: with a ticket this server did not give" in guarded.log.read_text()


async def test_a_pages_websocket_ticket_lets_in_one_connection(served):
    async with aiohttp.ClientSession() as http:
        url = await page_websocket(http, served)
        assert await handshake_status(url, origin="http://evil.example") == 403   # Origin is still checked
        async with http.ws_connect(url, origin=served.origin) as tab:
            await Session(tab).wait_for("Mastery 0 / ")
            assert await handshake_status(url, origin=served.origin) == 403       # taken: a second tab needs a page
    assert "with a ticket this server did not give, or has taken" in served.log.read_text()


async def test_a_pages_websocket_without_an_origin_is_refused_and_no_ringbook_starts(served):
    """Issue 42.12: the Origin check named only textual-serve's own websocket route, so the page's ticketed
    websocket opened with a valid ticket and no Origin at all (a program, not ringbook's page) and ran a
    ringbook. A browser always sends its page's Origin on a websocket; one without is refused."""
    async with aiohttp.ClientSession() as http:
        url = await page_websocket(http, served)
        assert await handshake_status(url, origin=None) == 403
        status, text = await status_of(url.replace("ws://", "http://", 1))
        assert status == 403 and "did not come from ringbook's own page" in text
        assert descendants(served.server.pid) == set(), "a ringbook was started for a websocket without an Origin"
        async with http.ws_connect(url, origin=served.origin) as tab:   # the page itself still gets in
            await Session(tab).wait_for("Mastery 0 / ")
    assert "refused GET /ws/TICKET: sent from 'no page', not from ringbook's own page" in served.log.read_text()


async def test_the_token_is_never_logged(guarded):
    assert (await status_of(guarded.key_url))[0] == 200
    assert (await status_of(f"http://127.0.0.1:{guarded.port}/after-the-key"))[0] == 403
    deadline = time.monotonic() + 30
    while "/after-the-key" not in guarded.log.read_text():   # the refusal is logged after the key's request
        assert time.monotonic() < deadline, guarded.log.read_text()
        await asyncio.sleep(0.1)
    assert guarded.log.read_text().count(guarded.token) == 1, "the token was printed again after the banner"


@pytest.mark.parametrize("name", ["localhost", "[::1]"])
async def test_the_other_loopback_names_get_a_page_that_connects_back_to_them(guarded, name):
    """The page's websocket goes to the name the browser used, which the Origin check expects."""
    host = f"{name}:{guarded.port}"
    status, page = await status_of(guarded.key_url, headers={"Host": host})
    assert status == 200
    assert re.search(f'data-session-websocket-url="ws://{re.escape(host)}/ws/[A-Za-z0-9_-]{{43}}"', page)


@pytest.mark.parametrize(("host", "accepted", "refused"), [
    ("127.0.0.1", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000"],
     ["evil.example:8000", "127.0.0.1:8001", "127.0.0.1", "", "127.0.0.1:8000/x", "a@127.0.0.1:8000",
      "127.0.0.1:8000 ", "192.168.1.5:8000"]),
    ("::1", ["[::1]:8000", "localhost:8000"], ["::1:8000", "evil.example:8000"]),
    ("box.lan", ["box.lan:8000", "BOX.lan:8000"], ["localhost:8000", "evil.example:8000", "192.168.1.5:8000"]),
    ("0.0.0.0", ["192.168.1.5:8000", "127.0.0.1:8000", "localhost:8000", "[fe80::1]:8000"],
     ["evil.example:8000", "192.168.1.5:8001"]),
])
def test_which_host_headers_reach_the_server(host, accepted, refused):
    address = ServedAddress(host, 8000)
    assert [name for name in accepted if not address.accepts_host(name)] == []
    assert [name for name in refused if address.accepts_host(name)] == []


def test_an_origin_must_be_the_address_the_request_went_to():
    address = ServedAddress("127.0.0.1", 8000)
    assert address.accepts_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert address.accepts_origin("http://localhost:8000", "localhost:8000")
    for origin in (None, "", "null", "http://evil.example", "http://localhost:8000", "https://127.0.0.1:8000",
                   "http://127.0.0.1:8001", "http://127.0.0.1:8000/x", "ws://127.0.0.1:8000"):
        assert not address.accepts_origin(origin, "127.0.0.1:8000"), origin


def test_warns_when_not_on_loopback(tmp_path: Path):
    port = free_port()
    server = start_server(tmp_path, "--host", "0.0.0.0", "--port", str(port), "--data-dir", str(tmp_path / "data"))
    try:
        key_url = wait_for_key_url(server, tmp_path / "serve.log")
        assert key_url.startswith(f"http://127.0.0.1:{port}/?token=")
        assert "data-session-websocket-url" in fetch_page(key_url)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=20)
    log = " ".join((tmp_path / "serve.log").read_text().split())
    assert "warning: 0.0.0.0 is not a loopback address" in log and "can run code as you" in log


def test_port_in_use_is_a_plain_message_and_no_banner(tmp_path: Path):
    """The port is tried before anything else: before the book, which here has problems of its own."""
    (tmp_path / "book").mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = ringbook_subprocess("serve", "--port", port, "--content", tmp_path / "book")
    assert done.returncode == 1
    assert done.stderr == f"ringbook serve: cannot listen on 127.0.0.1:{port}: address already in use.\n"
    assert done.stdout == "", "the banner came before the port was bound"


@pytest.mark.parametrize("port", ["70000", "0", "-5", "80a"])
def test_a_port_that_is_no_port_is_refused_in_a_line(port):
    done = ringbook_subprocess("serve", "--port", port)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"ringbook serve: error: argument --port: '{port}' is not a port: "
                                            "give a number from 1 to 65535")
    assert "Traceback" not in done.stderr and done.stdout == ""


async def test_a_screenshot_reaches_the_browser_by_its_own_key_without_the_token(served):
    """With no cookie, the page's download of a file the session delivers (Ctrl+S) carries no token: the
    delivery's own random key, sent only to that tab, lets it through; any other key is refused."""
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(await page_websocket(http, served), origin=served.origin) as tab:
            session = Session(tab)
            await session.wait_for("Mastery 0 / ")
            await session.press("\x13")   # Ctrl+S
            async with asyncio.timeout(60):
                while True:
                    message = await tab.receive()
                    if message.type == aiohttp.WSMsgType.TEXT and json.loads(message.data)[0] == "deliver_file_start":
                        key = json.loads(message.data)[1]
                        break
                    assert message.type == aiohttp.WSMsgType.BINARY, message
            async with http.get(f"{served.origin}/download/{key}") as download:   # as window.open does: no token
                assert download.status == 200
                assert (await download.read()).lstrip().startswith(b"<svg")
            await session.wait_for("Your browser was offered this screen")   # the learner is told (issue 23)
    status, text = await status_of(f"{served.origin}/download/{key[:-1]}x")
    assert status == 403 and "needs the token" in text


def css_rules(page: str, selector_part: str) -> list[str]:
    """The bodies of the page's CSS rules whose selector mentions `selector_part`."""
    return [body for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", page) if selector_part in selector]


def script_function(page: str, name: str) -> str:
    [body] = re.findall(rf"function {name}\(\) {{(.*?)\n      }}", page, re.S)
    return body


async def test_the_page_starts_behind_a_start_button_that_hands_the_terminal_the_keyboard(guarded):
    """Issue 23, 4: textual-serve's page showed the app at its first byte with nothing focused, so the click
    a learner made to type clicked whatever of the app was under it (a chapter on home), and after Enter no
    key worked until the terminal was clicked; the tab had no title. Now a Start button, focused as the page
    loads, covers the terminal until it is pressed: a click or Enter lands on it, and it shows the session and
    focuses the terminal's input. (scripts/serve_in_chromium.py shows it in a real browser.)"""
    async with aiohttp.ClientSession() as http:
        async with http.get(guarded.key_url) as response:
            page = await response.text()
        async with http.get(f"{guarded.origin}/static/js/textual.js") as response:
            client = await response.text()
    assert f"<title>ringbook — {load_book().title}</title>" in page
    [start] = re.findall(r'<button[^>]*id="start"[^>]*>', page)
    assert "autofocus" in start and 'onClick="startSession()"' in start
    assert not any("none" in body for body in css_rules(page, "#start"))               # always shown
    assert css_rules(page, "body.-started .intro-dialog") and not css_rules(page, "-first-byte .intro-dialog")
    assert '"-started"' in script_function(page, "startSession") and "focusTerminal()" in script_function(
        page, "startSession")
    assert ".xterm-helper-textarea" in script_function(page, "focusTerminal") and ".focus()" in script_function(
        page, "focusTerminal")
    # What the page relies on in textual-serve's client: xterm's input element, and a session that starts
    # on load (behind the Start button) unless the address asks for a delay, which the printed one does not.
    assert "xterm-helper-textarea" in client and '.get("delay")' in client and "delay" not in guarded.key_url


def test_the_tab_title_is_the_books_and_cannot_break_the_page(tmp_path: Path, book_copy: Path):
    """A book's title is the content author's text: in the page it is only text."""
    book_yaml = book_copy / "book.yaml"
    book_yaml.write_text(book_yaml.read_text().replace('title: "Distributed Training, Derived"',
                                                       'title: "</title><script>alert(1)</script>"', 1))
    port = free_port()
    server = start_server(tmp_path, "--port", str(port), "--data-dir", str(tmp_path / "data"),
                          "--content", str(book_copy))
    try:
        page = fetch_page(wait_for_key_url(server, tmp_path / "serve.log"))
    finally:
        server.kill()
        server.wait(timeout=10)
    assert "<title>ringbook — &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>" in page
    assert "<script>alert" not in page


async def test_a_session_starts_focused_so_its_footer_shows_its_keys(served):
    """Textual's web driver blurs the app as it starts, to wait for the page's focus; a learner who pressed
    Start while ringbook was starting focused it before that blur came, and the app stayed blurred with an
    empty footer. The app now starts focused (out of sight until Start): its footer's keys are drawn with no
    word from the page."""
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(await page_websocket(http, served), origin=served.origin) as tab:
            session = Session(tab)
            await session.wait_for("Mastery 0 / ")
            await session.wait_for("? Keys")
