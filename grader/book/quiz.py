"""A quiz: questions asked in turn, scored once at the end.

Two styles of question. A `choice` question has one right option among plausible wrong ones, each with
its own feedback; only the first pick scores, as in a real check. A `reveal` question's answer is an
explanation no grader can judge, so the learner writes or thinks an answer, sees the model answer and
its checklist, and rates themselves: that honesty is the point of a readiness check.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from grader.draws import Option, fixed_shuffle

RATINGS: dict[str, tuple[str, float]] = {  # rating id -> (what the learner says, points)
    "got": ("Got it", 1.0),
    "partly": ("Partly", 0.5),
    "missed": ("Missed it", 0.0),
}


@dataclass(kw_only=True, repr=False)
class QuizQuestion:
    """One question: a choice graded at once, or a reveal the learner marks themselves."""

    id: str
    topic: str
    chapter: str  # the chapter that teaches it: where to go back to when it is missed
    prompt: str
    style: Literal["choice", "reveal"]
    options: tuple[Option, ...] = ()
    explanation: str = ""
    answer: str = ""
    checklist: tuple[str, ...] = ()
    line: int = field(default=1, compare=False)

    @cached_property
    def presented_options(self) -> tuple[Option, ...]:
        """Options in the order shown, lettered A, B, C...: a fixed shuffle per question."""
        return fixed_shuffle(self.options, f"quiz:{self.id}")

    @property
    def correct_option(self) -> Option:
        return next(o for o in self.options if o.correct)

    def option(self, option_id: str) -> Option | None:
        return next((o for o in self.options if o.id == option_id), None)


@dataclass(repr=False)
class Quiz:
    """A readiness quiz: questions across chapters, each pointing back to where it is taught."""

    id: str
    title: str
    intro: str
    questions: tuple[QuizQuestion, ...]
    path: Path

    def __iter__(self) -> Iterator[QuizQuestion]:
        return iter(self.questions)

    def __len__(self) -> int:
        return len(self.questions)


@dataclass(repr=False)
class Response:
    """What the learner did with one question: the option picked, or the rating given."""

    question_id: str
    choice: str = ""
    rating: str = ""

    def points(self, question: QuizQuestion) -> float:
        if question.style == "choice":
            option = question.option(self.choice)
            return 1.0 if option is not None and option.correct else 0.0
        return RATINGS[self.rating][1] if self.rating in RATINGS else 0.0


# (the lowest percent for it, the word, the advice), highest first
READINESS = (
    (80, "ready", "go on to the case study and the lab"),
    (50, "nearly", "review the chapters listed beside what you missed, then try again"),
    (0, "not yet", "work through the chapters listed below first; they are where the answers come from"),
)


@dataclass(repr=False)
class QuizResult:
    """A run's score, and the questions that lost points."""

    points: float
    out_of: int
    missed: tuple[QuizQuestion, ...]  # less than full marks, in quiz order

    @property
    def percent(self) -> float:
        return 100 * self.points / self.out_of if self.out_of else 0.0

    @property
    def readiness(self) -> tuple[str, str]:
        """What the score says, in a word ("ready", "nearly", "not yet"), and what to do next: every face's."""
        return next((word, advice) for floor, word, advice in READINESS if self.percent >= floor)


def score(quiz: Quiz, responses: dict[str, Response]) -> QuizResult:
    """Total points; an unanswered question scores nothing."""
    points, missed = 0.0, []
    for question in quiz:
        response = responses.get(question.id)
        earned = response.points(question) if response else 0.0
        points += earned
        if earned < 1:
            missed.append(question)
    return QuizResult(points, len(quiz), tuple(missed))


def saved_responses(saved: str, quiz: Quiz) -> dict[str, Response]:
    """The responses of an unfinished run, from the JSON it was saved as; damaged or outdated is none."""
    try:
        data = json.loads(saved or "{}")
        responses = {r["question_id"]: Response(r["question_id"], r.get("choice", ""), r.get("rating", ""))
                     for r in data.get("responses", [])}
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}
    ids = {q.id for q in quiz}
    return {k: v for k, v in responses.items() if k in ids}


def quiz_from_raw(raw: dict[str, Any], quiz_id: str, title: str, path: Path, lines: list[int]) -> Quiz:
    """Build a quiz from its (schema-checked) YAML; options get ids a, b, c... in the order written."""
    questions = []
    for q, line in zip(raw["questions"], lines, strict=True):
        options = tuple(Option(chr(97 + i), str(o["text"]), bool(o.get("correct", False)), str(o["feedback"]))
                        for i, o in enumerate(q.get("options", ())))
        questions.append(QuizQuestion(
            id=str(q["id"]), topic=str(q["topic"]), chapter=str(q["chapter"]), prompt=str(q["prompt"]),
            style=q["style"], options=options, explanation=str(q.get("explanation", "")),
            answer=str(q.get("answer", "")), checklist=tuple(map(str, q.get("checklist", ()))), line=line))
    return Quiz(quiz_id, title, str(raw.get("intro", "")), tuple(questions), path)


def quiz_problems(quiz: Quiz, chapter_ids: set[str]) -> list[tuple[int, str]]:
    """What a schema cannot say: (line, message) for each problem."""
    problems, seen = [], set()
    for question in quiz:
        if question.id in seen:
            problems.append((question.line, f"duplicate question id {question.id!r}"))
        seen.add(question.id)
        if question.chapter not in chapter_ids:
            problems.append((question.line, f"question {question.id}: no chapter {question.chapter!r} in this book"))
        if question.style == "choice":
            right = sum(o.correct for o in question.options)
            if right != 1:
                problems.append((question.line, f"question {question.id}: a choice needs exactly one correct "
                                                 f"option, not {right}"))
            texts = [o.text.strip().lower() for o in question.options]
            if len(set(texts)) != len(texts):
                problems.append((question.line, f"question {question.id}: two options have the same text"))
    if not quiz.questions:
        problems.append((1, "the quiz has no questions"))
    return problems
