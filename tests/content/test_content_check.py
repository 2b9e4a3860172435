"""`ringbook content check`: the built-in book passes; broken copies fail with path:line messages; hostile
books (a billion laughs, huge files, escape sequences) are refused, and what they hold never reaches a terminal."""

from __future__ import annotations

import io
import os
import re
import resource
import shutil
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from grader.book.load import BUILTIN_CONTENT, BookError, check_book, load_book
from grader.files import MAX_FILE_BYTES
from grader.lab.load import load_lab
from tests.helpers import RINGBOOK, read_book_copy, ringbook_app, ringbook_subprocess, write_book_copy
from tui.cli.main import main

CHAPTER0 = "00-ring-allreduce/exercises.yaml"


@pytest.fixture
def small_book(chapters_copy) -> Path:
    """The chapters these tests break (0, 1 and 9) and the lab: what they check is in those files."""
    return chapters_copy("00-ring-allreduce", "01-zero-stages", "09-capstone-llama-405b", lab=True)


def with_the_quiz(root: Path) -> Path:
    """`root` (a book of some chapters) given the built-in quiz too. Its questions name every chapter, so the
    check reports those it does not have; a test of what is wrong in the quiz file itself looks past them."""
    (root / "quizzes").mkdir()
    shutil.copy(BUILTIN_CONTENT / "quizzes/readiness.yaml", root / "quizzes/readiness.yaml")
    with (root / "book.yaml").open("a") as book:
        book.write("quizzes:\n  - {id: readiness, title: Readiness Check, file: quizzes/readiness.yaml}\n")
    return root


def run_check(content: Path | None, capsys) -> tuple[int, str]:
    argv = ["content", "check"] + (["--content", str(content)] if content else [])
    code = main(argv)
    return code, capsys.readouterr().out


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def test_builtin_book_passes_the_real_command(book):
    """`ringbook content check` as an author runs it, once (the whole book's check is the costliest command):
    no problem, and no warning either, each of which it prints as path:line: warning: ...."""
    result = ringbook_subprocess("content", "check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert [line for line in (result.stdout + result.stderr).splitlines() if ": warning: " in line] == []
    assert f"{len(book.chapters)} chapters, {len(book.exercises)} exercises" in result.stdout
    assert len(book.chapters) >= 10


def test_broken_formula_is_reported_with_its_line(small_book, capsys):
    path = small_book / CHAPTER0
    text = path.read_text()
    first_answer = re.search(r"^(\s+answer: )(.+)$", text, re.M)
    path.write_text(text[: first_answer.start(2)] + "2*M*(N-1/N" + text[first_answer.end(2):])
    line = text[: first_answer.start()].count("\n") + 1
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert re.search(rf"{re.escape(CHAPTER0)}:{line}: answer '2\*M\*\(N-1/N': does not parse", out), out


def test_undefined_name_in_formula_is_reported(small_book, capsys):
    path = small_book / CHAPTER0
    text = path.read_text()
    first_answer = re.search(r"^(\s+answer: )(.+)$", text, re.M)
    path.write_text(text[: first_answer.start(2)] + "2*Q*M" + text[first_answer.end(2):])
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert "uses undefined name(s) Q" in out


def test_a_key_written_twice_in_one_exercise_is_reported_at_the_second(small_book, capsys):
    """Two `constraints:` in one exercise (from two branches' edits) made YAML drop the first list silently:
    the 11.3, 1.2 and 14.1 variants that the first list kept out came back."""
    path = small_book / CHAPTER0
    text = path.read_text()
    first = line_of(path, "unit:")
    path.write_text(text.replace("    unit:", "    unit: GB\n    unit:", 1))
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{first + 1}: invalid YAML" in out and "'unit' is written twice" in out, out
    assert f"first at line {first}" in out


def test_duplicate_id_is_reported_at_the_second(small_book, capsys):
    path = small_book / CHAPTER0
    text = path.read_text()
    path.write_text(text.replace('id: "0.2"', 'id: "0.1"', 1))
    line = [n for n, text in enumerate(path.read_text().splitlines(), 1) if 'id: "0.1"' in text][1]
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line}: duplicate exercise id '0.1'" in out, out


