"""The keyboard model of docs/keys.md, driven by every route into an exercise of every kind at 80x24.

Before: the answer box had the keyboard when an exercise was opened from the list or the palette but not
after n/p or a correct answer, so Esc sometimes left the box and sometimes the exercise; Back went home
from the palette but to the chapter from Continue; `i` in the box typed an i; the build editor kept PgDn
and the keyboard off screen after a run, started in the signature, and swallowed `n` on a review card;
Esc or v on a review card left the session.

Each route uses one app for every kind (the book's first exercise of each, as grader.kinds registers them),
to keep this quick."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from textual.widgets import Input, TextArea

from grader.exercise import NumericAnswer
from grader.kinds.build import Build
from grader.kinds.debug import Debug
from grader.kinds.design import Design
from grader.kinds.match import Match
from grader.kinds.registry import KINDS as REGISTERED
from tests.built_in import builtin_book
from tests.helpers import pick_in_palette, ringbook_app, settle
from tui.answers.code import body_start
from tui.answers.pairs import PairTable
from tui.progress.review import PRACTICE_CARDS
from tui.screens.chapter import ChapterScreen
from tui.screens.exercise import ExerciseScreen
from tui.screens.home import HomeScreen
from tui.widgets.code_listing import CodeListing
from tui.widgets.order_list import OrderList
from tui.widgets.page import Page

KINDS = {next(e.id for e in builtin_book().exercises if e.kind == kind): kind for kind in REGISTERED}  # id -> kind
SOLVED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def on_screen(page: Page, widget) -> bool:
    """Whether `widget` (an editor: the line with its cursor) shows in the page's viewport."""
    if isinstance(widget, TextArea):
        row = widget.cursor_screen_offset.y
        return page.content_region.y <= row < page.content_region.bottom
    return page.content_region.overlaps(widget.region) if widget.region.height else False


async def arrived(app, pilot) -> ExerciseScreen:
    await pilot.pause()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ExerciseScreen)
    return screen


async def page_keys_scroll(pilot, screen: ExerciseScreen) -> None:
    """PgDn, End, PgUp and Home move the page, not the cursor of what has the keyboard, which keeps it."""
    page = screen.query_one("#exercise", Page)
    focused = screen.focused
    if page.max_scroll_y == 0:
        return
    await pilot.press("pagedown")
    await pilot.pause()
    assert page.scroll_y > 0, focused
    await pilot.press("end")
    await pilot.pause()
    assert page.scroll_y == page.max_scroll_y
    await pilot.press("pageup", "home")
    await pilot.pause()
    assert page.scroll_y == 0 and screen.focused is focused


def answer_has_the_keyboard(screen: ExerciseScreen) -> bool:
    """What the panel gives the keyboard to (its box, list, editor or table), not the panel itself."""
    focused = screen.focused
    return focused is not None and focused is not screen.panel and screen.panel in focused.ancestors


async def the_answer_has_the_keyboard_then_esc_steps_out(pilot, screen: ExerciseScreen, under) -> None:
    """The model on arrival outside a session: the answer has the keyboard, the page keys scroll the
    page, the first Esc hands the keyboard to the page and the second goes back to `under`."""
    app = screen.app
    kind = KINDS[screen.exercise.id]
    assert answer_has_the_keyboard(screen), (kind, screen.focused)
    assert screen.query_one("#exercise", Page).scroll_y == 0           # opened at its top, where the task is
    await page_keys_scroll(pilot, screen)
    await pilot.press("escape")
    await pilot.pause()
    assert app.screen is screen and screen.focused is screen.panel     # left the answer, not the screen
    await pilot.press("escape")
    await pilot.pause()
    assert app.screen is under, (kind, app.screen)


