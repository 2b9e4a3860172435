"""A class on one host: N learners, each a real `ringbook` in its own 80x24 pseudo-terminal, started as sshd's
ForceCommand starts them (`$SHELL -c ringbook-login`, the wrapper of docs/classroom.md, with sshd's short
environment and each learner's own home and data folder), scripted through a lesson; and `ringbook serve`
with N browser tabs.

Run: uv run python benchmarks/classroom.py [--learners 1,10,30] [--short]

Before the lesson the book is checked once (`ringbook content check`), as docs/classroom.md has an instructor
do. The lesson: start (timed to the home screen, against N Textual hello-world apps started the same way, in
rounds that take turns at going first; the last round's hello worlds then each show a line when Enter is pressed
in their box, all at once: the floor for answers sent together), open chapter 0 and its exercises, answer 0.1
wrong then right (a number), run the build 0.5 as given, answer 0.7 wrong (a formula), then all N submit the
right formula at the same moment; stay idle (memory and CPU are read then); quit, and start again a month later
(RINGBOOK_NOW) for a review card.
Each verdict is timed from the key that submits it to the read after which the verdict is on the screen.
`--short` leaves out the instructor's check and the wrong number and shortens the waits (for the test that
keeps this script running). Figures only: nothing here asserts a time. Every process it starts is ended when it stops,
Ctrl+C and failures included.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from process_tree import TreeMemory, tree_cpu_seconds, tree_memory
from serve_tabs import ServeFigures, serve_with_tabs
from terminal import CTRL_R, CTRL_U, ENTER, ESCAPE, Session, Terminals, emulated_when_quiet, stopped_by_sigterm_too

HOME = ("Mastery ", "palette")        # ringbook's home, with its footer drawn
HELLO_HOME = ("Hello, world", "palette")
RIGHT, WRONG, UNCONFIRMED = "✓ Correct", "✗ Not quite", "? Couldn't confirm"
ANSWER_BOX = re.compile(r"^ *▊  (.*?) *▎", re.MULTILINE)   # the answer box's middle row
HELLO_APP = """\
from textual.app import App
from textual.widgets import Footer, Header, Input, Static

class Hello(App):
    def compose(self):
        yield Header()
        yield Static("Hello, world")
        box = Input(placeholder="an answer")
        box.cursor_blink = False   # so the class falls quiet once the line is drawn (emulated_when_quiet)
        yield box
        yield Static(id="verdict")
        yield Footer()

    def on_input_submitted(self):
        self.query_one("#verdict").update("✓ Correct")

