"""Small things a new learner met at 80x24 (issue 16): a theme that was forgotten, a hint key that went
silent, and the palette offering the theme twice."""

from __future__ import annotations

from tui.app import RingbookApp

from tests.face.test_learning_loop import open_exercise


async def test_the_theme_chosen_is_the_one_the_next_start_shows(book, store):
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.current_theme.dark
        await pilot.press("f2")
        await pilot.pause()
        assert not app.current_theme.dark
    again = RingbookApp(book, store, warm=False)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == app.theme and not again.current_theme.dark


async def test_a_theme_stored_by_hand_that_does_not_exist_is_ignored(book, store):
    store.set_state("theme", "\x1b[31mno-such-theme")
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"


async def test_h_after_the_last_hint_says_there_are_no_more(book, store):
    app = RingbookApp(book, store, warm=False)
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
    app = RingbookApp(book, store, warm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert sum("theme" in title.lower() for title in titles) == 1, titles