async def test_from_the_chapter_list_each_kind_arrives_answering_and_esc_returns_to_the_list(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        for exercise_id in KINDS:
            chapter_id = book.exercise(exercise_id).chapter_id
            app.open_chapter(book.chapter(chapter_id))
            await pilot.pause()
            await pilot.pause()
            chapter = app.screen
            await pilot.press("e")
            listing = chapter.query_one("#exercise-list")
            listing.focus()
            listing.highlighted = [e.id for e in book.chapter(chapter_id).exercises].index(exercise_id)
            await pilot.press("enter")
            screen = await arrived(app, pilot)
            assert screen.exercise.id == exercise_id
            await the_answer_has_the_keyboard_then_esc_steps_out(pilot, screen, chapter)
            await pilot.press("escape")                   # the chapter, back home
            await pilot.pause()


async def test_from_the_palette_each_kind_arrives_answering_and_esc_returns_where_it_was_opened(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        for exercise_id in KINDS:
            exercise = book.exercise(exercise_id)
            await pick_in_palette(app, pilot, f"{exercise.id} {exercise.title}", exercise.title)
            screen = await arrived(app, pilot)
            assert screen.exercise.id == exercise_id
            await the_answer_has_the_keyboard_then_esc_steps_out(pilot, screen, home)


async def test_continue_arrives_answering_and_esc_returns_home(book, store):
    """Continue opened the chapter underneath the exercise, so Back went to the chapter, not home."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        for exercise_id in KINDS:
            chapter_id = book.exercise(exercise_id).chapter_id
            store.set_last_opened(chapter_id, at_opening=True)   # its text was read: Continue goes to exercises
            store.set_last_opened(chapter_id, exercise_id)
            await pilot.press("c")
            screen = await arrived(app, pilot)
            assert screen.exercise.id == exercise_id
            await the_answer_has_the_keyboard_then_esc_steps_out(pilot, screen, home)


async def test_n_and_p_arrive_answering_like_every_other_route(book, store):
    """Through the whole of chapter 0 with n, then back with p: each exercise arrives as from the list, and
    Back still leads to the list it was first opened from."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_chapter(book.chapter("0"))
        await pilot.pause()
        chapter = app.screen
        app.open_exercise(book.exercise("0.1"))
        screen = await arrived(app, pilot)
        ids = [e.id for e in book.chapter("0").exercises]
        for step, key in [(1, "n")] * (len(ids) - 1) + [(-1, "p")]:
            await pilot.press("escape")                       # the answer hands the keyboard to the page
            await pilot.press(key)
            before, screen = screen, await arrived(app, pilot)
            assert screen.exercise.id == ids[ids.index(before.exercise.id) + step]
            assert screen.answering, screen.exercise.id
            assert answer_has_the_keyboard(screen), screen.exercise.id
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert app.screen is chapter


def wrong_answer(screen: ExerciseScreen) -> list[str]:
    """Keys that give a wrong answer, with the answer having the keyboard."""
    exercise = screen.exercise
    if isinstance(exercise, NumericAnswer):
        return ["9", "9", "9", "enter"]
    if isinstance(exercise, Build):
        return ["ctrl+r"]                                      # the starter raises NotImplementedError
    if isinstance(exercise, Debug):
        wrong = 1 if exercise.buggy_line != 1 else 2
        return ["home", *["down"] * (wrong - 1), "enter"]
    if isinstance(exercise, Match):                            # every item given the first option
        return [key for side in exercise.presented_left for key in (exercise.letter(side.id), "1")] + ["enter"]
    assert isinstance(exercise, Design), exercise.kind
    if screen.query_one("#order", OrderList).order == list(exercise.order):   # dealt right: swap the first two
        return ["space", "down", "space", "enter"]
    return ["enter"]


def right_answer(screen: ExerciseScreen) -> None:
    """Put the right answer in place, to submit with Enter (a build: with Ctrl+R)."""
    from tests.face.test_keyboard_only import TYPED_SOLUTION

    exercise = screen.exercise
    if isinstance(exercise, NumericAnswer):
        screen.query_one("#answer", Input).value = repr(exercise.value)
    elif isinstance(exercise, Build):
        screen.query_one("#editor", TextArea).text = TYPED_SOLUTION
    elif isinstance(exercise, Debug):
        screen.query_one("#listing", CodeListing).highlighted = exercise.buggy_line - 1
    elif isinstance(exercise, Match):
        screen.query_one(PairTable).chosen = dict(exercise.pairs)
    else:
        assert isinstance(exercise, Design), exercise.kind
        screen.query_one("#order", OrderList).order = list(exercise.order)


async def test_after_each_verdict_the_verdict_and_what_has_the_keyboard_are_on_screen(book, store):
    """A wrong answer keeps the keyboard in the answer, on screen beside the verdict (a build's editor:
    its line); a right one gives the page the keyboard (a passed build too), and Esc steps out once.
    Each kind in turn, opened from its chapter in one app."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        for exercise_id in KINDS:
            app.open_chapter(book.chapter(book.exercise(exercise_id).chapter_id))
            await pilot.pause()
            chapter = app.screen
            app.open_exercise(book.exercise(exercise_id))
            screen = await arrived(app, pilot)
            page = screen.query_one("#exercise", Page)
            verdict = screen.query_one("#verdict")
            for answer in ("wrong", "right"):
                if answer == "right":
                    right_answer(screen)
                await pilot.press(*(wrong_answer(screen) if answer == "wrong" else
                                    ["ctrl+r" if KINDS[exercise_id] == "build" else "enter"]))
                await settle(app, pilot)
                await pilot.pause()
                shown = str(verdict.render())
                assert ("✓" in shown) == (answer == "right"), (exercise_id, shown)
                assert on_screen(page, verdict), (exercise_id, answer, verdict.region, page.content_region)
                assert screen.answering == (answer == "wrong"), (exercise_id, answer, screen.focused)
                if screen.answering:
                    assert on_screen(page, screen.focused), (exercise_id, answer, screen.focused)
                else:
                    assert screen.focused is screen.panel, exercise_id   # the page's keys: letters are commands
            await page_keys_scroll(pilot, screen)
            await pilot.press(*(["escape"] if screen.answering else []), "escape")
            await pilot.pause()
            assert app.screen is chapter, exercise_id
            await pilot.press("escape")                   # the chapter, back home
            await pilot.pause()


async def test_a_solved_exercise_arrives_with_the_page_holding_the_keys(book, store):
    """Solved: n and p step on at once, i (or a digit) starts a new answer; a solved build too."""
    for exercise_id in KINDS:
        store.record_attempt(exercise_id, "x", "correct")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_exercise(book.exercise("0.1"))
        screen = await arrived(app, pilot)
        assert screen.focused is screen.panel
        await pilot.press("i")
        assert isinstance(screen.focused, Input)
        await pilot.press("escape", "n")
        screen = await arrived(app, pilot)
        assert screen.exercise.id == "0.2" and screen.answering       # unsolved: the box
        app.open_exercise(book.exercise("0.5"), replace=True)
        screen = await arrived(app, pilot)
        assert screen.focused is screen.panel                          # n goes on; i brings the editor back
        await pilot.press("i")
        assert isinstance(screen.focused, TextArea)


async def test_i_in_an_empty_box_is_not_typed_but_later_it_is(book, store):
    """`i44.4` said "There is a unit (i44.4) but no number"."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_exercise(book.exercise("0.1"))
        screen = await arrived(app, pilot)
        box = screen.query_one("#answer", Input)
        await pilot.press("i", *"44.4")
        assert box.value == "44.4"
        await pilot.press("space", *"GiB")
        assert box.value == "44.4 GiB"
        await pilot.press("escape", "i", "i")              # from the page, i asks for the box; then nothing
        assert screen.focused is box and box.value == "44.4 GiB"


async def test_the_build_editor_starts_in_the_body_keeps_its_line_on_screen_and_lets_the_page_scroll(book, store):
    """Typed at once, the code lands in the body (it landed in the signature); after Ctrl+R what is typed
    still goes to the editor's line, on screen; PgDn moves the page, not the editor's cursor."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_exercise(book.exercise("0.5"))
        screen = await arrived(app, pilot)
        editor = screen.query_one("#editor", TextArea)
        starter = screen.exercise.starter
        assert app.focused is editor and editor.selection == body_start(starter)
        assert starter.splitlines()[body_start(starter)[0][0]].strip() == "raise NotImplementedError"
        await pilot.press(*"return 0")
        lines = editor.text.splitlines()
        assert lines[0] == starter.splitlines()[0] and "    return 0" in lines     # the signature is whole
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        page = screen.query_one("#exercise", Page)
        assert "✗" in str(screen.query_one("#verdict").render())
        assert app.focused is editor and on_screen(page, editor)
        cursor = editor.cursor_location
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        assert editor.cursor_location == cursor and page.scroll_y > 0
        await pilot.press("home")
        await pilot.pause()
        assert page.scroll_y == 0
        await pilot.press("end")                           # the editor off screen, then typing brings it back
        await pilot.pause()
        await pilot.press(*"  # note")
        await pilot.pause()
        assert on_screen(page, editor) and "return 0  # note" in editor.text
        await pilot.press("ctrl+home")
        assert editor.cursor_location == (0, 0)


def due_one_of_each_kind(store) -> None:
    """One exercise of each kind solved at SOLVED, a minute apart: all due (a build too) forty days later."""
    for minutes, exercise_id in enumerate(KINDS):
        store.record_attempt(exercise_id, "x", "correct", seconds_taken=60,
                             now=SOLVED + timedelta(minutes=minutes))


@pytest.mark.parametrize("purpose", ["review", "practice"])
async def test_a_session_card_of_every_kind_leaves_the_keys_to_the_session(book, store, purpose):
    """Every card arrives with the page holding the keyboard: n goes on at once (it was typed into a
    build card's code), the page keys scroll. Esc pauses the session and r resumes it; an answer leaves
    the page the keys; v on an answered card stays in the session."""
    due_one_of_each_kind(store)
    when = SOLVED + (timedelta(days=40) if purpose == "review" else timedelta(hours=1))
    app = ringbook_app(book, store, clock=lambda: when)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        home = app.screen
        await pilot.press("r", *(["enter"] if purpose == "practice" else []))
        seen = []
        cards = len(KINDS) if purpose == "review" else min(len(KINDS), PRACTICE_CARDS)
        assert len(app.session.review_cards) == cards
        for number in range(cards):
            card = await arrived(app, pilot)
            assert card.card and card.purpose == purpose and card.focused is card.panel, card.exercise.id
            seen.append(card.exercise.id)
            await page_keys_scroll(pilot, card)
            if number == 1:                                 # Esc: home, paused; r: the same card
                await pilot.press("escape")
                await pilot.pause()
                assert app.screen is home
                await pilot.press("r")
                card = await arrived(app, pilot)
                assert card.exercise.id == seen[-1] and card.focused is card.panel
            if number < cards - 1:
                if card.exercise.kind == "build":
                    editor = card.query_one("#editor", TextArea)
                    before = editor.text
                    await pilot.press("n")
                    assert editor.text == before           # not typed into the code
                else:
                    await pilot.press("n")
        assert len(set(seen)) == cards and set(seen) <= set(KINDS)
        card = app.screen
        await pilot.press("i")
        right_answer(card)
        await pilot.press("ctrl+r" if card.exercise.kind == "build" else "enter")
        await settle(app, pilot)
        assert card.focused is card.panel                   # answered: n, v and Esc are commands
        if card.check_action("new_numbers", ()):
            await pilot.press("v")
            practice = await arrived(app, pilot)
            assert practice.card and practice.exercise.id == card.exercise.id and practice is not card
        await pilot.press("n")                               # the last card: the session's summary
        await settle(app, pilot)
        from tui.screens.review_done import ReviewDoneScreen
        assert isinstance(app.screen, ReviewDoneScreen)


async def test_keys_lists_what_matters_grouped_and_fits_80x24(book, store):
    """`?` listed `← Scroll Left`, `^pgup Page Left`, `^c Copy selected text` and `shift+tab Focus
    Previous` before `^p palette`, and scrolled even at 120x40."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = {}
        for where in ("home", "exercise", "build"):
            if where == "exercise":
                app.open_exercise(book.exercise("0.1"))
            elif where == "build":
                app.open_exercise(book.exercise("0.5"), replace=True)
            await pilot.pause()
            under = app.screen
            if getattr(under, "answering", False):
                await pilot.press("escape")               # ? in the box or the editor is typed
            await pilot.press("question_mark")
            await pilot.pause()
            dialog = app.screen
            headings = [heading for heading, _ in dialog.groups]
            listed = " ".join(f"{key} {what}" for _, rows in dialog.groups for key, what in rows)
            shown[where] = (headings, listed)
            for internal in ("Scroll Left", "Page Left", "Copy", "Focus Previous", "Focus Next", "Cursor"):
                assert internal not in listed, (where, internal)
            assert dialog.query_one("#keys-list").max_scroll_y == 0, where       # no scrolling at 80x24
            await pilot.press("question_mark")
            await pilot.pause()
            assert app.screen is under
        headings, listed = shown["home"]
        assert headings == ["This screen", "Everywhere"]
        for description in ("Open", "Continue", "Theme", "Quit", "Scroll the page", "Find a chapter"):  # nothing
            # is solved yet, so there is nothing to review: r is not offered (tests/face/test_home_layout.py)
            assert description in listed
        assert shown["exercise"][0] == ["This screen", "Everywhere", "In the answer box"]
        assert shown["build"][0] == ["This screen", "Everywhere", "In the editor"]
        assert "^r Run" in shown["build"][1] and "Code start" not in shown["build"][1]


async def test_the_palette_offers_ringbook_s_commands_not_textual_s(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert titles == ["Home", "Review", "Keys", "Theme", "Screenshot", "Quit"]
        app.open_exercise(book.exercise("0.1"))
        await pilot.pause()
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Home")
        command.callback()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


def test_r_means_review_only():
    """r meant Review on home, Top in a chapter and Reveal on a quiz card."""
    from tui.screens.quiz import QuizScreen

    for screen in (ChapterScreen, ExerciseScreen, QuizScreen):
        assert all("r" not in binding.key.split(",") for binding in screen.BINDINGS), screen
    assert {binding.action.partition("(")[0] for binding in HomeScreen.BINDINGS if binding.key == "r"} == {"review"}