Hello().run()
"""
# docs/classroom.md section 3, with this checkout's ringbook, and the data folder in the learner's home.
LOGIN = """\
#!/bin/sh
: "${{TZ:=Europe/Berlin}}"
export TZ
export RINGBOOK_SANDBOX=required
exec {program}
"""
START_ROUNDS = 3   # pairs of starts timed per class size (timed_starts)
VERDICT_KINDS = ("number", "formula", "formula, N at once", "build run", "review card")


@dataclass
class Figures:
    """What one class of `learners` measured."""

    learners: int
    home: list[float] = field(default_factory=list)
    hello_home: list[float] = field(default_factory=list)
    hello_verdict: list[float] = field(default_factory=list)   # N hello worlds' one line on Enter, all at once
    verdicts: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in VERDICT_KINDS})
    memory_at_home: list[TreeMemory] = field(default_factory=list)
    memory_idle: list[TreeMemory] = field(default_factory=list)
    start_ratios: list[tuple[float, ...]] = field(default_factory=list)   # each round's home / hello (p50, p99)
    cpu_to_home: list[float] = field(default_factory=list)
    cpu_lesson: list[float] = field(default_factory=list)
    idle_cpu: list[float] = field(default_factory=list)
    not_right_at_once: int = 0
    explained_at_once: list[float] = field(default_factory=list)   # the rest of those verdicts: the explanation
    build_runs: list[tuple[float, float]] = field(default_factory=list)   # each learner's run: sent, shown
    serve: ServeFigures | None = None


@dataclass
class Classroom:
    """The host's folders: one home per learner and the login wrappers."""

    root: Path
    short: bool
    terminals: Terminals

    def home_of(self, learner: int) -> Path:
        return self.root / f"learner{learner:02d}"

    def login(self, name: str, program: str) -> Path:
        wrapper = self.root / name
        wrapper.write_text(LOGIN.format(program=program))
        wrapper.chmod(0o755)
        return wrapper

    def start(self, wrapper: Path, learner: int, now: datetime | None = None) -> Session:
        """One login: sshd runs the ForceCommand through the user's shell, with its own short environment
        plus what AcceptEnv lets through (LANG); RINGBOOK_NOW stands in for days passing."""
        home = self.home_of(learner)
        user = home.name
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/games", "HOME": str(home), "USER": user, "LOGNAME": user,
               "SHELL": "/bin/sh", "TERM": "xterm-256color", "LANG": "C.UTF-8", "MAIL": f"/var/mail/{user}",
               "SSH_TTY": "/dev/pts/0", "SSH_CONNECTION": f"127.0.0.1 {40000 + learner} 127.0.0.1 22"}
        if now is not None:
            env["RINGBOOK_NOW"] = now.isoformat(timespec="seconds")
        return self.terminals.start(["/bin/sh", "-c", str(wrapper)], env, home)


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: with few values, p99 is the largest, never an interpolation past it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


async def start_together(classroom: Classroom, wrapper: Path, learners: int, home: tuple[str, ...],
                         now: datetime | None = None) -> tuple[list[Session], list[float]]:
    sessions = [classroom.start(wrapper, learner, now) for learner in range(learners)]
    async with emulated_when_quiet(sessions):   # nothing has been read yet: reads come only once this awaits
        shown = asyncio.gather(*(s.wait_for(*home) for s in sessions))
    return sessions, [at - s.started for s, at in zip(sessions, await shown, strict=True)]


def box_text(screen: str) -> str | None:
    """What the answer box holds (its placeholder when empty), or None when no box is on the screen."""
    found = ANSWER_BOX.search(screen)
    return found.group(1).strip() if found else None


async def type_answer(session: Session, answer: str, replacing: str | None = None) -> None:
    """Type `answer` into the focused box (emptied first of `replacing`), and wait until the box shows it.
    Ctrl+U is waited for before typing: Textual handles it as a binding, and characters sent right behind
    it were typed before it ran, then deleted."""
    if replacing is not None:
        await session.press(CTRL_U)
        await session.wait_until(lambda screen: box_text(screen) != replacing, "the box emptied")
    await session.press(answer)
    await session.wait_until(lambda screen: box_text(screen) == answer, f"{answer!r} in the box")


async def submit(session: Session, answer: str, verdict: str, times: list[float], replacing: str | None = None) -> None:
    """Type `answer`, press Enter, and time until `verdict` is on the screen."""
    await type_answer(session, answer, replacing)
    if verdict in session.text():
        raise RuntimeError(f"{verdict!r} is on the screen before the answer is sent:\n{session.text()}")
    await asyncio.sleep(0.2)                         # a person reads what they typed, then presses Enter
    sent = session.write(ENTER)
    times.append(await session.wait_for(verdict) - sent)


def footer(screen: str) -> str:
    return screen.splitlines()[-1]


def answer_focused(screen: str) -> bool:
    return "⏎ Submit" in footer(screen) or "Leave" in footer(screen)


def page_focused(screen: str) -> bool:
    return "n Next" in footer(screen) and not answer_focused(screen)


