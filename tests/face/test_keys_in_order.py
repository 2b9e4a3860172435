"""Keys sent in one burst, as a terminal sends what is typed quickly or pasted (one write), are handled in the
order they came, whatever binds them (issue 45, section 3): an Input's own keys (Ctrl+U, Ctrl+E) ran when
the key had bubbled up to the app, after the keys behind it had been typed into the box, and Ctrl+Q ended the
app before the keys ahead of it reached the box. A key that moves the keyboard (the screen's i, a panel's
first digit, the box's Escape) did so after the keys behind it had gone to the widget that had it before
(tui.keys_in_turn).

Each burst is sent twice: in a real pseudo-terminal as one write, and through Pilot as the driver posts it
(every key at once, no frame between them).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static, TextArea
from textual.widgets.text_area import Selection

from grader.lab.model import DataParallelSetup
from tests.face.test_nothing_lost import EXERCISE, start
from tests.helpers import open_exercise, ringbook_app, settle, wait_until
from tests.pseudo_terminal import seeded_data_dir
from tui.progress.answering import draft_key
from tui.progress.store import ProgressStore
from tui.screens.lab import LabScreen
from tui.widgets.answer_input import AnswerInput

PASTE = "\x1b[200~42\x1b[201~"   # a bracketed paste of "42", as a terminal sends it

# (what is typed in one write before Ctrl+Q, the draft kept): each names its keys as a terminal sends them.
BURSTS = {
    "digits then Ctrl+Q": ("1234", "1234"),
    "Ctrl+U then digits": ("77\x1535", "35"),
    "Ctrl+A, Ctrl+E then a letter": ("12\x01\x05W", "12W"),
    "Ctrl+U then a paste": ("77\x15" + PASTE, "42"),
}
# The same, typed with the exercise's page holding the keyboard (after Escape): a lower-case letter is a command
# there, and a digit starts the answer, giving the box the keyboard.
PAGE_BURSTS = {
    "i then a number with an e": ("i1e3", "1e3"),
    "h then a number with an e": ("h1e3", "1e3"),
    "a digit then letters": ("8e1GB", "8e1GB"),
    "a digit then a formula's signs": ("3*14*7/8", "3*14*7/8"),   # on a review card: 3147/8, graded wrong
}


def kept_draft(data: Path) -> str | None:
    store = ProgressStore.open(data)
    try:
        return store.draft(draft_key(EXERCISE, "learn", 0))
    finally:
        store.close()


def kept_after_typing_in_a_terminal(tmp_path: Path, typed: str, *, on_the_page: bool) -> str | None:
    """`typed` sent in one write to ringbook on the exercise in a pseudo-terminal, then Ctrl+Q: the draft kept.
    `on_the_page`: sent once the page has the keyboard (Escape from the box), not the box."""
    data = seeded_data_dir(tmp_path / "data", "0", EXERCISE)
    terminal = start(data)
    try:
        if on_the_page:
            terminal.wait_for("esc Leave box")   # the box's footer, drawn once the box has the keyboard
            terminal.forget()
            terminal.type("\x1b")   # on its own: Escape then a letter in one write is Alt+letter to a terminal
            terminal.wait_for("esc Back  h Hint")   # the page's footer
        terminal.type(typed + "\x11")
        terminal.wait()
    finally:
        terminal.close()
    return kept_draft(data)


@pytest.mark.parametrize("burst", BURSTS)
def test_a_burst_in_a_terminal_is_handled_in_order_and_kept_by_ctrl_q(tmp_path: Path, burst: str):
    typed, kept = BURSTS[burst]
    assert kept_after_typing_in_a_terminal(tmp_path, typed, on_the_page=False) == kept


@pytest.mark.parametrize("burst", PAGE_BURSTS)
def test_a_burst_on_the_page_in_a_terminal_goes_to_the_box_in_order(tmp_path: Path, burst: str):
    typed, kept = PAGE_BURSTS[burst]
    assert kept_after_typing_in_a_terminal(tmp_path, typed, on_the_page=True) == kept


def driver_events(typed: str) -> list[events.Event]:
    """What Textual's driver posts to the app for `typed`: a Key for each key, a Paste for a bracketed paste."""
    names = {"\x15": "ctrl+u", "\x01": "ctrl+a", "\x05": "ctrl+e", "\x11": "ctrl+q", "\x1b": "escape"}
    posted: list[events.Event] = []
    rest = typed
    while rest:
        if rest.startswith("\x1b[200~"):
            pasted, _, rest = rest.removeprefix("\x1b[200~").partition("\x1b[201~")
            posted.append(events.Paste(pasted))
            continue
        character, rest = rest[0], rest[1:]
        posted.append(events.Key(names.get(character, character), character))
    return posted


async def kept_after_posting_at_once(book, data_dir: Path, typed: str, *, on_the_page: bool) -> str | None:
    """`typed` then Ctrl+Q posted to the app at once, as its driver posts a burst, on the exercise: the draft
    kept. `on_the_page`: posted once the page has the keyboard (Escape from the box), not the box."""
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, EXERCISE)
        await wait_until(pilot, lambda: isinstance(app.focused, AnswerInput), "the answer box taking the keyboard")
        if on_the_page:
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.focused is screen.panel, "the page taking the keyboard")
        for event in driver_events(typed + "\x11"):
            app.post_message(event)
        await wait_until(pilot, lambda: app.return_code is not None, "Ctrl+Q ending the app")
    store.close()
    return kept_draft(data_dir)


