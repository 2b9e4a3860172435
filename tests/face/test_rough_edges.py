"""Small things a new learner met at 80x24 (issue 16): a theme that was forgotten, a hint key that went
silent, and the palette offering the theme twice."""

from __future__ import annotations

from tests.helpers import open_exercise, ringbook_app, settle


async def test_the_theme_chosen_is_the_one_the_next_start_shows(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.current_theme.dark
        await pilot.press("f2")
        await pilot.pause()
        assert not app.current_theme.dark
    again = ringbook_app(book, store)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == app.theme and not again.current_theme.dark


async def test_a_theme_stored_by_hand_that_does_not_exist_is_ignored(book, store):
    store.set_state("theme", "\x1b[31mno-such-theme")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"


async def test_h_after_the_last_hint_says_there_are_no_more(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.1")
        await pilot.press("escape")
        for _ in screen.exercise.hints:
            await pilot.press("h")
        await pilot.pause()
        app.clear_notifications()
        await pilot.press("h")
        await pilot.pause()
        assert any("No more hints" in str(n.message) for n in app._notifications)


async def test_the_palette_offers_the_theme_once(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert sum("theme" in title.lower() for title in titles) == 1, titles


async def test_build_code_stays_the_learner_s_after_a_run_and_a_restart(book, store):
    """Reopening showed the starter code after a run. (A passing run gives the page the keyboard, as a right
    answer of every kind does: i brings the editor back, and what is typed there is code.)"""
    from textual.widgets import TextArea

    from tests.face.test_keyboard_only import TYPED_BUILD, TYPED_SOLUTION
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, TYPED_BUILD)
        editor = screen.query_one("#editor", TextArea)
        editor.text = TYPED_SOLUTION
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "✓" in str(screen.query_one("#verdict").render())
        assert app.focused is screen.panel
        await pilot.press("i", "end", "p", "q")              # back in the editor: code, not commands
        await pilot.pause()
        assert app.screen is screen and "pq" in editor.text
        await pilot.press("escape", "escape")               # leave the editor, then the exercise
        await pilot.pause()
        await open_exercise(app, pilot, TYPED_BUILD)
        assert "pq" in app.screen.query_one("#editor", TextArea).text
    again = ringbook_app(book, store)
    async with again.run_test(size=(80, 24)) as pilot:
        await open_exercise(again, pilot, TYPED_BUILD)
        assert "pq" in again.screen.query_one("#editor", TextArea).text


async def test_attempts_are_listed_in_the_learner_s_terms_not_as_ids(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.4")
        options = screen.exercise.presented_options
        wrong = next(i for i, option in enumerate(options) if not option.correct)
        await pilot.press("abcd"[wrong])
        await settle(app, pilot)
        listed = str(screen.query_one("#attempts").render())
        assert f"{'ABCD'[wrong]}  {options[wrong].text[:20]}" in listed and options[wrong].id not in listed


async def test_n_and_p_arrive_as_every_route_does(book, store):
    """n once opened the next exercise with the page holding the keys, other routes with the box: Esc then
    left the box or the exercise depending on the route (issue 23). Now an unsolved exercise arrives with
    its box by every route, and Esc then n moves on; on the page a number still starts the answer."""
    from textual.widgets import Input

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, "0.1")
        await pilot.press("escape", "n")
        await pilot.pause()
        assert app.screen.exercise.id == "0.2" and isinstance(app.focused, Input)
        await pilot.press("escape", "n")
        await pilot.pause()
        assert app.screen.exercise.id == "0.3"
        await pilot.press("escape", "p")
        await pilot.pause()
        screen = app.screen
        assert screen.exercise.id == "0.2"
        await pilot.press("escape", "3", "5")                   # on the page, a number starts the answer
        await pilot.pause()
        assert screen.query_one("#answer", Input).value == "35" and app.focused is screen.query_one("#answer")


async def test_continue_goes_to_the_next_unsolved_exercise_after_the_last_opened(book, store):
    store.record_attempt("0.1", "1.75", "correct")
    store.record_attempt("0.2", "x", "correct")
    store.set_last_opened("0", "0.1")
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Continue: 0.3 " in str(app.screen.query_one("#continue").render())
        await pilot.press("c")
        await pilot.pause()
        assert app.screen.exercise.id == "0.3"


async def test_a_debug_line_is_chosen_by_its_number(book, store):
    from tui.widgets.code_listing import CodeListing

    exercise = next(e for e in book.exercises if e.kind == "debug" and len(e.lines) >= 10)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, exercise.id)
        listing = screen.query_one(CodeListing)
        await pilot.press("3")
        assert listing.highlighted == 2
        await pilot.press("1", "0")                          # two digits in a row: line 10
        assert listing.highlighted == 9
        await pilot.press(*str(exercise.buggy_line), "enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [a.answer for a in store.attempts(exercise.id)] == [str(exercise.buggy_line)]


def contrast(a, b) -> float:
    """WCAG's contrast ratio of two colours."""
    def luminance(c):
        def channel(v):
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_the_home_screen_text_reaches_wcag_contrast_in_both_themes(book, store):
    """The light theme's title was 1.49:1 and Continue 1.76:1."""
    for theme in ("textual-light", "textual-dark"):
        app = ringbook_app(book, store)
        app.theme = theme
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for selector in ("#book-title", "#continue", "#stats"):
                widget = app.screen.query_one(selector)
                assert contrast(widget.colors[3], widget.background_colors[1]) >= 4.5, (theme, selector)


async def test_an_earlier_run_s_code_can_be_brought_back(book, store):
    """Issue 16: attempts showed only an identical first line and could not be loaded back."""
    from textual.widgets import TextArea

    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, "0.5")
        editor = screen.query_one("#editor", TextArea)
        first = screen.exercise.starter.replace("raise NotImplementedError", "return 1.0")
        editor.text = first
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        editor.text = screen.exercise.solution
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        editor.text = "def half_typed("
        assert screen.focused is screen.panel                   # passed: the page has the keys
        await pilot.press("o")                                  # one run back: the solution
        await pilot.pause()
        assert editor.text == screen.exercise.solution
        await pilot.press("o")                                  # two runs back: the first try
        await pilot.pause()
        assert editor.text == first
        editor.focus()
        await pilot.press("ctrl+z")                             # an edit like any other
        await pilot.pause()
        assert editor.text == screen.exercise.solution


def test_a_long_signature_is_written_one_parameter_per_line():
    """At 80 columns `latency_us: float` wrapped between the name and its type."""
    from tui.answers.code import signature_text

    signature = "f(m_gb: float, n: int, pairs: dict[str, int], latency_us: float) -> tuple[float, float]"
    shown = signature_text(signature).plain
    assert shown.splitlines() == ["def f(", "    m_gb: float,", "    n: int,", "    pairs: dict[str, int],",
                                  "    latency_us: float,", ") -> tuple[float, float]"]
    assert signature_text("f(a: int) -> int").plain == "def f(a: int) -> int"
