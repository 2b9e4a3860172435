"""An author's files, read so that no book can exhaust ringbook or write to the reader's terminal.

A book may come from anyone. Each file is capped in size (a 287 MB chapter once took 1.4 GB to open);
YAML may nest only so deep and its aliases may repeat only so many nodes (an 800-byte "billion laughs"
expands to gigabytes); and every string read is made printable, because an escape sequence in a title
would retitle the terminal or write its clipboard. `content check` reports each of these with path:line,
and loading neutralises them anyway, so even a book nobody checked cannot send one. And only files inside
the book's folder are read: a book's problems are printed, so an `exercises.yaml` that links to its author's
SSH key (or a `dir:` that climbs out with ..) would have ringbook quote the key to whoever checks the book.
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from grader.safe_text import markup_tags, printable, unsafe_characters

if TYPE_CHECKING:  # the loader the mixins below are mixed into (yaml_loader); yaml itself loads on first use
    from yaml import SafeLoader as LoaderBase
else:
    LoaderBase = object

MAX_FILE_BYTES = 1_000_000      # the longest file of the built-in book is 36 kB
MAX_DEPTH = 50                  # the built-in book nests 6 deep
MAX_REPEATED_NODES = 10_000     # what aliases may add to what is written; the built-in book uses none


class BookFileError(Exception):
    """A file refused before it is parsed: outside the book, too large, not a regular file, or not UTF-8."""


def read_text(path: Path, book: Path) -> str:
    """A book file's text (newlines made \\n, as `Path.read_text` does), read only if it is a regular file of
    at most MAX_FILE_BYTES inside the folder `book`. Raises OSError when it cannot be read, BookFileError when
    it is refused; a file refused for where it is, or for what it is (a pipe would block), is never read."""
    real = _inside(path, book)
    descriptor = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        _refuse_opened(descriptor, path, book)
    except BaseException:
        os.close(descriptor)
        raise
    with os.fdopen(descriptor, encoding="utf-8") as file:
        try:
            text = file.read(MAX_FILE_BYTES + 1)   # a file that grew since its size was read stops here
        except UnicodeDecodeError as exc:
            raise BookFileError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if len(text) > MAX_FILE_BYTES:
        raise BookFileError(f"the file grew past {MAX_FILE_BYTES:,} bytes while it was read; a book file may be "
                            f"at most that (1 MB)")
    return text


OUTSIDE = "outside the book; ringbook reads only files inside the book folder"


def _inside(path: Path, book: Path) -> str:
    """`path` with its links followed, or BookFileError naming the link that leads outside `book` (the book
    folder itself may be a link). A loop of links stays unresolved here, and fails when opened."""
    real = os.path.realpath(path)
    if _within(real, book):
        return real
    try:
        parts = path.relative_to(book).parts
    except ValueError:
        parts = ()
    for end in range(1, len(parts) + 1):   # from the book down: the first link that leaves it
        step = book.joinpath(*parts[:end])
        if step.is_symlink() and not _within(os.path.realpath(step), book):
            what = "file" if end == len(parts) else "folder"
            raise BookFileError(f"{Path(*parts[:end]).as_posix()} is a link to a {what} {OUTSIDE}")
    raise BookFileError(f"{path.name} is {OUTSIDE}")


def _within(real: str, book: Path) -> bool:
    home = os.path.realpath(book)
    return os.path.commonpath([real, home]) == home


def _refuse_opened(descriptor: int, path: Path, book: Path) -> None:
    """BookFileError unless the open file is a regular file of at most MAX_FILE_BYTES, still inside `book`:
    what was opened, not what its name led to a moment before (a folder on the way swapped for a link)."""
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        raise BookFileError("not a regular file (a device, a pipe or a folder?); a book is made of plain files")
    if status.st_size > MAX_FILE_BYTES:
        raise BookFileError(f"the file is {status.st_size:,} bytes; a book file may be at most "
                            f"{MAX_FILE_BYTES:,} bytes (1 MB)")
    try:
        opened = os.readlink(f"/proc/self/fd/{descriptor}")   # where the kernel says it is (Linux)
    except OSError:
        return   # a system without /proc: the check by name above is what there is
    if not _within(opened, book):
        raise BookFileError(f"{path.name} was moved {OUTSIDE}")


Findings = list[tuple[int, str]]   # (line, description)


def load_yaml(path: Path, book: Path, loader: type[GuardedLoader] | None = None) -> tuple[Any, Findings, Findings]:
    """A book YAML file's data (a file inside the folder `book`), every string made printable, with (line,
    description) for each control character it held and for each line of Textual markup in its strings.
    `loader` is a class from `yaml_loader`. Raises OSError and BookFileError as `read_text` does, and
    yaml.YAMLError (with a mark) for invalid YAML, nesting too deep or aliases that repeat too much."""
    from yaml.reader import ReaderError

    text = read_text(path, book)
    raw = unsafe_characters(text)
    reader = (loader or yaml_loader())(text)
    reader.unsafe_raw_lines.update(line for line, _ in raw)
    reader.unsafe_found.extend(raw)
    try:
        data = reader.get_single_data()
    except ReaderError:
        if not raw:
            raise
        return None, raw, []  # the parser refused a raw control character: say where each one is, not only the first
    finally:
        reader.dispose()
    return data, sorted(set(reader.unsafe_found)), sorted(set(reader.markup_found))


class GuardedLoader(LoaderBase):
    """Loader mixin: bounds nesting and alias repetition while composing, and makes strings printable."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.unsafe_raw_lines: set[int] = set()          # lines where the file holds a control character
        self.unsafe_found: list[tuple[int, str]] = []     # (line, description) of each one found
        self.markup_found: list[tuple[int, str]] = []     # (line, description) of each string's markup
        self._sizes: dict[int, int] = {}                  # id(node) -> nodes it stands for, aliases expanded
        self._repeated = 0
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        from yaml.composer import ComposerError
        from yaml.events import AliasEvent

        event = self.peek_event()
        mark: Any = event.start_mark   # PyYAML's or libyaml's Mark, both of which ComposerError takes
        node: Any
        if isinstance(event, AliasEvent):
            node = super().compose_node(parent, index)
            if id(node) not in self._sizes:
                raise ComposerError(None, None, "an alias refers to the node that holds it", mark)
            self._repeated += self._sizes[id(node)]
            if self._repeated > MAX_REPEATED_NODES:
                raise ComposerError(None, None, f"aliases here repeat more than {MAX_REPEATED_NODES:,} nodes "
                                    "(a \"billion laughs\"?); write the content out instead", mark)
            return node
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep", mark)
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if node.id == "mapping":
            _refuse_repeated_keys(node)
        children = (node.value if node.id == "sequence" else
                    [part for pair in node.value for part in pair] if node.id == "mapping" else [])
        self._sizes[id(node)] = 1 + sum(self._sizes[id(child)] for child in children)
        return node

    def construct_yaml_str(self, node: Any) -> str:
        value = super().construct_yaml_str(node)
        safe = printable(value)
        if safe != value:
            first, last = node.start_mark.line + 1, node.end_mark.line + 1
            if not any(first <= line <= last for line in self.unsafe_raw_lines):
                self.unsafe_found.append((first, _described(value)))  # written as an escape, such as "\e"
        below = node.start_mark.line + (1 if node.style in ("|", ">") else 0)  # a block's text starts a line down
        self.markup_found.extend((below + line, message) for line, message in markup_tags(safe))
        return safe


