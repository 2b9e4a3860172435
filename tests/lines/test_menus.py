"""The plain-line face's menus (issue 46): a chapter is chosen by its own number (`4: chapter 4, ...`), an
exercise by its number in the chapter (`1: exercise 4.1, ...`), the chapter's other entries by letter (`t`,
`h`); and `b` goes one step back everywhere: exercise, chapter, chapter list, main menu."""

from __future__ import annotations

import re

from tests.lines.transcript import assert_plain, session

# The lines that say where the learner is: the main menu, the chapter list, a chapter's menu, an exercise.
PLACE = re.compile(r"^(menu: main menu|chapters: \d+ chapters|chapter \d+: |exercise \d+\.\d+: )")


def places(transcript: str) -> list[str]:
    """Where the session went, in order: each place's line up to its colon."""
    return [line.split(": ")[0] if not line.startswith("menu:") else "main menu"
            for line in transcript.splitlines() if PLACE.match(line)]


def test_a_chapter_and_an_exercise_are_chosen_by_their_own_numbers(book, store):
    transcript, prompts = session(book, store, ["2", "4", "1", "back", "b", "b", "quit"])
    assert_plain(transcript, prompts)
    lines = transcript.splitlines()
    for chapter in book.chapters:
        assert f"{chapter.id}: chapter {chapter.id}, {chapter.title}, 0 of {len(chapter.exercises)} solved" in lines
    assert f"choose (0 to {len(book.chapters) - 1}, b back): 4" in lines
    four = book.chapter("4")
    assert f"chapter 4: {four.title}. 0 of {len(four.exercises)} solved." in lines
    assert "t: read the text" in lines and "h: read from one of its headings" in lines
    for number, exercise in enumerate(four.exercises, 1):
        assert any(line.startswith(f"{number}: exercise 4.{number}, {exercise.title}, ") for line in lines)
    assert f"choose (t, 1 to {len(four.exercises)}, h, b back): 1" in lines
    assert places(transcript) == ["main menu", "chapters", "chapter 4", "exercise 4.1", "chapter 4", "chapters",
                                  "main menu"]


def test_b_goes_one_step_back_from_every_menu_of_a_chapter(book, store):
    """Exercise, chapter, chapter list, main menu; the same after continue, which opens the exercise last
    opened: back from it goes to its chapter, then the chapter list, never straight to the main menu."""
    transcript, prompts = session(book, store, ["2", "0", "2", "back", "h", "b", "b", "b",   # 0.2, headings
                                                "1", "back", "b", "b", "quit"])              # continue
    assert_plain(transcript, prompts)
    assert places(transcript) == ["main menu", "chapters", "chapter 0", "exercise 0.2", "chapter 0", "chapter 0",
                                  "chapters", "main menu",
                                  "exercise 0.2", "chapter 0", "chapters", "main menu"]
    assert "continue: chapter 0, exercise 0.2" in transcript
    assert "from heading (1 to " in transcript   # h listed the headings; b from them went back to the chapter


def test_letters_and_words_a_menu_does_not_take_are_said(book, store):
    transcript, prompts = session(book, store, ["2", "17", "x", "0", "9", "t", "q", "b", "b", "b", "quit"])
    assert_plain(transcript, prompts)
    assert f"sorry: type one of 0 to {len(book.chapters) - 1}, b back" in transcript
    assert f"sorry: type one of t, 1 to {len(book.chapter('0').exercises)}, h, b back" in transcript
    assert "chapter text: chapter 0, Ring AllReduce" in transcript
    assert re.search(r"^menu: main menu\n(.*\n)*choose \(1 to (\d+)\): b\nsorry: there is no step back from "
                     r"here: type one of 1 to \2, or quit to leave\nchoose \(1 to \2\): quit\n\nbye: ", transcript,
                     re.MULTILINE)


def test_a_book_whose_chapter_ids_cannot_be_typed_as_keys_numbers_its_chapters_from_1(chapters_copy, store):
    """A book's chapter ids are any text (`Appendix A`): where one cannot be typed as a key, the list is
    numbered from 1, and each item still says the chapter's id."""
    from grader.book.load import load_book

    content = chapters_copy("00-ring-allreduce")
    (content / "notes").mkdir()
    (content / "notes" / "chapter.md").write_text("# Notes\n\nFurther reading.\n", encoding="utf-8")
    (content / "notes" / "exercises.yaml").write_text("exercises: []\n", encoding="utf-8")
    with (content / "book.yaml").open("a", encoding="utf-8") as book_yaml:
        book_yaml.write('  - {id: "Appendix A", title: "Notes", dir: notes}\n')
    book = load_book(content)
    assert [c.id for c in book.chapters] == ["0", "Appendix A"]
    transcript, prompts = session(book, store, ["2", "2", "b", "b", "quit"])
    assert_plain(transcript, prompts)
    lines = transcript.splitlines()
    assert "1: chapter 0, Ring AllReduce, 0 of 8 solved" in lines
    assert "2: chapter Appendix A, Notes, 0 of 0 solved" in lines
    assert "chapter Appendix A: Notes. 0 of 0 solved." in lines


def test_b_leaves_the_lab_from_its_question_and_its_prompt(book, store):
    """The lab took only `back`, and `b` was "sorry": b leaves it for the main menu, its state kept."""
    lab = str(4 + len(book.quizzes))   # continue, chapters, review, the quizzes, then the lab
    transcript, prompts = session(book, store, [lab, "b", lab, "1", "b", "quit"])
    assert_plain(transcript, prompts)
    assert "predict (1 to 4, or back): b\nmenu: main menu\n" in transcript
    assert re.search(r"^lab, act 1: b\nmenu: main menu\n", transcript, re.MULTILINE)
    assert "sorry" not in transcript
