"""One module per exercise kind, each with `judge(exercise, text, deadline) -> Verdict`."""

from grader.kinds import debug, derive, design, trace
from grader.grade import invalid


def _build(exercise, text, deadline):
    return invalid("Build exercises are checked by running your code against their tests, in the app's editor.")


JUDGES = {
    "derive": derive.judge,
    "trace": trace.judge,
    "design": design.judge,
    "debug": debug.judge,
    "build": _build,
}