async def next_exercise(session: Session, exercise: str, *, leave_answer: bool = True) -> None:
    """Go on to `exercise` with `n`, which the page (not the answer) must have. A screen's footer is drawn
    after the rest, so each wait names a footer the screen before could not have shown."""
    if leave_answer:
        await session.wait_until(answer_focused, "the answer focused")
        await session.press(ESCAPE)
        await session.wait_until(lambda screen: "i Answer" in footer(screen), "the page focused")
    else:
        await session.wait_until(page_focused, "the page focused")
    await session.press("n")
    await session.wait_for(f"Exercise {exercise} —")


async def lesson(session: Session, figures: Figures, short: bool) -> None:
    """From home to exercise 0.7 with the right formula typed, not yet sent."""
    await session.press(ENTER)
    await session.wait_for("e Exercises")
    await session.press("e")
    await session.wait_for("(Enter opens one)")
    await session.press(ENTER)
    await session.wait_for("Exercise 0.1 —")
    await session.wait_until(answer_focused, "the answer focused")
    if not short:
        await submit(session, "2", WRONG, figures.verdicts["number"])
    await submit(session, "7/4", RIGHT, figures.verdicts["number"], replacing=None if short else "2")
    await next_exercise(session, "0.2", leave_answer=False)
    for exercise in ("0.3", "0.4", "0.5"):
        await next_exercise(session, exercise)
    await session.wait_for("^r Run")
    sent = session.write(CTRL_R)
    shown = await session.wait_for("tests pass")
    figures.verdicts["build run"].append(shown - sent)
    figures.build_runs.append((sent, shown))
    for exercise in ("0.6", "0.7"):
        await next_exercise(session, exercise)
    await session.wait_until(answer_focused, "the answer focused")
    await submit(session, "M(N-1)/N", WRONG, figures.verdicts["formula"])
    await type_answer(session, "2M(N-1)/N", replacing="M(N-1)/N")


async def all_at_once(sessions: list[Session], figures: Figures) -> None:
    """Every learner presses Enter on the same formula in the same instant (one write after another). A
    verdict other than right (a busy host's grade must not differ from a quiet one's) is counted."""
    async with emulated_when_quiet(sessions):
        sent = [s.write(ENTER) for s in sessions]
        shown = asyncio.gather(*(s.wait_until(lambda screen: RIGHT in screen or UNCONFIRMED in screen,
                                              "the formula's verdict") for s in sessions))
        explained = asyncio.gather(*(s.wait_until(page_focused, "the rest of the verdict") for s in sessions))
    figures.verdicts["formula, N at once"] += [at - t for at, t in zip(await shown, sent, strict=True)]
    figures.explained_at_once += [at - t for at, t in zip(await explained, sent, strict=True)]
    figures.not_right_at_once = sum(RIGHT not in s.text() for s in sessions)


async def hello_at_once(sessions: list[Session]) -> list[float]:
    """The floor for answers sent together: hello-world apps that each show one line when Enter is pressed
    in their box, all in the same instant."""
    for session in sessions:
        await session.press("2M(N-1)/N")
    await asyncio.gather(*(s.wait_for("2M(N-1)/N") for s in sessions))
    await asyncio.sleep(0.2)                         # as before each learner's Enter (submit)
    async with emulated_when_quiet(sessions):
        sent = [s.write(ENTER) for s in sessions]
        shown = asyncio.gather(*(s.wait_for(RIGHT) for s in sessions))
    return [at - t for at, t in zip(await shown, sent, strict=True)]


def review_answer(screen: str) -> str:
    """The card's answer, worked out from its numbers (0.1: each GPU sends 2M(N-1)/N), or the law (0.7)."""
    text = " ".join(line.strip() for line in screen.splitlines())
    traffic = re.search(r"(\d+) GPUs each hold a gradient tensor of M = ([\d.]+) GB", text)
    if traffic:
        n, m = int(traffic.group(1)), float(traffic.group(2))
        return f"{2 * m * (n - 1) / n:.10g}"
    return "2M(N-1)/N"


