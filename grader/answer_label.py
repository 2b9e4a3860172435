"""A stored answer in the learner's terms: an option by its letter and text, a design by its items' names,
a debug pick by its line. Answers are stored as ids (stable across rewordings); people read these."""

from __future__ import annotations

from grader.book.model import Debug, Design, Exercise, Trace


def label(exercise: Exercise, answer: str) -> str:
    """One line for `answer`; text it cannot place (an id the book no longer has) is shown as it is."""
    if isinstance(exercise, Trace) and exercise.options:
        options = exercise.presented_options
        index = next((i for i, o in enumerate(options) if o.id == answer), None)
        return answer if index is None else f"{chr(65 + index)}  {options[index].text}"
    if isinstance(exercise, Design):
        texts = {item.id: item.text for item in exercise.items}
        return " → ".join(_name(texts.get(i.strip(), i.strip())) for i in answer.split(","))
    if isinstance(exercise, Debug):
        lines = exercise.lines
        if answer.isdigit() and 1 <= int(answer) <= len(lines):
            return f"line {answer}: {lines[int(answer) - 1].strip()}"
    return " ".join(answer.split())


def _name(text: str) -> str:
    """An item by what comes before its colon ("PP = 16"), or its first three words."""
    head = text.split(":", 1)[0]
    return head if len(head) < len(text) and len(head) <= 24 else " ".join(text.split()[:3])
