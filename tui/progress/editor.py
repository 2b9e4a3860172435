"""The editor the learner names: `$VISUAL`, else `$EDITOR`, as a command with its arguments (`code --wait` is
two words). Both faces run it on a build's code: the app's Ctrl+O (tui.answers.own_editor, which falls back to
an editor found on PATH) and the plain lines' `edit` (which asks for one instead)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping


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
