"""One exercise of each way of answering (grader.kinds.registry: number, choice, steps, lines, order, code, pairs),
solved with the keyboard alone (no mouse). The keys are the point here: that each exercise's right answer
grades right is tested without the app (tests/grader/test_grade_content.py, tests/content), so one exercise a
way covers them, the first the book answers that way. The build is typed key by key in full, a short correct
solution (about 8 s of key presses)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import TextArea

from grader.book.model import Book
from grader.exercise import Exercise, NumericAnswer
from grader.kinds.debug import Debug
from grader.kinds.design import Design
from grader.kinds.match import Match
from grader.kinds.registry import KINDS, kind_of
from grader.kinds.trace import Trace
from tests.helpers import open_exercise, ringbook_app, settle, text_of
from tui.screens.exercise import ExerciseScreen
from tui.widgets.order_list import OrderList

KEY_NAMES = {"\n": "enter", " ": "space", "\t": "tab"}

# A short right answer to the book's first build exercise (its reference solution is twice as long to type).
TYPED_BUILD = "0.5"
TYPED_SOLUTION = ("def ring_allreduce_time(m_gb, n, bw_gbs, latency_us):\n"
                  "    return 2 * (n - 1) * (m_gb / n / bw_gbs * 1000 + latency_us / 1000)\n")


def keys_of(text: str) -> list[str]:
    return [KEY_NAMES.get(ch, ch) for ch in text]


def first_answered(book: Book, way: str) -> Exercise | None:
    return next((e for e in book.exercises if kind_of(e).way(e) == way), None)


async def type_number(pilot: Pilot[object], screen: ExerciseScreen) -> None:
    exercise = screen.exercise
    assert isinstance(exercise, NumericAnswer) and exercise.answer is not None
    typed = exercise.answer if exercise.is_formula else f"{exercise.value:.12g}"
    await pilot.press(*keys_of(typed), "enter")


async def pick_choice(pilot: Pilot[object], screen: ExerciseScreen) -> None:
    assert isinstance(screen.exercise, Trace)
    index = next(i for i, option in enumerate(screen.exercise.presented_options) if option.correct)
    await pilot.press(chr(ord("a") + index))                         # an option's letter picks and submits it


async def fill_steps(pilot: Pilot[object], screen: ExerciseScreen) -> None:
    assert isinstance(screen.exercise, Trace)
    for value in screen.exercise.step_values:                        # Enter moves on, and submits after the last
        await pilot.press(*keys_of(f"{value:.12g}"), "enter")


async def pick_line(pilot: Pilot[object], screen: ExerciseScreen) -> None:
    assert isinstance(screen.exercise, Debug)
    await pilot.press("home", *["down"] * (screen.exercise.buggy_line - 1), "enter")


async def arrange_order(pilot: Pilot[object], screen: ExerciseScreen) -> None:
    assert isinstance(screen.exercise, Design)
    order = screen.query_one("#order", OrderList)
    await pilot.press(*["up"] * order.cursor)                        # the cursor to the top
    for target, item_id in enumerate(screen.exercise.order):        # each item in turn, from the top
        at = order.order.index(item_id)
        if at != target:                                             # down to it, pick it up, up, drop
            await pilot.press(*["down"] * (at - order.cursor), "space", *["up"] * (at - target), "space")
    assert order.order == list(screen.exercise.order) and not order.held
    await pilot.press("enter")


async def type_code(pilot: Pilot[object], screen: ExerciseScreen) -> None:
    assert screen.exercise.id == TYPED_BUILD, "TYPED_SOLUTION answers another build: write one for this"
    editor = screen.query_one("#editor", TextArea)
    assert screen.app.focused is editor
    await pilot.press("f7", "delete")                                # select all, then clear
    await pilot.press(*keys_of(TYPED_SOLUTION))
    assert editor.text == TYPED_SOLUTION
    await pilot.press("ctrl+r")


async def give_pairs(pilot: Pilot[object], screen: ExerciseScreen) -> None:
    match = screen.exercise
    assert isinstance(match, Match)
    for item in match.presented_left:                                # an item's letter, then its option's number
        await pilot.press(match.letter(item.id), str(match.number(match.pairs[item.id])))
    await pilot.press("enter")


ANSWER_WITH_KEYS: dict[str, Callable[[Pilot[object], ExerciseScreen], Awaitable[None]]] = {
    "number": type_number, "choice": pick_choice, "steps": fill_steps, "lines": pick_line, "order": arrange_order,
    "code": type_code, "pairs": give_pairs}


def pytest_generate_tests(metafunc):
    if "way" in metafunc.fixturenames:
        metafunc.parametrize("way", sorted({way for kind in KINDS.values() for way in kind.ways}))


async def test_solved_with_keys_only(book, store, way):
    exercise = first_answered(book, way)
    assert exercise is not None, f"the book has no exercise answered by {way}"
    assert way in ANSWER_WITH_KEYS, f"no keys known for answering by {way}: add them to ANSWER_WITH_KEYS"
    app = ringbook_app(book, store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exercise(app, pilot, exercise.id)
        await ANSWER_WITH_KEYS[way](pilot, screen)
        await settle(app, pilot)
        verdict = text_of(screen.query_one("#verdict"))
        assert verdict.startswith("✓"), verdict
