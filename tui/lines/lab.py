"""The Parallelism Paradox lab in lines: per act, the stakeholder's message, a prediction that unlocks the
instruments, controls set by typed values (`set gpus 64`), the figures and the plot said as labelled numbers,
and the reflection question. Every figure comes from grader.lab.model, as on the app's lab screen, and the
design is kept and saved as the app keeps it (tui.progress.runs), so either face picks it up."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from grader.lab.design import LabDesign, design_from, kept_design, lab_state_key
from grader.lab.model import (
    FABRICS,
    GPU_COUNTS,
    MICRO_BATCHES,
    MODELS,
    PIPELINE_MICROBATCHES,
    PLOTTED_MICROBATCHES,
    PP_DEGREES,
    TP_DEGREES,
    Act,
    Lab,
    LabQuestion,
    MemoryBudget,
    bubble_curve,
    data_parallel_figures,
    data_parallel_mfu,
    mfu_curve,
    three_d_figures,
    tp_cross_node_warning,
)
from tui.lines.console import BACK_WORDS
from tui.lines.context import Context
from tui.progress.store import StoreError


@dataclass(frozen=True)
class Control:
    """One control: its name as typed, the setup field it sets, and its values with their words."""

    name: str
    field: str
    values: tuple[tuple[Any, str], ...]

    def value_for(self, typed: str) -> Any | None:
        key = typed.strip().casefold()
        return next((value for value, words in self.values
                     if key in (words.casefold(), str(value).casefold(), getattr(value, "id", None),
                                getattr(value, "name", "").casefold())), None)

    def words(self, value: Any) -> str:
        return next(words for candidate, words in self.values if candidate == value)


CONTROLS = {
    "data-parallel": (
        Control("model", "model", tuple((m, m.name) for m in MODELS)),
        Control("gpus", "gpus", tuple((n, str(n)) for n in GPU_COUNTS)),
        Control("micro-batch", "micro_batch", tuple((b, str(b)) for b in MICRO_BATCHES)),
        Control("fabric", "fabric", tuple((f, f.id) for f in FABRICS)),
    ),
    "three-d": (
        Control("tp", "tp", tuple((t, str(t)) for t in TP_DEGREES)),
        Control("pp", "pp", tuple((p, str(p)) for p in PP_DEGREES)),
        Control("m", "microbatches", tuple((m, str(m)) for m in PIPELINE_MICROBATCHES)),
    ),
}
HELP = ("set NAME VALUE changes a control (controls lists them and their values); figures and plot read the "
        "results again; reflect answers the act's closing question; save keeps your design, designs lists the "
        "saved ones to restore; next goes to the other act; model reads how the figures are computed; b or "
        "back leaves the lab, which keeps its state.")


def open_lab(ctx: Context, lab: Lab) -> None:
    console = ctx.console
    design = kept_design(ctx.session.store.state(lab_state_key(lab.id)), lab)
    console.say("lab", lab.title)
    console.book(lab.intro)
    act_index = 0
    while True:
        went_on = run_act(ctx, lab, lab.acts[act_index], design)
        if went_on is None:
            return
        design, act_index = went_on, (act_index + 1) % len(lab.acts)


def run_act(ctx: Context, lab: Lab, act: Act, design: LabDesign) -> LabDesign | None:
    """One act, until the learner goes to the next (the design as it stands) or leaves (None)."""
    console = ctx.console
    console.say(f"act {lab.acts.index(act) + 1}", act.title)
    console.say("message from", act.sender)
    console.book(act.message)
    if (act.id, "prediction") not in design.answers:
        console.say("instruments", "locked until you commit a prediction")
        picked = ask(ctx, act.prediction, "predict")
        if picked is None:
            return None
        design = answered(ctx, lab, design, act.id, "prediction", picked)
    else:
        option = act.prediction.option(design.answers[(act.id, "prediction")])
        console.say("prediction", f"already committed: {option.text if option else ''}")
    show_controls(ctx, act.id, design)
    show_figures(ctx, lab, act, design)
    while True:
        reply = console.ask(f"lab, act {lab.acts.index(act) + 1}", "", HELP)
        word, _, rest = reply.partition(" ")
        word = word.lower()
        if word in BACK_WORDS:
            return None
        if word == "next":
            return design
        if word == "set" or word in {c.name for c in CONTROLS[act.id]}:
            changed = set_control(ctx, act.id, design, rest if word == "set" else reply)
            if changed is not None:
                design = changed
                keep(ctx, lab, design)
                show_figures(ctx, lab, act, design)
        elif word == "controls":
            show_controls(ctx, act.id, design, values=True)
        elif word == "figures":
            show_figures(ctx, lab, act, design)
        elif word == "plot":
            show_plot(ctx, lab, act, design)
        elif word == "reflect":
            design = reflect(ctx, lab, act, design)
        elif word == "save":
            save(ctx, lab, design)
        elif word == "designs":
            design = restore(ctx, lab, design)
            show_controls(ctx, act.id, design)
        elif word == "model":
            console.book(lab.model_statement)
        elif reply:
            console.say("sorry", "type help for what the lab takes")


def ask(ctx: Context, question: LabQuestion, label: str) -> str | None:
    """A question answered once, by the number of an option: its id, or None for back."""
    console = ctx.console
    console.say("question", question.prompt)
    for number, option in enumerate(question.options, 1):
        console.say(str(number), option.text)
    count = len(question.options)
    while True:
        reply = console.ask(label, f"1 to {count}, or back", "Type the number of the option you commit to; it is "
                                                             "given once. b or back leaves the lab.")
        if reply.lower() in BACK_WORDS:
            return None
        if reply.isdigit() and 1 <= int(reply) <= count:
            option = question.options[int(reply) - 1]
            console.say("verdict", "right" if option.correct else "not this one")
            console.say("feedback", option.feedback)
            if not option.correct:
                right = question.options.index(question.right) + 1
                console.say(f"the answer is {right}", question.right.feedback)
            return option.id
        console.say("sorry", f"type a number from 1 to {count}")


def answered(ctx: Context, lab: Lab, design: LabDesign, act_id: str, kind: str, option_id: str) -> LabDesign:
    design = replace(design, answers={**design.answers, (act_id, kind): option_id})
    keep(ctx, lab, design)
    return design


def reflect(ctx: Context, lab: Lab, act: Act, design: LabDesign) -> LabDesign:
    if (act.id, "reflection") in design.answers:
        option = act.reflection.option(design.answers[(act.id, "reflection")])
        ctx.console.say("reflection", f"already answered: {option.text if option else ''}")
        return design
    picked = ask(ctx, act.reflection, "reflect")
    return design if picked is None else answered(ctx, lab, design, act.id, "reflection", picked)


def setup_of(act_id: str, design: LabDesign) -> Any:
    return design.data_parallel if act_id == "data-parallel" else design.three_d


def show_controls(ctx: Context, act_id: str, design: LabDesign, *, values: bool = False) -> None:
    setup = setup_of(act_id, design)
    for control in CONTROLS[act_id]:
        offered = f"; values: {', '.join(words for _, words in control.values)}" if values else ""
        ctx.console.say(f"control {control.name}", control.words(getattr(setup, control.field)) + offered)


def set_control(ctx: Context, act_id: str, design: LabDesign, text: str) -> LabDesign | None:
    name, _, value = text.strip().partition(" ")
    control = next((c for c in CONTROLS[act_id] if c.name == name.lower()), None)
    if control is None:
        ctx.console.say("sorry", f"the controls here are {', '.join(c.name for c in CONTROLS[act_id])}")
        return None
    chosen = control.value_for(value)
    if chosen is None:
        ctx.console.say("sorry", f"{control.name} takes {', '.join(words for _, words in control.values)}")
        return None
    ctx.console.say(f"control {control.name}", f"set to {control.words(chosen)}")
    if act_id == "data-parallel":
        return replace(design, data_parallel=replace(design.data_parallel, **{control.field: chosen}))
    return replace(design, three_d=replace(design.three_d, **{control.field: chosen}))


def show_figures(ctx: Context, lab: Lab, act: Act, design: LabDesign) -> None:
    say, hw = ctx.console.say, lab.hardware
    if act.id == "data-parallel":
        setup = design.data_parallel
        f = data_parallel_figures(setup, hw)
        say("mfu", f"{100 * data_parallel_mfu(setup, hw):.1f}%")
        say("compute time", f"{1000 * f.compute_s:.0f} ms")
        say("communication time", f"{1000 * f.comm_s:.0f} ms")
        say("communication over compute", f"{f.ratio:.2f}")
        where = ("all GPUs in one node, NVLink only" if f.inside_node
                 else f"{setup.gpus // hw.gpus_per_node} nodes, NVLink inside, {setup.fabric.name} between")
        say("layout", where)
        memory(ctx, f, lab, "use fewer parameters, a smaller micro-batch or more GPUs to shard the optimizer")
    else:
        setup3 = design.three_d
        g = three_d_figures(setup3, hw)
        say("mfu", f"{100 * g.mfu:.1f}%")
        say("layout", f"TP {setup3.tp} times PP {setup3.pp} times DP {g.dp} is {setup3.gpus} GPUs, "
                      f"batch {g.global_batch} sequences")
        say("idle share", f"{100 * g.idle_share:.1f}% of the step, (p-1)/(m+p-1); bubble overhead "
                          f"{100 * g.bubble_overhead:.1f}%")
        bubble = max(0.0, g.pipeline_s - g.compute_s - g.tp_comm_s)
        say("step time", f"{g.step_s:.2f} s: compute {g.compute_s:.2f}, TP {g.tp_comm_s:.2f}, bubble {bubble:.2f}, "
                         f"DP sync {g.dp_comm_s:.2f}")
        if g.tp_cross_node:
            say("warning", f"TP crosses nodes. {tp_cross_node_warning(setup3, hw)}")
        memory(ctx, g, lab, "raise TP or PP to split the model further")


def memory(ctx: Context, f: MemoryBudget, lab: Lab, advice: str) -> None:
    say, hw = ctx.console.say, lab.hardware
    say("memory per GPU", f"{f.memory_gb:.1f} of {f.hbm_gb:g} GB: weights and gradients {f.weights_grads_gb:.1f}, "
                          f"optimizer {f.optimizer_gb:.1f}, activations {f.activations_gb:.1f}")
    if f.oom:
        say("warning", f"out of memory: {f.memory_gb:.1f} GB per GPU is more than {hw.hbm_gb:g} GB; {advice}")


def show_plot(ctx: Context, lab: Lab, act: Act, design: LabDesign) -> None:
    """The plot as labelled values: each point of each curve, your setting, and what the app marks."""
    say = ctx.console.say
    if act.id == "data-parallel":
        curve = mfu_curve(design.data_parallel, lab.hardware)
        say("plot", "MFU in % against GPU count, for your model, micro-batch and fabric")
        say("model", "; ".join(f"{p.gpus} GPU{'s' if p.gpus != 1 else ''} {p.mfu_pct:.1f}"
                               + (" out of memory" if p.oom else "") for p in curve))
        if act.measured_mfu:
            say("measured", "; ".join(f"{n} GPUs {v:g}" for n, v in act.measured_mfu))
        say("your setting", f"{design.data_parallel.gpus} GPUs, "
                            f"{100 * data_parallel_mfu(design.data_parallel, lab.hardware):.1f}")
    else:
        say("plot", "idle share of the step in %, (p-1)/(m+p-1), against PP")
        for m in PLOTTED_MICROBATCHES:
            say(f"m {m}", "; ".join(f"PP {pp} {value:.1f}" for pp, value in bubble_curve(m)))
        setup = design.three_d
        [(_, current)] = bubble_curve(setup.microbatches, (setup.pp,))
        say("your setting", f"PP {setup.pp}, m {setup.microbatches}: {current:.1f}")


def keep(ctx: Context, lab: Lab, design: LabDesign) -> None:
    from tui.progress.runs import keep_lab_design

    keep_lab_design(ctx.session.store, lab, design)


def save(ctx: Context, lab: Lab, design: LabDesign) -> None:
    from tui.progress.runs import record_lab_design

    if ("three-d", "prediction") not in design.answers:
        ctx.console.say("not saved", "commit your act 2 prediction first; the design is the layout you choose there")
        return
    try:
        count = record_lab_design(ctx.session.store, lab, design)
    except StoreError as exc:
        ctx.console.say("not saved", str(exc))
        return
    ctx.console.say("saved", f"{design.summary(lab)}; design {count} of this lab")


def restore(ctx: Context, lab: Lab, design: LabDesign) -> LabDesign:
    """The saved designs, oldest first, numbered as `save` counted them; one picked sets every control, and
    answers still open take its answers (those given stay: each is given once)."""
    entries = [entry for entry in ctx.session.store.entries("lab") if entry.name == lab.id]
    if not entries:
        ctx.console.say("designs", "none yet: commit your act 2 prediction, set a layout, and save it")
        return design
    saved = [design_from(entry.payload, lab) for entry in entries]
    picked = ctx.console.choose("restore", [f"{entry.local_date}, {one.summary(lab)}"
                                            for entry, one in zip(entries, saved, strict=True)],
                                "Type a design's number to set every control to it, or b to keep yours.")
    if picked is None:
        return design
    chosen = saved[picked]
    restored = LabDesign(chosen.data_parallel, chosen.three_d, {**chosen.answers, **design.answers})
    keep(ctx, lab, restored)
    ctx.console.say("restored", chosen.summary(lab))
    return restored
