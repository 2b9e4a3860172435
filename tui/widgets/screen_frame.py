"""The header and footer every screen wears: Textual's own, minus the watchers they leave behind and the
restyling the footer repeats for every key.

Textual drops a watcher only when the watched value next changes, even after the widget that asked for
it has left the screen (textual#6666). The app's title and a footer's `compact` never change, so every
screen opened kept its Header alive and every footer refresh kept its old keys: about 2,500 objects per
chapter visit, which made each full garbage collection slower until, after fifty visits, one could stall
a chapter's first frame for a quarter of a second.

This reaches into Textual (FooterKey, HeaderTitle, `__watchers`, `_closing`/`_closed`, the methods overridden);
tests/test_pinned_internals.py checks each by name and signature, and pyproject.toml keeps Textual below 9.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events, widgets
from textual.app import ComposeResult
from textual.content import Content
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderTitle


def forget_watchers(reactable: DOMNode, gone: Callable[[MessagePump], bool]) -> None:
    """Drop the watchers on `reactable` whose owner `gone(owner)` says has left."""
    for watchers in getattr(reactable, "__watchers", {}).values():
        watchers[:] = [(owner, callback) for owner, callback in watchers if not gone(owner)]


class Header(widgets.Header):
    """Textual's header, which lets go of the app's title when its screen closes, stays one row, and
    leaves out the sub-title (the book's title) when the two do not fit: "Chapter 8: Mixed Precision
    Training" whole, not "… — Distributed Training, D…" at 80 columns."""

    SIDES = 8 + 10   # Textual's icon and clock space, either side of the title

    def on_click(self, event: events.Click) -> None:
        """Textual's header grows to three rows on a click, which only looked broken (in a browser, where
        clicks are common): its handler is not called (prevent_default), and its icon still opens the
        command palette."""
        event.prevent_default()

    def format_title(self) -> Content:
        title, sub_title = self.screen_title, self.screen_sub_title
        room = self.app.size.width - self.SIDES
        if sub_title and len(title) + len(" — ") + len(sub_title) > room:
            return self.app.format_title(title, "")
        return self.app.format_title(title, sub_title)

    def on_resize(self) -> None:
        self.query_one(HeaderTitle).update(self.format_title())

    def on_unmount(self) -> None:
        forget_watchers(self.app, lambda owner: owner is self)


class Footer(widgets.Footer):
    """Textual's footer, which lets go of the keys it showed before each refresh, styles each key once, and
    rebuilds its keys only when they can be seen, once per frame. `hide` leaves keys out of it that the
    screen has no room for.

    A FooterKey starts compact and is then bound to its footer, which is not: each key was restyled twice
    (class added, then removed) every time the footer refreshed, a quarter of a chapter's first frame.
    Starting each key at the footer's own value makes both changes no-ops.

    Textual's footer has no keys until its screen's first frame is out, and builds them for a second frame:
    a layout, a render and a write more, ~40 ms of every screen's start (home's keys came 60 ms after its
    text, hello world's 44 ms). This one has the keys its screen offers as it composes, so the first frame
    shows them; if focus then brings other keys, the footer is rebuilt as for any change of bindings.

    Textual rebuilds a footer's keys whenever its screen's bindings change, once per change, even on a
    screen that has just been covered or closed: opening a chapter rebuilt four footers, one of them the
    home screen's under it. A covered screen's footer is rebuilt when the screen shows again (its bindings
    change then too), and changes that come together make one rebuild."""

    class KeysShown(Message):
        """The footer has new keys, to be drawn with the next frame. The first (with the screen's first frame)
        is when a screen is ready to use: work that can wait waits for it."""

    _rebuild_due = False
    _shown: tuple[object, ...] = ()   # what decided the keys last composed (_keys_to_show)

    def __init__(self, *, hide: tuple[str, ...] = (), **kwargs: Any):
        super().__init__(**kwargs)
        self.hide = frozenset(hide)   # keys left out of this footer (to fit 80 columns) that `?` still lists

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if (not screen.app.app_focus or not self.is_attached or screen is not self.screen
                or screen is not self.app.screen or self._rebuild_due):
            return
        self._rebuild_due = True
        self.call_after_refresh(self._rebuild_if_shown)

    async def _rebuild_if_shown(self) -> None:
        """The rebuild asked for, unless another screen has covered this one since (it is rebuilt when it
        shows again), or the keys it would show are those it shows: focus moving between two widgets that
        offer the same keys changes the screen's bindings, and rebuilding then made ten new key widgets
        to draw what was already drawn."""
        if self.is_attached and self.screen is self.app.screen and self._keys_to_show() != self._shown:
            await self.recompose()
            self.post_message(self.KeysShown())
        else:
            self._rebuild_due = False

    def _keys_to_show(self) -> tuple[object, ...]:
        """What decides this footer's keys: the screen's shown bindings (whether each is enabled, its
        tooltip), the palette's, and the footer's own settings. Bindings are frozen, so this compares."""
        bindings = self.screen.active_bindings
        shown = tuple((binding, enabled, tooltip) for _, binding, enabled, tooltip in bindings.values()
                      if binding.show)
        palette = bindings.get(self.app.COMMAND_PALETTE_BINDING)
        return (shown, palette[1:] if palette else None, self.hide, self.compact, self.show_command_palette,
                self.app.ENABLE_COMMAND_PALETTE)

    def compose(self) -> ComposeResult:
        self._bindings_ready = True   # its screen has composed (every widget it yields is in place)
        self._shown = self._keys_to_show()
        hidden = 0
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.key in self.hide:
                hidden += 1
                continue
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):  # not bound
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget
        if hidden:
            self.styles.grid_size_columns -= hidden   # Textual counted a column for each

    def on_mount(self) -> None:
        self.post_message(self.KeysShown())   # composed with its first keys

    async def recompose(self) -> None:
        self._rebuild_due = False
        await super().recompose()
        forget_watchers(self, lambda owner: owner._closing or owner._closed)
