"""One module per exercise kind, each with `judge(exercise, text, deadline) -> Verdict`."""

from grader.kinds import build, debug, derive, design, trace

JUDGES = {
    "derive": derive.judge,
    "trace": trace.judge,
    "design": design.judge,
    "debug": debug.judge,
    "build": build.judge,
}
