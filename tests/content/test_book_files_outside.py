"""A book may come from anyone: a file of it that resolves outside its folder (a link out, a chain of links, a
`dir:` or `file:` that climbs out with ..) is refused by name and never read, and a problem line quotes no
more than a short, escaped excerpt of what an author wrote. A book folder that is a symlink loop is said in
one line. Issue 42, items 4 and 9."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.book.load import check_book, load_book
from grader.safe_text import markup_tags
from tests.helpers import text_of, wait_until
from tui.app import RingbookApp
from tui.screens.book_problems import BookProblemsScreen

CHAPTER = "00-ring-allreduce"
MARKER = "RINGBOOK-TEST-SECRET-7f3a"
KEY = (f"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ{MARKER}AAAAAAAAAB\n"
       "-----END OPENSSH PRIVATE KEY-----\n")
REFUSED = "outside the book; ringbook reads only files inside the book folder"


def secret(tmp_path: Path) -> Path:
    """The author's key, beside the book, not in it."""
    key = tmp_path / "id_ed25519"
    key.write_text(KEY)
    return key


def replaced_by_link(path: Path, target: Path | str) -> Path:
    """`path`, a file of the book, made a link to `target`."""
    path.unlink()
    path.symlink_to(target)
    return path


def link_exercises_out(root: Path, tmp_path: Path) -> Path:
    return replaced_by_link(root / CHAPTER / "exercises.yaml", secret(tmp_path))


def chain_exercises_out(root: Path, tmp_path: Path) -> Path:
    """A link to a link inside the book, which links out."""
    (root / "hop.yaml").symlink_to(secret(tmp_path))
    return replaced_by_link(root / CHAPTER / "exercises.yaml", Path("..") / "hop.yaml")


def link_narrative_out(root: Path, tmp_path: Path) -> Path:
    return replaced_by_link(root / CHAPTER / "chapter.md", secret(tmp_path))


def link_narrative_to_a_device(root: Path, tmp_path: Path) -> Path:
    """A link out to a device: refused for where it leads, never opened (/dev/zero never ends)."""
    return replaced_by_link(root / CHAPTER / "chapter.md", "/dev/zero")


def link_chapter_folder_out(root: Path, tmp_path: Path) -> Path:
    """The chapter's folder itself a link to a folder outside, whose exercises.yaml is the key."""
    outside = tmp_path / "elsewhere"
    (root / CHAPTER).rename(outside)
    (outside / "exercises.yaml").write_text(KEY)
    (root / CHAPTER).symlink_to(outside)
    return root / CHAPTER


def climb_out_with_dots(root: Path, tmp_path: Path) -> Path:
    """book.yaml's `dir:` names a folder outside the book with `..`."""
    outside = tmp_path / "elsewhere"
    (root / CHAPTER).rename(outside)
    (outside / "exercises.yaml").write_text(KEY)
    book = root / "book.yaml"
    book.write_text(book.read_text().replace(f"dir: {CHAPTER}", "dir: ../elsewhere"))
    return book


def link_lab_out(root: Path, tmp_path: Path) -> Path:
    lab = next((root / "labs").glob("*.yaml"))
    lab.unlink()
    lab.symlink_to(secret(tmp_path))
    return lab


ATTACKS = [link_exercises_out, chain_exercises_out, link_narrative_out, link_narrative_to_a_device,
           link_chapter_folder_out, climb_out_with_dots, link_lab_out]


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_file_outside_the_book_is_refused_by_name_and_never_quoted(attack, chapters_copy, tmp_path, ringbook):
    root = chapters_copy(CHAPTER, lab=True)
    refused = attack(root, tmp_path)
    result = ringbook("content", "check", "--content", root)
    assert result.returncode == 1
    assert MARKER not in result.stdout + result.stderr
    said = [line for line in result.stdout.splitlines() if REFUSED in line]
    assert said and all(refused.name in line for line in said), result.stdout
    _, problems = check_book(root)
    assert not any(MARKER in problem.message for problem in problems)


async def test_the_live_books_problem_screen_never_shows_a_linked_file(chapters_copy, tmp_path, store):
    """`ringbook --content DIR --watch`: a save that makes exercises.yaml a link out lists the refusal, not the key."""
    root = chapters_copy(CHAPTER)
    book = load_book(root)
    app = RingbookApp(book, store, quiet_host=True, watch=root)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.live_book.watch is not None, "the book watched")
        link_exercises_out(root, tmp_path)
        await wait_until(pilot, lambda: isinstance(app.screen, BookProblemsScreen) or app.session.book is not book,
                         "the save read")
        assert isinstance(app.screen, BookProblemsScreen), "the book loaded from the file outside it"
        listing = text_of(app.screen.query_one("#problems-list"))
        assert f"{CHAPTER}/exercises.yaml is a link to a file {REFUSED}" in listing
        assert MARKER not in listing


def test_a_schema_problem_quotes_a_short_escaped_excerpt(chapters_copy, ringbook):
    """A value the schema refuses is quoted in at most 60 characters, its markup inert."""
    root = chapters_copy(CHAPTER)
    exercises = root / CHAPTER / "exercises.yaml"
    long = "[bold]" + "x" * 200 + MARKER
    exercises.write_text(f'exercises: "{long}"\n')
    result = ringbook("content", "check", "--content", root)
    assert result.returncode == 1
    line = next(line for line in result.stdout.splitlines() if "is not of type" in line)
    assert MARKER not in line and markup_tags(line) == []
    assert "xxxx" in line and len(line) < len(str(exercises)) + 160, line


@pytest.mark.parametrize("command", [("content", "check"), ("content", "check", "--watch"), (), ("--watch",)],
                         ids=["check", "check-watch", "app", "app-watch"])
def test_a_book_folder_that_is_a_symlink_loop_is_said_in_one_line(command, tmp_path, ringbook):
    loop = tmp_path / "loop"
    (tmp_path / "other").symlink_to(loop)
    loop.symlink_to(tmp_path / "other")
    result = ringbook(*command, "--content", loop)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "RuntimeError" not in result.stderr
    said = result.stderr.strip().splitlines()
    assert len(said) == 1 and "symbolic link" in said[0] and "loop" in said[0], result.stderr


def test_a_link_inside_the_book_to_a_file_inside_it_is_read(chapters_copy):
    """Links that stay inside the book are an author's own business: the book loads as before."""
    root = chapters_copy(CHAPTER)
    real = root / "shared-exercises.yaml"
    exercises = root / CHAPTER / "exercises.yaml"
    os.replace(exercises, real)
    exercises.symlink_to(Path("..") / real.name)
    book, problems = check_book(root, validate_schema=False)
    assert book is not None and [p for p in problems if not p.warning] == []
    assert book.chapters[0].exercises
