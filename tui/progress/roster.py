"""A class roster: which Unix account each student's name belongs to, as the instructor says.

A submission's owner on disk is who wrote it, but the name inside is whatever its writer typed. With a
roster the report names each file after its owner's line, and a file that names a student of the roster
from another account is flagged as a claim on that student's name, so no account can file work as
another. Names are compared as they read (tui.progress.lookalike): a name with a Cyrillic "а" or a
zero-width space in it is the name it looks like. The format is plain text, one student a line: the
login, then the name to show (the login when left out); `#` starts a comment.

    # login   name shown in the report
    alice     Alice Liddell
    bob
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tui.progress.lookalike import folded

MAX_ROSTER_BYTES = 1024 * 1024   # some 20,000 students; a roster past this is not a class list


class UnreadableRoster(Exception):
    """Why a roster cannot be used, as a sentence."""


@dataclass(frozen=True)
class Roster:
    names: dict[str, str]                  # login -> the name the report shows
    readings: dict[str, tuple[str, str]]   # each login and name as it reads (lookalike.folded) -> (login, word)

    def account_named(self, name: str) -> tuple[str, str] | None:
        """The login a name belongs to, and the roster's word it reads as: the student shown under that
        name, or with that login, in any case and however it is spelled to look alike."""
        return self.readings.get(folded(name))


def read_roster(path: Path) -> Roster:
    """The roster in `path`; raises UnreadableRoster saying which line is wrong."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_ROSTER_BYTES + 1)
    except OSError as exc:
        raise UnreadableRoster(f"the roster {path} cannot be read ({exc.strerror})") from None
    if len(raw) > MAX_ROSTER_BYTES:
        raise UnreadableRoster(f"the roster {path} is larger than 1 MB; it is not a class list")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableRoster(f"the roster {path} is not UTF-8 text") from None
    names: dict[str, str] = {}
    readings: dict[str, tuple[str, str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        login, shown = words[0], " ".join(words[1:]) or words[0]
        if login in names:
            raise UnreadableRoster(f"{path}:{number}: the login {login!r} is on the roster twice")
        for word in (shown, login):
            owner, first = readings.setdefault(folded(word), (login, word))
            if owner != login:
                said, earlier = word.casefold(), first.casefold()
                reads = f"{said!r} reads as {earlier!r}, which already names" if said != earlier else \
                    f"{said!r} already names"
                raise UnreadableRoster(f"{path}:{number}: {reads} {owner!r}; each name may belong to one account")
        names[login] = shown
    if not names:
        raise UnreadableRoster(f"the roster {path} names no student")
    return Roster(names, readings)
