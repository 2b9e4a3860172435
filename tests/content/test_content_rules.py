"""Issue 21's rules of `ringbook content check`: a variant must be a run that could exist (its memory fits
its card, a product carries its own figures), its worked steps must add up, its grammar must hold with
any number, and a mistake's feedback must describe a slip its numbers allow. Each test breaks a copy of
the built-in book the way the book was broken before these rules, and reads the real command's
`path:line: message` output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grader.book.text_check import WRAPPED_NOUNS, arithmetic_problems, grammar_problems, wrapping_problems
from grader.book.variants import VariantError, render, variant
from grader.exercise import NumericAnswer
from grader.grade import grade
from tests.built_in import builtin_book
from tests.expected import ch6, ch11
from tui.cli.main import main


def run_check(content: Path, capsys) -> tuple[int, str]:
    code = main(["content", "check", "--content", str(content)])
    return code, capsys.readouterr().out


def edit(root: Path, chapter: str, old: str, new: str) -> Path:
    path = root / chapter / "exercises.yaml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path: Path, text: str, after: str = "") -> int:
    """The 1-based line of the first `text` in `path` (after the first `after`)."""
    lines = path.read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines) if i >= start and text in line) + 1


def reported(out: str, path: Path, line: int) -> list[str]:
    """The messages of the check's output at `path:line`."""
    prefix = f"{path}:{line}: "
    return [row[len(prefix):] for row in out.splitlines() if row.startswith(prefix)]


# --- realism as data --------------------------------------------------------------------------------

def test_a_variant_whose_memory_exceeds_its_card_is_reported(chapters_copy, capsys):
    """1.2 as it was: 34B and 70B among its models and no constraint, so ZeRO-1 model states of 283 GB per
    GPU on an 80 GB A100."""
    book = chapters_copy("01-zero-stages")
    path = edit(book, "01-zero-stages", "P: {choices: [7, 8, 13]}", "P: {choices: [7, 8, 13, 34, 70]}")
    path = edit(book, "01-zero-stages", '    constraints: ["answer < 70"]    # fits an 80 GB card', "    # was")
    code, out = run_check(book, capsys)
    assert code == 1
    messages = reported(out, path, line_of(path, "fits: answer", after='id: "1.2"'))
    assert len(messages) == 1 and messages[0].startswith("seed ")
    assert "each GPU holds" in messages[0] and "more than the A100's 80 GB" in messages[0]
    assert "`answer <= gpu_memory`" in messages[0]


def test_an_exercise_about_not_fitting_is_reported_where_a_variant_fits(chapters_copy, capsys):
    book = chapters_copy("01-zero-stages")
    path = edit(book, "01-zero-stages", "P: {choices: [7, 8, 13, 34, 70]}", "P: {choices: [3, 7, 8, 13, 34, 70]}")
    path = edit(book, "01-zero-stages", 'constraints: ["answer > 80"]', 'constraints: ["answer > 0"]')
    code, out = run_check(book, capsys)
    messages = reported(out, path, line_of(path, "overflows: answer"))
    assert code == 1 and len(messages) == 1
    assert "48 GB (answer) fits on the A100's 80 GB, but the exercise is about not fitting" in messages[0]


def test_constraints_may_name_the_books_hardware(chapters_copy, capsys):
    """`H100_memory` is a name the formula grammar reads; the 1.2 constraint written with it still holds."""
    book = chapters_copy("01-zero-stages")
    path = edit(book, "01-zero-stages", 'constraints: ["answer < 70"]    # fits an 80 GB card',
                'constraints: ["answer <= A100_memory"]    # fits an 80 GB card')
    code, out = run_check(book, capsys)
    assert reported(out, path, line_of(path, "fits: answer", after='id: "1.2"')) == []


def test_a_card_that_the_book_does_not_declare_is_reported(chapters_copy, capsys):
    book = chapters_copy("13-hardware")
    path = edit(book, "13-hardware", "gpu: [H100, A100, B200]", "gpu: [H100, H200]")
    code, out = run_check(book, capsys)
    assert code == 1
    assert reported(out, path, line_of(path, "gpu: [H100, H200]")) == [
        "gpu H200 is not in book.yaml's hardware (H100, A100, B200)"]


