"""The command palette (Ctrl+P) knows the book: jump to any chapter, exercise, quiz or lab by id or title; and
the app's own commands beside them (app_commands)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from tui.widgets.plain import plain

if TYPE_CHECKING:
    from tui.app import RingbookApp  # for annotations only: tui.app imports this module


class BookCommands(Provider):
    """Chapters as 'Chapter 3: Learning Rate Scaling', exercises as '3.2 Square-root scaling'."""

    app: RingbookApp  # Textual's own property, typed for the checker

    def _entries(self) -> Iterator[tuple[str, str, Callable[[], None]]]:
        app = self.app
        for chapter in app.session.book.chapters:
            yield (f"Chapter {chapter.id}: {chapter.title}", f"{len(chapter.exercises)} exercises",
                   partial(app.open_chapter, chapter))
            for exercise in chapter.exercises:
                yield (f"{exercise.id} {exercise.title}", f"{exercise.kind} · chapter {chapter.id}",
                       partial(app.open_exercise, exercise))
        for quiz in app.session.book.quizzes:
            yield f"Quiz: {quiz.title}", f"{len(quiz)} questions", partial(app.open_quiz, quiz)
        for lab in app.session.book.labs:
            yield f"Lab: {lab.title}", "predict, then explore", partial(app.open_lab, lab)

    async def discover(self) -> Hits:
        for title, help_text, action in self._entries():
            if not title[0].isdigit():
                # Textual types `help` as str but reads it with Content.from_markup, which keeps a Content as it
                # is: a str would be read as markup, and the book's titles are not markup.
                yield DiscoveryHit(plain(title), action, text=title, help=plain(help_text))  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, highlighted(matcher, title), action, text=title,
                          help=plain(help_text))  # type: ignore[arg-type]  # as in discover: Content, not markup


def highlighted(matcher: Matcher, title: str) -> Content:
    """`title` with the letters the query matched highlighted, as Textual's `Matcher.highlight` does, but read
    as plain text: `highlight` parses its argument as markup, and titles come from the book."""
    content = plain(title)
    shown = content.plain
    _, offsets = matcher.fuzzy_search.match(matcher.query, shown)
    for offset in offsets:
        if not shown[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def app_commands(app: RingbookApp) -> Iterator[SystemCommand]:
    """Ringbook's own commands in the palette (Ctrl+P), beside the book's chapters and exercises; not
    Textual's (its theme picker, Maximize, its keys panel), which ringbook does not use."""
    yield SystemCommand("Home", "Back to the home screen", app.go_home)
    if app.live_book.problems:
        yield SystemCommand("Book problems", "What stops the book loading, as path:line: message (Ctrl+B)",
                            app.action_book_problems)
    yield SystemCommand("Review", "Review the exercises that are due (r on the home screen)", app.start_review)
    yield SystemCommand("Keys", "The keys of this screen (?)", app.action_toggle_keys)
    yield SystemCommand("Theme", "Switch between the light and dark themes (F2)", app.action_toggle_theme)
    yield SystemCommand("Screenshot", "Save this screen as an SVG in your data folder (Ctrl+S)",
                        lambda: app.set_timer(0.1, app.action_screenshot))  # once the palette has gone
    yield SystemCommand("Quit", "Leave ringbook; your progress is kept (q)", app.action_quit)