def test_invalid_yaml_is_reported_with_its_line(small_book, capsys):
    path = small_book / CHAPTER0
    lines = path.read_text().splitlines()
    target = line_of(path, "title:")
    lines[target - 1] = lines[target - 1] + ": an unquoted colon"  # the classic author slip
    path.write_text("\n".join(lines) + "\n")
    code, out = run_check(small_book, capsys)
    assert code == 1
    match = re.search(rf"{re.escape(CHAPTER0)}:(\d+): invalid YAML", out)
    assert match, out
    assert abs(int(match.group(1)) - target) <= 1


def test_schema_violation_names_the_field_and_line(small_book, capsys):
    path = small_book / CHAPTER0
    text = path.read_text()
    path.write_text(text.replace('id: "0.1"', "id: 0.1", 1))
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'id: 0.1')}: exercises/0/id: 0.1 should be a string (quote it)" in out, out


def test_mistake_equal_to_the_answer_is_reported(small_book, capsys):
    path = small_book / CHAPTER0
    text = path.read_text()
    answer = re.search(r"^\s+answer: (.+)$", text, re.M).group(1)
    mistake = re.search(r"^(\s+- answer: )(.+)$", text, re.M)
    path.write_text(text[: mistake.start(2)] + answer + text[mistake.end(2):])
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert "equals the answer" in out or "is equivalent to the answer" in out, out


def test_debug_line_out_of_range_is_reported(small_book, capsys):
    path = small_book / CHAPTER0
    text = path.read_text()
    path.write_text(re.sub(r"buggy_line: \d+", "buggy_line: 99", text, count=1))
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, 'buggy_line: 99')}: buggy_line 99 is outside the listing" in out, out


def test_duplicate_design_items_are_reported(small_book, capsys):
    path = small_book / "09-capstone-llama-405b/exercises.yaml"
    text = path.read_text()
    ids = re.findall(r"^\s+- id: ([a-z]+)\s*$", text[text.index("kind: design"):], re.M)
    path.write_text(text.replace(f"- id: {ids[1]}\n", f"- id: {ids[0]}\n", 1))
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert "duplicate design item ids" in out, out


def test_missing_folder_is_one_line_without_a_line_number(tmp_path, capsys):
    """Issue 23: `DIR:1: no such content folder`, and then `1 problem(s) found.`: the `:1` meant nothing."""
    code = main(["content", "check", "--content", str(tmp_path / "nowhere")])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.splitlines() == [f"ringbook: no such content folder: {tmp_path / 'nowhere'}"]


