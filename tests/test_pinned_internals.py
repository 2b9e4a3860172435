"""What ringbook relies on inside other libraries, checked by name and signature so that an upgrade which
changes it fails here, saying which of our files relies on it and why, instead of breaking `ringbook serve`
or the screens' memory quietly. The versions are bounded in pyproject.toml (textual <9, textual-serve <1.2,
aiohttp <4, aiohttp-jinja2 <2); raise a bound only once this file passes with the new version."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from collections.abc import Callable
from pathlib import Path
from types import CodeType

import aiohttp_jinja2
import pytest
from aiohttp import web
from textual import widgets
from textual.app import App, ComposeResult
from textual.content import Content
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from textual_serve.server import Server, log, to_int

from tui.cli.serve import PAGE_TEMPLATES, RingbookServer
from tui.widgets.screen_frame import Footer, Header

SERVE = "tui/cli/serve.py"
FRAME = "tui/widgets/screen_frame.py"


def parameters(function: Callable[..., object]) -> list[str]:
    return list(inspect.signature(function).parameters)


def assert_parameters(function: Callable[..., object], expected: list[str], who: str, why: str) -> None:
    found = parameters(function)
    assert found[:len(expected)] == expected, (
        f"{function.__qualname__} now takes {found}, where {who} expects {expected} ({why})")


# --- textual-serve, aiohttp and aiohttp-jinja2: tui/cli/serve.py -----------------------------------------


@pytest.mark.parametrize("name, expected, why", [
    ("__init__", ["self", "command", "host", "port", "title", "public_url", "statics_path", "templates_path"],
     "RingbookServer passes command, host, port, title and templates_path by name"),
    ("_make_app", ["self"], "RingbookServer._make_app adds the ticketed websocket route and the guard to it"),
    ("_process_messages", ["self", "websocket", "app_service"], "handle_websocket feeds a tab's keys through it"),
    ("handle_index", ["self", "request"], "overridden to serve the page with a one-use websocket ticket"),
    ("handle_websocket", ["self", "request"], "overridden to end tabs promptly"),
    ("on_startup", ["self", "app"], "overridden to say nothing before the port is bound"),
    ("on_shutdown", ["self", "app"], "overridden to end every open session"),
    ("serve", ["self", "debug"], "overridden to print the banner once the port is bound"),
    ("initialize_logging", ["self"], "called by RingbookServer.serve"),
    ("request_exit", ["self"], "RingbookServer.serve sends SIGINT and SIGTERM to it"),
])
def test_textual_serve_server_methods_we_override_or_call(name, expected, why):
    method = getattr(Server, name, None)
    assert method is not None, f"textual_serve.server.Server.{name} is gone; {SERVE} relies on it: {why}"
    assert_parameters(method, expected, SERVE, why)
    if name in ("_make_app", "_process_messages", "handle_websocket", "on_startup", "on_shutdown"):
        assert inspect.iscoroutinefunction(method), f"Server.{name} is no longer async; {SERVE} awaits it ({why})"
    ours = getattr(RingbookServer, name)
    if ours is not method and name != "__init__":
        assert parameters(ours) == parameters(method), (
            f"RingbookServer.{name} in {SERVE} no longer matches textual-serve's Server.{name}, which calls it")


def test_textual_serve_routes_are_named_as_the_guard_expects(tmp_path):
    """RingbookServer._refusal tells requests apart by route name: "static" needs no token, "websocket" (the
    unticketed one) always needs an Origin, "download" is allowed by its key, "index" gets no-store. A
    renamed route would be refused, or let through, by the wrong rule."""
    server = RingbookServer("exec true", host="127.0.0.1", port=8000, token="t", book_title="A book")
    app = asyncio.run(server._make_app())
    names = {resource.name for resource in app.router.resources()}
    assert {"index", "websocket", "download", "static", "ticketed_websocket"} <= names, (
        f"textual-serve's Server._make_app now names its routes {sorted(filter(None, names))}; {SERVE}'s "
        "RingbookServer._refusal decides by the names index, websocket, download and static")
    handlers = {route.resource.name: route.handler for route in app.router.routes() if route.resource is not None}
    assert handlers["index"] == server.handle_index and handlers["websocket"] == server.handle_websocket, (
        f"textual-serve's Server._make_app no longer routes / and /ws to self.handle_index and "
        f"self.handle_websocket, which {SERVE} overrides")
    assert app.middlewares[-1] == server._guard


def test_textual_serve_server_attributes_we_use():
    server = RingbookServer("exec true", host="127.0.0.1", port=8000, token="t", book_title="A book")
    for name in ("command", "host", "port", "title", "debug", "download_manager", "templates_path", "statics_path"):
        assert hasattr(server, name), f"textual-serve's Server no longer sets self.{name}, which {SERVE} reads"
    assert Path(server.templates_path) == PAGE_TEMPLATES
    assert isinstance(log, logging.Logger) and to_int("12", 0) == 12 and to_int("x", 7) == 7, (
        f"textual_serve.server's log or to_int changed; {SERVE} imports both")


def test_our_page_uses_only_files_textual_serve_still_ships():
    """serve_page/app_index.html is textual-serve's own page, edited: it loads textual-serve's script,
    styles, fonts and background from its static folder."""
    server = RingbookServer("exec true", host="127.0.0.1", port=8000, token="t", book_title="A book")
    page = (PAGE_TEMPLATES / "app_index.html").read_text()
    used = re.findall(r"\{\{ config\.static\.url \}\}([\w./-]+)", page)
    assert used and all((Path(server.statics_path) / name).is_file() for name in used), (
        f"textual-serve no longer ships {[n for n in used if not (Path(server.statics_path) / n).is_file()]}, "
        f"which {PAGE_TEMPLATES.name}/app_index.html (ringbook serve's page) loads")


def test_textual_serve_app_service_and_downloads():
    """end_tab kills a tab's ringbook through AppService._process (textual-serve keeps it private);
    _is_delivery asks the download manager about a key and expects KeyError for one it does not hold."""
    assert_parameters(AppService.__init__, ["self", "command", "write_bytes", "write_str", "close",
                                            "download_manager", "debug"], SERVE, "handle_websocket starts a tab")
    assert_parameters(AppService.start, ["self", "width", "height"], SERVE, "handle_websocket starts a tab")
    assert_parameters(AppService.stop, ["self"], SERVE, "end_tab stops a tab")
    tab = AppService("exec true", write_bytes=_ignore, write_str=_ignore, close=_nothing,
                     download_manager=DownloadManager(), debug=False)
    assert hasattr(tab, "_process") and tab._process is None, (
        f"AppService no longer keeps its process in _process; {SERVE}'s end_tab kills a hung tab through it")
    with pytest.raises(KeyError):
        asyncio.run(DownloadManager().get_download_metadata("no-such-key"))


async def _ignore(data: object) -> bool:
    return True


async def _nothing() -> None:
    return None


def test_aiohttp_and_aiohttp_jinja2_calls():
    for name in ("print", "access_log", "handle_signals", "loop", "host", "port"):
        assert name in parameters(web.run_app), f"aiohttp's web.run_app no longer takes {name}=, which {SERVE} gives"
    for name in ("heartbeat", "timeout"):
        assert name in parameters(web.WebSocketResponse.__init__), (
            f"aiohttp's WebSocketResponse no longer takes {name}=, which {SERVE}'s handle_websocket gives")
    assert callable(web.middleware) and callable(aiohttp_jinja2.template), (
        f"aiohttp's web.middleware or aiohttp_jinja2.template is gone; {SERVE} decorates with both")


# --- Textual: tui/widgets/screen_frame.py ------------------------------------------------------------------


def test_textual_formats_a_title_as_the_header_calls_it():
    assert_parameters(App.format_title, ["self", "title", "sub_title"], FRAME, "Header.format_title calls it")


class FramedApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Header()
        yield Footer()


async def test_textual_keeps_watchers_where_the_frame_looks():
    """forget_watchers reads Textual's private `__watchers` attribute; were it renamed, every closed screen's
    header would be kept alive again with no test failing."""
    app = FramedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        watchers = getattr(app, "__watchers", None)
        assert isinstance(watchers, dict) and watchers, (
            f"Textual no longer keeps an app's watchers in its `__watchers` attribute; {FRAME}'s forget_watchers "
            "reads them there to let go of closed screens")
        header = app.screen.query_one(Header)
        assert header in [owner for callbacks in watchers.values() for owner, _ in callbacks], (
            f"the header no longer watches the app's title; {FRAME} forgets that watcher when it goes")
        assert isinstance(app.screen.query_one(Header).format_title(), Content)


# --- Textual: tui/keys_in_turn.py and the app's notices (tui/app.py) --------------------------------------

TURNS = "tui/keys_in_turn.py"


def test_textual_bubbles_a_key_to_the_parent_where_keys_in_turn_follows_it():
    """KeysInTurn follows a key up as it bubbles, queueing a callback behind it at each node's `_parent`, and
    takes a False from call_later as a node that has closed; were either to change, a key could wait forever
    (every key after it held) or the next key overtake a binding again."""
    from textual.message_pump import MessagePump

    assert "message._bubble_to(self._parent)" in inspect.getsource(MessagePump._on_message), (
        f"Textual no longer bubbles a message to `_parent`; {TURNS} follows a key that way")
    assert inspect.signature(MessagePump.call_later).return_annotation in (bool, "bool"), (
        f"MessagePump.call_later no longer says whether it queued the callback; {TURNS} relies on it")


def test_textual_still_lays_notices_in_a_toast_rack_docked_at_the_bottom():
    """tui/app.py's CSS moves Textual's ToastRack from its layer over the page into the screen's own layer,
    docked above the footer, and widens its Toasts; renamed, notices would cover the page again."""
    from textual.widgets._toast import Toast, ToastRack

    assert "dock: bottom" in ToastRack.DEFAULT_CSS and "layer: _toastrack" in ToastRack.DEFAULT_CSS, (
        "Textual's ToastRack is no longer a layer docked at the bottom; tui/app.py's notice CSS assumes it")
    assert "width: 60" in Toast.DEFAULT_CSS, "Textual's Toast changed its width; see tui/app.py's notice CSS"


# --- Textual: tui/widgets/settling_cursor.py and tui/widgets/verdict_panel.py ------------------------------

CURSOR = "tui/widgets/settling_cursor.py"


@pytest.mark.parametrize("box", [widgets.Input, widgets.TextArea])
def test_textual_restarts_and_pauses_a_cursor_blink_where_the_settling_cursor_hooks_in(box):
    """The settling cursor learns that the learner is working in a box from the box's own `_restart_blink`,
    and holds the cursor lit with `_pause_blink`; renamed, the cursor would blink forever again (1% of a
    core for each learner thinking at a box) or stop blinking at once."""
    assert_parameters(box._restart_blink, ["self"], CURSOR, "SettlingCursor._restart_blink overrides it")
    assert_parameters(box._pause_blink, ["self", "visible"], CURSOR, "SettlingCursor.hold_cursor calls it")
    assert "cursor_blink" in box._reactives, f"{box.__name__}.cursor_blink is no longer reactive ({CURSOR})"


def test_textual_asks_for_a_layout_when_a_widget_s_virtual_size_changes():
    """tui/widgets/verdict_panel.py declares its own virtual_size, without the layout Textual's asks for (a
    second reflow of the page after every verdict that changed the panel's height); Textual must still set
    it by that name."""
    from textual.widget import Widget

    from tui.widgets.verdict_panel import VerdictPanel

    assert "virtual_size" in Widget._reactives and Widget._reactives["virtual_size"]._layout, (
        "Textual's virtual_size no longer asks for a layout: tui/widgets/verdict_panel.py's override has no use")
    assert not VerdictPanel._reactives["virtual_size"]._layout


def test_pytest_rewrites_and_reads_a_test_module_as_the_controller_uses_it(tmp_path, pytestconfig):
    """tests/conftest.py's rewrite_our_tests_once writes each test module's rewritten asserts once, with
    pytest's own private functions, for every worker to read: the names and the round trip it relies on."""
    from _pytest.assertion import rewrite

    for name, expected in ((rewrite._rewrite_test, ["fn", "config"]), (rewrite._read_pyc, ["source", "pyc"]),
                           (rewrite._write_pyc, ["state", "co", "source_stat", "pyc"]),
                           (rewrite.get_cache_dir, ["file_path"]), (rewrite.try_makedirs, ["cache_dir"])):
        assert_parameters(name, expected, "tests/conftest.py", "assert rewriting done once for every worker")
    source = tmp_path / "test_example.py"
    source.write_text("def test_it():\n    assert 1 + 1 == 3\n")
    pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
    assert rewrite.try_makedirs(pyc.parent)
    stat, code = rewrite._rewrite_test(source, pytestconfig)
    rewrite._write_pyc(pytestconfig.stash[rewrite.assertstate_key], code, stat, pyc)
    read = rewrite._read_pyc(source, pyc)
    assert read is not None
    [test_it] = [const for const in read.co_consts if isinstance(const, CodeType)]
    assert any(name.startswith("@py_assert") for name in test_it.co_varnames)   # rewritten, not plain
