"""The engine must stay usable headless: importing grader never imports Textual."""

import subprocess
import sys


def test_grader_imports_without_textual():
    code = (
        "import sys, pkgutil, importlib, grader\n"
        "for m in pkgutil.walk_packages(grader.__path__, 'grader.'): importlib.import_module(m.name)\n"
        "import grader.load; grader.load.load_book()\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(len([m for m in sys.modules if m.startswith('grader.')]))\n"
        "sys.exit('textual imported: ' + ', '.join(bad) if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 4  # the walk really imported the grader modules