def test_a_folder_name_reaches_the_terminal_with_its_control_characters_escaped(tmp_path, capsys):
    """A folder named with a terminal escape (a window title, a colour) printed it raw in the one-line
    message; the name is shown escaped, in the message and in the folder it suggests."""
    missing = tmp_path / "x\x1b]0;pwned\x07\x1b[31mevil"
    assert main(["content", "check", "--content", str(missing)]) == 1
    book = tmp_path / "b\x1b[31m"
    (book / "c1").mkdir(parents=True)
    (book / "book.yaml").write_text("title: x\n")
    assert main(["content", "list", "--content", str(book / "c1")]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "x\\x1b]0;pwned\\x07\\x1b[31mevil" in err and "b\\x1b[31m" in err


@pytest.mark.parametrize("command", [["content", "check"], ["content", "list"], ["content", "show", "0.1"]])
def test_a_chapter_folder_given_as_the_book_suggests_its_parent(small_book, capsys, monkeypatch, command):
    """Issue 23: `--content` at a chapter said `book.yaml:1: file is missing`; it names the book's folder."""
    monkeypatch.chdir(small_book.parent)
    code = main([*command, "--content", "content/00-ring-allreduce"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.splitlines() == ["ringbook: content/00-ring-allreduce looks like a chapter folder, not a book "
                                "(no book.yaml here, but its parent has one): give --content content"]
    monkeypatch.chdir(small_book / "00-ring-allreduce")
    assert main([*command, "--content", "."]) == 1
    assert capsys.readouterr().err.endswith("give --content ..\n")
    assert main([*command, "--content", ".."]) == 0


def test_a_folder_that_is_no_book_says_so_and_how_to_start_one(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not a book")
    assert main(["content", "check", "--content", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (f"ringbook: {tmp_path} has no book.yaml, so it is not a ringbook book "
                                       "(`ringbook content new DIR` starts one)\n")
    assert main(["content", "check", "--content", str(tmp_path / "notes.txt")]) == 1
    assert "notes.txt is a file; --content takes the book's folder" in capsys.readouterr().err


def test_a_broken_lab_is_reported(small_book, capsys):
    lab = small_book / "labs/parallelism-paradox.yaml"
    lab.write_text(lab.read_text().replace("{model_64}%", "{no_such_figure}%", 1))
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert "parallelism-paradox.yaml" in out and "no_such_figure" in out


# --- warnings: feedback a learner would be given for the wrong slip ---------------------------------

CHAPTER1 = "01-zero-stages/exercises.yaml"


def edit_exercise(path: Path, exercise_id: str, old: str, new: str) -> None:
    """Replace the first `old` inside one exercise of the file."""
    text = path.read_text()
    start = text.index(f'id: "{exercise_id}"')
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old):])


def test_two_mistakes_with_the_same_value_are_a_warning_that_does_not_fail(small_book, capsys):
    path = small_book / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: (N-1)*M/N\n")   # the first mistake's value
    code, out = run_check(small_book, capsys)
    assert code == 0, out
    line = line_of(path, "- answer: (N-1)*M/N")
    assert (f"{CHAPTER0}:{line}: warning: mistake '(N-1)*M/N' gives the same value as mistake 'M*(N-1)/N' "
            f"(line {line - 2}): a learner who makes it is always given the earlier one's feedback") in out, out
    assert load_book(small_book).exercise("0.1"), "a warning does not stop the book from opening"


def test_mistakes_closer_than_twice_the_tolerance_are_a_warning(small_book, capsys):
    path = small_book / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: M*(N-1)/N*1.008\n")
    code, out = run_check(small_book, capsys)
    assert code == 0, out
    assert (f"{CHAPTER0}:{line_of(path, '1.008')}: warning: mistake 'M*(N-1)/N*1.008' is within twice the "
            "tolerance of mistake 'M*(N-1)/N'") in out, out


def test_mistake_closer_than_twice_the_tolerance_to_the_answer_is_a_warning(small_book, capsys):
    path = small_book / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: 2*M*(N-1)/N*1.008\n")
    code, out = run_check(small_book, capsys)
    assert code == 0, out
    assert (f"{CHAPTER0}:{line_of(path, '1.008')}: warning: mistake '2*M*(N-1)/N*1.008' is within twice the "
            "tolerance of the answer '2*M*(N-1)/N': rounded to three significant figures, this slip can be "
            "graded correct") in out, out


def test_mistake_within_the_tolerance_of_the_answer_stays_a_problem(small_book, capsys):
    path = small_book / CHAPTER0
    edit_exercise(path, "0.1", "- answer: 2*M*(N-1)\n", "- answer: 2*M*(N-1)/N*1.004\n")
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line_of(path, '1.004')}: mistake '2*M*(N-1)/N*1.004' equals the answer" in out, out


def test_equivalent_formula_mistakes_are_a_warning(small_book, capsys):
    path = small_book / CHAPTER0
    edit_exercise(path, "0.7", "- answer: 2*M*(N-1)\n", "- answer: M - M/N\n")   # M(N-1)/N, the first mistake
    code, out = run_check(small_book, capsys)
    assert code == 0, out
    assert (f"{CHAPTER0}:{line_of(path, '- answer: M - M/N')}: warning: mistake 'M - M/N' is equivalent to "
            "mistake 'M*(N-1)/N'") in out, out


def test_line_feedback_quoting_another_lines_code_is_a_warning(small_book, capsys):
    """1.8 once gave line 9 the feedback written for line 8's `stage >= 2` test."""
    path = small_book / CHAPTER1
    text = path.read_text()
    feedback_9 = re.search(r'^\s+"9": .*$', text, re.M)
    fixed = '      "9": "So `stage >= 2` is the right test."'
    path.write_text(text[:feedback_9.start()] + fixed + text[feedback_9.end():])
    code, out = run_check(small_book, capsys)
    assert code == 0, out
    line = line_of(path, '"9": ')
    assert (f"{CHAPTER1}:{line}: warning: line_feedback for line 9 quotes `stage >= 2`, "
            "which is not on that line") in out, out


# --- hostile books: files that would exhaust ringbook or write to the reader's terminal ------------------

ROOT = Path(__file__).resolve().parents[2]
LAUGHS = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + "".join(
    f"{b}: &{b} [{', '.join([f'*{a}'] * 9)}]\n" for a, b in zip("abcdefgh", "bcdefghi", strict=True))


def check_in_a_child(content: Path) -> subprocess.CompletedProcess:
    """`ringbook content check` in its own process, held to 2 GB: the code before the fix read a billion
    laughs for minutes at 3.9 GB, and libyaml's composer crashed the process on deep nesting."""
    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))

    return subprocess.run([*RINGBOOK, "content", "check", "--content", str(content)],
                          capture_output=True, text=True, cwd=ROOT, preexec_fn=limit_memory, timeout=600)


