"""`ringbook content check` on a slip an author new to YAML and to placeholders makes: the message quotes the
lines, names the likely cause and points at the line to fix (issue 47 section 2), on a book from `content new`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import ringbook_in_process as run

EXERCISES = Path("01-first-steps") / "exercises.yaml"


@pytest.fixture
def new_book(tmp_path: Path, capsys) -> Path:
    folder = tmp_path / "book"
    assert run(capsys, "content", "new", folder)[0] == 0
    return folder


def edited(book: Path, old: str, new: str) -> int:
    """Replace the first `old` in the chapter's exercises with `new`; the line number where it was."""
    path = book / EXERCISES
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return text[:text.index(old)].count("\n") + 1


def problems(book: Path, capsys) -> list[str]:
    code, out, err = run(capsys, "content", "check", "--content", book)
    assert code == 1 and err.strip() == "1 problem(s) found.", (out, err)
    return out.splitlines()


def test_a_key_one_space_short_is_called_indentation(new_book, capsys):
    line = edited(new_book, "    kind: derive\n", "   kind: derive\n")
    assert problems(new_book, capsys) == [
        f"{new_book / EXERCISES}:{line}: invalid YAML: did not find expected '-' indicator. "
        f"Line {line}, from column 4: '   kind: derive'; line {line - 1} above it, from column 5: "
        "'    title: Global batch from three factors'. Likely cause: indentation: line "
        f"{line} starts 1 column left of line {line - 1}; the keys of one mapping, and the items of one list, "
        "start in the same column."]


def test_a_missing_colon_is_named_at_its_own_line(new_book, capsys):
    line = edited(new_book, "    kind: derive\n", "    kind derive\n")
    (message,) = problems(new_book, capsys)
    assert message.startswith(f"{new_book / EXERCISES}:{line}: invalid YAML: could not find expected ':'. "
                              f"Line {line}, from column 5: '    kind derive'; ")
    assert message.endswith(f"Likely cause: a missing colon: line {line} has no ':' after its key.")


def test_a_tab_in_the_indentation_is_named(new_book, capsys):
    line = edited(new_book, "    kind: derive\n", "\tkind: derive\n")
    (message,) = problems(new_book, capsys)
    assert message.startswith(f"{new_book / EXERCISES}:{line}: invalid YAML: ")
    assert f"Line {line}, from column 2: '\\tkind: derive'" in message
    assert message.endswith(f"Likely cause: a tab: line {line} is indented with a tab, and YAML indents with "
                            "spaces only.")


def test_an_unknown_placeholder_is_reported_at_its_own_line_with_the_name_meant(new_book, capsys):
    line = edited(new_book, "running micro-batches of **{{b}}**", "running micro-batches of **{{bs}}**")
    assert problems(new_book, capsys) == [
        f"{new_book / EXERCISES}:{line}: prompt: placeholder '{{{{bs}}}}': Unknown name 'bs'. Did you mean `b`?"]
