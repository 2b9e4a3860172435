"""The layers stay layers: grader and progress run headless, imports only point down, and nothing circles."""

import ast
import os
import subprocess
import sys
from pathlib import Path


def run_python(code: str) -> str:
    """Run `code` in a fresh interpreter, so the modules it imports are its own; its output."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_grader_imports_without_textual():
    code = (
        "import sys, pkgutil, importlib, grader\n"
        "for m in pkgutil.walk_packages(grader.__path__, 'grader.'): importlib.import_module(m.name)\n"
        "import grader.book.load; grader.book.load.load_book()\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(len([m for m in sys.modules if m.startswith('grader.')]))\n"
        "sys.exit('textual imported: ' + ', '.join(bad) if bad else 0)\n"
    )
    assert int(run_python(code)) >= 4  # the walk really imported the grader modules


def test_numeric_grading_never_imports_sympy_or_pint():
    code = (
        "import sys\n"
        "from grader.book.load import load_book\n"
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
        "from grader.book.load import load_book\n"
        "cache = Path(tempfile.mkdtemp())\n"
        "load_book(cache_dir=cache)\n"
        "for m in [m for m in sys.modules if m.startswith(('grader', 'yaml', 'jsonschema'))]: del sys.modules[m]\n"
        "import tui.app, tui.screens.home\n"
        "load_book(cache_dir=cache)\n"
        "print(sorted(m for m in sys.modules if m in {'yaml', 'grader.lab.model', 'grader.lab.load',\n"
        "                                              'tui.screens.quiz', 'tui.screens.lab', 'textual_plotext'}))\n"
    )
    assert run_python(code) == "[]"


def test_the_app_draws_home_before_loading_what_home_does_not_show(tmp_path):
    """A learner's start, from `ringbook` to home's first frame, loads nothing that frame does not need (issue 48,
    each module a few tenths of a millisecond before the learner sees anything): the watcher of a live book,
    shlex (for messages), secrets (for writing the book's copy); the review line's scheduler, which comes just
    after; the chapter and exercise screens, grading, YAML, the schemas, sympy and pint. Nor, the book read from
    its copy, the book's checks or any exercise kind (about 13 ms of CPU; the exercises are built, and each kind
    checked for its faces' parts, just after the first frame): only each exercise's heading is on home."""
    code = (
        "import os, sys\n"
        "from textual.app import App\n"
        "display = App._display\n"
        "def first_frame(app, screen, update):\n"
        "    if update is not None and type(screen).__name__ == 'HomeScreen':\n"
        "        print(' '.join(sorted(sys.modules)), flush=True)\n"
        "        os._exit(0)\n"
        "    return display(app, screen, update)\n"
        "App._display = first_frame\n"
        "from tui.cli.main import main\n"
        f"main(['--data-dir', {str(tmp_path)!r}])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver"})
    loaded = set(result.stdout.split())
    assert {"tui.screens.home", "grader.book.cache"} <= loaded, result.stderr[-2000:]
    assert sorted(loaded & {"tui.watch", "watchfiles", "shlex", "secrets", "tui.progress.review", "fsrs",
                            "tui.screens.chapter", "tui.screens.exercise", "grader.grade", "yaml", "jsonschema",
                            "sympy", "pint", "grader.book.load", "grader.book.build", "grader.book.schema",
                            "grader.kinds", "grader.kinds.registry", "grader.verdict", "tui.kind_parts",
                            "grader.problems", "grader.exercise"}) == []


# The layers, lowest first (README, "How it is built"): a module may import its own layer and those below.
# The engine's own come first: the text and file guards and the verdict, reading and proving answers, what
# every exercise shares, running learner code, the kinds, the lab, the book (which reads its labs), grading.
GRADER_LAYERS = [
    ("grader.safe_text", "grader.verdict", "grader.files", "grader.problems", "grader.draws"),
    ("grader.maths", "grader.network"),
    ("grader.exercise",),
    ("grader.sandbox",),
    ("grader.kinds",),
    ("grader.lab",),
    ("grader.book",),
    ("grader.grade",),
]
LAYERS = [
    *GRADER_LAYERS,
    ("tui.progress", "tui.watch", "tui.kind_parts"),
    ("tui.lines",),      # the plain-line face: the engine and the store, none of the Textual faces
    ("tui.widgets",),
    ("tui.answers",),
    ("tui.screens",),
    ("tui.app", "tui.commands", "tui.pacing", "tui.live_book", "tui.screenshots", "tui.suspending",
     "tui.keys_in_turn", "tui.class_live_app"),
    ("tui.cli", "tui.__main__"),
]
ROOT = Path(__file__).resolve().parent.parent


def layer(module: str) -> int | None:
    for rank, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def our_modules() -> dict[str, Path]:
    found = {}
    for package in ("grader", "tui"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def names_type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING`: the test of a block that never runs, and only names types."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, *, for_type_checking_too: bool = False) -> set[str]:
    """Every module named by an import anywhere in the file, lazy imports inside functions included; not those
    under `if TYPE_CHECKING:`, which never run (how the palette names its typed app, tui.app.RingbookApp),
    unless `for_type_checking_too`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = set() if for_type_checking_too else {
        id(inner) for node in ast.walk(tree) if isinstance(node, ast.If) and names_type_checking(node.test)
        for statement in node.body for inner in ast.walk(statement)}
    named: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named.add(node.module)
            named.update(f"{node.module}.{alias.name}" for alias in node.names)
    return named


def import_graph() -> dict[str, set[str]]:
    modules = our_modules()
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def test_every_module_sits_in_a_layer():
    assert [m for m in our_modules() if m not in ("grader", "tui") and layer(m) is None] == []


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    ranked = {m: layer(m) for m in {*graph, *(d for deps in graph.values() for d in deps)}}
    return sorted(f"{m} -> {d}" for m, deps in graph.items() for d in deps
                  if (low := ranked[m]) is not None and (high := ranked[d]) is not None and high > low)


def circles(graph: dict[str, set[str]]) -> list[str]:
    found = []
    state: dict[str, int] = {}  # 1 while on the current path, 2 when done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == 1:
                found.append(" -> ".join(path[path.index(dep):] + [dep]))
            elif dep not in state:
                visit(dep, path + [dep])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return found


def test_no_module_imports_a_layer_above_its_own():
    assert upward_imports(import_graph()) == []


def test_grader_and_progress_never_import_textual():
    modules = our_modules()
    headless = [m for m in modules if (layer(m) or 0) <= len(GRADER_LAYERS)]   # the engine and tui.progress
    offenders = [f"{m} imports {name}" for m in headless for name in imports_of(modules[m])
                 if name.split(".")[0] in ("textual", "rich", "textual_plotext", "textual_serve")]
    assert offenders == []
    assert len(headless) > 20  # the walk found the engine and the progress package


def test_the_plain_line_face_never_imports_textual_or_the_apps_faces():
    """tui/lines is a face of its own for screen readers and dumb terminals: no Textual, Rich, widget, answer
    panel, screen or app, statically (every import in it) and when a session really runs."""
    modules = our_modules()
    lines = [m for m in modules if m == "tui.lines" or m.startswith("tui.lines.")]
    offenders = [f"{m} imports {name}" for m in lines for name in imports_of(modules[m])
                 if name.split(".")[0] in ("textual", "rich", "textual_plotext")
                 or name.startswith(("tui.widgets", "tui.answers", "tui.screens", "tui.app"))]
    assert offenders == [] and len(lines) > 10
    code = (
        "import io, sys, tempfile\n"
        "from pathlib import Path\n"
        "from grader.book.load import load_book\n"
        "from tui.lines.session import run_session\n"
        "from tui.progress.clock import now\n"
        "from tui.progress.store import ProgressStore\n"
        "store = ProgressStore.open(Path(tempfile.mkdtemp()))\n"
        "out = io.StringIO()\n"
        "run_session(load_book(), store, io.StringIO('2\\n0\\n1\\n1.75\\nback\\nb\\nb\\n6\\n5\\n1\\nplot\\n'),"
        " out, why='test', clock=now)\n"
        "assert 'verdict: correct' in out.getvalue() and 'plot: ' in out.getvalue(), out.getvalue()[-2000:]\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'textual_plotext')))\n"
    )
    assert run_python(code) == "[]"


def test_no_screen_or_answer_panel_imports_the_app_not_even_for_the_type_checker():
    """A screen and an answer panel are given what they use (the study session, the app as a Navigator), so one
    can be tested on any app: none names tui.app, at run time or for the type checker."""
    modules = our_modules()
    faces = [m for m in modules if m.split(".")[:2] in (["tui", "screens"], ["tui", "answers"])]
    offenders = [f"{m} imports {name}" for m in faces for name in imports_of(modules[m], for_type_checking_too=True)
                 if name.split(".")[:2] == ["tui", "app"]]
    assert offenders == [] and len(faces) > 15


def test_the_type_checkers_imports_are_read_when_asked(tmp_path):
    """What the check above refuses: a screen that names the app for the type checker only."""
    source = tmp_path / "screen.py"
    source.write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from tui.app import RingbookApp\n",
                      encoding="utf-8")
    assert "tui.app" not in imports_of(source)
    assert {"tui.app", "tui.app.RingbookApp"} <= imports_of(source, for_type_checking_too=True)