def test_a_billion_laughs_is_refused(small_book):
    book = small_book / "book.yaml"
    text = book.read_text()
    book.write_text(LAUGHS + text.replace("subtitle: ", "subtitle: *i\nold_subtitle: ", 1))
    result = check_in_a_child(small_book)
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"/book\.yaml:\d+: invalid YAML: aliases here repeat more than 10,000 nodes", result.stdout), \
        result.stdout
    assert "Traceback" not in result.stderr and "ok:" not in result.stdout


def test_a_few_aliases_are_still_allowed(small_book, capsys):
    path = small_book / CHAPTER0
    text = path.read_text()
    path.write_text(text.replace("params: {M: 1, N: 8}", "params: &ring {M: 1, N: 8}", 1)
                    .replace("params: {M: 1, N: 8}", "params: *ring", 1))
    assert run_check(small_book, capsys)[0] == 0


def test_nesting_too_deep_is_refused_not_a_crash(small_book):
    (small_book / CHAPTER0).write_text("exercises: " + "[" * 100_000 + "]" * 100_000 + "\n")
    result = check_in_a_child(small_book)
    assert result.returncode == 1, (result.returncode, result.stderr[-500:])
    assert f"{CHAPTER0}:1: invalid YAML: nested more than 50 levels deep" in result.stdout, result.stdout


@pytest.mark.parametrize("name", ["00-ring-allreduce/chapter.md", CHAPTER0, "book.yaml",
                                  "quizzes/readiness.yaml", "labs/parallelism-paradox.yaml"])
def test_a_file_over_the_cap_is_refused_in_check_and_when_opening(small_book, capsys, name):
    """On the small book (what the check of the rest would cost says nothing here), the quiz given to it too: its
    questions name every chapter, but a file over the cap is refused before a line of it is read."""
    root = with_the_quiz(small_book) if name.startswith("quizzes/") else small_book
    path = root / name
    with path.open("a") as file:
        file.write("\n#" + "x" * MAX_FILE_BYTES + "\n")   # a comment in YAML, a heading in Markdown
    code, out = run_check(root, capsys)
    assert code == 1
    size = path.stat().st_size
    assert f"{name}:1: the file is {size:,} bytes; a book file may be at most 1,000,000 bytes (1 MB)" in out, out
    with pytest.raises(BookError, match=r"a book file may be at most 1,000,000 bytes \(1 MB\)"):
        load_book(root)


def test_a_chapter_that_is_a_pipe_is_refused(small_book, capsys):
    """A pipe in the book is refused, not waited on. (A link to /dev/zero leads outside the book, and
    tests/content/test_book_files_outside.py has those.)"""
    chapter = small_book / "00-ring-allreduce/chapter.md"
    chapter.unlink()
    os.mkfifo(chapter)
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert "00-ring-allreduce/chapter.md:1: not a regular file" in out, out