@pytest.mark.parametrize("burst", BURSTS)
async def test_a_burst_posted_at_once_is_handled_in_order_and_kept_by_ctrl_q(book, data_dir: Path, burst: str):
    typed, kept = BURSTS[burst]
    assert await kept_after_posting_at_once(book, data_dir, typed, on_the_page=False) == kept


@pytest.mark.parametrize("burst", PAGE_BURSTS)
async def test_a_burst_on_the_page_posted_at_once_goes_to_the_box_in_order(book, data_dir: Path, burst: str):
    typed, kept = PAGE_BURSTS[burst]
    assert await kept_after_posting_at_once(book, data_dir, typed, on_the_page=True) == kept


async def test_escape_then_a_letter_posted_at_once_is_a_command_not_typed(book, data_dir: Path):
    """Escape gives the page the keyboard, where h shows a hint: the h is not typed into the box it left."""
    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, EXERCISE)
        box = screen.query_one(AnswerInput)
        await wait_until(pilot, lambda: app.focused is box, "the answer box taking the keyboard")
        for event in driver_events("77\x1bh"):
            app.post_message(event)
        hints = screen.query_one("#hints", Static)
        await wait_until(pilot, lambda: hints.display, "the hint shown")
        await settle(app, pilot)
        assert (box.value, app.focused) == ("77", screen.panel)


async def test_a_burst_in_the_build_editor_is_handled_in_order(book, data_dir: Path):
    """Ctrl+E then W, sent at once, in the editor: the W is typed at the end of the line, after the move."""
    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exercise(app, pilot, "0.5")   # a build: the editor has the keyboard on arrival
        editor = app.screen.query_one("#editor", TextArea)
        await wait_until(pilot, lambda: app.focused is editor and editor.selection != Selection(),
                         "the editor's cursor placed")
        row = editor.cursor_location[0]
        line = editor.document[row]
        editor.move_cursor((row, 0))
        for event in driver_events("\x05W"):
            app.post_message(event)
        await wait_until(pilot, lambda: editor.document[row] != line, "the W typed")
        assert editor.document[row] == line + "W"


class HeldBox(AnswerInput):
    """An answer box whose Enter its check_action switches off: hidden (False) or dimmed (None)."""

    def __init__(self, held: bool | None) -> None:
        super().__init__()
        self.held = held

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.held if action == "submit" else True


class HeldBoxApp(App[object]):
    BINDINGS = [Binding("enter", "enter_reached_the_app")]

    def __init__(self, held: bool | None) -> None:
        super().__init__()
        self.held = held
        self.seen: list[str] = []

    def compose(self) -> ComposeResult:
        yield HeldBox(self.held)

    def on_input_submitted(self) -> None:
        self.seen.append("submitted")

    def action_enter_reached_the_app(self) -> None:
        self.seen.append("the app's enter")


@pytest.mark.parametrize("held", [False, None], ids=["hidden", "dimmed"])
async def test_a_box_does_not_run_its_own_binding_that_check_action_holds(held: bool | None):
    """OwnKeysInOrder runs the box's bindings itself, as the key arrives: one its check_action switches off
    is not run, and the key goes on up as it would without it (here to the app's own Enter)."""
    app = HeldBoxApp(held)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: isinstance(app.focused, HeldBox), "the box taking the keyboard")
        await pilot.press("4", "enter")
        await wait_until(pilot, lambda: app.seen, "Enter handled")
        await settle(app, pilot)
        assert (app.seen, app.query_one(HeldBox).value) == (["the app's enter"], "4")


async def test_keys_after_one_that_closes_the_screen_go_to_the_screen_underneath(book, data_dir: Path):
    """Escape on the page closes the exercise while the keys behind it wait their turn: they are not lost with
    the screen that was closing (its widgets, where each key was followed up, go), but go to the home screen."""
    from tui.screens.home import HomeScreen
    from tui.screens.keys import KeysScreen

    app = ringbook_app(book, ProgressStore.open(data_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, EXERCISE)
        await wait_until(pilot, lambda: isinstance(app.focused, AnswerInput), "the answer box taking the keyboard")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.focused is screen.panel, "the page taking the keyboard")
        for event in [events.Key("escape", "\x1b"), events.Key("question_mark", "?")]:
            app.post_message(event)
        await wait_until(pilot, lambda: isinstance(app.screen, KeysScreen), "? opening the keys")
        assert isinstance(app.screen_stack[-2], HomeScreen)


@pytest.mark.parametrize("tries", range(5))   # a race lost only some of the time: tried a few times
async def test_keys_after_a_lab_commit_go_to_the_control_it_hands_the_keyboard_to(book, data_dir: Path, tries: int):
    """The lab's Enter commits a prediction and hands the keyboard to the act's first control; in one burst,
    the ↓ and → after it went to the list just answered (the screen heard of the commit a few message hops
    later), so the GPU count a learner set was not set."""
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        lab = app.session.book.lab("parallelism-paradox")
        assert lab is not None
        app.open_lab(lab)
        await wait_until(pilot, lambda: isinstance(app.screen, LabScreen) and app.focused is not None,
                         "the lab's prediction taking the keyboard")
        screen = app.screen
        assert isinstance(screen, LabScreen)
        for key in ("2", "enter", "down", "right", "right"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await wait_until(pilot, lambda: screen.data_parallel.gpus != 8, "the GPU count moved")
        await settle(app, pilot)
        assert screen.data_parallel.gpus == 32 and screen.data_parallel.model == DataParallelSetup().model
    store.close()
