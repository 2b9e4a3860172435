"""Where a screenshot (Ctrl+S) goes and how the app says so: <data dir>/screenshots, beside the learner's
progress, where a teacher or a bug report can find them, under a name short enough for a notice at 80 columns."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import textual.app as textual_app
from textual import events, on

from tui.progress.session import StudySession
from tui.progress.store import ProgressStore

TOAST_FRAME = 3   # a notice is the screen's width (tui.app's CSS), less its border and padding


class SavesScreenshots(textual_app.App):
    """An app whose screenshots (Ctrl+S) go to its learner's data folder, and that says where in a notice."""

    session: StudySession   # the app's own: its store says where, its clock names the file

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Into the data folder (screenshot_folder), else Textual's default. In a browser (`ringbook serve`) the
        browser is offered the file, which Textual does without a word."""
        if self.is_web:
            key = super().deliver_screenshot(filename, path, time_format)
            self.notify("Your browser was offered this screen as an SVG file to download.", title="Screenshot")
            return key
        if path is None and (folder := screenshot_folder(self.session.store)) is not None:
            path = str(folder)
        if filename is None:
            filename = new_screenshot_name(Path(path) if path is not None else textual_app.user_downloads_path(),
                                           self.session.clock())
        return super().deliver_screenshot(filename, path, time_format)

    @on(events.DeliveryComplete)
    def _say_where_the_screenshot_is(self, event: events.DeliveryComplete) -> None:
        """The file name on a line of its own (saved_notice); in a browser, where there is no path, Textual's own
        notice shows."""
        if event.name != "screenshot" or event.path is None:
            return
        event.prevent_default()
        self.notify(saved_notice(event.path, self.size.width), title="Screenshot")


def screenshot_folder(store: ProgressStore) -> Path | None:
    """The store's screenshots folder, made if need be; None when the store cannot be written (Textual's own
    default, Downloads, then)."""
    if store.path is None or store.read_only:
        return None
    folder = store.path.parent / "screenshots"
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        return None
    return folder


def new_screenshot_name(folder: Path, moment: datetime) -> str:
    """`ringbook-2026-11-26-093000.svg`; `-2`, `-3` for more in the same second."""
    stem = f"ringbook-{moment:%Y-%m-%d-%H%M%S}"
    name, counter = f"{stem}.svg", 2
    while (folder / name).exists():
        name, counter = f"{stem}-{counter}.svg", counter + 1
    return name


def saved_notice(path: Path, screen_width: int) -> str:
    """Textual's notice put the whole path in one string that the notice broke mid-name at 80 columns. This
    one gives the file name a line of its own and the folder (`~` for home) in pieces that break only after
    a `/`."""
    width = screen_width - TOAST_FRAME
    return "\n".join(["Saved this screen as", path.name, *folded(f"in {home_short(path.parent)}/", width)])


def home_short(folder: Path) -> str:
    """`folder` with the home folder written `~`, as a shell would accept it."""
    try:
        return str(Path("~") / folder.relative_to(Path.home()))
    except ValueError:
        return str(folder)


def folded(path: str, width: int) -> list[str]:
    """`path` in lines of at most `width` characters, each ending after a `/`, so no name is split (a single
    name longer than `width` keeps a line of its own)."""
    lines = [""]
    for piece in path.replace("/", "/\n").split("\n"):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return [line for line in lines if line]