def test_a_product_named_with_another_products_numbers_is_reported(chapters_copy, capsys):
    """13.2 as it was: "An H100 data sheet lists NVLink at 600 GB/s" (the A100's figure)."""
    book = chapters_copy("13-hardware")
    path = edit(book, "13-hardware", "The {{gpu}} data sheet lists", "An H100 data sheet lists")
    code, out = run_check(book, capsys)
    messages = reported(out, path, line_of(path, "prompt:", after='id: "13.2"'))
    assert code == 1 and len(messages) == 1
    assert messages[0].startswith("prompt: with seed ")
    assert ('"600 GB/s" is the A100\'s NVLink bandwidth, in a paragraph about the H100 (H100: 900 GB/s or 450 GB/s)'
            in messages[0])


def test_a_varied_card_brings_all_its_figures_and_its_name():
    exercise = builtin_book().exercise("13.2")
    seen = {}
    for seed in range(12):
        posed = variant(exercise, seed)
        seen[posed.gpu] = (posed.env["Bnv"], posed.env["R"], posed.value)
        assert f"The {posed.gpu} data sheet" in posed.prompt
    # chapter 13: NVLink as printed (both directions) and one port's Gb/s; the ratio compares one way each
    assert seen == {"H100": (900, 400, (900 / 2) / (400 / 8)), "A100": (600, 200, (600 / 2) / (200 / 8)),
                    "B200": (1800, 400, (1800 / 2) / (400 / 8))}


# --- worked steps -----------------------------------------------------------------------------------

@pytest.mark.parametrize("step, shown, exact", [
    ("320 × 0.13 ms = 41.8 ms", "320 × 0.13 ms = 41.8", "41.6"),   # 6.5 as it was
    ("6.5 % + 15 % ≈ 21.2 %", "6.5 % + 15 % ≈ 21.2 %", "21.5%"),   # 15.4 as it was
    ("(15/601 = 2.5%)", "15/601 = 2.5%", "2.49584%"),              # 5.6 as it was: 2.50 without its zero reads as exact
])
def test_a_worked_step_that_does_not_follow_is_reported(chapters_copy, capsys, step, shown, exact):
    book = chapters_copy("00-ring-allreduce")
    path = edit(book, "00-ring-allreduce", "    explanation: |\n", f"    explanation: |\n      Check: {step}.\n")
    code, out = run_check(book, capsys)
    messages = reported(out, path, line_of(path, "explanation: |"))
    assert code == 1
    assert any(f'explanation: with the book\'s own numbers, the worked step "{shown}" does not '
               f"follow from its numbers: they give {exact}" in m for m in messages), messages


@pytest.mark.parametrize("text", [
    "320 × 0.13 ms = 41.6 ms",                    # right
    "2 × 134 MB × 7/8 = 234.9 MB",                # 134 is 134.2 rounded, and shows 3 figures: a rounded number
    "M = 16e9 x 2 bytes = 32 GB",                 # a change of unit
    "15/601 ≈ 2.5%",                              # ≈ claims only its figures
    "7/141 = 4.96%",                              # 3 figures
    "1,024 x 8 = 8,192",                          # thousands separators
    "T = 2 x 16 x 7 / (8 x 450) s = 0.06222 s",   # part of a larger expression: not a step of its own
    "2 * 4/3 T = 42.7",                           # T is a quantity, not a unit
])
def test_steps_that_do_follow_are_not_reported(text):
    assert arithmetic_problems(text) == []


