"""The learning loop, driven end to end with Textual's Pilot on the real store in a temp folder."""

from __future__ import annotations

import os
import re

import pytest
from rich.terminal_theme import SVG_EXPORT_THEME
from textual.widgets import Input, OptionList

from tests.helpers import (
    chapter_filled_in,
    footer_keys,
    open_exercise,
    pick_in_palette,
    ringbook_app,
    settle,
    text_of,
    wait_until,
)
from tui.progress.store import ProgressStore
from tui.screens.chapter import ChapterScreen
from tui.screens.exercise import ExerciseScreen


async def answer(app, pilot, text: str) -> str:
    box = app.screen.query_one("#answer", Input)
    box.focus()
    box.value = ""
    await pilot.press(*text, "enter")
    await settle(app, pilot)
    return text_of(app.screen.query_one("#verdict"))


async def test_wrong_then_right_then_mastery_after_restart(book, data_dir):
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")                  # chapter 0
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        await pilot.press("e", "enter")             # its exercises; open 0.1
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "0.1"
        await pilot.press(*"0.875", "enter")
        await settle(app, pilot)
        verdict = text_of(app.screen.query_one("#verdict"))
        assert "Not quite" in verdict and "one phase only" in verdict.lower()
        assert not app.screen.query_one("#explanation").display
        box = app.screen.query_one("#answer", Input)
        assert app.focused is box                    # a wrong answer keeps the box for another go
        box.value = ""
        await pilot.press(*"7/4", "enter")
        await settle(app, pilot)
        assert "Correct: 1.75 GB" in text_of(app.screen.query_one("#verdict"))
        assert app.screen.query_one("#explanation").display
        assert "Your attempts (2)" in text_of(app.screen.query_one("#attempts"))
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.exercise.id == "0.2"
        await pilot.press("q")
    store.close()

    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        stats = text_of(app.screen.query_one("#stats"))
        assert f"1 / {len(book.exercises)} exercises" in stats
        assert "Streak 1 day" in stats
        assert "Continue: 0.2" in text_of(app.screen.query_one("#continue"))
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "0.2"
        await pilot.press("escape")                 # the first Escape leaves the answer box...
        assert isinstance(app.screen, ExerciseScreen) and app.focused is app.screen.panel  # (the panel holds keys)
        await pilot.press("escape")                 # ...the second goes back where Continue was pressed
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
    assert [a.status for a in store.attempts("0.1")] == ["incorrect", "correct"]
    store.close()


async def test_invalid_answers_say_why_and_cost_nothing(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, "0.1")
        verdict = await answer(app, pilot, "1,75")
        assert "Couldn't read that" in verdict and "not counted as an attempt" in verdict
        assert store.attempts("0.1") == []


