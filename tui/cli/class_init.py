"""`ringbook class init DIR`: the instructor's inbox, made as docs/classroom.md ("The inbox") says, and the one line
learners' accounts need to share their progress into it.

Mode 3733 with the setgid and sticky bits, owned by the instructor, in a group only the instructor is in:
learners can drop files in but not list, read or replace each other's. A folder that is there already is
checked and reported; it is changed only when it is the instructor's own, and every change is said.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from pathlib import Path

from grader.safe_text import printable
from tui.progress.class_share import CLASS_VARIABLE
from tui.progress.export_file import file_owner
from tui.progress.submission import login

INBOX_MODE = 0o3733        # setgid + sticky, owner rwx, group and others -wx
DEFAULT_GROUP = "ringbook-staff"
MEMBERS_SHOWN = 5


class CannotInit(Exception):
    """Why the inbox cannot be made as it should be, as a sentence that says what to do."""


def run_class_init(folder: Path, group: str | None) -> int:
    inbox = Path(os.path.abspath(folder.expanduser()))
    try:
        gid, group_name = staff_group(group)
        changes = make_inbox(inbox, gid, group_name)
    except CannotInit as exc:
        say(f"ringbook class init: {exc}", err=True)
        return 1
    for change in changes:
        say(change)
    say(f"The class inbox {inbox} is ready: owner {login()}, group {group_name}, mode {INBOX_MODE:04o} "
        "(learners can drop files in, but not list, read or replace them).")
    for warning in unreachable_parents(inbox):
        say(f"ringbook class init: {warning}", err=True)
    quoted = shlex.quote(str(inbox))
    say("Learners' accounts need this line (in /etc/profile.d/ringbook.sh, or in the ForceCommand wrapper):")
    say(f"  export {CLASS_VARIABLE}={quoted}")
    say(f"or each learner starts `ringbook --class {quoted}`.")
    say(f"Their progress is then shared as they answer: watch it with `ringbook class live {quoted}`, "
        f"or report on it with `ringbook class report {quoted}`.")
    return 0


def staff_group(group: str | None) -> tuple[int, str]:
    """The group the inbox's files take (the instructor's alone): its id and name."""
    import grp

    name = group or DEFAULT_GROUP
    try:
        entry = grp.getgrnam(name)
    except KeyError:
        how = (f"make it for yourself alone: `sudo addgroup {DEFAULT_GROUP} && sudo adduser {login()} "
               f"{DEFAULT_GROUP}`, then log in again; or give --group GROUP" if group is None else
               "give a group that exists (`getent group`), one that only you are in")
        raise CannotInit(f"there is no group {name!r} on this host: {how}.") from None
    if os.geteuid() != 0 and entry.gr_gid not in {os.getegid(), *os.getgroups()}:
        later = " (you were added: log in again for it to count)" if login() in entry.gr_mem else ""
        raise CannotInit(f"you ({login()}) are not in the group {name}{later}: `sudo adduser {login()} {name}`, "
                         "then log in again; or give --group with a group of your own.")
    others = other_members(entry.gr_gid, entry.gr_mem)
    if others:
        shown = ", ".join(others[:MEMBERS_SHOWN]) + (" and more" if len(others) > MEMBERS_SHOWN else "")
        raise CannotInit(f"the group {name} has other members ({shown}), who could read every learner's "
                         f"progress: give a group only you are in (`sudo addgroup {DEFAULT_GROUP}`).")
    return entry.gr_gid, name


def other_members(gid: int, listed: list[str]) -> list[str]:
    """The accounts in the group besides this one: listed in it, or with it as their own group."""
    import pwd

    me = login()
    primary = [account.pw_name for account in pwd.getpwall() if account.pw_gid == gid]
    return sorted({name for name in [*listed, *primary] if name != me and name != "root"})


def make_inbox(inbox: Path, gid: int, group_name: str) -> list[str]:
    """Make the inbox, or check and fix the one there: what was changed, a sentence each. Raises CannotInit."""
    try:
        info = os.lstat(inbox)
    except FileNotFoundError:
        return [create(inbox, gid, group_name)]
    except OSError as exc:
        raise CannotInit(f"cannot look at {inbox} ({exc.strerror}).") from None
    if stat.S_ISLNK(info.st_mode):
        raise CannotInit(f"{inbox} is a symbolic link: give the folder itself.")
    if not stat.S_ISDIR(info.st_mode):
        raise CannotInit(f"{inbox} is there and is not a folder: give another path.")
    now = f"owner {file_owner(info.st_uid)}, group {group_of(info.st_gid)}, mode {stat.S_IMODE(info.st_mode):04o}"
    if info.st_uid != os.geteuid():
        raise CannotInit(f"{inbox} is there already ({now}), and it is not yours, so it was left as it is. Make "
                         f"it yours: `sudo chown {login()}:{group_name} {shlex.quote(str(inbox))}`, then run "
                         "this again.")
    changes = []
    try:
        if info.st_gid != gid:
            os.chown(inbox, -1, gid)
            changes.append(f"Its group was {group_of(info.st_gid)}, now {group_name}.")
        mode = stat.S_IMODE(os.stat(inbox).st_mode)   # a change of group may clear setgid
        if mode != INBOX_MODE:
            os.chmod(inbox, INBOX_MODE)
            changes.append(f"Its mode was {stat.S_IMODE(info.st_mode):04o}, now {INBOX_MODE:04o}.")
    except OSError as exc:
        raise CannotInit(f"cannot change {inbox} ({now}): {exc.strerror}.") from None
    if changes:
        changes.insert(0, f"{inbox} was there already ({now}):")
    return changes


def create(inbox: Path, gid: int, group_name: str) -> str:
    """A new inbox: private until its group and mode are set, so nothing is dropped in it before."""
    try:
        inbox.parent.mkdir(parents=True, exist_ok=True)
        inbox.mkdir(mode=0o700)
        os.chown(inbox, -1, gid)
        os.chmod(inbox, INBOX_MODE)
    except OSError as exc:
        raise CannotInit(f"cannot make {inbox} ({exc.strerror}): make it as root with `sudo install -d -m "
                         f"{INBOX_MODE:04o} -o {login()} -g {group_name} {shlex.quote(str(inbox))}`.") from None
    return f"Made {inbox}."


def group_of(gid: int) -> str:
    import grp

    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return f"gid {gid}"


def unreachable_parents(inbox: Path) -> list[str]:
    """The folders above the inbox that other accounts cannot pass through (no x for others)."""
    blocked = []
    for parent in inbox.parents:
        try:
            mode = stat.S_IMODE(os.stat(parent).st_mode)
        except OSError:
            continue
        if not mode & stat.S_IXOTH:
            blocked.append(f"{parent} (mode {mode:04o}) lets no other account through, so learners cannot reach the "
                           f"inbox: `chmod o+x {shlex.quote(str(parent))}`.")
    return blocked


def say(line: str, *, err: bool = False) -> None:
    print(printable(line, one_line=True), file=sys.stderr if err else sys.stdout)
