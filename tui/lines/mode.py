"""Whether ringbook runs as plain lines, and why: said on the first line of the session."""

from __future__ import annotations

from collections.abc import Mapping

SETTING_KEY = "screen_reader"   # the store's state: "on" or "off", like the theme
ENVIRONMENT = "RINGBOOK_SCREEN_READER"
SPEECH_KEY = "speech"           # the store's state: "on" or "off"
SPEECH_ENVIRONMENT = "RINGBOOK_SPEECH"
TRUE_WORDS = ("1", "yes", "on", "true")


def speech_wanted(*, flag: bool, environ: Mapping[str, str], setting: str) -> bool:
    """Whether the lines are said in words (tui.lines.speech): asked for by `--speech`, RINGBOOK_SPEECH or the
    saved setting. Never the default: a braille display shows `2M(N-1)/N` better than its words."""
    return flag or environ.get(SPEECH_ENVIRONMENT, "").strip().lower() in TRUE_WORDS or setting == "on"


def lines_reason(*, flag: bool, environ: Mapping[str, str], setting: str, terminal: bool) -> str | None:
    """Why the plain-line face runs (the words end the sentence "screen-reader mode is on: ..."), or None for
    the full-screen app. Asked for (the flag, the variable, the saved setting) comes first; then where the
    app cannot work: a dumb terminal, or input and output that are not both a terminal. The web server's
    sessions (`TEXTUAL_DRIVER`, set by `ringbook serve`) always get the app."""
    if "TEXTUAL_DRIVER" in environ:
        return None
    if flag:
        return "you asked for it with --screen-reader"
    if environ.get(ENVIRONMENT, "").strip().lower() in TRUE_WORDS:
        return f"{ENVIRONMENT} is set"
    if setting == "on":
        return "it is saved in your settings (the menu's settings turn it off)"
    if environ.get("TERM", "") == "dumb":
        return "TERM is dumb, so a full-screen app cannot draw"
    if not terminal:
        return "input or output is not a terminal"
    return None
