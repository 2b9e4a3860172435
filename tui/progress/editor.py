"""The editor the learner's build code opens in, chosen by one rule for both faces (the app's Ctrl+O and the
plain lines' `edit`): `$VISUAL`, else `$EDITOR`, as a command with its arguments (`code --wait` is two
words), else the first of `editor`, `nano` and `vi` found on PATH."""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping

FALLBACKS = ("editor", "nano", "vi")   # Debian's choice of editor, then the two found almost everywhere
HOW_TO_SET = ("set EDITOR to one you have before starting ringbook (`export EDITOR=vim`, or nano, `emacs -nw`, "
              "`code --wait`)")


def named_editor(env: Mapping[str, str]) -> tuple[list[str], str] | None:
    """(the command, "$VISUAL" or "$EDITOR") for the first of the two that is set; None when neither is.
    Raises ValueError, naming the variable and its value, when that value cannot be read as a command."""
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            try:
                return shlex.split(value), f"${name}"
            except ValueError as exc:   # shlex says "No closing quotation" or "No escaped character"
                why = "its quotes are unbalanced" if "quotation" in str(exc) else "it ends in a lone backslash"
                raise ValueError(f"${name} ({value!r}) cannot be read as a command: {why}") from None
    return None


def editor_command(env: Mapping[str, str] | None = None) -> tuple[list[str], str]:
    """The editor to run, as words, and where it came from: `$VISUAL`, `$EDITOR` or "found on PATH"; ([], why)
    when there is none, `why` saying how to set one."""
    env = os.environ if env is None else env
    try:
        named = named_editor(env)
    except ValueError as exc:
        return [], f"{exc}: {HOW_TO_SET}"
    if named is not None:
        return named
    for name in FALLBACKS:
        found = shutil.which(name, path=env.get("PATH"))
        if found:
            return [found], "found on PATH, as neither $VISUAL nor $EDITOR is set"
    return [], f"No editor: neither $VISUAL nor $EDITOR is set, and none of {', '.join(FALLBACKS)} is installed; " \
               + HOW_TO_SET