def _refuse_repeated_keys(node: Any) -> None:
    """YAML keeps the last of two equal keys and drops the first without a word: two `constraints:` in one
    exercise (one from each of two edits) silently lost the first list. A book must say each key once."""
    from yaml.composer import ComposerError

    first: dict[str, int] = {}
    for key, _ in node.value:
        if key.id != "scalar":
            continue
        if key.value in first:
            raise ComposerError(None, None, f"the key {key.value!r} is written twice in one mapping (first at line "
                                f"{first[key.value]}); YAML would keep only this one, so merge them", key.start_mark)
        first[key.value] = key.start_mark.line + 1


def _described(text: str) -> str:
    found = unsafe_characters(text)
    if found:
        return found[0][1]
    char = next(c for c in text if printable(c) != c)   # a line-break control (\r, \f, \x85...)
    return f"{printable(char)} (a control character) would reach the reader's terminal"


@lru_cache(maxsize=4)
def yaml_loader(*mixins: type) -> type[GuardedLoader]:
    """A safe YAML loader with `mixins` and the guards. Parsing is libyaml's when installed; composing is
    PyYAML's Python composer in any case, because libyaml's recursive composer crashes the process on
    deep nesting (100,000 `[`) before any bound could be checked."""
    import yaml
    from yaml.composer import Composer
    from yaml.constructor import SafeConstructor
    from yaml.resolver import Resolver

    try:
        from yaml._yaml import CParser
    except ImportError:
        base: tuple[type, ...] = (yaml.SafeLoader,)
    else:
        class ParsedByLibyaml(Composer, CParser, SafeConstructor, Resolver):
            def __init__(self, stream):
                CParser.__init__(self, stream)
                Composer.__init__(self)
                SafeConstructor.__init__(self)
                Resolver.__init__(self)

        base = (ParsedByLibyaml,)

    loader = cast("type[GuardedLoader]", type("BookLoader", (*mixins, GuardedLoader, *base), {}))
    loader.add_constructor("tag:yaml.org,2002:str", loader.construct_yaml_str)
    return loader


MAX_TABLE_ROWS = 300    # in all of one chapter's tables; the built-in book's longest chapter has 10 rows
MAX_BLOCKS = 1_000      # paragraphs, headings, list items and rows together; the built-in book has < 100


def narrative_cost(text: str) -> list[tuple[int, str]]:
    """(line, message) where a chapter's Markdown passes what one chapter may cost to show. Each block
    and each table row becomes widgets: a table of 3,000 rows (85 kB) took 13.5 s and 577 MB to open,
    and one of 31,000 rows kept the app from quitting for minutes, all within the size cap."""
    rows = blocks = 0
    fenced = after_blank = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        if stripped.startswith("|"):
            rows += 1
            if rows > MAX_TABLE_ROWS:
                return [(number, f"this chapter's tables have more than {MAX_TABLE_ROWS} rows, more than a "
                                 "chapter may show; split the table or shorten it")]
        if stripped and (after_blank or stripped[0] in "#|-*+>" or stripped[:1].isdigit()):
            blocks += 1
            if blocks > MAX_BLOCKS:
                return [(number, f"this chapter has more than {MAX_BLOCKS:,} blocks (paragraphs, headings, "
                                 "list items, table rows), more than a chapter may show; split it")]
        after_blank = not stripped
    return []
