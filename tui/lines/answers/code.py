"""A Python function typed line by line and ended by a line holding only a dot, or written in the learner's
own editor (chosen as the app chooses it, tui.progress.editor; on a temporary file); run against the
exercise's tests as the app runs it.

Before any code runs, the way says if it cannot run in a sandbox here, and how to allow it (`allow`)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from grader.kinds.build import Build
from grader.verdict import Verdict
from tui.lines.answers.base import Command, Way, command_in
from tui.lines.context import Context
from tui.progress.editor import editor_command
from tui.progress.store import StoreError
from tui.progress.work_files import WorkFileError, read_work_file

END = "."
EDIT = "edit"


class CodeWay(Way):
    name = "code"

    def show(self, ctx: Context, exercise: Build) -> None:
        from grader.sandbox.runner import prepare_runs, sandbox_status

        ctx.console.say("function", f"def {exercise.signature}")
        starter = exercise.starter.rstrip("\n").split("\n")
        ctx.console.say("starter code", f"{len(starter)} lines")
        for number, line in enumerate(starter, 1):
            ctx.console.say(f"line {number}", line)
        ctx.console.say("end of starter code")
        notice = sandbox_status().notice("Type allow to run it anyway, for this session.")
        if notice:
            ctx.console.say("sandbox", notice)
        prepare_runs()   # the template that forks this learner's runs starts while they write
        super().show(ctx, exercise)

    def how_to(self, exercise: Build) -> str:
        return ("type the whole function, line by line with its indents, and end it with a line holding only "
                "a dot; or type edit to write it in your editor.")

    def read(self, ctx: Context, exercise: Build, label: str, draft_key: str) -> str | Command:
        first = ctx.console.ask(label, "", f"{self.help(exercise)} allow runs code where no sandbox can start.")
        command = command_in(first)
        if command is not None:
            return command
        if first.lower() == EDIT:
            return self.edit(ctx, exercise, draft_key)
        if first == END:
            return Command("")
        lines = [first]
        while True:
            line = ctx.console.raw_line(f"line {len(lines) + 1}")
            if line is None or line.strip() == END:
                break
            lines.append(line)
        return self.kept(ctx, draft_key, "\n".join(lines) + "\n")

    def edit(self, ctx: Context, exercise: Build, draft_key: str) -> str | Command:
        """The code written in the learner's editor, on a temporary file read back as the app's Ctrl+O reads its
        file (tui.progress.work_files: at most MAX_BYTES, UTF-8, a plain file still there); whatever fails is
        said, and the draft stays as it was."""
        command, source = editor_command()
        if not command:
            ctx.console.say("editor", f"{source}. Or type the code here, ended by a line holding only a dot.")
            return Command("")
        with tempfile.TemporaryDirectory(prefix="ringbook-") as folder:
            path = Path(folder) / f"{exercise.function or 'answer'}.py"
            path.write_text(ctx.session.store.draft(draft_key) or exercise.starter, encoding="utf-8")
            ctx.console.say("editor", f"opening {Path(command[0]).name} ({source}); save and quit it to run your "
                                      "code.")
            try:
                subprocess.run([*command, str(path)], check=False)
            except OSError as exc:
                ctx.console.say("editor", f"{command[0]} could not start: {exc.strerror or exc}.")
                return Command("")
            try:
                code = read_work_file(path)
            except WorkFileError as exc:
                ctx.console.say("editor", f"{exc}; your code is as it was.")
                return Command("")
        ctx.console.say("editor", f"read {len(code.splitlines())} lines")
        return self.kept(ctx, draft_key, code)

    def kept(self, ctx: Context, draft_key: str, code: str) -> str:
        """The code, kept as the draft the editor opens next time (and the app's editor shows); said when the
        store will not keep it (too long for a draft). It is run either way."""
        if not ctx.session.store.read_only:
            try:
                ctx.session.store.save_draft(draft_key, code)
            except StoreError as exc:
                if not ctx.session.store.read_only:   # read-only: the store's notice has said so already
                    ctx.console.say("draft", str(exc))
        return code

    def after(self, ctx: Context, exercise: Build, verdict: Verdict) -> None:
        for number, row in enumerate(verdict.rows, 1):   # the status in words, without the app's mark
            ctx.console.say(f"test {number}", f"{row.status}: {row.message.removeprefix('✓ ').removeprefix('✗ ')}")


WAY = CodeWay()
