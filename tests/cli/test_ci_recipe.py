"""docs/testing.md's CI recipe, run as a team would: a fresh environment with ringbook installed from this
checkout by the documented uv lines, a book from `ringbook content new`, the documented test file as written,
and the documented CI steps: passing twice, then failing once a chapter's title changes. The recipe once had
a placeholder install line that could not work (issue 47 section 5)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

from tests.helpers import ROOT

TESTING = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")


def shell_block(after: str) -> list[list[str]]:
    """The commands of the first ```sh block after the text `after`, each split as a shell would."""
    block = re.search(re.escape(after) + r".*?```sh\n(.*?)```", TESTING, re.DOTALL)
    assert block, after
    return [shlex.split(line, comments=True) for line in block.group(1).replace("\\\n", "").splitlines()]


def test_the_documented_ci_recipe_passes_twice_then_fails_when_a_chapter_title_changes(tmp_path):
    team = tmp_path / "team"
    (team / "tests").mkdir(parents=True)
    env = {**os.environ, "RINGBOOK_CACHE_DIR": str(tmp_path / "cache"), "RINGBOOK_DATA_DIR": str(tmp_path / "data"),
           "PATH": f"{team / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    for name in ("VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER"):
        env.pop(name, None)   # a team's shell has the new environment only, and Python writes its bytecode

    def run(command: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, cwd=team, env=env, capture_output=True, text=True, timeout=300, check=False)

    install = [c for c in shell_block("With [uv]") if c[:2] == ["uv", "venv"] or "/path/to/ringbook" in c]
    assert len(install) == 2, install
    for command in install:
        command = [str(ROOT) if word == "/path/to/ringbook" else word for word in command]
        if command[:2] == ["uv", "venv"]:
            command += ["--python", sys.executable]   # the suite's Python, which uv finds without a download
        else:
            command.insert(3, "--offline")   # from uv's cache, as `uv sync` filled it: the suite needs no network
        done = run(command)
        assert done.returncode == 0, done.stderr
    assert run(["ringbook", "content", "new", "book"]).returncode == 0
    test_file = re.search(r"A complete test file, `tests/test_screens\.py`.*?```python\n(.*?)```", TESTING, re.DOTALL)
    assert test_file
    (team / "tests" / "test_screens.py").write_text(test_file.group(1), encoding="utf-8")
    check, screens = shell_block("CI runs two steps")
    assert check == ["ringbook", "content", "check", "--content", "book"]
    assert screens == ["pytest", "tests/test_screens.py"]
    book_files = sorted(team.joinpath("book").rglob("*"))

    first = run([*screens, "--snapshot-update"])   # the first pass makes the pictures, committed once
    assert first.returncode == 0, first.stdout + first.stderr
    assert len(list((team / "tests" / "__snapshots__" / "test_screens").glob("*.svg"))) == 3
    checked, compared = run(check), run(screens)   # the second pass is CI's: compared with the pictures
    assert (checked.returncode, checked.stderr) == (0, ""), checked.stderr
    assert checked.stdout.startswith("ok: 'A New Book'")
    assert compared.returncode == 0, compared.stdout + compared.stderr
    assert sorted(team.joinpath("book").rglob("*")) == book_files   # nothing for .gitignore inside the book

    book_yaml = team / "book" / "book.yaml"
    book_yaml.write_text(book_yaml.read_text().replace("Global Batch Size and Warm-up", "Batch Size", 1))
    assert run(check).returncode == 0
    changed = run(screens)
    assert changed.returncode == 1 and "test_first_chapter" in changed.stdout, changed.stdout
    assert (team / "snapshot_report.html").is_file()   # what the recipe tells a team to keep as an artifact

    ignore = re.search(r"Add these to your `\.gitignore`.*?```text\n(.*?)```", TESTING, re.DOTALL)
    assert ignore
    (team / ".gitignore").write_text(ignore.group(1), encoding="utf-8")
    assert run(["git", "init", "-q"]).returncode == 0
    status = run(["git", "status", "--porcelain", "--untracked-files=all"]).stdout.splitlines()
    left = {line[3:] for line in status} - {".gitignore", "tests/test_screens.py"}
    assert all(path.startswith(("book/", "tests/__snapshots__/")) for path in left), left   # all a team commits
