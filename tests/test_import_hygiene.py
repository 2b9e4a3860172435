"""The engine must stay usable headless: importing grader never imports Textual."""

import subprocess
import sys


def run_python(code: str) -> str:
    """Run `code` in a fresh interpreter, so the modules it imports are its own; its output."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_grader_imports_without_textual():
    code = (
        "import sys, pkgutil, importlib, grader\n"
        "for m in pkgutil.walk_packages(grader.__path__, 'grader.'): importlib.import_module(m.name)\n"
        "import grader.load; grader.load.load_book()\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(len([m for m in sys.modules if m.startswith('grader.')]))\n"
        "sys.exit('textual imported: ' + ', '.join(bad) if bad else 0)\n"
    )
    assert int(run_python(code)) >= 4  # the walk really imported the grader modules


def test_numeric_grading_never_imports_sympy_or_pint():
    code = (
        "import sys\n"
        "from grader.load import load_book\n"
        "from grader.grade import grade\n"
        "book = load_book()\n"
        "for i, a in [('0.1', '1.75'), ('0.1', '7/4'), ('0.1', '1.75 GB'), ('0.2', '70'), ('5.1', '25%'),\n"
        "             ('0.4', 'b'), ('9.8', 'tp, cp, pp, dp'), ('0.6', '6'), ('8.2', '1; 2; 3; 4; 5')]:\n"
        "    grade(book.exercise(i), a)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sympy', 'pint'}))\n"
    )
    assert run_python(code) == "[]"


def test_the_home_screen_loads_no_quiz_or_lab_code_and_no_yaml():
    """The quiz screen, the lab's model and plots, and YAML wait until a learner opens them."""
    code = (
        "import sys, tempfile\n"
        "from pathlib import Path\n"
        "from grader.load import load_book\n"
        "cache = Path(tempfile.mkdtemp())\n"
        "load_book(cache_dir=cache)\n"
        "for m in [m for m in sys.modules if m.startswith(('grader', 'yaml', 'jsonschema'))]: del sys.modules[m]\n"
        "import tui.app, tui.screens.home\n"
        "load_book(cache_dir=cache)\n"
        "print(sorted(m for m in sys.modules if m in {'yaml', 'grader.lab', 'tui.screens.quiz', 'tui.screens.lab',\n"
        "                                              'textual_plotext'}))\n"
    )
    assert run_python(code) == "[]"