ESCAPES = {
    # file: (text to find, text to put in its place, what the check names)
    "00-ring-allreduce/chapter.md": ("## The problem: every GPU needs the same sum",
                                     "## The problem\x1b]2;pwned\x07 every GPU needs the same sum", "\\x1b"),
    CHAPTER0: ("title: Traffic per GPU on a ring",
               'title: "Traffic\\e]52;c;cm0gLXJmIH4=\\a per GPU"', "\\x1b"),
    "01-zero-stages/exercises.yaml": ("    hints:\n      - ", "    hints:\n      - \u202e", "\\u202e"),
    "quizzes/readiness.yaml": ("topic: 70B on one node", 'topic: "70B\\x9b2J on one node"', "\\x9b"),
    "labs/parallelism-paradox.yaml": ('title: "Act I · The data-parallel wall"',
                                      'title: "Act I\\e[2J · The data-parallel wall"', "\\x1b"),
}


def with_escapes(root: Path) -> dict[str, int]:
    """Put a control character in each file of ESCAPES; the line it is on, per file."""
    lines = {}
    for name, (old, new, _) in ESCAPES.items():
        path = root / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        lines[name] = text[: text.index(old)].count("\n") + 1 + old.count("\n")
    return lines


def test_control_characters_are_reported_with_path_and_line(small_book, capsys):
    lines = with_escapes(with_the_quiz(small_book))
    code, out = run_check(small_book, capsys)
    assert code == 1
    for name, (_, _, shown) in ESCAPES.items():
        assert f"{name}:{lines[name]}: {shown} (" in out and "would reach the reader's terminal" in out, (name, out)
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out and "\u202e" not in out


def every_string(value) -> list[str]:
    """Every string in a book's dataclasses, tuples, lists and dicts."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in every_string(k) + every_string(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in every_string(v)]
    if hasattr(value, "__dataclass_fields__"):
        return [s for name in value.__dataclass_fields__ for s in every_string(getattr(value, name))]
    return []


def test_even_an_unchecked_book_holds_no_control_character(book_copy):
    with_escapes(book_copy)
    book, problems = check_book(book_copy, validate_schema=False)
    assert len(problems) == len(ESCAPES)
    strings = every_string(book) + [c.narrative() for c in book.chapters]
    strings += every_string(load_lab(book_copy / "labs/parallelism-paradox.yaml", book_copy))
    unsafe = [s for s in strings if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", s)]
    assert unsafe == []
    assert book.exercise("0.1").title == "Traffic\\x1b]52;c;cm0gLXJmIH4=\\x07 per GPU"
    assert "## The problem\\x1b]2;pwned\\x07 every GPU" in book.chapters[0].narrative()


def test_a_cache_from_before_strings_were_made_printable_is_not_used(small_book, tmp_path):
    load_book(small_book, cache_dir=tmp_path)
    [cache] = tmp_path.glob("book-cache-*.json")
    data, exercises = read_book_copy(cache)
    data["format"] = 1
    hostile = "Traffic\x1b]2;pwned\x07"
    exercises[0][0]["title"] = data["raw"]["chapters"]["00-ring-allreduce"]["headings"][0][1] = hostile
    write_book_copy(cache, data, exercises)
    book = load_book(small_book, cache_dir=tmp_path)
    assert book.exercise("0.1").title == book.headings[0].title == "Traffic per GPU on a ring"


def terminal_output(app) -> str:
    """What the app would write to the terminal for its current screen, as its driver does."""
    written = io.StringIO()
    console = Console(file=written, force_terminal=True, color_system="truecolor", width=app.size.width,
                      height=app.size.height, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    return written.getvalue()


def without_textuals_own_sequences(output: str) -> str:
    """The output less the CSI sequences Textual writes itself (colours, cursor moves)."""
    return re.sub(r"\x1b\[[0-9;:?<=>]*[ -/]*[@-~]", "", output)


async def test_the_learner_sees_the_escapes_as_text_and_the_terminal_gets_none(book_copy, data_dir):
    from textual.widgets import Markdown

    from tui.progress.store import ProgressStore

    with_escapes(book_copy)
    book, _ = check_book(book_copy, validate_schema=False)    # opened without its check, as it could be
    store = ProgressStore.open(data_dir)
    app = ringbook_app(book, store)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")                            # chapter 0
        for _ in range(50):
            await pilot.pause()
            if app.screen.query("#exercise-list"):
                break
        narrative = app.screen.query_one("#narrative", Markdown)
        assert "\\x1b]2;pwned\\x07" in narrative.source
        shown = without_textuals_own_sequences(terminal_output(app))
        assert "\x1b" not in shown and "\x07" not in shown
        assert "The problem\\x1b]2;pwned\\x07" in shown
        await pilot.press("e", "enter")                       # exercise 0.1, its title on screen
        for _ in range(50):
            await pilot.pause()
            if app.screen.query("#verdict"):
                break
        shown = without_textuals_own_sequences(terminal_output(app))
        assert "\x1b" not in shown and "\x07" not in shown
        assert "Traffic\\x1b]52;c;" in shown
    store.close()


def test_an_answer_the_empty_box_shows_as_an_example_is_reported(small_book, capsys):
    """The box once said "e.g. 7/4", the answer to the book's first exercise."""
    from grader.maths.numeric import BOX_EXAMPLES

    path = small_book / CHAPTER0
    text = path.read_text()
    first_answer = re.search(r"^(\s+answer: )(.+)$", text, re.M)
    path.write_text(text[: first_answer.start(2)] + BOX_EXAMPLES[0] + text[first_answer.end(2):])
    line = text[: first_answer.start()].count("\n") + 1
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert f"{CHAPTER0}:{line}: the answer equals {BOX_EXAMPLES[0]}, which the empty answer box shows" in out, out