# --- grammar ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("number, spec, shown", [
    (8, "a", "an 8"), (7, "a", "a 7"), (11, "a", "an 11"), (18, "a", "an 18"), (80, "a", "an 80"), (1, "a", "a 1"),
    (8192, ",|a", "an 8,192"), (110, "a", "a 110"), (11000, ",|a", "an 11,000"), (1800, ",|a", "a 1,800"),
    (1, "A", "A 1"), (8, "A", "An 8"), (1, "slot", "1 slot"), (3, "slot", "3 slots"), (0, "slot", "0 slots"),
    (1, "child/children", "1 child"), (2, "child/children", "2 children"),
])
def test_grammar_helpers_render_an_article_or_a_plural(number, spec, shown):
    template = "{{N:" + spec + "}}" if spec.startswith(",") else "{{N|" + spec + "}}"
    assert render(template, {"N": number}) == shown


def test_a_helper_that_is_not_one_is_an_error():
    with pytest.raises(VariantError, match="after | write a"):
        render("{{N|8 slots}}", {"N": 8})


@pytest.mark.parametrize("text, message", [
    ("Ring or tree for a 8 GB gradient?", '"a 8" should be "an 8"'),
    ("An 1B-parameter model", '"An 1" should be "A 1"'),
    ("C = 1 minutes", '"1 minutes" should be "1 minute"'),
    ("leaves 1 slots empty", '"1 slots" should be "1 slot"'),
    ("it waits 3 step", '"3 step" should be "3 steps"'),
])
def test_grammar_slips_are_found(text, message):
    assert [m for m in grammar_problems(text) if message in m]


@pytest.mark.parametrize("text", ["each of N - 1 steps", "each of N-1 steps", "m+p-1 slots", "expert A 8 tokens",
                                  "an 8 GB gradient", "a 1.5x speed-up", "0.1 minutes", "an 18-layer model"])
def test_right_grammar_is_not_reported(text):
    assert grammar_problems(text) == []


# --- "1 steps": a formula before a count noun, broken across two lines --------------------------------

@pytest.mark.parametrize("text, message", [
    ("Each phase takes N - 1 steps.", '"N - 1 steps" can wrap into a line that reads "1 steps": write N-1 steps'),
    ("a step is m + p - 1 slots", '"p - 1 slots" can wrap into a line that reads "1 slots": write p-1 slots'),
    ("there are c - 1 transfers", '"c - 1 transfers" can wrap'),
])
def test_a_formula_that_can_wrap_before_1_and_a_plural_is_found(text, message):
    assert [m for m in wrapping_problems(text) if message in m]


@pytest.mark.parametrize("text", ["Each phase takes N-1 steps.", "m+p-1 slots", "(p - 1) slots idle",
                                  "2(N - 1) = 14 steps", "Stage 1 keeps the weights", "N - 1 is the last rank"])
def test_what_cannot_wrap_into_1_and_a_plural_is_not_reported(text):
    assert wrapping_problems(text) == []


