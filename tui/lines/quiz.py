"""The readiness quiz in lines: one question at a time, feedback after each, the score and what to review at
the end. A choice is answered by letter; an explain-it question is answered in your head (or a line of notes,
never graded), then the model answer is read and you rate yourself. The run is kept as the app keeps it
(tui.progress.runs), so a run left half way goes on in either face."""

from __future__ import annotations

from grader.book.quiz import RATINGS, Quiz, QuizQuestion, Response, score
from tui.lines.answers.choice import letter
from tui.lines.chapter import open_chapter
from tui.lines.context import Context
from tui.progress.store import StoreError

RATING_WORDS = list(RATINGS)


def take_quiz(ctx: Context, quiz: Quiz) -> None:
    from tui.progress.mastery import unfinished_run
    from tui.progress.runs import keep_quiz_run, record_quiz_run

    console = ctx.console
    responses = unfinished_run(ctx.session.store, quiz)
    console.say("quiz", f"{quiz.title}, {len(quiz)} questions")
    if responses:
        console.say("quiz", f"picked up where you left off: {len(responses)} of {len(quiz)} answered")
    elif quiz.intro:
        console.book(quiz.intro)
    for number, question in enumerate(quiz, 1):
        if question.id in responses:
            continue
        response = ask_question(ctx, question, number, len(quiz))
        if response is None:
            console.say("quiz", "paused: your answers so far are kept")
            return
        responses[question.id] = response
        keep_quiz_run(ctx.session.store, quiz, responses)
    try:
        record_quiz_run(ctx.session.store, quiz, responses, ctx.session.clock())
    except StoreError as exc:
        console.say("not saved", str(exc))
    results(ctx, quiz, responses)


def ask_question(ctx: Context, question: QuizQuestion, number: int, count: int) -> Response | None:
    """One question asked and answered, with its feedback; None when the learner goes back."""
    console = ctx.console
    console.say(f"question {number} of {count}", question.topic)
    console.book(question.prompt)
    if question.style == "choice":
        options = question.presented_options
        for index, option in enumerate(options):
            console.say(letter(index), option.text)
        last = letter(len(options) - 1)
        while True:
            reply = console.ask("answer", f"a to {last}, or back", f"Type the letter of "
                                f"one option, a to {last}. Only the first answer counts. back pauses the quiz.")
            if reply.lower() == "back":
                return None
            if len(reply) == 1 and "a" <= reply.lower() <= last:
                break
            console.say("sorry", f"type a letter from a to {last}")
        picked = options[ord(reply.lower()) - 97]
        console.say("verdict", "right" if picked.correct else "wrong")
        console.say("feedback", picked.feedback)
        if not picked.correct:
            right = options.index(question.correct_option)
            console.say(f"why {letter(right)} is right", question.correct_option.feedback)
        if question.explanation:
            console.say("explanation")
            console.book(question.explanation)
        return Response(question.id, choice=picked.id)
    notes = console.ask("your answer", "one line, not graded, or Enter",
                        "Answer in your head, or type a line of notes; it is never graded or kept. back pauses.")
    if notes.lower() == "back":
        return None
    console.say("model answer")
    console.book(question.answer)
    for point in question.checklist:
        console.say("check", point)
    labels = "; ".join(f"{n} {RATINGS[r][0].lower()}" for n, r in enumerate(RATING_WORDS, 1))
    while True:
        reply = console.ask("rate yourself", labels, "How much of the model answer did you have? " + labels + ".")
        if reply.isdigit() and 1 <= int(reply) <= len(RATING_WORDS):
            return Response(question.id, rating=RATING_WORDS[int(reply) - 1])
        console.say("sorry", f"type 1 to {len(RATING_WORDS)}")


def results(ctx: Context, quiz: Quiz, responses: dict[str, Response]) -> None:
    console = ctx.console
    result = score(quiz, responses)
    console.say("score", f"{result.points:g} of {result.out_of} ({result.percent:.0f}%)")
    console.say(*result.readiness)
    for number, question in enumerate(quiz, 1):
        response = responses.get(question.id)
        points = response.points(question) if response else 0.0
        console.say(f"question {number}", f"{question.topic}: {points:g} point{'s' if points != 1 else ''}, "
                                          f"taught in chapter {question.chapter}")
    while True:   # as the results' rows in the app: each opens the chapter that teaches it
        reply = console.ask("open", "a question's number for its chapter, or b", "Type a question's number "
                            "to open the chapter that teaches it; b goes back to the main menu.")
        if reply.lower() in ("b", "back"):
            return
        chapter = ctx.session.book.chapter(quiz.questions[int(reply) - 1].chapter) \
            if reply.isdigit() and 1 <= int(reply) <= len(quiz) else None
        if chapter is None:
            console.say("sorry", f"type a number from 1 to {len(quiz)}, or b")
        else:
            open_chapter(ctx, chapter)
