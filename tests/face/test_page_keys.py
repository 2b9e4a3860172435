"""The page keys always scroll the page, and every new verdict is scrolled into view (tui/widgets/page.py).

Before, at 80x24: a choice exercise's verdict appeared below the screen, with the options keeping PgDn;
a build exercise opened scrolled to its editor, the task above the screen; and once focus was nowhere,
no key scrolled at all."""

from __future__ import annotations

import pytest

from tests.helpers import footer_keys, open_exercise, ringbook_app, settle, wait_until
from tui.widgets.page import Page


def in_view(page: Page, widget) -> bool:
    return widget.region.height > 0 and page.region.contains_region(widget.region)


async def page_keys_move(pilot, page: Page) -> None:
    """PgDn goes down and PgUp comes back, on a page long enough to scroll."""
    assert page.max_scroll_y > 0
    page.scroll_home(animate=False)
    await pilot.pause()
    await pilot.press("pagedown")
    await pilot.pause()
    assert page.scroll_y > 0
    await pilot.press("pageup")
    await pilot.pause()
    assert page.scroll_y == 0


@pytest.mark.parametrize("exercise_id, keys", [
    ("0.1", ["1", "7", "5", "0", "space", "M", "B", "enter"]),   # right: verdict on top, explanation below
    ("0.1", ["9", "enter"]),                                       # wrong
    ("0.4", ["b"]),                                                # a choice, picked by its letter
    ("0.4", ["down", "enter"]),
])
async def test_the_newest_verdict_is_in_view_and_the_page_keys_scroll(book, store, exercise_id, keys):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, exercise_id)
        page = screen.query_one("#exercise", Page)
        await pilot.press(*keys)
        await settle(app, pilot)
        await pilot.pause()
        verdict = screen.query_one("#verdict")
        assert "✓" in str(verdict.render()) or "✗" in str(verdict.render())
        assert in_view(page, verdict)
        if page.max_scroll_y:
            await page_keys_move(pilot, page)


async def test_a_letter_picks_a_choice(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.4")
        right = "abcd"[list(screen.exercise.presented_options).index(screen.exercise.correct_option)]
        await pilot.press(right)
        await settle(app, pilot)
        assert [a.answer for a in store.attempts("0.4")] == [screen.exercise.correct_option.id]


async def test_a_build_exercise_opens_at_its_task_with_the_editor_ready(book, store):
    from textual.widgets import TextArea

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        await pilot.pause()
        page = screen.query_one("#exercise", Page)
        assert page.scroll_y == 0 and in_view(page, screen.query_one("#exercise-title"))
        assert isinstance(app.focused, TextArea)


async def test_with_nothing_focused_the_page_takes_the_keys(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.4")
        screen.set_focus(None)
        page = screen.query_one("#exercise", Page)
        await wait_until(pilot, lambda: app.focused is page, "the page taking the keys")   # after a refresh
        await page_keys_move(pilot, page)


async def test_the_quiz_results_can_be_paged_through(book, store):
    """The results of 20 questions (rows 17 to 20 and the retake line were below the screen)."""
    import json

    quiz = book.quiz("readiness")
    responses = [{"question_id": q.id, "rating": "missed"} if q.style == "reveal"
                 else {"question_id": q.id, "choice": q.presented_options[0].id} for q in quiz.questions[:-1]]
    store.set_state("quiz:readiness", json.dumps({"responses": responses}))
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_quiz(quiz)
        await pilot.pause()
        last = quiz.questions[-1]
        await pilot.press("a" if last.style == "choice" else "space")
        await pilot.pause()
        if last.style != "choice":
            await pilot.press("g")
            await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        page = app.screen.query_one("#quiz", Page)
        results = app.screen.query_one("#quiz-results")
        assert app.screen.query("#quiz-score") and app.focused is results   # its rows open chapters (Enter)
        await page_keys_move(pilot, page)
        await pilot.press("end")
        await pilot.pause()
        assert page.scroll_y == page.max_scroll_y
        await pilot.press("home")                        # ↑ and ↓ move through the rows, the page follows
        await pilot.pause()
        assert page.scroll_y == 0
        for _ in range(len(quiz) - 1):
            await pilot.press("down")
        await pilot.pause()
        last_row = results.virtual_region.y + len(quiz)
        assert results.highlighted == len(quiz) - 1 and page.scroll_y + page.size.height > last_row


async def test_the_contents_list_each_section_once_and_start_at_the_one_being_read(book, store):
    from textual.widgets import OptionList

    from tui.screens.contents import ContentsScreen

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_chapter(book.chapters[0])
        await pilot.pause()
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        sections = app.screen.query_one("#sections", OptionList)
        labels = [str(sections.get_option_at_index(i).prompt).strip() for i in range(sections.option_count)]
        assert labels.count("Exercises") == 1 and sections.highlighted in (None, 0)
        third = sections.get_option_at_index(2).id
        while sections.highlighted != 2:
            await pilot.press("down")
        await pilot.press("enter")                             # jump to the third section
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ContentsScreen)
        sections = app.screen.query_one("#sections", OptionList)
        assert sections.get_option_at_index(sections.highlighted).id == third


@pytest.mark.parametrize("exercise_id, box", [("0.1", True), ("8.2", True), ("0.5", True), ("0.4", False),
                                                ("0.6", False), ("9.8", False)])
async def test_every_footer_key_of_an_exercise_is_whole_at_80_columns(book, store, exercise_id, box):
    """The exercise footer ran off the screen ("v New numbers q▏"), and p was never shown. With a box or an
    editor, Escape leaves it for the commands; a list or listing has them beside its own keys."""
    store.record_attempt(exercise_id, "x", "correct")            # solved: v (new numbers) may show too
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, exercise_id)   # solved: the page has the keys (a build: its editor)
        for turn in (1, 2):
            if turn == 2:
                await pilot.press("escape" if screen.answering else "i")
            await pilot.pause()
            keys = footer_keys(screen)
            for key in keys:
                label = f"{key.key_display} {key.description}".strip()
                assert key.end <= 80 and key.end - key.start >= len(label), (screen.answering, label, key)
            if not screen.answering or not box:
                assert {"h", "x", "n", "p"} <= {key.key for key in keys}


async def test_a_chapter_pages_with_the_keys_from_the_start(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_chapter(book.chapters[0])
        await pilot.pause()
        await pilot.pause()
        page = app.screen.query_one("#page")
        assert app.focused is page
        await page_keys_move(pilot, page)


async def test_the_lab_pages_with_the_keys_after_an_answer(store):
    from tests.face.test_lab import lab_opened

    async with lab_opened(store) as (app, pilot):
        await pilot.press("1", "enter")                        # commit the first prediction
        await pilot.pause()
        page = app.screen.query_one("#data-parallel-scroll")
        feedback = app.screen.query_one("#data-parallel-prediction .question-feedback")
        assert page.region.contains_region(feedback.region)
        await page_keys_move(pilot, page)