def book_paragraphs() -> list[tuple[str, str]]:
    """Every paragraph a learner reads in the built-in book's files (chapters, exercises of every kind, the
    quiz, the lab), its lines joined as a screen reflows them."""
    import yaml

    def strings(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [s for value in node.values() for s in strings(value)]
        if isinstance(node, list):
            return [s for value in node for s in strings(value)]
        return []

    content = Path(__file__).resolve().parents[2] / "content"
    found = []
    for path in sorted(content.glob("**/*")):
        if path.suffix == ".md":
            texts = [path.read_text()]
        elif path.suffix == ".yaml":
            texts = strings(yaml.safe_load(path.read_text()))
        else:
            continue
        found += [(path.relative_to(content).as_posix(), " ".join(paragraph.split()))
                  for text in texts for paragraph in re.split(r"\n\s*\n", text)]
    return found


def test_no_paragraph_of_the_book_wraps_into_a_line_that_reads_1_and_a_plural():
    """A learner saw "1 steps": "takes N - 1 steps" wrapped after "N -" at the width of their screen. Every
    paragraph is wrapped as the screens wrap it (Rich, at every width from 20 to 160 columns)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(width=200)
    starts_wrong = re.compile(rf"\**1\**[ \t]+(?:{'|'.join(WRAPPED_NOUNS)})s\b")
    found = set()
    for where, paragraph in book_paragraphs():
        if not re.search(rf"\b1\**[ \t]+(?:{'|'.join(WRAPPED_NOUNS)})s\b", paragraph):
            continue
        for width in range(20, 161):
            found |= {(where, line.plain.strip()[:40]) for line in Text(paragraph).wrap(console, width)
                      if starts_wrong.match(line.plain)}
    assert sorted(found) == []


def test_grammar_under_variants_is_reported_with_its_seed(chapters_copy, capsys):
    """0.4 as it was: "... GPUs for a 8 GB gradient"."""
    book = chapters_copy("00-ring-allreduce")
    path = edit(book, "00-ring-allreduce", "for **{{M|a}} GB**", "for a **{{M}} GB**")
    code, out = run_check(book, capsys)
    messages = reported(out, path, line_of(path, "prompt:", after='id: "0.4"'))
    assert code == 1 and len(messages) == 1
    assert messages[0].startswith("prompt: with seed ") and '"a 8" should be "an 8"' in messages[0]
    assert "|a" in messages[0]


# --- mistakes that hold -----------------------------------------------------------------------------

OLD_115 = '''      - answer: nA+nB
        feedback: "An over-full expert still processes its first {{cap}} tokens; only the overflow is dropped."
'''


def test_a_mistake_written_for_another_case_is_reported(chapters_copy, capsys):
    """11.5 as it was: nA + nB assumes expert B over capacity, which most variants do not have."""
    book = chapters_copy("11-expert-parallelism")
    text = (book / "11-expert-parallelism" / "exercises.yaml").read_text()
    start = text.index("      - answer: nA+nB")
    end = text.index("      - answer: 0\n", start)
    path = edit(book, "11-expert-parallelism", text[start:end], OLD_115)
    code, out = run_check(book, capsys)
    messages = reported(out, path, line_of(path, "- answer: nA+nB"))
    assert code == 1 and len(messages) == 1
    assert "takes another branch than with the book's own numbers, so mistake 'nA+nB'" in messages[0]
    assert "say where it applies with `when`" in messages[0]


def test_a_when_that_never_holds_is_reported(chapters_copy, capsys):
    book = chapters_copy("11-expert-parallelism")
    path = edit(book, "11-expert-parallelism", 'when: "nB > cap"', 'when: "nB > T"')
    code, out = run_check(book, capsys)
    assert code == 1
    assert reported(out, path, line_of(path, 'when: "nB > T"')) == [
        "mistake 'nA+nB' applies in none of the variants checked (seeds 0-200): its `when` never holds"]


def test_a_when_that_is_not_a_comparison_is_reported(chapters_copy, capsys):
    book = chapters_copy("11-expert-parallelism")
    path = edit(book, "11-expert-parallelism", 'when: "nB > cap"', 'when: "nB + cap"')
    code, out = run_check(book, capsys)
    assert code == 1
    assert any("when" in row and str(path) in row for row in out.splitlines())


def test_a_when_over_an_unknown_name_is_reported(chapters_copy, capsys):
    book = chapters_copy("11-expert-parallelism")
    path = edit(book, "11-expert-parallelism", 'when: "nB > cap"', 'when: "nX > cap"')
    code, out = run_check(book, capsys)
    assert code == 1
    messages = reported(out, path, line_of(path, 'when: "nX > cap"'))
    assert len(messages) == 1 and messages[0].startswith("mistake 'nA+nB': when constraint 'nX > cap'")


def _115_with(loads: tuple[int, int, int], T: int, f: float):
    """The first variant of 11.5 with these loads of A, B and C."""
    exercise = builtin_book().exercise("11.5")
    assert isinstance(exercise, NumericAnswer)
    for seed in range(1, 2000):
        posed = variant(exercise, seed)
        if (posed.env["nA"], posed.env["nB"], posed.env["nC"], posed.env["T"], posed.env["f"]) == (*loads, T, f):
            return posed
    raise AssertionError("no such variant")


def test_dropping_every_over_full_expert_gets_its_own_feedback_in_every_variant():
    """Whatever the loads, dropping all tokens of every over-full expert (recomputed in tests/expected/ch11)
    is named, and it is never the right answer."""
    exercise = builtin_book().exercise("11.5")
    assert isinstance(exercise, NumericAnswer)
    for seed in range(0, 60):
        posed = variant(exercise, seed)
        env = posed.env
        slip = ch11.drop_whole_experts(env["T"], env["f"], (env["nA"], env["nB"], env["nC"], env["nD"]))
        verdict = grade(posed, str(slip))
        assert verdict.status == "incorrect"
        assert "still processes its first" in verdict.feedback, (seed, slip, verdict)


def test_seed_7_of_115_names_the_real_slip():
    """The issue's case: capacity 10, loads 16, 8, 5, 3; dropping A's 16 is the slip, nA + nB = 24 is not."""
    posed = _115_with((16, 8, 5), 32, 1.25)
    assert grade(posed, "16").feedback == ("Expert A still processes its first 10 tokens; only its 6 over capacity "
                                           "are dropped.")
    assert grade(posed, "24").feedback == ""


def test_66_at_four_bytes_names_each_slip_apart():
    """At 4 bytes per value, one pass and forgotten bytes are different numbers with different feedback."""
    exercise = builtin_book().exercise("6.6")
    posed = next(p for p in (variant(exercise, s) for s in range(1, 50)) if p.env["w"] == 4)
    one_pass = grade(posed, ch6.ONE_PASS_FORMULA.format(w=4))
    no_bytes = grade(posed, ch6.VALUES_NOT_BYTES_FORMULA)
    assert one_pass.status == "incorrect" and "That is one pass" in one_pass.feedback
    assert no_bytes.status == "incorrect" and "counts values, not bytes" in no_bytes.feedback
    at_two = grade(variant(exercise, 0), ch6.ONE_PASS_FORMULA.format(w=2))
    assert "A factor of 2 is missing" in at_two.feedback


# --- content show --json ----------------------------------------------------------------------------

def test_content_show_json_prints_one_variant_as_data(capsys):
    code = main(["content", "show", "11.5", "--seed", "7", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    params = data["params"]
    loads = (params["nA"], params["nB"], params["nC"], params["nD"])
    assert data["seed"] == 7 and data["kind"] == "trace" and f"expert A gets\n{loads[0]:g} tokens" in data["prompt"]
    assert data["answer"]["value"] == ch11.dropped(params["T"], params["f"], loads)
    by_formula = {m["answer"]: m for m in data["mistakes"]}
    assert by_formula["nA"]["value"] == loads[0] and by_formula["nA"]["applies"] is (loads[1] <= params["cap"])
    assert by_formula["nA+nB"]["applies"] is (loads[1] > params["cap"]) and by_formula["nA+nB"]["when"] == ["nB > cap"]
    assert data["hints"] and data["explanation"].startswith("```text")


def test_content_show_json_names_the_card_and_lists_options(capsys):
    assert main(["content", "show", "13.2", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gpu"] in ("A100", "B200") and data["params"]["gpu"] == data["gpu"]
    assert main(["content", "show", "0.4", "--seed", "3", "--json"]) == 0
    options = json.loads(capsys.readouterr().out)["options"]
    assert [o["letter"] for o in options] == list("ABCD"[:len(options)]) and sum(o["correct"] for o in options) == 1


def test_no_option_is_named_by_a_letter_that_picks_another():
    """Issue 45, 2.10: exercise 2.5 named its two plans A and B, and its options read `A  B: 16 steps…`: the
    letter that picks an option, then another option's letter. Options are picked by a-d; no option's text
    (nor the plans its prompt names) may start with one."""
    named_by_letter = re.compile(r"^\**[A-Da-d][:)]")
    clashes = [(exercise.id, option.text) for exercise in builtin_book().exercises
               for option in getattr(exercise, "options", ()) if named_by_letter.match(option.text)]
    clashes += [(exercise.id, line) for exercise in builtin_book().exercises if getattr(exercise, "options", ())
                for line in exercise.prompt.splitlines() if named_by_letter.match(line.lstrip("- "))]
    assert clashes == []
