"""What every answer panel offers the exercise screen."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from textual.containers import Vertical
from textual.message import Message

from grader.exercise import Exercise
from grader.verdict import Verdict
from tui.progress.session import StudySession

AnsweredExercise = TypeVar("AnsweredExercise", bound=Exercise)


class AnswerPanel(Vertical, Generic[AnsweredExercise], can_focus=True):
    """A panel posts `Submitted` with the answer text; the screen grades it and hands the verdict back.
    It is made for the exercises of its way of answering only (tui.answers.panel_for), of the class it names.

    The panel itself takes the focus when the learner leaves its box, so its keys (and the page's
    scrolling keys, through the container around it) keep working while single letters are commands.
    """

    DEFAULT_CSS = "AnswerPanel { height: auto; }"
    way: ClassVar[str]    # the way of answering it offers, as a kind declares it (grader.kinds.registry.Kind.ways)
    keeps_draft = False  # whether unsent text is worth keeping between visits
    keeps_sent = False   # whether what was sent stays too (code the learner goes on editing, not a number)
    shows_history = True  # whether earlier answers may be brought back (the screen says: not on an unanswered card)
    # The learner's study session (its store holds the panel's earlier runs), given by the exercise screen as it
    # composes the panel (ExerciseScreen.compose), so every panel has it before it mounts.
    session: StudySession

    class Submitted(Message):
        def __init__(self, text: str, pending: str = ""):
            super().__init__()
            self.text = text
            self.pending = pending  # shown under the verdict while grading runs, e.g. "Running the tests…"

    def __init__(self, exercise: AnsweredExercise, draft: str = "", **kwargs: Any):
        super().__init__(**kwargs)
        self.exercise = exercise
        self.draft = draft

    def answer_text(self) -> str:
        """The answer as it stands, for a draft (panels that submit on a pick have none)."""
        return ""

    def focus_answer(self, scroll_visible: bool = True) -> None:
        """Give the answer (box, list, editor) the keyboard; a screen that has just opened keeps its top."""
        raise NotImplementedError

    def describe(self, answer: str, previous: str | None, seed: int = 0) -> str:
        """One line saying what a stored answer was, for the list of attempts (`previous`: the attempt
        before it, if any; `seed`: the variant it answered). Panels whose answers are ids or code say it
        in the learner's terms."""
        return answer.strip().replace("\n", "; ")

    def show_answer(self) -> None:
        """Mark the right answer in place, now that the explanation has given it away (a choice's option);
        most panels show nothing more than the explanation does."""

    def show_verdict(self, verdict: Verdict) -> str:
        """Mark the answer in place (a line, a step, a position); the screen shows the verdict itself, with
        the details returned here (e.g. one line per test) beneath it."""
        return ""
