"""Markdown as plain lines a screen reader reads in order: paragraphs as book text (indented two spaces, one
line each, for the terminal or the braille display to wrap), and what the app shows by layout said in words:
`heading:`, `code (text, 4 lines):` ... `end of code`, lists as `- item`, a table flattened into one line per
row that names each column, a link's address after its text. Markup marks (`**`, backticks) are dropped."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

BOOK_INDENT = "  "   # book text is indented; every other line starts with its label

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def inline_text(token: Token) -> str:
    """An inline run as words: emphasis and code marks dropped, a link as its text and address, an image as
    its description; a soft break is a space, a hard one a new line."""
    parts: list[str] = []
    links: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "link_open":
            links.append(str(child.attrs.get("href", "")))
        elif child.type == "link_close" and links:
            href = links.pop()
            parts.append(f" (link: {href})" if href else "")
        elif child.type == "image":
            parts.append(f"image: {child.content or 'no description'}")
    return "".join(parts).strip()


def plain_lines(markdown: str) -> list[str]:
    """`markdown` as the lines the plain-line face prints."""
    tokens = _parser().parse(markdown)
    lines: list[str] = []
    lists: list[list[int]] = []        # per open list: [next number] for an ordered one, [] for bullets
    quote = 0
    rows: list[list[str]] = []
    row: list[str] | None = None

    def gap() -> None:
        if lines and lines[-1].strip():
            lines.append("")

    def book(text: str) -> None:
        prefix = "quote: " if quote else ""
        for part in text.split("\n"):
            lines.append(BOOK_INDENT + prefix + part)

    for index, token in enumerate(tokens):
        kind = token.type
        if kind == "heading_open":
            text = inline_text(tokens[index + 1])
            gap()
            lines.append(f"{'heading' if token.tag in ('h1', 'h2') else 'subheading'}: {text}")
        elif kind == "paragraph_open" and not token.hidden:
            gap()
            book(inline_text(tokens[index + 1]))
        elif kind == "inline" and index and tokens[index - 1].type == "paragraph_open" and tokens[index - 1].hidden:
            book(f"{'  ' * (len(lists) - 1)}{list_marker(lists)} {inline_text(token)}")
        elif kind == "bullet_list_open":
            lists.append([])
        elif kind == "ordered_list_open":
            lists.append([int(token.attrs.get("start", 1) or 1)])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "blockquote_open":
            quote += 1
        elif kind == "blockquote_close":
            quote -= 1
        elif kind in ("fence", "code_block"):
            gap()
            lines.extend(code_lines(token))
        elif kind == "tr_open":
            row = []
        elif kind in ("th_open", "td_open") and row is not None:
            row.append(inline_text(tokens[index + 1]))
        elif kind == "tr_close" and row is not None:
            rows.append(row)
            row = None
        elif kind == "table_close":
            gap()
            lines.extend(table_lines(rows))
            rows = []
        elif kind == "hr":
            lines.append("")
        elif kind == "html_block":
            book(token.content.strip())
    return lines


def list_marker(lists: list[list[int]]) -> str:
    """An item's mark: `-`, or its number in the ordered list it is in (which then counts on)."""
    if not lists or not lists[-1]:
        return "-"
    lists[-1][0] += 1
    return f"{lists[-1][0] - 1}."


def code_lines(token: Token) -> list[str]:
    """A code block: a line saying its language and length, its lines indented, and where it ends."""
    code = token.content.rstrip("\n").split("\n")
    language = token.info.strip().split(" ")[0] if token.type == "fence" else ""
    about = f"{language}, " if language else ""
    return [f"code ({about}{len(code)} line{'s' if len(code) != 1 else ''}):",
            *(BOOK_INDENT * 2 + line for line in code), "end of code:"]


def table_lines(rows: list[list[str]]) -> list[str]:
    """A table flattened: a line saying its size, then each row with its column names."""
    if not rows:
        return []
    head, body = rows[0], rows[1:]
    out = [f"table ({len(body)} row{'s' if len(body) != 1 else ''}, columns: {', '.join(head)}):"]
    for number, cells in enumerate(body, 1):
        named = "; ".join(f"{name}: {cell}" if name else cell for name, cell in zip(head, cells, strict=False))
        out.append(f"{BOOK_INDENT}row {number}: {named}")
    out.append("end of table:")
    return out