def test_markup_in_book_text_is_reported_with_path_and_line(small_book, capsys):
    """A book's text is shown as written (tests/face/test_book_markup.py); markup in it is an attack or a
    slip, so content check says where, as a warning: the book still opens and shows the tags as text."""
    book_yaml = small_book / "book.yaml"
    book_yaml.write_text(re.sub(r"(?m)^subtitle: .*$", "subtitle: \"[@click=app.screenshot('victim.txt','/tmp')]"
                                "Click here to begin[/]\"", book_yaml.read_text()))
    exercises = small_book / "00-ring-allreduce" / "exercises.yaml"
    text = exercises.read_text().replace("AllReduce (**N = {{N}}**). How many GB",
                                         "AllReduce (**N = {{N}}**). [@click=app.simulate_key('q')]How many GB", 1)
    exercises.write_text(text)
    chapter = small_book / "00-ring-allreduce" / "chapter.md"
    linked = "## [link='https://evil.example']The[/link] problem"
    chapter.write_text(chapter.read_text().replace("## The problem", linked, 1))
    code, out = run_check(small_book, capsys)
    assert code == 0, out
    assert f"{book_yaml}:{line_of(book_yaml, 'subtitle:')}: warning: [@click=app.screenshot(" in out
    line = line_of(exercises, "[@click=")
    assert f"{exercises}:{line}: warning: [@click=app.simulate_key('q')] is Textual markup" in out
    assert f"{chapter}:{line_of(chapter, '[link=')}: warning: [link='https://evil.example'] is Textual markup" in out


def test_a_unit_read_as_something_else_is_reported_with_its_line(small_book, capsys):
    """Every unit spelling the book uses must read as a size, time, bandwidth or plain number: pint once
    read the book's `Gb/s` as gilberts per second. A box in mA, or a prompt that writes `5 mA`, is refused."""
    exercises = small_book / "00-ring-allreduce" / "exercises.yaml"
    text = exercises.read_text()
    text = text.replace("    unit: GB\n", "    unit: mA\n", 1)
    text = text.replace("run a ring\n", "run a ring at 400 Gb/s, 2 Gb each\n", 1)
    exercises.write_text(text)
    code, out = run_check(small_book, capsys)
    assert code == 1
    assert f"{exercises}:{line_of(exercises, 'unit: mA')}: the unit 'mA' reads as milliampere (a current)" in out
    assert "Gb" not in out