async def test_hint_ladder_and_reveal_are_recorded(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.2")
        await pilot.press("h")                      # typed into the box, not a command
        assert screen.query_one("#answer", Input).value == "h"
        await pilot.press("backspace", "escape", "h", "h")
        hints = text_of(screen.query_one("#hints"))
        assert "Hint 1 of" in hints and "Hint 2 of" in hints
        await pilot.press("x", "x")                 # x asks first: the worked answer is kept as revealed
        await pilot.pause()
        assert screen.query_one("#explanation").display
        await answer(app, pilot, "70")
    [attempt] = store.attempts("0.2")
    assert attempt.hints_used == 2 and attempt.revealed_first
    assert store.exercise_states()["0.2"].mark == "solved after reveal"


async def test_drafts_survive_leaving_and_coming_back(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, "1.1")
        await pilot.press(*"16*7")
        await pilot.press("escape", "escape")       # leave the box, then the screen
        await pilot.pause()
        assert not isinstance(app.screen, ExerciseScreen)
        screen = await open_exercise(app, pilot, "1.1")
        assert screen.query_one("#answer", Input).value == "16*7"
    assert store.draft("1.1") == "16*7"


async def test_choice_by_keyboard(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.4")
        exercise = screen.exercise
        right = next(i for i, o in enumerate(exercise.presented_options) if o.correct)
        wrong = (right + 1) % len(exercise.presented_options)
        choices = screen.query_one("#choices", OptionList)
        assert app.focused is choices
        choices.highlighted = wrong
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Not that one" in text_of(screen.query_one("#verdict"))
        choices.highlighted = right
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Correct" in text_of(screen.query_one("#verdict"))
    assert [a.answer for a in store.attempts("0.4")][-1] == exercise.correct_option.id


async def test_step_table_rows_are_each_marked(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "8.2")
        values = [f"{v:g}" for v in screen.exercise.step_values]
        values[-1] = "1"
        for value in values:
            await pilot.press(*value, "enter")
        await settle(app, pilot)
        marks = [text_of(screen.query_one(f"#mark-{i}")) for i in range(len(values))]
        assert marks[:-1] == ["✓"] * (len(values) - 1) and marks[-1] == "✗"
        assert "is wrong" in text_of(screen.query_one("#verdict"))


async def test_trace_rows_move_with_up_and_down_and_their_labels_are_whole(book, store):
    """Issue 45, 2.5: ↑/↓ scrolled the page, so ↑↑ then a digit went into the row left, not the one above;
    labels were cut at about 38 characters even at 120 columns; no footer or `?` said how rows are moved."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_exercise(app, pilot, "12.5")
        table = screen.query_one("#steps")
        boxes = table.inputs
        await pilot.press("down", "down", "2")
        await pilot.press("up", "5")
        assert [box.value for box in boxes[:3]] == ["", "5", "2"] and app.focused is boxes[1]
        await pilot.press("up", "up", "up")                              # the first row stays put
        assert app.focused is boxes[0]
        await wait_until(pilot, lambda: "↑↓" in [key.key_display for key in footer_keys(screen)],
                         "the footer showing ↑↓ for the rows")
        label = screen.query(".step-label").last()
        assert label.region.width > 40
        assert "forwards)" in "".join(strip.text for strip in label.render_lines(label.region.reset_offset))
        await pilot.press("escape", "question_mark")                        # from the page: in a box, ? is typed
        await wait_until(pilot, lambda: hasattr(app.screen, "groups"), "the keys dialog")
        listed = " ".join(f"{key} {what}" for _, rows in app.screen.groups for key, what in rows)
        assert "↑/↓ Tab Move to the row above or below" in listed


async def test_down_on_a_trace_tables_last_row_says_the_row_stays(book, store):
    """↓ (the footer's ↑↓ Row) on the last row did nothing (the keyboard walk found it): the row stays, and a
    line says which way the rows go."""
    app = ringbook_app(book, store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_exercise(app, pilot, "12.5")
        boxes = screen.query_one("#steps").inputs
        await pilot.press(*["down"] * len(boxes))
        assert app.focused is boxes[-1]
        assert any(notice.message == "This is the last row: ↑ goes to the row above."
                   for notice in app._notifications)


async def test_palette_jumps_to_an_exercise_by_id(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pick_in_palette(app, pilot, "5.3 interleaving", "5.3")
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "5.3"


async def test_question_mark_shows_every_key(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        listed = " ".join(f"{key} {what}" for _, rows in app.screen.groups for key, what in rows)
        for description in ("Open", "Continue", "Theme", "Quit", "Screenshot", "^p", "Scroll the page"):
            assert description in listed
        assert "r How review works" in listed and "↑/↓ Move in the list" in listed  # issue 45, 2.10: both left out
        page = app.screen.query_one("#keys-list")
        assert app.focused is page and page.max_scroll_y == 0    # at 80x24 all of it shows
        assert home.query_one("#chapters").size.width > 60         # the list underneath is not squeezed
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen is home


async def test_mouse_opens_chapters_and_exercises(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#chapters", offset=(10, 2))
        await pilot.pause()
        assert isinstance(app.screen, ChapterScreen)
        await chapter_filled_in(app, pilot)
        await pilot.press("e")                      # jump to the exercise list, then click one
        await pilot.pause()
        await pilot.click("#exercise-list", offset=(10, 1))
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen)


async def test_resizing_keeps_everything_reachable(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_exercise(app, pilot, "0.1")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        box = screen.query_one("#answer", Input)
        assert box.region.right <= 80 and box.region.width > 20
        await answer(app, pilot, "7/4")
        assert screen.query_one("#verdict").region.width > 40


HEX_COLOUR = re.compile(r"#[0-9a-f]{6}\b", re.I)
WINDOW_BUTTONS = re.compile(r"<circle[^>]*>")   # the red, amber and green dots Rich draws around a screenshot
# The screenshot's terminal colours, which text and cells drawn in no colour of their own are given.
DEFAULT_COLOURS = {SVG_EXPORT_THEME.foreground_color.hex, SVG_EXPORT_THEME.background_color.hex}


def colours_drawn(app) -> set[str]:
    """Every colour in an SVG screenshot of the screen (text and backgrounds) but the terminal's defaults and
    Rich's window buttons."""
    svg = WINDOW_BUTTONS.sub("", app.export_screenshot())
    return {colour.lower() for colour in HEX_COLOUR.findall(svg)} - DEFAULT_COLOURS


def grey(colour: str) -> bool:
    return colour[1:3] == colour[3:5] == colour[5:7]


@pytest.mark.parametrize("no_color", [True, False], ids=["NO_COLOR", "colour"])
async def test_no_color_is_honoured(book, store, monkeypatch, no_color):
    """With NO_COLOR set nothing is drawn in a colour, only in greys: home, and an exercise with a verdict in
    red; without it the same screens have colours (so the check can tell them apart)."""
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        drawn = colours_drawn(app)
        await open_exercise(app, pilot, "0.1")
        await answer(app, pilot, "0.875")                        # wrong: a verdict that is red in colour
        assert "Not quite" in text_of(app.screen.query_one("#verdict"))
        drawn |= colours_drawn(app)
    assert drawn and all(grey(colour) for colour in drawn) == no_color, sorted(drawn)


async def test_hostile_answer_does_not_freeze_the_screen(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.7")
        screen.query_one("#answer", Input).value = "9^9^9^9 + " + "(" * 200
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Couldn't read that" in text_of(screen.query_one("#verdict")) or \
            "too large" in text_of(screen.query_one("#verdict"))
        assert isinstance(app.screen, ExerciseScreen)


async def test_build_editor_runs_the_tests_off_the_ui_thread(book, store):
    from textual.widgets import TextArea

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        editor = screen.query_one("#editor", TextArea)
        assert app.focused is editor and editor.text == screen.exercise.starter
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "0 of 5 tests pass" in text_of(screen.query_one("#verdict"))
        assert text_of(screen.query_one("#verdict-details")).count("✗") == 5
        editor.text = screen.exercise.solution
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "All 5 tests pass" in text_of(screen.query_one("#verdict"))
        assert screen.query_one("#explanation").display
    assert [a.status for a in store.attempts("0.5")] == ["incorrect", "correct"]


async def test_build_editor_keeps_a_draft(book, store):
    from textual.widgets import TextArea

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "2.4")
        screen.query_one("#editor", TextArea).text = "def required_accum_steps():\n    pass\n"
        await pilot.press("escape", "escape")      # leave the editor, then the exercise
        await pilot.pause()
        screen = await open_exercise(app, pilot, "2.4")
        assert screen.query_one("#editor", TextArea).text.startswith("def required_accum_steps():")


async def test_debug_click_a_wrong_then_the_right_line(book, store):
    from tui.widgets.code_listing import CodeListing

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 30)) as pilot:
        screen = await open_exercise(app, pilot, "0.6")
        listing = screen.query_one("#listing", CodeListing)
        assert app.focused is listing
        wrong = 1 if screen.exercise.buggy_line != 1 else 2
        top = listing.content_region.y - listing.region.y          # the border above the first line
        await pilot.click("#listing", offset=(10, top + wrong - 1))
        await settle(app, pilot)
        assert f"Line {wrong} is not the bug" in text_of(screen.query_one("#verdict"))
        assert listing.marks == {wrong: "✗"}                       # and the listing stays pickable
        await pilot.click("#listing", offset=(10, top + screen.exercise.buggy_line - 1))
        await settle(app, pilot)
        assert "is the bug" in text_of(screen.query_one("#verdict"))
        assert listing.marks[screen.exercise.buggy_line] == "✓"
        assert screen.exercise.fixed_line.strip() in text_of(screen.query_one("#fix"))
        assert screen.query_one("#explanation").display
    assert [a.answer for a in store.attempts("0.6")] == [str(wrong), str(screen.exercise.buggy_line)]


async def test_home_shows_new_progress_when_the_learner_returns(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        assert "0 / " in text_of(home.query_one("#stats"))
        calls = []
        original = home.progress
        home.progress = lambda: calls.append(1) or original()
        await open_exercise(app, pilot, "0.1")
        await pilot.press(*"7/4", "enter")
        await settle(app, pilot)
        app.pop_screen()
        await pilot.pause()
        assert app.screen is home and calls == [1]          # counted again, once
        assert f"1 / {len(book.exercises)} exercises" in text_of(home.query_one("#stats"))
        assert "Continue: 0.2" in text_of(home.query_one("#continue"))   # the next unsolved after 0.1


async def test_new_numbers_on_a_solved_exercise_are_practice_with_their_own_answer(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = await open_exercise(app, pilot, "0.1")
        await pilot.press("escape")
        assert not app.screen.check_action("new_numbers", ())          # nothing solved yet: no key
        await pilot.press("v")
        assert app.screen is screen
        await pilot.press("i", *"7/4", "enter")
        await settle(app, pilot)
        await pilot.press("v")                       # a right answer leaves the box: letters are keys again
        await pilot.pause()
        practice = app.screen
        assert isinstance(practice, ExerciseScreen) and practice is not screen
        assert practice.purpose == "practice" and practice.seed != 0
        assert practice.exercise.prompt != book.exercise("0.1").prompt
        assert "practice, new numbers" in text_of(practice.query_one("#exercise-title"))
        await pilot.press(*"7/4", "enter")                            # the book's answer: wrong here
        await settle(app, pilot)
        assert "Correct" not in text_of(practice.query_one("#verdict"))
        box = practice.query_one("#answer", Input)
        box.value = repr(practice.exercise.value)
        await pilot.press("enter")
        await settle(app, pilot)
        assert "Correct" in text_of(practice.query_one("#verdict"))
        kept = [(a.status, a.seed, a.purpose) for a in store.attempts("0.1")]
        assert kept == [("correct", 0, "learn"), ("incorrect", practice.seed, "practice"),
                        ("correct", practice.seed, "practice")]
        await pilot.press("n")                                          # next is the book's next exercise
        await pilot.pause()
        assert app.screen.exercise.id == "0.2" and app.screen.seed == 0


async def test_an_exercise_starts_the_proof_worker_only_when_its_answers_need_proofs(book, book_copy, store):
    """A formula the points settle never waits for sympy, so opening one starts no worker; an answer such as
    max(...) needs a proof for every right attempt, and the worker's start does not fit in a grade's second,
    so opening that exercise starts it."""
    from grader.book.load import load_book
    from grader.maths.prover import WORKER
    from tests.helpers import wait_until
    from tui.app import RingbookApp

    exercises = book_copy / "00-ring-allreduce" / "exercises.yaml"
    before, answer, after = exercises.read_text().rpartition("answer: 2*M*(N-1)/N")   # 0.7's, the last
    exercises.write_text(f"{before}answer: max(M, 0)*2*(N-1)/N{after}")
    for on, exercise_id, started in [(book, "0.7", False), (load_book(book_copy), "0.7", True)]:
        WORKER.stop()
        app = RingbookApp(on, store, quiet_host=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_exercise(app, pilot, exercise_id)
            if started:
                await wait_until(pilot, lambda: WORKER.pid is not None, "the proof worker's start")
            else:
                await settle(app, pilot)
                assert WORKER.pid is None
    WORKER.stop()


@pytest.fixture
def busy_host(tmp_path, monkeypatch):
    """The host's /proc/loadavg, as a class starting together makes it: more tasks runnable than cores. Write
    QUIET_HOST to it for a core to come free."""
    loadavg = tmp_path / "loadavg"
    loadavg.write_text(BUSY_HOST)
    monkeypatch.setattr("tui.pacing.LOADAVG", loadavg)
    return loadavg


QUIET_HOST = "3.1 9.0 4.8 1/412 90211\n"
BUSY_HOST = f"31.5 12.0 4.2 {2 * (os.cpu_count() or 1) + 1}/412 90210\n"


async def test_the_screens_warm_up_waits_while_the_host_has_no_core_to_spare(book, store, busy_host):
    """Thirty learners logging in together: each one's warm-up at home (~0.25 s of CPU) slowed the starts of
    the learners still on their way there. It waits while more tasks are runnable than there are cores."""
    from tests.helpers import home_ready
    from tui.app import RingbookApp
    from tui.pacing import HOST_BUSY_RETRY_SECONDS

    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        await pilot.pause(HOST_BUSY_RETRY_SECONDS * 1.5)   # it has looked again
        assert app.pacing.warmed == set()
        busy_host.write_text(QUIET_HOST)   # everyone home, reading
        await wait_until(pilot, lambda: app.pacing.warmed == {"screens"}, "the warm-up once a core is free")


async def test_a_screen_opened_while_the_host_is_busy_leaves_the_warm_up_undone(book, store, busy_host):
    """A learner who opens a chapter before a core is free loads its screens as they open: the warm-up that
    waited would load them again for nothing. In a class it found its free core just as everyone paused to
    submit together, and took ~0.2 s of CPU apiece from those verdicts."""
    import gc

    from tests.helpers import home_ready
    from tui.app import RingbookApp
    from tui.pacing import HOST_BUSY_RETRY_SECONDS

    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        app.open_chapter(book.chapters[0])
        await pilot.pause()
        frozen = gc.get_freeze_count()   # the warm-up freezes what it loaded when it is done
        busy_host.write_text(QUIET_HOST)   # a core is free now
        await pilot.pause(HOST_BUSY_RETRY_SECONDS * 2.5)
        await settle(app, pilot)
        assert gc.get_freeze_count() <= frozen   # none added (frozen objects that die leave it)
        assert not [worker for worker in app.workers if worker.group == "warm-up"]


async def right_answer_on_a_busy_host(app, pilot) -> ExerciseScreen:
    """0.1 answered right by a learner's app (warm) while the host has no core to spare: its verdict shows."""
    from tests.helpers import home_ready, open_exercise

    await home_ready(app, pilot)
    screen = await open_exercise(app, pilot, "0.1")
    await pilot.press(*"7/4", "enter")
    await wait_until(pilot, lambda: screen.query_one("#verdict").has_class("verdict-correct"), "the verdict")
    return screen


def rest_of_verdict_shown(screen: ExerciseScreen) -> bool:
    """The explanation a right answer opens is on the page, and the page has the keyboard."""
    return bool(screen.query_one("#explanation").display) and not isinstance(screen.focused, Input)


async def test_on_a_busy_host_the_verdict_shows_and_the_rest_waits_for_a_free_core(book, store, busy_host,
                                                                                   monkeypatch):
    """Thirty learners submitting together on two cores: the rest of each verdict (the explanation, the scroll,
    the keyboard's move: three times the verdict's CPU) took cores from the verdicts still on their way. On a
    busy host it waits until a core is free; the verdict does not wait."""
    from tui.app import RingbookApp
    from tui.screens.exercise import HOST_LOOKED_AT_EVERY

    monkeypatch.setattr("tui.screens.exercise.REST_WAITS_AT_MOST", 600)   # not the cap: the next test's
    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await right_answer_on_a_busy_host(app, pilot)
        await pilot.pause(HOST_LOOKED_AT_EVERY * 3)   # it has looked again
        assert not rest_of_verdict_shown(screen)
        assert screen.focused is screen.query_one("#answer", Input)
        assert [a.answer for a in store.attempts("0.1")] == ["7/4"]   # kept before it was drawn: it waits for no core
        busy_host.write_text(QUIET_HOST)
        await wait_until(pilot, lambda: rest_of_verdict_shown(screen), "the rest of the verdict once a core is free")
        assert "7/4" in text_of(screen.query_one("#attempts"))


@pytest.fixture
def layouts(monkeypatch) -> list:
    """Every screen Textual lays out, in order, from the moment the test clears it."""
    from textual.screen import Screen

    laid_out: list[Screen] = []
    lay_out = Screen._refresh_layout

    def counted(screen: Screen, *args, **kwargs) -> None:
        laid_out.append(screen)
        lay_out(screen, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return laid_out


async def answer_on_a_busy_host(pilot, screen: ExerciseScreen, answer: str, verdict: str, layouts: list) -> None:
    """`answer` typed and sent, with the layouts counted from its Enter until its verdict has shown and the app
    has looked at the (busy) host a few times."""
    from tui.screens.exercise import HOST_LOOKED_AT_EVERY

    await pilot.press(*answer)
    await pilot.pause()
    layouts.clear()
    await pilot.press("enter")
    await wait_until(pilot, lambda: screen.query_one("#verdict").has_class(verdict), "the verdict")
    await pilot.pause(HOST_LOOKED_AT_EVERY * 5)


async def test_a_verdict_is_laid_out_once_while_the_rest_of_it_waits(book, store, busy_host, monkeypatch, layouts):
    """The verdict panel takes the height of its text, and Textual then asked for the same layout of the whole
    page again (the panel's virtual_size changed): ~5 ms of CPU after every such verdict, while a class that
    had submitted together still waited for theirs. One layout draws the verdict; none follows while the rest
    of it waits for a core."""
    from tests.helpers import home_ready
    from tui.app import RingbookApp

    monkeypatch.setattr("tui.screens.exercise.REST_WAITS_AT_MOST", 600)
    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        screen = await open_exercise(app, pilot, "0.7")
        await answer_on_a_busy_host(pilot, screen, "M(N-1)/N", "verdict-incorrect", layouts)   # where none was
        assert "M(N-1)/N" not in text_of(screen.query_one("#attempts"))   # the rest still waits
        assert layouts == [screen]


async def test_a_verdict_that_fits_the_panel_is_drawn_in_it_without_laying_the_page_out(book, store, busy_host,
                                                                                        monkeypatch, layouts):
    """A class answers wrong, then right, together: the right verdict (one line) is drawn in the rows the wrong
    one (two) had, a repaint of the panel alone, not a reflow of the page; once the rest of it comes, the page
    is laid out anyway and the panel takes its own height."""
    from tests.helpers import home_ready
    from tui.app import RingbookApp

    monkeypatch.setattr("tui.screens.exercise.REST_WAITS_AT_MOST", 600)
    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        screen = await open_exercise(app, pilot, "0.7")
        panel = screen.query_one("#verdict")
        await answer_on_a_busy_host(pilot, screen, "M(N-1)/N", "verdict-incorrect", layouts)
        busy_host.write_text(QUIET_HOST)
        await wait_until(pilot, lambda: "M(N-1)/N" in text_of(screen.query_one("#attempts")), "the rest")
        wrong_rows = panel.size.height
        busy_host.write_text(BUSY_HOST)
        await pilot.press("ctrl+u")
        await answer_on_a_busy_host(pilot, screen, "2M(N-1)/N", "verdict-correct", layouts)
        assert layouts == []
        assert text_of(panel).startswith("✓ Correct") and panel.size.height == wrong_rows
        busy_host.write_text(QUIET_HOST)
        await wait_until(pilot, lambda: rest_of_verdict_shown(screen), "the rest of the verdict")
        await pilot.pause()
        assert panel.size.height < wrong_rows and text_of(panel) == text_of(panel).rstrip()


async def test_a_host_that_stays_busy_still_gets_the_rest_of_a_verdict(book, store, busy_host, monkeypatch):
    """A host busy for other reasons (a build on the learner's laptop) does not keep the explanation back for
    good: the rest waits REST_WAITS_AT_MOST at most (here none)."""
    from tui.app import RingbookApp

    monkeypatch.setattr("tui.screens.exercise.REST_WAITS_AT_MOST", 0)
    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await right_answer_on_a_busy_host(app, pilot)
        await wait_until(pilot, lambda: rest_of_verdict_shown(screen), "the rest of the verdict on a busy host")


@pytest.mark.parametrize("key", ["n", "escape"])
async def test_a_key_pressed_while_the_rest_of_a_verdict_waits_acts_as_if_it_had_not(book, store, busy_host,
                                                                                    monkeypatch, key):
    """The rest of a right verdict gives the page the keyboard: there n is the next exercise and Escape goes
    back to the list. A learner quick to press n while the rest waited for a core would have typed an n into
    the box (and Escape would only have left the box): the rest is done first, before the key is handled."""
    from tui.app import RingbookApp

    monkeypatch.setattr("tui.screens.exercise.REST_WAITS_AT_MOST", 600)
    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await right_answer_on_a_busy_host(app, pilot)
        box = screen.query_one("#answer", Input)
        assert not rest_of_verdict_shown(screen)
        await pilot.press(key)
        await pilot.pause()
        assert box.value == "7/4"
        if key == "n":
            assert isinstance(app.screen, ExerciseScreen) and app.screen.exercise.id == "0.2"
        else:
            assert not isinstance(app.screen, ExerciseScreen)


@pytest.mark.parametrize("refusal, said", [
    ("PRAGMA query_only = ON", "it is read-only from now on"),   # as a read-only folder refuses a write
    ("CREATE TRIGGER attempts_refused BEFORE INSERT ON attempts BEGIN SELECT RAISE(ABORT, 'attempts are closed');"
     " END", "attempts are closed"),
], ids=["read-only", "refused"])
async def test_an_attempt_the_store_cannot_keep_is_said_under_its_verdict(book, data_dir, refusal, said):
    """An attempt is kept before its verdict is drawn. When that commit fails, the verdict says so as it shows (a
    notice goes away); once the store is read-only, so does every later verdict."""
    from tui.screens.exercise import NOT_SAVED_READ_ONLY

    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, "0.1")
        store._db.execute(refusal)
        verdict = await answer(app, pilot, "7/8")
        assert "Not quite" in verdict and said in verdict
        assert [n.title for n in app._notifications] == ["Not saved"]
        verdict = await answer(app, pilot, "7/4")
        assert "Correct" in verdict
        assert (NOT_SAVED_READ_ONLY in verdict) == (said != "attempts are closed")
    store.close()
    assert ProgressStore.open(data_dir).attempts() == []


async def test_an_attempt_is_kept_when_the_app_closes_before_its_verdict_is_painted(book, data_dir):
    """A learner who quits, or whose terminal goes, before the verdict's frame still has the attempt kept: it is
    kept as the verdict is put on the screen, before any frame."""
    from grader.grade import grade

    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.1")
        screen.show_verdict("7/4", grade(screen.exercise, "7/4"))
        app.exit()
    store.close()
    assert [(a.answer, a.status) for a in ProgressStore.open(data_dir).attempts("0.1")] == [("7/4", "correct")]


async def test_unit_conversion_is_made_ready_only_once_a_unit_is_typed(book, store, tmp_path, monkeypatch):
    """pint costs ~0.5 s of CPU: a class of thirty that loaded it at every start slowed one another's starts.
    Home gets the screens ready; only a unit typed after a number ("1750 M") gets conversion ready."""
    from tests.helpers import home_ready
    from tui.app import RingbookApp

    quiet = tmp_path / "loadavg"
    quiet.write_text("0.2 0.3 0.3 1/412 90210\n")   # the screens' warm-up waits on a busy host (a parallel run)
    monkeypatch.setattr("tui.pacing.LOADAVG", quiet)
    app = RingbookApp(book, store, quiet_host=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await home_ready(app, pilot)
        await settle(app, pilot)
        assert app.pacing.warmed == {"screens"}
        await open_exercise(app, pilot, "0.1")
        await pilot.press("7", "/", "4")
        await settle(app, pilot)
        assert app.pacing.warmed == {"screens"}
        await pilot.press("ctrl+u", *"1750 M")
        await settle(app, pilot)
        assert app.pacing.warmed == {"screens", "units"}