async def review(session: Session, figures: Figures) -> None:
    await session.press("r")
    await session.wait_for("review 1 of")
    await session.wait_until(lambda screen: "i Answer" in footer(screen), "the card's page focused")
    await session.press("i")
    await session.wait_until(answer_focused, "the answer focused")
    answer = review_answer(session.text())
    await type_answer(session, answer)
    await asyncio.sleep(0.2)
    sent = session.write(ENTER)
    at = await session.wait_until(lambda screen: "✓ Correct" in screen or "✗" in screen, "a verdict")
    figures.verdicts["review card"].append(at - sent)


def idle_cpu(sessions: list[Session], seconds: float) -> list[float]:
    """Percent of one core each learner's processes used over `seconds` with nothing typed."""
    before = [tree_cpu_seconds(s.pid) for s in sessions]
    time.sleep(seconds)
    return [100 * (tree_cpu_seconds(s.pid) - b) / seconds for s, b in zip(sessions, before, strict=True)]


async def one_class(classroom: Classroom, learners: int) -> Figures:
    figures = Figures(learners)
    short = classroom.short
    hello = classroom.login("hello-login", f"{sys.executable} {classroom.root / 'hello.py'}")
    ringbook = classroom.login("ringbook-login", str(Path(sys.executable).parent / "ringbook"))

    sessions = await timed_starts(classroom, figures, hello, ringbook)
    figures.memory_at_home = [tree_memory(s.pid) for s in sessions]
    figures.cpu_to_home = [tree_cpu_seconds(s.pid) for s in sessions]

    await asyncio.gather(*(lesson(s, figures, short) for s in sessions))
    await asyncio.sleep(1 if short else 3)           # the class waits for everyone, then submits together
    await all_at_once(sessions, figures)
    await asyncio.sleep(1 if short else 3)
    figures.memory_idle = [tree_memory(s.pid) for s in sessions]
    figures.cpu_lesson = [tree_cpu_seconds(s.pid) for s in sessions]
    figures.idle_cpu = idle_cpu(sessions, 1 if short else 10)

    for session in sessions:                         # from the page back to the chapter, and quit
        await session.wait_until(page_focused, "the page focused")
        await session.press(ESCAPE)
        await session.wait_until(lambda screen: "q Quit" in footer(screen), "the chapter")
        await session.press("q")
    await asyncio.gather(*(s.wait_exit() for s in sessions))
    end_all(classroom, sessions)
    later = datetime.now().astimezone() + timedelta(days=30)
    sessions, _ = await start_together(classroom, ringbook, learners, HOME, now=later)
    await asyncio.gather(*(review(s, figures) for s in sessions))
    end_all(classroom, sessions)

    figures.serve = await serve_with_tabs(classroom.root / f"serve-{learners}", learners)
    return figures


async def timed_starts(classroom: Classroom, figures: Figures, hello: Path, ringbook: Path) -> list[Session]:
    """The class started together and N hello worlds started alike, in START_ROUNDS rounds that take turns at
    going first: the host's speed drifts from minute to minute (thirty hello worlds took 4.0 s in one round
    and 6.1 s in the next), so one pair of starts says little. Each learner starts from an empty data folder,
    as at a first lesson. The hello worlds of the last round then answer at once (the floor for answers sent
    together), and its learners, started after them, go on to the lesson."""
    rounds = 1 if classroom.short else START_ROUNDS
    for round_ in range(rounds):
        last = round_ == rounds - 1
        hello_first = round_ % 2 == 0 or last
        if not hello_first:
            class_sessions, home = await start_afresh(classroom, ringbook, figures.learners, HOME)
            end_all(classroom, class_sessions)
        hellos, hello_home = await start_afresh(classroom, hello, figures.learners, HELLO_HOME)
        if last:
            figures.hello_verdict = await hello_at_once(hellos)
        end_all(classroom, hellos)
        if hello_first:
            class_sessions, home = await start_afresh(classroom, ringbook, figures.learners, HOME)
            if not last:
                end_all(classroom, class_sessions)
        figures.home += home
        figures.hello_home += hello_home
        figures.start_ratios.append(tuple(percentile(home, p) / percentile(hello_home, p) for p in (50, 99)))
    return class_sessions


