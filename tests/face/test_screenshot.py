"""The screenshot key saves an SVG of the screen into the learner's data folder and says where."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._toast import Toast

from tests.helpers import chapter_filled_in, offered_keys, ringbook_app, wait_until
from tui.progress.store import ProgressStore
from tui.screens.exercise import ExerciseScreen


async def saved_screenshot(app, pilot, folder: Path) -> tuple[Path, str]:
    """The one SVG in `folder` and the notice that named it, once the save (off the UI thread) is done."""
    def notices() -> list[str]:
        return [str(n.message) for n in app._notifications if n.title == "Screenshot"]

    def files() -> list[Path]:
        return list(folder.glob("*.svg")) if folder.is_dir() else []

    await wait_until(pilot, lambda: notices() and files(), f"a screenshot in {folder} and a notice naming it")
    [saved] = files()
    return saved, notices()[0]


async def test_ctrl_s_saves_the_exercise_screen_into_the_data_dir(book, data_dir, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")                     # chapter 0
        await chapter_filled_in(app, pilot)            # its list is mounted after its first frame
        await pilot.press("e", "enter")                # its exercises, 0.1
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen)
        await pilot.press("escape", "ctrl+s")          # out of the answer box, then the screenshot key
        svg, notice = await saved_screenshot(app, pilot, data_dir / "screenshots")
        assert notice.splitlines()[1] == svg.name and "".join(notice.splitlines()[2:]) == f"in {svg.parent}/"
        text = svg.read_text(encoding="utf-8")
        assert text.startswith("<svg") and "Traffic&#160;per&#160;GPU" in text


async def test_screenshot_key_is_in_the_home_footer(book, store):
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "ctrl+s" in offered_keys(app)


async def test_read_only_store_falls_back_to_textuals_folder_and_still_says_where(book, tmp_path, monkeypatch):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    monkeypatch.setattr("textual.app.user_downloads_path", lambda: downloads)
    store = ProgressStore.open(Path("/proc/ringbook-cannot-exist"))   # no disk: nothing is saved
    assert store.read_only
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        svg, notice = await saved_screenshot(app, pilot, downloads)
        assert svg.name in notice.splitlines() and "".join(notice.splitlines()[2:]) == f"in {downloads}/"


async def test_the_notice_shows_the_file_name_whole_and_breaks_the_folder_only_after_a_slash(book, tmp_path,
                                                                                               monkeypatch):
    """Issue 23: at 80 columns the notice broke its path mid-name. On screen now: the file name on a line
    of its own, the folder under home written with `~`, each line of it ending at a `/`."""
    home = tmp_path / "home"
    data_dir = home / ".local" / "share" / "ringbook-with-a-long-folder-name" / "progress-of-a-learner"
    monkeypatch.setenv("HOME", str(home))
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.press("ctrl+s")
            svg, _ = await saved_screenshot(app, pilot, data_dir / "screenshots")
            for _ in range(50):   # the notice is mounted a refresh after it is posted
                if app.screen.query(Toast):
                    break
                await pilot.pause()
            await pilot.pause()
            [toast] = app.screen.query(Toast)
            left, top, width, height = toast.region   # what the screen shows there, less the notice's border
            screen = [strip.text for strip in app.screen._compositor.render_strips()]
            lines = [line[left:left + width].strip(" ▌") for line in screen[top:top + height]]
            lines = [line for line in lines if line]
            assert lines[:3] == ["Screenshot", "Saved this screen as", svg.name]
            folder = lines[3:]
            assert len(folder) > 1 and all(line.endswith("/") for line in folder), folder
            assert "".join(folder) == ("in ~/.local/share/ringbook-with-a-long-folder-name/progress-of-a-learner/"
                                       "screenshots/")
            assert svg.name.startswith("ringbook-") and len(svg.name) <= toast.content_size.width
    finally:
        store.close()
