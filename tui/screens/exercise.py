"""The exercise screen: the prompt, the answer panel for the exercise's kind, and a verdict at once.

Where the keyboard is depends on the exercise, never on the route that brought the learner here (the
model, route by route, is docs/keys.md). Outside a session, the answer (box, options, listing, order or
editor) has it while the exercise is still to be got right, on arrival; after any answer but a right one
(in a chapter or on a card alike) it keeps it for another go, a build's editor with its line in view
beside the verdict. Once an exercise is right, and on a card of a review or practice session as it
arrives (where n and p move through the cards), the page has it and single letters are commands: h for
a hint, x for the explanation, n and p for the next and previous exercise, i to answer, v for new
numbers once a varying exercise is answered. Escape goes one step out: from the answer to the page, from
the page back to the screen underneath (a session is paused: r on the home screen resumes it). PgUp,
PgDn, Home and End scroll the page whatever has the keyboard.

Grading runs in a worker thread, so nothing typed can freeze the screen. A counted attempt is committed
to the store, with the seed of the numbers it answered and what it was for, before its verdict is shown.
The screen knows no kind: the panel (tui/answers) owns what is answered.

A review or practice card is a recall test, for every kind alike: until it is answered, nothing of the
learner's earlier answers shows (only how many there were), its box or editor starts empty (a build from
its starter code), and v is not offered; once a counted attempt is on it, all of that is back
(`shows_history`, the one place that says so).
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Markdown, Static, TextArea

from grader.book.variants import VariantError, pose
from grader.exercise import Exercise, NumericAnswer
from grader.grade import grade
from grader.kinds.derive import needs_proof
from grader.verdict import Verdict
from tui.answers import AnswerPanel, panel_for
from tui.progress.answering import draft_key, record_explanation_opened
from tui.progress.session import StudySession
from tui.progress.store import StoreError
from tui.screens.navigator import Navigator
from tui.widgets.attempt_list import AttemptList
from tui.widgets.page import Page
from tui.widgets.screen_frame import Footer, Header, closing
from tui.widgets.step_table import StepInput
from tui.widgets.verdict_panel import VerdictPanel

if TYPE_CHECKING:
    from textual.timer import Timer

    from grader.book.model import Book

NOT_SAVED_READ_ONLY = "This answer could not be saved (progress is read-only)."
LETTER_ACTIONS = {"hint", "explain", "hide_explanation", "next", "previous", "focus_answer", "new_numbers"}
REVEAL_ASKED = ("x again shows the worked answer, kept as revealed (as if you gave up on it). "
                "h gives a hint first.")
ALREADY_JUDGED = "Already judged: change your answer to send it again."
TYPE_FIRST = "Type an answer first."
PAGE_KEYS = {"pageup": "page_up", "pagedown": "page_down", "home": "home", "end": "end"}
DRAFT_DELAY = 0.5
PENDING_DELAY = 0.2   # a grade slower than this (a proof) clears the last verdict while it runs: one frame less
REST_WAITS_AT_MOST = 1.0   # seconds the rest of a verdict waits for a free core: a host that stays busy still gets it
HOST_LOOKED_AT_EVERY = 0.05   # seconds between looks at the host while the rest of a verdict waits
UNIT_TYPED = re.compile(r"\d\s*[^\W\d_]")   # a letter after a digit: "1750 M", "2GB"; not "2*M" or "7/4"
# At 80 columns the exercise's own keys come first; `?` (shown) lists these with the rest, and Ctrl+P works.
FOOTER_HIDES = ("q", "ctrl+s")


class ExerciseScreen(Screen):

    CSS_PATH = "exercise.tcss"
    BINDINGS = [
        Binding("escape", "leave", "Back"),
        Binding("h", "hint", "Hint"),
        Binding("f1", "hint_while_typing", "Hint"),   # h is a letter of the answer there: hints show from the box
        Binding("x", "explain", "Explain"),
        Binding("x", "hide_explanation", "Hide", tooltip="Hide the explanation; x shows it again"),
        # Shown, dimmed, in place of the box's Enter while its answer is the one judged, or it is empty (check_action).
        Binding("enter", "send_again", "Submit", priority=True, tooltip=ALREADY_JUDGED),
        Binding("enter", "send_nothing", "Submit", priority=True, tooltip=TYPE_FIRST),
        Binding("n", "next", "Next"),
        Binding("p", "previous", "Prev"),
        Binding("i", "focus_answer", "Answer"),
        Binding("v", "new_numbers", "New numbers"),
        # Ahead of every widget (a box's Home, the editor's PgDn): the page keys always scroll the page.
        *(Binding(key, f"scroll_page('{where}')", show=False, priority=True) for key, where in PAGE_KEYS.items()),
    ]

    def __init__(self, exercise: Exercise, session: StudySession, nav: Navigator, *, seed: int = 0,
                 purpose: str = "learn", card: bool = False, scroll_y: float = 0, judged_text: str | None = None,
                 explanation_open: bool = False):
        """`exercise` as the book has it, posed with the numbers (and options or items dealt) of `seed`
        (0: the book's own) for `purpose`: "learn" in a chapter, "review" when the schedule brings it
        back, "practice" when the learner asks for new numbers or cards early (kept, but it does not move
        the schedule). `card`: one card of the app's review or practice session, so n and p move through
        the session. `scroll_y`: where the page starts (a live book read again); `judged_text` and
        `explanation_open`: the answer whose verdict showed, judged again against the book as it now is, and
        whether the explanation showed (a live book read again: an author checking an edit sees them still)."""
        super().__init__()
        self.session = session
        self.nav = nav
        self.initial_scroll = scroll_y
        self.judged_again = judged_text
        self.explanation_again = explanation_open
        self.book_exercise = exercise
        self.exercise = pose(exercise, seed)
        self.seed = seed
        self.purpose = purpose
        self.card = card
        self.solved = False  # as the store has it: refresh_state keeps it
        self.done = False    # right on these numbers (a chapter's exercise: solved), so the page has the keyboard
        self.answered = not self.recalls   # a counted attempt on these numbers for this purpose (refresh_state)
        self.hints_shown = 0
        self.explanation_shown = False
        self.reveal_asked = False   # x pressed once on an exercise not yet right: the next x reveals
        self.submitted_text: str | None = None
        self.box_sent = False   # the answer was sent from a box (or trace table), unchanged since
        self.judged = False     # the verdict shown is of the box's answer as it stands: Enter would only repeat it
        self.was_empty: bool | None = None      # whether the box last changed was empty (the footer dims Enter)
        self.started = time.monotonic()
        self._draft_timer: Timer | None = None
        self._pending_timer: Timer | None = None
        self._rest_of_verdict: Callable[[], None] | None = None   # waiting for a free core: see catch_up

    @property
    def recalls(self) -> bool:
        """Whether this is a recall test (a review or practice card), not the chapter's own exercise."""
        return self.purpose != "learn"

    @property
    def shows_history(self) -> bool:
        """Whether the learner's earlier answers may show: always in a chapter; on a recall test only once
        it is answered, so what is tested is memory, not the screen."""
        return self.answered

    @property
    def answer_waits(self) -> bool:
        """Whether the answer has the keyboard when nobody has moved it: outside a session, on an exercise
        still to be got right (a build's editor too: once it passes, n is the next exercise, and i brings the
        editor back). On a card, n and p are the session's keys, so the page keeps them."""
        return not self.card and not self.done

    @property
    def draft_key(self) -> str:
        return draft_key(self.exercise.id, self.purpose, self.seed)

    @property
    def varies(self) -> bool:
        """Whether other seeds pose other numbers (else every seed is the book's own exercise)."""
        return isinstance(self.book_exercise, NumericAnswer) and bool(self.book_exercise.vary)

    # --- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        exercise = self.exercise
        yield Header()
        with Page(id="exercise"):
            yield Static(id="exercise-title")
            yield Markdown(exercise.prompt, id="prompt")
            panel = panel_for(exercise, self.session.store.draft(self.draft_key))
            panel.session = self.session
            yield panel
            yield VerdictPanel(id="verdict")
            yield Static(id="verdict-details")
            yield Static(id="hints")
            yield Static(id="reveal-asked")   # x pressed once: what x again does (a line, not a toast over the page)
            yield Markdown(exercise.explanation, id="explanation")
            yield AttemptList(id="attempts")
        yield Footer(hide=FOOTER_HIDES, show_command_palette=False)

    @property
    def panel(self) -> AnswerPanel:
        return self.query_one("#answer-panel", AnswerPanel)

    def on_mount(self) -> None:
        if closing(self):
            return
        if isinstance(self.exercise, NumericAnswer) and needs_proof(self.exercise):
            self.call_after_refresh(self.nav.pacing.warm_up, "proofs")
        self.title = f"Exercise {self.exercise.id}"
        self.query_one("#explanation").display = False
        self.query_one("#hints").display = False
        self.query_one("#reveal-asked").display = False
        self.refresh_state()
        self.done = self.solved and not self.recalls
        if self.answer_waits:
            self.panel.focus_answer(scroll_visible=False)   # the page opens at its top, where the task is
        else:
            self.panel.focus(scroll_visible=False)
        if self.explanation_again:
            self.reveal_explanation(record=False, scroll=False)
        if self.judged_again is not None:
            self.grade_again(self.judged_again)
        if self.initial_scroll:
            self.query_one("#exercise", Page).scroll_back(self.initial_scroll)

    def reopened(self, book: Book) -> ExerciseScreen | None:
        """This exercise of `book` (read again from its files), posed and scrolled as here, its draft kept."""
        exercise = book.exercise(self.exercise.id)
        if exercise is None:
            return None
        self.save_draft()
        try:
            return ExerciseScreen(exercise, self.session, self.nav, seed=self.seed, purpose=self.purpose,
                                  card=self.card, scroll_y=self.query_one("#exercise", Page).scroll_y,
                                  judged_text=self.submitted_text, explanation_open=self.explanation_open)
        except VariantError:
            return None

    # --- state shown ----------------------------------------------------------------------------

    def refresh_state(self) -> None:
        exercise = self.exercise
        state = self.session.store.exercise_states().get(exercise.id)
        mark = state.mark if state else "new"
        self.solved = bool(state and state.solved)
        attempts = self.session.store.attempts(exercise.id)
        if self.recalls:
            self.answered = any(a.seed == self.seed and a.purpose == self.purpose for a in attempts)
        new = ", new numbers" if self.varies else ""
        numbers = f" · {self.purpose}{self.session.progress() if self.card else ''}{new}" if self.recalls else ""
        self.query_one("#exercise-title", Static).update(Text.assemble(
            (f"{exercise.id}  ", "bold"), (exercise.title, "bold"), (f"   {exercise.kind} · {mark}{numbers}", "dim")))
        self.panel.shows_history = self.shows_history
        self.query_one("#attempts", AttemptList).show(attempts, self.seed if self.varies else None,
                                                      self.panel.describe, hidden=not self.shows_history)

    # --- answering ------------------------------------------------------------------------------

    def on_answer_panel_submitted(self, event: AnswerPanel.Submitted) -> None:
        event.stop()
        if self.judged_shows:   # the verdict on screen is this answer's: sent again, nothing would change
            self.app.bell()
            self.notify(ALREADY_JUDGED)
            return
        self.box_sent = isinstance(self.focused, Input) and bool(event.text.strip())
        if event.text.strip():
            gc.disable()   # until the verdict is painted (docs/classroom.md, "Why the app paces itself")
            if self._pending_timer is not None:
                self._pending_timer.stop()   # an answer sent again before the last one's verdict
            if self._draft_timer is not None:
                # What was typed is sent: an attempt spends it, and a verdict that does not count keeps it as
                # the draft again (show_verdict). Saved meanwhile, it was a commit, waiting for the disk,
                # while a class that had just pressed Enter together waited for its verdicts. Stopped, not
                # dropped: an app that ends before the verdict keeps the text sent as the draft (keep_unsaved).
                self._draft_timer.stop()
            if event.pending:
                self.show_pending(event.pending)
            else:   # most grades take milliseconds: the verdict replaces the last one in the same frame
                self._pending_timer = self.set_timer(PENDING_DELAY, self.show_pending)
            self.grade_answer(event.text)
        else:
            self.app.bell()
            self.query_one("#verdict", VerdictPanel).show(Verdict("invalid", TYPE_FIRST))

    def show_pending(self, pending: str = "") -> None:
        """Clear the last verdict, which is about other text, and say what is under way."""
        self.query_one("#verdict", VerdictPanel).clear()
        details = self.query_one("#verdict-details", Static)
        details.update(Text(pending))
        details.display = bool(pending)

    @work(thread=True, exclusive=True, group="grade")
    def grade_answer(self, text: str) -> None:
        verdict = grade(self.exercise, text)
        self.app.call_from_thread(self.show_verdict, text, verdict)

    @work(thread=True, exclusive=True, group="grade")
    def grade_again(self, text: str) -> None:
        verdict = grade(self.exercise, text)
        self.app.call_from_thread(self.show_again, text, verdict)

    def show_again(self, text: str, verdict: Verdict) -> None:
        """The verdict of an answer already kept, judged again after the book was read again: shown where it
        was, and kept nowhere (it is not a new attempt); the page stays where the author had it."""
        if not self.is_attached:
            return
        self.submitted_text = text
        self.query_one("#verdict", VerdictPanel).show(verdict)
        self.show_details(verdict)
        if verdict.status == "correct":
            self.done = True
            self.reveal_explanation(record=False, scroll=False)
        self.refresh_state()
        self.refresh_bindings()

    def show_verdict(self, text: str, verdict: Verdict) -> None:
        if self._pending_timer is not None:
            self._pending_timer.stop()
        if not self.is_attached:
            return   # collection is on again: on_unmount
        not_saved = ""
        if verdict.counts_as_attempt:
            # Kept before the verdict is drawn: a frame that shows a verdict shows a kept attempt, so a learner
            # whose terminal goes (or whose app is killed) the moment it shows still has it. The commit waits for
            # the disk (fdatasync), which a class answering together shares: a few milliseconds of the verdict's
            # time (docs/classroom.md). Painted first and kept after the frame, it was lost 10 times in 10 when
            # killed the instant it showed.
            not_saved = self._keep(text, verdict, draft=text if self.panel.keeps_sent else None)
            self.submitted_text = text
            self.started = time.monotonic()
        elif self.panel.keeps_sent:
            self.save_draft()   # the code run is the learner's code: it is what reopening shows
        else:
            self.keep_draft_soon()   # not an attempt: what was sent is still the learner's draft
        self.query_one("#verdict", VerdictPanel).show(verdict, not_saved=not_saved, in_place=True)
        self.show_details(verdict)
        if verdict.status == "correct":
            self.done = True
        self.judged = self.box_sent
        self._rest_of_verdict = partial(self.after_verdict, verdict)
        # The rest waits while the host is busy, up to REST_WAITS_AT_MOST: a class that submits together then
        # sees every verdict before anyone's explanation. Done at once, each learner's rest (three times the
        # verdict's CPU) took cores from the verdicts still on their way, and from the thread that writes this
        # learner's verdict to the terminal.
        self.call_after_refresh(self.rest_when_a_core_is_free)
        self.app.call_after_refresh(self.nav.pacing.resume_gc)   # the app's: this screen may be gone by then

    def show_details(self, verdict: Verdict) -> None:
        """What the panel adds under the verdict (a build's tests), the panel marked as judged."""
        details, shown = self.query_one("#verdict-details", Static), self.panel.show_verdict(verdict)
        if str(details.content) != shown:   # an update lays the page out, whether or not it changed
            details.update(Text(shown))
            details.display = bool(shown)   # empty, it was a blank row between the verdict and what follows

    def rest_when_a_core_is_free(self) -> None:
        self.nav.pacing.when_a_core_is_free(self.catch_up, HOST_LOOKED_AT_EVERY, time.monotonic() + REST_WAITS_AT_MOST)

    def _keep(self, text: str, verdict: Verdict, *, draft: str | None) -> str:
        """Keep the attempt; what to say under its verdict when it cannot be kept ("" when it is). `draft`: the
        code sent, kept as the draft after the attempt (which spends the draft): a build's run is the learner's
        code, which reopening shows."""
        store = self.session.store
        if store.read_only:
            self.notify(store.notice or NOT_SAVED_READ_ONLY, title="Not saved", severity="error")
            return NOT_SAVED_READ_ONLY
        try:
            self.session.record_answer(self.exercise.id, text, verdict, hints_used=self.hints_shown,
                                       seconds_taken=time.monotonic() - self.started, seed=self.seed,
                                       purpose=self.purpose, explanation_shown=self.explanation_shown,
                                       draft_key=self.draft_key)
            if draft is not None:
                store.save_draft(self.draft_key, draft)
        except StoreError as exc:
            self.notify(str(exc), title="Not saved", severity="error")
            return str(exc)
        return ""

    def catch_up(self) -> None:
        """Do the rest of the last verdict now, if it is still waiting: once a core is free, and before the app
        handles a key, a click or a paste (RingbookApp.on_event). The rest moves the keyboard from the answer
        to the page, so an n typed meanwhile is the next exercise, never a letter in the box."""
        rest, self._rest_of_verdict = self._rest_of_verdict, None
        if rest is not None:
            rest()

    def after_verdict(self, verdict: Verdict) -> None:
        """The rest of a verdict, once the verdict itself is on the screen: the explanation, the scroll, the
        attempts, the keyboard and the footer. Drawn with the verdict, they were three layouts of the page
        before any of it showed, which a class answering at once waited seconds for (docs/classroom.md). Now the
        verdict is one small repaint, and the rest follows it (on a busy host, once a core is free: show_verdict)."""
        if not self.is_attached:
            return
        verdict_panel = self.query_one("#verdict", VerdictPanel)
        verdict_panel.settle()
        page = self.query_one("#exercise", Page)
        if verdict.status == "correct":
            self.reveal_explanation(record=False, scroll=False)
        # The newest verdict is always on screen; a right one at the top, with the explanation under it.
        # One rule for every kind, in a chapter and on a card: a right answer (a passed build too) gives the
        # page the keyboard, so n goes on; any other keeps the answer ready for another go, while it shows
        # beside the verdict.
        if verdict.status != "correct" and self.answering:
            page.reveal(verdict_panel, keeping=self.focused, lose=self.give_page_the_keys)
        else:
            self.give_page_the_keys()
            page.reveal(verdict_panel, top=verdict.status == "correct")
        self.refresh_state()
        self.refresh_bindings()

    def give_page_the_keys(self) -> None:
        """The panel takes the keyboard: single letters are commands, Escape goes back. At once, not after the
        messages already queued (Widget.focus): a key that made the rest of a verdict catch up goes here."""
        self.set_focus(self.panel, scroll_visible=False)
        self.refresh_bindings()

    # --- actions --------------------------------------------------------------------------------

    @property
    def answering(self) -> bool:
        """Whether the answer (box, options, listing, order, editor) has the keyboard, not the page."""
        focused = self.focused
        return focused is not None and focused is not self.panel and self.panel in focused.ancestors

    @property
    def judged_shows(self) -> bool:
        """Whether the box (or trace table) holds the answer whose verdict shows: Enter would send it again."""
        return self.judged and isinstance(self.focused, Input)

    @property
    def box_empty(self) -> bool:
        """Whether the box has the keyboard with nothing in it: Enter would send nothing. (In a trace table an
        empty row's Enter moves on to the next empty row.)"""
        box = self.focused
        return isinstance(box, Input) and not isinstance(box, StepInput) and not box.value.strip()

    @property
    def explanation_open(self) -> bool:
        explanation = self.query("#explanation")
        return bool(explanation) and explanation.first().display

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        typing = isinstance(self.focused, (Input, TextArea))
        if action in LETTER_ACTIONS and typing:
            return False  # while typing, letters are answer text; Escape leaves the box first
        if action == "hint_while_typing":
            return typing and bool(self.exercise.hints)
        if action == "focus_answer" and self.answering:
            return False  # the answer has the keyboard already
        if action == "new_numbers":
            return self.solved and self.varies and self.shows_history
        if action in ("explain", "hide_explanation"):   # x shows the explanation, or hides the one shown
            return self.explanation_open == (action == "hide_explanation")
        if action == "send_again":
            return None if self.judged_shows else False
        if action == "send_nothing":
            return None if self.box_empty and not self.judged_shows else False
        return True

    def action_leave(self) -> None:
        """One step out: from the answer to the page; from the page, back to the screen underneath."""
        if self.answering:
            self.give_page_the_keys()
            return
        self.save_draft()
        if self.card:
            self.nav.pause_review()
        else:
            self.app.pop_screen()

    def action_focus_answer(self) -> None:
        self.panel.focus_answer()

    def action_scroll_page(self, where: str) -> None:
        page = self.query_one("#exercise", Page)
        {"page_up": page.scroll_page_up, "page_down": page.scroll_page_down,
         "home": page.scroll_home, "end": page.scroll_end}[where](animate=False)

    def action_hint(self) -> None:
        hints = self.exercise.hints
        if self.hints_shown >= len(hints):
            self.notify("No more hints: open the explanation with x.")
            return
        self.hints_shown += 1
        text = Text()
        for number, hint in enumerate(hints[: self.hints_shown], 1):
            text.append(f"Hint {number} of {len(hints)}: ", "bold")
            text.append(hint + ("\n" if number < self.hints_shown else ""))
        hints_widget = self.query_one("#hints", Static)
        hints_widget.update(text)
        hints_widget.display = True
        self.refresh_bindings()

    def action_hint_while_typing(self) -> None:
        self.action_hint()

    def action_explain(self) -> None:
        """The worked answer: at once when the exercise is right (or it shows already); before that, a
        deliberate step, as a flashcard's "show answer" is: x asks, and x again reveals (kept as revealed)."""
        if self.done or self.explanation_shown or self.reveal_asked:
            self.reveal_explanation(record=True)
            return
        self.reveal_asked = True
        asked = self.query_one("#reveal-asked", Static)
        asked.update(Text.assemble(("Show the worked answer? ", "bold"), REVEAL_ASKED))
        asked.display = True
        self.query_one("#exercise", Page).reveal(asked)

    def action_hide_explanation(self) -> None:
        """x on the explanation shown hides it again: to try the next numbers from memory, or to see the page
        without it (x again brings it back, at once: it is revealed already)."""
        self.query_one("#explanation").display = False
        self.refresh_bindings()

    def reveal_explanation(self, *, record: bool, scroll: bool = True) -> None:
        explanation = self.query_one("#explanation", Markdown)
        if record and not self.explanation_shown:
            try:
                record_explanation_opened(self.session.store, self.exercise.id, self.session.clock())
            except StoreError as exc:
                self.notify(str(exc), title="Not saved", severity="warning")
        self.explanation_shown = True
        self.query_one("#reveal-asked").display = False
        explanation.display = True
        self.refresh_bindings()   # x now hides it
        self.panel.show_answer()
        if scroll:
            self.query_one("#exercise", Page).reveal(explanation)

    def action_new_numbers(self) -> None:
        """The same exercise with numbers never seen, to practise now: kept, but the review schedule is
        left as it is (grader.book.variants draws them; the seed goes with every attempt)."""
        from tui.progress.review import next_practice_seed

        seed = next_practice_seed(self.session.store, self.exercise.id)
        try:   # on a card, still one card of the session: n goes on to the session's next
            screen = ExerciseScreen(self.book_exercise, self.session, self.nav, seed=seed, purpose="practice",
                                    card=self.card)
        except VariantError as exc:
            self.notify(str(exc), title="No new numbers", severity="error")
            return
        self.save_draft()
        self.nav.show(screen, replace=True)
        self.app.notify("New numbers to practise on. Kept with your attempts; your review schedule stays as it is.",
                        title=f"Exercise {self.exercise.id}", timeout=6)

    def action_next(self) -> None:
        self._go(1)

    def action_previous(self) -> None:
        self._go(-1)

    def _go(self, step: int) -> None:
        if self.card:
            self.nav.next_review(step)
            return
        target = self.session.next_exercise(self.book_exercise, step)
        if step > 0 and (target is None or target.chapter_id != self.book_exercise.chapter_id):
            self.save_draft()
            self.nav.open_chapter_end(self.session.chapter_of(self.book_exercise))   # a chapter ends: a moment
            return
        if target is None:
            self.notify("This is the first exercise.")
            return
        self.save_draft()
        self.nav.open_exercise(target, replace=True)

    # --- drafts ---------------------------------------------------------------------------------

    def save_draft(self) -> None:
        store = self.session.store
        if not self.query("#answer-panel"):
            return   # closed before it was mounted (Escape typed with the key that opened it): nothing was typed
        if store.read_only or not self.panel.keeps_draft:
            return
        text = self.panel.answer_text()
        if text == self.submitted_text and not self.panel.keeps_sent:
            return
        try:
            store.save_draft(self.draft_key, text if text.strip() else "")
        except StoreError as exc:
            if not store.read_only:   # read-only: the store has said so already; else the draft rule was broken
                self.notify(str(exc), title="Draft not kept", severity="warning")

    def on_input_changed(self, event: Input.Changed | TextArea.Changed) -> None:
        """Keep the draft as it is typed (debounced), so even a killed terminal loses little. A unit typed
        after a number ("1750 M") gets unit conversion ready while the learner finishes it: only such an
        answer needs pint, which a class paid thirty times over when every start loaded it."""
        self.keep_draft_soon()
        self.box_sent = False   # a change after sending: the verdict to come is not of what the box holds
        if self.judged:
            self.judged = False
            self.refresh_bindings()   # Enter sends again
        if isinstance(event, Input.Changed) and (not event.value.strip()) != self.was_empty:
            self.was_empty = not event.value.strip()
            self.refresh_bindings()   # Enter dimmed while the box is empty
        unit = isinstance(self.exercise, NumericAnswer) and self.exercise.unit
        if unit and isinstance(event, Input.Changed) and UNIT_TYPED.search(event.value):
            self.nav.pacing.warm_up("units")

    def keep_draft_soon(self) -> None:
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(DRAFT_DELAY, self.keep_unsaved)

    def keep_unsaved(self) -> None:
        """Keep the draft when its DRAFT_DELAY is up, or now, as the app ends (RingbookApp.exit): then the box
        may hold keys whose change has not reached this screen yet, so it is kept whether a timer waits or not."""
        if self._draft_timer is not None:
            self._draft_timer.stop()
            self._draft_timer = None
        self.save_draft()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.on_input_changed(event)

    def on_screen_suspend(self) -> None:
        self.save_draft()

    def on_unmount(self) -> None:
        gc.enable()   # an answer sent just before the screen closed may never come back to show_verdict
