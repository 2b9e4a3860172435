"""Grading latency per answer class, warm (p50/p99), and the cold first grade in a fresh interpreter.

Most formulas are settled by the points (grader/maths/symbolic.py) and never wait for sympy: "formula".
Those the points cannot settle ("formula proof": here max(), which can hide a difference) are proven by
sympy in a worker process (grader/maths/prover.py), started on need; "warm" means that worker has sympy
loaded. Its start (a fresh interpreter importing sympy) is timed on its own.

Run: uv run python benchmarks/grade_latency.py [--repeat N]
Targets (issue 3): p99 <= 30 ms for numbers, <= 150 ms for formulas, warm, on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.book.load import load_book
from grader.book.model import Book, Exercise
from grader.grade import grade
from grader.maths.prover import WORKER

COLD = """
import time
started = time.perf_counter()
from grader.book.load import load_book
from grader.grade import grade
book = load_book()
loaded = time.perf_counter()
grade(book.exercise({id!r}), {answer!r})
done = time.perf_counter()
print(f"{{(loaded - started) * 1000:.0f}} {{(done - loaded) * 1000:.0f}}")
"""


def book_exercise(book: Book, exercise_id: str) -> Exercise:
    """One of the built-in book's exercises, which are the only ones this benchmark names."""
    exercise = book.exercise(exercise_id)
    if exercise is None:
        raise SystemExit(f"the book has no exercise {exercise_id}: update the benchmark's answers")
    return exercise


def answers(book: Book, repeat: int) -> dict[str, list[tuple[Exercise, str]]]:
    """Per class, `repeat` (exercise, answer) pairs; formulas vary so sympy's cache cannot answer for us."""
    number = [("0.1", "1.75"), ("0.2", "70"), ("5.1", "25"), ("9.9", "1059717"), ("0.1", "0.875"), ("3.1", "2.4e-3")]
    expression = [("0.1", "7/4"), ("0.1", "2*1*7/8"), ("8.1", "6.1 x 10^-5"), ("0.2", "2*2*7/8/50*1000")]
    unit = [("0.1", "1750 MB"), ("0.2", "0.07 s"), ("6.2", "112 MiB"), ("0.1", "1.75 ms")]
    classes = {"plain number": number, "expression": expression, "unit": unit}
    out = {name: [(book_exercise(book, i), a) for k in range(repeat) for i, a in [pairs[k % len(pairs)]]]
           for name, pairs in classes.items()}
    formulas: list[tuple[Exercise, str]] = []
    for k in range(repeat):
        c = k + 2
        ring = book_exercise(book, "0.7")
        formulas += [(ring, f"{c}*M*(N-1)/N*2/{c}"),       # right: settled by the points
                     (ring, f"(2*M*N - 2*M)/N + {c}M - {c}M"),
                     (ring, f"M*(N-1)/N + {c}")]            # wrong: decided without sympy
    out["formula"] = formulas[:repeat]
    out["formula proof"] = [(book_exercise(book, "0.7"), f"max(M, M/{k + 2})*2*(N-1)/N")  # new to sympy each time
                            for k in range(repeat)]
    return out


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300)
    repeat = parser.parse_args().repeat

    print("cold first grade (fresh interpreter; load = import + load the book):")
    for label, exercise_id, answer in [("number", "0.1", "1.75"), ("unit", "0.1", "1750 MB"),
                                       ("formula", "0.7", "2M(N-1)/N")]:
        runs = []
        for _ in range(3):
            output = subprocess.run([sys.executable, "-c", COLD.format(id=exercise_id, answer=answer)],
                                    capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent)
            runs.append(tuple(map(float, output.stdout.split())))
        load = statistics.median(r[0] for r in runs)
        first = statistics.median(r[1] for r in runs)
        print(f"  {label:<13} load {load:6.0f} ms   first grade {first:6.0f} ms   (median of 3)")

    starts = []
    for _ in range(3):
        WORKER.stop()
        started = time.perf_counter()
        WORKER.wait_until_ready(120)
        starts.append(time.perf_counter() - started)
    print(f"  proof worker  start to ready {statistics.median(starts) * 1000:6.0f} ms   (median of 3; sympy import)")

    book = load_book()
    for exercise, text in [(book_exercise(book, "0.7"), "2M(N-1)/N"), (book_exercise(book, "0.1"), "1750 MB")]:
        grade(exercise, text)  # warm: pint and the formula code imported, as in the app

    print(f"\nwarm latency per answer ({repeat} answers per class):")
    print(f"  {'class':<13} {'p50':>8} {'p99':>8} {'max':>8}")
    for name, pairs in answers(book, repeat).items():
        samples = []
        for exercise, text in pairs:
            started = time.perf_counter()
            grade(exercise, text)
            samples.append((time.perf_counter() - started) * 1000)
        print(f"  {name:<13} {percentile(samples, 50):7.2f}ms {percentile(samples, 99):7.2f}ms {max(samples):7.2f}ms")


if __name__ == "__main__":
    main()
