"""The package as pip or uv installs it: the wheel holds the engine, the faces and the built-in book inside
the engine's package (no top-level `content/` in site-packages), the installed code finds that book, and
`ringbook --version` says which release it is."""

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tui.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `uv build` makes from this checkout (about 2 s)."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv not installed (the tests run with `uv run pytest`)")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([uv, "build", "--wheel", "--out-dir", str(out), str(ROOT)], check=True, capture_output=True)
    (built,) = out.glob("ringbook-*.whl")
    return built


def test_the_wheel_holds_the_book_inside_the_engine_and_nothing_else_at_the_top(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"grader", "tui", wheel.name.split("-py3")[0] + ".dist-info"}
    book = sorted(path.relative_to(ROOT / "content").as_posix() for path in (ROOT / "content").rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts)
    assert "book.yaml" in book and "exercise.schema.json" in book
    assert sorted(name.removeprefix("grader/builtin_book/") for name in names
                  if name.startswith("grader/builtin_book/")) == book


def test_the_installed_code_finds_and_reads_its_own_book(wheel, tmp_path, book):
    """The wheel's grader and tui, unpacked as an installer would and put first on the path (ahead of this
    checkout), read the book they carry: every exercise of it. (That the book passes `content check` is
    tests/content's: the wheel's copy is this checkout's content/, file for file, as the test above shows.)"""
    site = tmp_path / "site-packages"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    where = subprocess.run([sys.executable, "-c", "import grader; print(grader.BUILTIN_CONTENT)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()) == site / "grader" / "builtin_book"
    listed = subprocess.run([sys.executable, "-m", "tui", "content", "list", "--json"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert listed.returncode == 0, listed.stderr
    assert [row["id"] for row in json.loads(listed.stdout)] == [exercise.id for exercise in book.exercises]


def test_version_names_the_release(capsys):
    release = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"ringbook {release}\n"
