"""Issue 42.11: invisible format characters (Unicode Cf) in a book. A zero-width space, a word joiner, a BOM
inside text, an Arabic letter mark or tag characters (which spell words no one sees) passed safe_text and
reached the learner's terminal from a title. Now `content check` reports each one where it is, naming its
code point, and a book opened without its check shows each as a visible escape."""

from __future__ import annotations

import re
from pathlib import Path

from grader.book.load import check_book, load_book
from tests.content.test_content_check import terminal_output
from tests.helpers import home_ready, read_book_copy, ringbook_app, write_book_copy
from tui.cli.main import main
from tui.progress.store import ProgressStore

# (the character, as a YAML double-quoted escape, as safe_text shows it, its code point as content check names it)
INVISIBLE = [
    ("\u061c", "\\u061c", "U+061C"),          # Arabic letter mark
    ("\u200b", "\\u200b", "U+200B"),          # zero width space
    ("\u200c", "\\u200c", "U+200C"),          # zero width non-joiner
    ("\u200d", "\\u200d", "U+200D"),          # zero width joiner
    ("\u2060", "\\u2060", "U+2060"),          # word joiner
    ("\ufeff", "\\ufeff", "U+FEFF"),          # a byte order mark inside text
    ("\xad", "\\xad", "U+00AD"),              # soft hyphen
    ("\U000e0061", "\\U000e0061", "U+E0061"),  # tag latin small letter a
    ("\U000e007f", "\\U000e007f", "U+E007F"),  # cancel tag
]
CHAPTER = "00-ring-allreduce"
TITLE = "Ring AllReduce"


def with_invisible_titles(root: Path) -> None:
    """Chapter 0's title with every character between "Ring" and "AllReduce", as YAML escapes."""
    book_yaml = root / "book.yaml"
    text = book_yaml.read_text(encoding="utf-8")
    escapes = "".join(escape for _, escape, _ in INVISIBLE)
    assert f'title: "{TITLE}"' in text
    book_yaml.write_text(text.replace(f'title: "{TITLE}"', f'title: "Ring{escapes}AllReduce"', 1), encoding="utf-8")


def test_content_check_reports_each_format_character_by_path_line_and_code_point(chapters_copy, capsys):
    root = chapters_copy(CHAPTER)
    narrative = root / CHAPTER / "chapter.md"
    lines = narrative.read_text(encoding="utf-8").splitlines()
    prose = [number for number, line in enumerate(lines) if re.match(r"[A-Za-z]\w* \w+", line)][: len(INVISIBLE)]
    for number, (char, _, _) in zip(prose, INVISIBLE, strict=True):   # one character a line, inside a word
        lines[number] = lines[number].replace(" ", f"{char} ", 1)
    narrative.write_text("\n".join(lines) + "\n", encoding="utf-8")
    exercises = root / CHAPTER / "exercises.yaml"
    text = exercises.read_text(encoding="utf-8")
    exercises.write_text(text.replace("title: Traffic per GPU", "title: Traffic per\u200b GPU", 1), encoding="utf-8")
    with_invisible_titles(root)

    code = main(["content", "check", "--content", str(root)])
    out = capsys.readouterr().out
    assert code == 1
    for number, (_, escape, point) in zip(prose, INVISIBLE, strict=True):
        assert f"{CHAPTER}/chapter.md:{number + 1}: {escape} ({point} " in out, (point, out)
    assert f"{CHAPTER}/exercises.yaml:3: \\u200b (U+200B zero width space" in out, out
    title_line = next(n for n, line in enumerate((root / "book.yaml").read_text().splitlines(), 1) if "Ring\\u" in line)
    assert f"book.yaml:{title_line}: \\u061c (U+061C arabic letter mark" in out, out
    assert "would reach the reader's terminal" in out
    assert not any(char in out for char, _, _ in INVISIBLE), "content check printed an invisible character"


async def test_a_title_shows_each_format_character_as_an_escape_and_the_terminal_gets_none(chapters_copy, data_dir):
    root = chapters_copy(CHAPTER)
    with_invisible_titles(root)
    book, problems = check_book(root, validate_schema=False)    # opened without its check, as it could be
    assert problems
    shown_title = "Ring" + "".join(escape for _, escape, _ in INVISIBLE) + "AllReduce"
    assert book.chapters[0].title == shown_title
    store = ProgressStore.open(data_dir)
    try:
        app = ringbook_app(book, store)
        async with app.run_test(size=(160, 30)) as pilot:
            await home_ready(app, pilot)
            shown = terminal_output(app)
            assert shown_title in shown
            assert not any(char in shown for char, _, _ in INVISIBLE), "an invisible character reached the terminal"
    finally:
        store.close()


def test_a_cache_from_before_format_characters_were_escaped_is_not_used(chapters_copy, tmp_path):
    """A book that passed the check before format 8 was cached with its titles' format characters raw, and
    loading a cached book skips the check: such a copy would bring them back, so it is read again."""
    root = chapters_copy(CHAPTER)
    cache_dir = tmp_path / "cache"
    load_book(root, cache_dir=cache_dir)
    [cache] = cache_dir.glob("book-cache-*.json")
    data, exercises = read_book_copy(cache)
    [entry] = data["raw"]["book"]["chapters"]
    entry["title"] = "Ring\u200bAll\U000e0061Reduce"   # as the check before let it by
    write_book_copy(cache, {**data, "format": 7}, exercises)
    assert load_book(root, cache_dir=cache_dir).chapters[0].title == TITLE