async def start_afresh(classroom: Classroom, wrapper: Path, learners: int,
                       home: tuple[str, ...]) -> tuple[list[Session], list[float]]:
    """`learners` logins started together, each in a fresh home, and how long each took to show `home`."""
    for learner in range(learners):
        prepare_home(classroom, learner)
    return await start_together(classroom, wrapper, learners, home)


def end_all(classroom: Classroom, sessions: list[Session]) -> None:
    for session in sessions:
        classroom.terminals.end(session)


BOOK_CACHE = Path(".cache") / "ringbook"   # in a home: each account's own cache folder, where its checked book is kept


def prepare_home(classroom: Classroom, learner: int) -> None:
    """A fresh home, its data folder empty, and its cache folder holding the checked book as the instructor's
    warm-up leaves it in every student's account before the first lesson (docs/classroom.md, section 2): the
    same file the warm-up start wrote in its own home (warm_up)."""
    home = classroom.home_of(learner)
    if home.exists():
        shutil.rmtree(home)
    (home / ".local" / "share" / "ringbook").mkdir(parents=True)
    shutil.copytree(classroom.home_of(99) / BOOK_CACHE, home / BOOK_CACHE)


async def warm_up(classroom: Classroom) -> None:
    """What an instructor does after installing (docs/classroom.md): check the book; then one start, which
    fills the OS's file cache and keeps the checked book in its home's cache folder."""
    program = Path(sys.executable).parent / "ringbook"
    if not classroom.short:   # the whole check samples every variant: seconds the benchmark's own test can spare
        subprocess.run([str(program), "content", "check"], check=True, capture_output=True)
    cache = classroom.root / "cache"
    cache.mkdir()
    ringbook = classroom.login("warm-login", f"env RINGBOOK_DATA_DIR={cache} {program}")
    classroom.home_of(99).mkdir()
    session = classroom.start(ringbook, 99)
    await session.wait_for(*HOME)
    classroom.terminals.end(session)
    assert list((classroom.home_of(99) / BOOK_CACHE).glob("book-cache-*.json")), "the warm-up kept no checked book"


# --- the table ----------------------------------------------------------------------------------------------

LABEL = 38
LEGEND = ("Times and memory are p50 / p99 over the learners (memory and CPU: p50 / max). Time to home runs from\n"
          f"the login to the home screen drawn, in {START_ROUNDS} rounds that take turns with the hello worlds at\n"
          "going first (its ratio is the rounds' median); a verdict from the key that submits to the verdict drawn,\n"
          "and its explanation to the explanation drawn with the keys on the page (on a busy host it waits for a free\n"
          "core).")


def pair(values: Sequence[float], scale: float = 1, digits: int = 2) -> str:
    if not values:
        return "-"
    return f"{percentile(values, 50) * scale:.{digits}f} / {percentile(values, 99) * scale:.{digits}f}"


def most_at_once(spans: Sequence[tuple[float, float]]) -> int:
    """The most of these (start, end) spans under way at one moment: how many learners' build runs shared the
    cores at worst, which a class in step (every learner at the build exercise together) makes N."""
    edges = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    under_way = most = 0
    for _, step in edges:
        under_way += step
        most = max(most, under_way)
    return most


