"""The header and footer every screen wears, each one widget drawing one line as Textual's draw theirs (each of
Textual's is a widget per part), and neither leaving watchers behind.

Textual drops a watcher only when the watched value next changes, even after the widget that asked for
it has left the screen (textual#6666). The app's title never changes, so every screen opened kept its
Header alive (and Textual's footer kept every key it had shown, each bound to the footer's `compact`):
about 2,500 objects per chapter visit, which made each full garbage collection slower until, after fifty
visits, one could stall a chapter's first frame for a quarter of a second.

This reaches into Textual (`__watchers`); tests/test_pinned_internals.py checks it, and pyproject.toml keeps
Textual below 9.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.content import Content
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.reactive import reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget


def forget_watchers(reactable: DOMNode, gone: MessagePump) -> None:
    """Drop the watchers on `reactable` that `gone` (a widget leaving) asked for."""
    for watchers in getattr(reactable, "__watchers", {}).values():
        watchers[:] = [(owner, callback) for owner, callback in watchers if owner is not gone]


def closing(screen: Screen) -> bool:
    """Whether `screen` has gone, or is going, from the app: closed at once (Escape or q typed just after the key
    that opened it, on a busy host), its widgets are taken down before its own Mount and fill-in run, and looking
    one up then stopped the app with a traceback."""
    return not screen.is_attached or screen not in screen.app.screen_stack


def ring_if_dimmed(screen: Screen, event: events.Key) -> None:
    """A key the footer shows dimmed, pressed anyway, rings the bell, as a click on it does: the learner hears
    that it was refused, and its tooltip says why."""
    active = screen.active_bindings.get(event.key)
    if active is not None and active.binding.show and not active.enabled:
        screen.app.bell()


class Header(Widget):
    """The screen's title row, as Textual's header draws it (the icon that opens the command palette, the title
    centred, the clock's space; cell for cell and style for style, tests/face/test_snapshots.py) but as one widget:
    Textual's is four (header, icon, title, clock space), about 4 ms of each screen's first frame, home's too. It
    stays one row when clicked (Textual's grew to three, which only looked broken), and leaves out the sub-title
    (the book's title) when the two do not fit: "Chapter 8: Mixed Precision Training" whole, not "… — Distributed
    Training, D…" at 80 columns."""

    ICON = "⭘"
    ICON_WIDTH = 8     # Textual's icon: docked left, a column of padding either side
    CLOCK_WIDTH = 10   # and the clock's space, docked right, likewise
    SIDES = ICON_WIDTH + CLOCK_WIDTH
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"header--icon-hover"}
    DEFAULT_CSS = """
    Header {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
        .header--icon-hover {
            background: $foreground 10%;
        }
    }
    """

    icon_hovered: reactive[bool] = reactive(False)

    def on_mount(self) -> None:
        """Drawn again as a title changes; these watchers are dropped as the header goes (on_unmount)."""
        for watched, name in ((self.app, "title"), (self.app, "sub_title"), (self.screen, "title"),
                              (self.screen, "sub_title")):
            self.watch(watched, name, self.title_changed, init=False)

    def title_changed(self) -> None:
        self.refresh()

    def on_unmount(self) -> None:
        forget_watchers(self.app, self)

    @property
    def screen_title(self) -> str:
        return self.screen.title if self.screen.title is not None else self.app.title

    @property
    def screen_sub_title(self) -> str:
        return self.screen.sub_title if self.screen.sub_title is not None else self.app.sub_title

    def format_title(self) -> Content:
        """The title, and the sub-title after it when both fit."""
        title, sub_title = self.screen_title, self.screen_sub_title
        room = self.app.size.width - self.SIDES
        if sub_title and len(title) + len(" — ") + len(sub_title) > room:
            return self.app.format_title(title, "")
        return self.app.format_title(title, sub_title)

    def title_shown(self) -> Content:
        """The title as the row shows it between the icon and the clock's space, cut with an ellipsis if need be."""
        return self.format_title().rstrip().truncate(max(self.size.width - self.SIDES, 0), ellipsis=True)

    def render_line(self, y: int) -> Strip:
        """The row in the segments Textual's four widgets gave it: padding in the background alone, the space
        beside the icon and either side of the title not reversed, so a screenshot is the same text."""
        text = self.rich_style
        padding = Style(bgcolor=text.bgcolor)
        if self.icon_hovered:
            hovered = self.get_component_rich_style("header--icon-hover")
            text, padding = text + Style(bgcolor=hovered.bgcolor), Style(bgcolor=hovered.bgcolor)
        aside = text + Style(reverse=False)
        icon = [Segment(" ", padding), Segment(self.ICON, text),
                Segment(" " * (self.ICON_WIDTH - 3), aside), Segment(" ", padding)]
        room = max(self.size.width - self.SIDES, 0)
        title = self.title_shown()
        left = (room - title.cell_length) // 2
        right = room - title.cell_length - left
        base, x, parts = self.rich_style, self.ICON_WIDTH + left, []
        for part, style in title.render(end=""):   # each at its offset, as Textual marks a text for selecting it,
            parts.append(Segment(part, base + style.rich_style + Style.from_meta({"offset": (x, 0)})))
            x += cell_len(part)                      # so that two alike are still two segments, as they were
        segments = [*icon, Segment(" " * left, base + Style(reverse=False)), *parts,
                    Segment(" " * right, base + Style(reverse=False)),
                    Segment(" ", padding), Segment("", text), Segment(" " * (self.CLOCK_WIDTH - 2), padding),
                    Segment(" ", padding)]
        return Strip(segments, self.size.width)

    def on_icon(self, x: int) -> bool:
        return x < self.ICON_WIDTH and self.app.ENABLE_COMMAND_PALETTE

    async def on_click(self, event: events.Click) -> None:
        """The icon opens the command palette, as Textual's does; a click elsewhere changes nothing."""
        if self.on_icon(event.x):
            event.stop()
            await self.run_action("app.command_palette")

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.icon_hovered = self.on_icon(event.x)
        self.tooltip = "Open the command palette" if self.icon_hovered else None

    def on_leave(self) -> None:
        self.icon_hovered = False


@dataclass(eq=False)   # never compared, nor kept as a key: a frozen dataclass costs every start 0.3 ms more
class ShownKey:
    """A key the screen offers, as the footer draws it: the key, as shown, what it does, whether it can be used
    now; and, once drawn, the columns it takes (for the mouse)."""

    key: str
    key_display: str
    description: str
    action: str
    enabled: bool
    tooltip: str
    palette: bool = False   # the command palette's, on the right
    start: int = 0          # its columns, from the footer's left: start to end
    end: int = 0


class Footer(Widget):
    """The keys the screen offers, drawn as one line of text, as Textual's footer draws them: each key, then
    what it does, and the command palette's on the right. `hide` leaves keys out of it that the screen has no
    room for (`?` still lists them). A key is clicked as it is pressed; a disabled one rings the bell.

    Textual's footer is a container of one widget per key, rebuilt (new widgets, styled, mounted) whenever
    the screen's bindings change, and each rebuild laid out the whole screen again: after each verdict, when
    the keyboard moves from the answer to the page (a third of the verdict's work; docs/classroom.md, section
    9), and in a second frame at each screen's start. This one reads the screen's bindings when it draws, so
    a change of keys repaints one line, and the first frame of a screen has them."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--hover", "footer--palette-edge"}
    DEFAULT_CSS = """
    Footer {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        .footer--palette-edge {
            color: $foreground 20%;
        }
    }
    """

    hovered: reactive[str | None] = reactive(None)   # the key under the mouse

    def __init__(self, *, hide: tuple[str, ...] = (), show_command_palette: bool = True, **kwargs: Any):
        super().__init__(**kwargs)
        self.hide = frozenset(hide)
        self.show_command_palette = show_command_palette
        self.shown: list[ShownKey] = []   # as last drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda _screen: self.refresh())

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def keys(self) -> tuple[list[ShownKey], ShownKey | None]:
        """The screen's keys to show now, one per action, and the palette's (not yet placed)."""
        app, bindings = self.app, self.screen.active_bindings
        offered, actions = [], set()
        for _, binding, enabled, tooltip in bindings.values():
            if binding.show and binding.key not in self.hide and binding.action not in actions:
                actions.add(binding.action)   # one key per action, as Textual's footer shows
                offered.append(ShownKey(binding.key, app.get_key_display(binding), binding.description,
                                        binding.action, enabled, tooltip))
        palette = bindings.get(app.COMMAND_PALETTE_BINDING) if self.show_command_palette else None
        if palette is None or not app.ENABLE_COMMAND_PALETTE:
            return offered, None
        binding = palette.binding
        return offered, ShownKey(binding.key, app.get_key_display(binding), binding.description, binding.action,
                                 palette.enabled, binding.tooltip or binding.description, palette=True)

    def render(self) -> Text:
        """Each key as Textual's FooterKey draws it: " k " then "does ", and on the right, compact after an
        edge, the palette's "▏^p palette " (its last space in the key's own style, as Textual pads it)."""
        offered, palette = self.keys()
        line, self.shown = Text(no_wrap=True, overflow="crop", end=""), []
        for key in offered:
            self._append(line, key, f" {key.key_display} ", f"{key.description} ")
        if palette is not None:   # keys that do not fit are cut where it begins, and are not clicked there
            cut = self.size.width - cell_len(f"▏{palette.key_display} {palette.description} ")
            line.truncate(cut, pad=True)
            self.shown = [replace(key, end=min(key.end, cut)) for key in self.shown if key.start < cut]
            line.append("▏", self.get_component_rich_style("footer--palette-edge"))
            self._append(line, palette, palette.key_display, f" {palette.description}", " ")
        return line

    def _append(self, line: Text, key: ShownKey, shown: str, description: str, padding: str = "") -> None:
        """`key` drawn at the end of `line` (the key, what it does, its padding), and noted where it is."""
        text = Text.assemble((shown, self.get_component_rich_style("footer-key--key")),
                             (description, self.get_component_rich_style("footer-key--description")), padding)
        hovered = key.key == self.hovered
        base = self.get_component_rich_style("footer-key--hover") if hovered else self.rich_style
        text.stylize_before(base if key.enabled else base + Style(dim=True))
        start = line.cell_len
        line.append_text(text)
        self.shown.append(replace(key, start=start, end=line.cell_len))

    def key_at(self, x: int) -> ShownKey | None:
        return next((shown for shown in self.shown if shown.start <= x < shown.end), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        shown = self.key_at(event.x)
        if shown is None:
            return
        if shown.enabled:
            self.app.simulate_key(shown.key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        shown = self.key_at(event.x)
        self.hovered = shown.key if shown else None
        self.tooltip = shown.tooltip or None if shown else None

    def on_leave(self) -> None:
        self.hovered = None