def test_there_is_no_import_circle():
    assert circles(import_graph()) == []


def test_the_checks_find_what_they_must_refuse():
    """The walk is real (it sees lazy imports too), and the checks catch the two circles this layout removed."""
    graph = import_graph()
    assert "grader.verdict" in graph["grader.kinds.derive"]
    assert "tui.screens.chapter" in graph["tui.app"]  # imported inside a method
    assert circles({"grader.grade": {"grader.kinds.derive"}, "grader.kinds.derive": {"grader.grade"}}) == [
        "grader.grade -> grader.kinds.derive -> grader.grade"]
    assert upward_imports({"tui.progress.store": {"tui.cli.common"}}) == ["tui.progress.store -> tui.cli.common"]


def test_imports_for_the_type_checker_only_are_no_edges(tmp_path):
    """A screen's typed app is imported for the checker alone: it never runs, so it neither circles nor climbs."""
    source = tmp_path / "screen.py"
    source.write_text("import typing\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                      "    from tui.app import RingbookApp\nif typing.TYPE_CHECKING:\n    import tui.cli\n"
                      "else:\n    import tui.widgets.page\n", encoding="utf-8")
    assert imports_of(source) == {"typing", "typing.TYPE_CHECKING", "tui.widgets.page"}


def test_the_engine_folders_are_layers_too():
    """A kind may use the maths and the sandbox, never the book that loads it; the book reads labs, so a lab
    may not read the book; and nothing under grading imports grader.grade."""
    assert upward_imports({"grader.kinds.derive": {"grader.book.variants"}}) == [
        "grader.kinds.derive -> grader.book.variants"]
    assert upward_imports({"grader.lab.model": {"grader.book.load"}}) == ["grader.lab.model -> grader.book.load"]
    assert upward_imports({"grader.maths.parse": {"grader.exercise"}}) == ["grader.maths.parse -> grader.exercise"]
    assert upward_imports({"grader.book.load": {"grader.lab.model", "grader.kinds.registry", "grader.files"}}) == []
    graph = import_graph()
    assert "grader.kinds.registry" in graph["grader.book.load"] and "grader.files" in graph["grader.lab.load"]


def test_formula_grading_never_imports_sympy_and_starts_a_worker_only_for_a_proof():
    """The proof runs in a worker process; a formula the points settle starts none."""
    code = (
        "import sys\n"
        "from grader import verdict\n"
        "from grader.book.load import load_book\n"
        "from grader.grade import grade\n"
        "from grader.maths.prover import WORKER\n"
        "book = load_book()\n"
        "settled = [grade(book.exercise('0.7'), a).method for a in ('2M(N-1)/N', '2M - 2M/N', '(2MN - 2M)/N')]\n"
        "print(settled, WORKER.pid, 'sympy' in sys.modules)\n"
        "verdict.TIME_BOUND = 120.0\n"
        "proven = grade(book.exercise('0.7'), 'max(M, M)*2*(N-1)/N')\n"
        "print(proven.status, proven.method, WORKER.pid is not None, 'sympy' in sys.modules)\n"
    )
    assert run_python(code).splitlines() == ["['numeric', 'numeric', 'numeric'] None False",
                                             "correct symbolic True False"]