def rows(figures: Figures) -> list[tuple[str, str]]:
    f = figures
    ratio = [statistics.median(r[p] for r in f.start_ratios) for p in (0, 1)] if f.start_ratios else []
    found: list[tuple[str, str]] = [
        ("time to home (s)", pair(f.home)),
        ("N hello worlds started alike (s)", pair(f.hello_home)),
        ("time to home / hello world", " / ".join(f"{r:.2f}" for r in ratio) or "-"),
        ("  each round's (p50)", ", ".join(f"{r[0]:.2f}" for r in f.start_ratios) or "-"),
    ]
    for kind, times in f.verdicts.items():
        found.append((f"verdict: {kind} (ms)", pair(times, 1000, 0)))
        if kind == "build run":
            most = str(most_at_once(f.build_runs)) if f.build_runs else "-"
            found.append(("  build runs under way at once (most)", most))
    at_once = f.verdicts["formula, N at once"]
    found += [
        ("formula at once: its explanation (ms)", pair(f.explained_at_once, 1000, 0)),
        ("formula at once: not right (of N)", f"{f.not_right_at_once}"),
        ("hello worlds: a line at once (ms)", pair(f.hello_verdict, 1000, 0)),
        ("formula at once / hello world", " / ".join(f"{percentile(at_once, p) / percentile(f.hello_verdict, p):.2f}"
                                                     for p in (50, 99)) if at_once and f.hello_verdict else "-"),
    ]
    found += [
        ("PSS per learner at home (MB)", pair([m.total for m in f.memory_at_home], digits=0)),
        ("PSS per learner after lesson (MB)", pair([m.total for m in f.memory_idle], digits=0)),
        ("  of which the app (MB)", pair([m.app for m in f.memory_idle], digits=0)),
        ("  of which its workers (MB)", pair([m.children for m in f.memory_idle], digits=0)),
        ("PSS of the whole class (MB)", f"{sum(m.total for m in f.memory_idle):.0f}"),
        ("CPU per learner to home (s)", pair(f.cpu_to_home, digits=1)),
        ("CPU per learner, whole lesson (s)", pair(f.cpu_lesson, digits=1)),
        ("idle CPU per learner (% of a core)", pair(f.idle_cpu, digits=1)),
    ]
    serve = f.serve
    found += [
        ("serve: tab's first frame (s)", pair(serve.first_frame) if serve else "-"),
        ("serve: tab's home screen (s)", pair(serve.home) if serve else "-"),
        ("serve: PSS per tab (MB)", pair(serve.tab_memory, digits=0) if serve else "-"),
        ("serve: the server itself (MB)", f"{serve.server_memory:.0f}" if serve else "-"),
    ]
    return found


def table(classes: list[Figures]) -> str:
    width = max(14, *(len(value) + 2 for f in classes for _, value in rows(f)))
    heading = f"{'N learners (N tabs for serve)':<{LABEL}}" + "".join(f"{f.learners:>{width}}" for f in classes)
    lines = [LEGEND, "", heading]
    columns = [rows(f) for f in classes]
    for index, (label, _) in enumerate(columns[0]):
        lines.append(f"{label:<{LABEL}}" + "".join(f"{column[index][1]:>{width}}" for column in columns))
    return "\n".join(lines)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def run(counts: list[int], short: bool) -> list[Figures]:
    with tempfile.TemporaryDirectory(prefix="ringbook-classroom-") as root:
        terminals = Terminals()
        try:                                         # every process ends before its folders are removed
            classroom = Classroom(Path(root), short, terminals)
            (classroom.root / "hello.py").write_text(HELLO_APP)
            await warm_up(classroom)
            classes = []
            for count in counts:
                print(f"{count} learner{'s' if count != 1 else ''}... (load average {load_average()})",
                      file=sys.stderr, flush=True)
                classes.append(await one_class(classroom, count))
            return classes
        finally:
            terminals.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", default="1,10,30", help="class sizes, comma-separated (default 1,10,30)")
    parser.add_argument("--short", action="store_true", help="a shortened lesson, for the test that runs it")
    options = parser.parse_args()
    counts = [int(n) for n in options.learners.split(",")]
    print(f"load average before: {load_average()} ({os.cpu_count()} cores)")
    with stopped_by_sigterm_too():
        try:
            classes = asyncio.run(run(counts, options.short))
        except KeyboardInterrupt:
            print("stopped; every process it started has been ended", file=sys.stderr)
            sys.exit(130)
    print(table(classes))
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
