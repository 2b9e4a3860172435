"""The Parallelism Paradox lab: per act, a stakeholder's message, a prediction that unlocks the
instruments, live controls with figures, warnings and a plot, and a reflection question.

The screen only arranges widgets and routes messages: every figure comes from grader.lab.model's model and
every sentence from the lab's YAML. The design on screen (settings and answers) is kept in the progress
store as it changes, so leaving the lab loses nothing; `s` saves it to the ledger, `d` lists the saved ones
and restores one.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, OptionList, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from grader.lab.design import QUESTION_KINDS, LabDesign, kept_design, lab_state_key
from grader.lab.model import (
    FABRICS,
    GPU_COUNTS,
    MICRO_BATCHES,
    MODELS,
    PIPELINE_MICROBATCHES,
    PLOTTED_MICROBATCHES,
    PP_DEGREES,
    TP_DEGREES,
    Lab,
    MemoryBudget,
    bubble_curve,
    data_parallel_figures,
    data_parallel_mfu,
    mfu_curve,
    three_d_figures,
    tp_cross_node_warning,
)
from tui.progress.runs import keep_lab_design, record_lab_design
from tui.progress.store import ProgressStore, StoreError
from tui.screens.lab_designs import LabDesignsScreen
from tui.widgets.choice_question import ChoiceQuestion
from tui.widgets.page import Scroll
from tui.widgets.plain import plain
from tui.widgets.screen_frame import Footer, Header, closing
from tui.widgets.stepper import Stepper

TABS = ("data-parallel", "three-d", "model")
PLOT_M_MARKERS = ("*", "+", "x", "o")   # one per curve of m: with NO_COLOR the colours are all one grey
SETTING_MARKER = "●"
OUT_OF_MEMORY_MARKER = "!"     # a mark, not a colour, so it reads with NO_COLOR too


def _memory_line(f: MemoryBudget) -> str:
    return (f"\nMemory per GPU {_gb(f.memory_gb)} of {f.hbm_gb:g}: weights+grads {f.weights_grads_gb:.1f}"
            f" · optimizer {f.optimizer_gb:.1f} · activations {f.activations_gb:.1f}")


def _gb(value: float) -> str:
    return f"{value:.1f} GB"


def _time(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


class LabScreen(Screen):
    CSS_PATH = "lab.tcss"
    BINDINGS = [
        Binding("escape", "leave", "Back"),
        Binding("1", "pick(0)", "Pick", key_display="1-4"),
        Binding("2", "pick(1)", show=False),
        Binding("3", "pick(2)", show=False),
        Binding("4", "pick(3)", show=False),
        Binding("enter", "commit", "Commit", priority=True),
        # Priority, or the act's scroll takes ↑/↓ to scroll the page; PgUp/PgDn and the wheel scroll it.
        Binding("down", "control(1)", "Move", key_display="↑↓", priority=True,
                tooltip="Move between the controls; ←→ change the one marked ▶"),
        Binding("up", "control(-1)", show=False, priority=True),
        Binding("a", "next_tab", "Next tab"),
        Binding("s", "save", "Save", tooltip="Save your design to your progress"),
        Binding("d", "designs", "Designs", tooltip="See the designs you saved, and restore one"),
        # Priority, or an option list that has the keyboard takes them to move its highlight, and the page
        # below it (Act II's option 4 at 80x24) could not be scrolled to.
        *(Binding(key, f"scroll_page('{key}')", show=False, priority=True)
          for key in ("pageup", "pagedown", "home", "end")),
    ]
    FOOTER_HIDES = ("q", "ctrl+s")   # at 80 columns the lab's own keys come first; ? lists these and ^p

    def __init__(self, lab: Lab, store: ProgressStore):
        super().__init__()
        self.lab = lab
        self.store = store
        kept = kept_design(store.state(lab_state_key(lab.id)), lab)
        self.data_parallel = kept.data_parallel
        self.three_d = kept.three_d
        self.kept_answers = kept.answers

    # --- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(initial=TABS[0], id="tabs"):
            for act, label in zip(self.lab.acts, ("Act I", "Act II"), strict=True):
                with TabPane(label, id=act.id):
                    with Scroll(id=f"{act.id}-scroll", classes="act"):
                        yield Static(Text(act.title, "bold"), classes="act-title")
                        if act is self.lab.acts[0]:
                            yield Static(plain(self.lab.intro), classes="intro")
                        message = Static(plain(act.message), classes="message")
                        message.border_title = plain(f"From: {act.sender}")
                        yield message
                        yield ChoiceQuestion(act.prediction, id=f"{act.id}-prediction")
                        yield Static(Text.assemble(("Instruments locked. ", "bold"),
                                                   "Commit a prediction first: 1-4 to pick, Enter to commit."),
                                     id=f"{act.id}-locked", classes="locked")
                        with Vertical(id=f"{act.id}-instruments", classes="instruments"):
                            yield from self.controls(act.id)
                            yield Static(id=f"{act.id}-figures", classes="figures")
                            yield Static(id=f"{act.id}-warnings", classes="warnings")
                            yield PlotextPlot(id=f"{act.id}-plot", classes="plot")
                            yield Static(self.plot_caption(act.id), classes="caption")
                            yield ChoiceQuestion(act.reflection, id=f"{act.id}-reflection")
            with TabPane("The model", id="model"):
                with Scroll(id="model-scroll"):
                    yield Markdown(self.lab.model_statement, id="model-statement")
        yield Footer(hide=self.FOOTER_HIDES, show_command_palette=False)

    def controls(self, act_id: str) -> ComposeResult:
        if act_id == "data-parallel":
            dp = self.data_parallel
            yield Stepper("Model size", [(m, f"{m.name} parameters") for m in MODELS], dp.model, id="model-size")
            yield Stepper("GPUs (DP degree)", [(n, str(n)) for n in GPU_COUNTS], dp.gpus, id="gpus")
            yield Stepper("Micro-batch", [(b, f"{b} x {self.lab.hardware.seq_len} tokens") for b in MICRO_BATCHES],
                          dp.micro_batch, id="micro-batch")
            yield Stepper("Between nodes", [(f, f.name) for f in FABRICS], dp.fabric, id="fabric")
        else:
            three_d = self.three_d
            yield Stepper("TP (in a layer)", [(t, str(t)) for t in TP_DEGREES], three_d.tp, id="tp")
            yield Stepper("PP (stages)", [(p, str(p)) for p in PP_DEGREES], three_d.pp, id="pp")
            yield Stepper("m (micro-batches)", [(m, str(m)) for m in PIPELINE_MICROBATCHES], three_d.microbatches,
                          id="microbatches")

    def plot_caption(self, act_id: str) -> Text:
        if act_id == "data-parallel":
            return Text(f"MFU (%) against GPU count: the line is the model, {OUT_OF_MEMORY_MARKER} marks a GPU "
                        f"count where the setup is out of memory, x the lead's measurements, {SETTING_MARKER} your "
                        "setting.", "dim")
        curves = ", ".join(f"{marker} m = {m}" for m, marker in zip(PLOTTED_MICROBATCHES, PLOT_M_MARKERS, strict=True))
        return Text(f"Idle share of the step (p-1)/(m+p-1), in %, against PP: {curves}; {SETTING_MARKER} is "
                    "your setting.", "dim")

    def on_mount(self) -> None:
        if closing(self):
            return
        self.title = self.lab.title
        for act in self.lab.acts:
            self.query_one(f"#{act.id}-instruments").display = False
        self.restore_answers(self.kept_answers)
        self.focus_part(TABS[0])
        for act in self.lab.acts:
            if self.unlocked(act.id):
                self.show_prediction_answered(act.id)

    def show_prediction_answered(self, act_id: str) -> None:
        """Bring an act's answered prediction and its feedback to the top of its page: one answered in the
        plain-line face otherwise looked open, its "✓ Right" below the screen's edge."""
        feedback = self.query_one(f"#{act_id}-prediction", ChoiceQuestion).query_one(".question-feedback")
        self.query_one(f"#{act_id}-scroll", Scroll).reveal(feedback, top=True)

    # --- state shown ----------------------------------------------------------------------------

    def unlocked(self, act_id: str) -> bool:
        return self.query_one(f"#{act_id}-prediction", ChoiceQuestion).chosen is not None

    def unlock(self, act_id: str) -> None:
        self.query_one(f"#{act_id}-locked").display = False
        self.query_one(f"#{act_id}-instruments").display = True
        self.show_figures(act_id)

    def restore_answers(self, answers: dict[tuple[str, str], str]) -> None:
        """Commit answers given before to the questions still open, unlocking an act whose prediction was
        given; questions already answered keep their answers, which are given once."""
        for (act_id, kind), option_id in answers.items():
            question = self.query_one(f"#{act_id}-{kind}", ChoiceQuestion)
            if question.chosen is None:
                question.commit(option_id, announce=False)
                if kind == "prediction":
                    self.unlock(act_id)

    def on_choice_question_committed(self, event: ChoiceQuestion.Committed) -> None:
        self.answered(event.question)   # a click's commit

    def answered(self, question: ChoiceQuestion) -> None:
        self.keep_design()
        act_id, _, kind = (question.id or "").rpartition("-")
        feedback = question.query_one(".question-feedback")   # every answer's feedback comes into view
        self.query_one(f"#{act_id}-scroll", Scroll).reveal(feedback, top=kind == "prediction")
        if kind != "prediction":
            return
        self.unlock(act_id)
        self.query_one(f"#{act_id}-instruments").query(Stepper).first().focus(scroll_visible=False)

    def on_stepper_changed(self, event: Stepper.Changed) -> None:
        field = {"model-size": "model", "gpus": "gpus", "micro-batch": "micro_batch", "fabric": "fabric",
                 "tp": "tp", "pp": "pp", "microbatches": "microbatches"}[event.stepper.id or ""]
        if field in ("tp", "pp", "microbatches"):
            self.three_d = replace(self.three_d, **{field: event.value})
            self.show_figures("three-d")
        else:
            self.data_parallel = replace(self.data_parallel, **{field: event.value})
            self.show_figures("data-parallel")
        self.keep_design()

    def show_figures(self, act_id: str) -> None:
        if act_id == "data-parallel":
            figures, warnings = self.data_parallel_text()
        else:
            figures, warnings = self.three_d_text()
        self.query_one(f"#{act_id}-figures", Static).update(figures)
        warning_box = self.query_one(f"#{act_id}-warnings", Static)
        warning_box.update(Text("\n").join(warnings))
        warning_box.display = bool(warnings)
        self.draw_plot(act_id)

    def data_parallel_text(self) -> tuple[Text, list[Text]]:
        setup, hw = self.data_parallel, self.lab.hardware
        f = data_parallel_figures(setup, hw)
        mfu = data_parallel_mfu(setup, hw)
        where = ("all GPUs in one node: NVLink only" if f.inside_node
                 else f"{setup.gpus // hw.gpus_per_node} nodes: NVLink inside, {setup.fabric.name} between")
        figures = Text.assemble(
            ("MFU ", "bold"), (f"{100 * mfu:.1f}%", "bold"), f"   T_compute {_time(f.compute_s)}",
            f"   T_comm {_time(f.comm_s)}", "   comm/compute ", (f"{f.ratio:.2f}", "bold"),
            _memory_line(f),
            (f"\n{where}.\nModel: {hw.peak_tflops:g} TFLOPS dense x {100 * hw.base_efficiency:g}%, no overlap "
             "(a: The model).", "dim"))
        warnings = []
        if f.oom:
            warnings.append(self.oom_warning(f.memory_gb, "Use fewer parameters, a smaller micro-batch or "
                                                          "more GPUs to shard the optimizer."))
        return figures, warnings

    def three_d_text(self) -> tuple[Text, list[Text]]:
        setup, hw = self.three_d, self.lab.hardware
        f = three_d_figures(setup, hw)
        bubble = max(0.0, f.pipeline_s - f.compute_s - f.tp_comm_s)
        figures = Text.assemble(
            ("MFU ", "bold"), (f"{100 * f.mfu:.1f}%", "bold"),
            f"   TP {setup.tp} x PP {setup.pp} x DP {f.dp} = {setup.gpus} GPUs   batch {f.global_batch} seqs",
            _memory_line(f),
            f"\nBubble overhead (p-1)/m {100 * f.bubble_overhead:.1f}%   idle share (p-1)/(m+p-1) ",
            (f"{100 * f.idle_share:.1f}%", "bold"),
            f"\nStep {f.step_s:.2f} s = compute {f.compute_s:.2f} + TP {f.tp_comm_s:.2f}"
            f" + bubble {bubble:.2f} + DP sync {f.dp_comm_s:.2f}",
            (f"\nModel: {hw.peak_tflops:g} TFLOPS dense x {100 * hw.base_efficiency:g}%, 1F1B, no overlap "
             "(a: The model).", "dim"))
        warnings = []
        if f.oom:
            warnings.append(self.oom_warning(f.memory_gb, "Raise TP or PP to split the model further."))
        if f.tp_cross_node:
            warnings.append(Text.assemble(("⚠ TP crosses nodes. ", "bold"), tp_cross_node_warning(setup, hw)))
        return figures, warnings

    def oom_warning(self, memory_gb: float, advice: str) -> Text:
        return Text.assemble(("⚠ Out of memory. ", "bold"),
                             f"{_gb(memory_gb)} per GPU is more than the {self.lab.hardware.hbm_gb:g} GB an H100 "
                             f"holds. {advice}")

    def draw_plot(self, act_id: str) -> None:
        plot = self.query_one(f"#{act_id}-plot", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        if act_id == "data-parallel":
            curve = mfu_curve(self.data_parallel, self.lab.hardware)
            position = {n: i for i, n in enumerate(GPU_COUNTS)}
            fits = [point for point in curve if not point.oom]
            plt.plot([position[p.gpus] for p in fits], [p.mfu_pct for p in fits])
            measured = self.lab.act("data-parallel").measured_mfu
            plt.scatter([position[n] for n, _ in measured], [v for _, v in measured], marker="x")
            out_of_memory = [point for point in curve if point.oom]           # drawn over the measurements
            plt.scatter([position[p.gpus] for p in out_of_memory], [p.mfu_pct for p in out_of_memory],
                        marker=OUT_OF_MEMORY_MARKER)
            current = 100 * data_parallel_mfu(self.data_parallel, self.lab.hardware)
            plt.scatter([position[self.data_parallel.gpus]], [current], marker=SETTING_MARKER)
            plt.xticks(list(position.values()), [str(n) for n in GPU_COUNTS])
            plt.ylim(0, 65)
            plt.xlabel("GPUs")
        else:
            position = {p: i for i, p in enumerate(PP_DEGREES)}
            for m, marker in zip(PLOTTED_MICROBATCHES, PLOT_M_MARKERS, strict=True):
                plt.plot(list(position.values()), [v for _, v in bubble_curve(m)], label=f"m={m}", marker=marker)
            setup = self.three_d
            [(_, current)] = bubble_curve(setup.microbatches, (setup.pp,))
            plt.scatter([position[setup.pp]], [current], marker=SETTING_MARKER)
            plt.xticks(list(position.values()), [str(p) for p in PP_DEGREES])
            plt.ylim(0, 100)
            plt.xlabel("PP")
        plot.refresh()

    # --- actions --------------------------------------------------------------------------------

    def active_question(self) -> ChoiceQuestion | None:
        """The open question of the act on show: its prediction, then its reflection."""
        tab = self.query_one(TabbedContent).active
        if tab not in ("data-parallel", "three-d"):
            return None
        for kind in ("prediction", "reflection"):
            question = self.query_one(f"#{tab}-{kind}", ChoiceQuestion)
            if question.chosen is None:
                return question
        return None

    def action_pick(self, index: int) -> None:
        question = self.active_question()
        if question is None:
            return
        if question.pick(index):
            self.query_one(f"#{self.query_one(TabbedContent).active}-scroll", VerticalScroll).scroll_to_widget(
                question, animate=False)
        else:
            self.notify(f"There is no option {index + 1}.")

    def action_commit(self) -> None:
        """Enter commits the option highlighted in the open question the learner is in."""
        question = self.active_question()
        if question is None or not question.commit_highlighted(announce=False):
            self.notify("Pick an option first: 1-4, or up/down in the list.")
            return
        # Here, not from the Committed message a few message hops later: the keys typed after Enter go to
        # where the answer hands the keyboard (keys_in_turn waits for this key's own work, not for messages).
        self.answered(question)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        question = self.active_question()
        if action == "pick":   # with nothing to answer, 1-4 are not ours; nor, from a control, the reflection's
            return question is not None and (not self.unlocked(self.query_one(TabbedContent).active)
                                             or self.focused is question.options)
        if action == "commit":            # nor is Enter, outside the open question's options
            return question is not None and self.focused is question.options
        if action == "control":           # nor are ↑/↓, outside the controls: a list moves its own highlight
            return isinstance(self.focused, Stepper)
        return True

    def action_control(self, delta: int) -> None:
        """↑/↓ move between the act's controls (the one reached scrolls into view); ↓ past the last goes on
        to the act's reflection while it is open."""
        stepper = self.focused
        if not isinstance(stepper, Stepper) or stepper.parent is None:
            return   # check_action lets ↑/↓ here only from a control
        controls = list(stepper.parent.query_children(Stepper))
        index = controls.index(stepper) + delta
        if 0 <= index < len(controls):
            controls[index].focus()
            return
        reflection = self.query_one(f"#{self.query_one(TabbedContent).active}-reflection", ChoiceQuestion)
        if delta > 0 and reflection.chosen is None:
            reflection.options.focus()

    def action_scroll_page(self, key: str) -> None:
        page = self.query_one(f"#{self.query_one(TabbedContent).active}-scroll", Scroll)
        {"pageup": page.scroll_page_up, "pagedown": page.scroll_page_down,
         "home": page.scroll_home, "end": page.scroll_end}[key](animate=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The list moved by ↓/↑ comes into view on the page, its highlighted option with it (the list
        scrolls itself within its own height). Not the highlight a commit sets: its feedback is revealed."""
        tab = self.query_one(TabbedContent).active
        if tab != "model" and event.option_list.has_focus and not event.option_list.disabled:   # not a commit's
            self.query_one(f"#{tab}-scroll", Scroll).keep_in_view(event.option_list)

    def action_next_tab(self) -> None:
        tabs = self.query_one(TabbedContent)
        tabs.active = TABS[(TABS.index(tabs.active) + 1) % len(TABS)]
        self.focus_part(tabs.active)

    def focus_part(self, tab: str) -> None:
        """Move the keyboard into the part on show (else focus stays behind in a hidden pane and pulls it
        back): its open prediction, else its first control, else the model statement."""
        if tab == "model":
            self.query_one("#model-scroll").focus(scroll_visible=False)
        elif not self.unlocked(tab):
            self.query_one(f"#{tab}-prediction", ChoiceQuestion).options.focus(scroll_visible=False)
        else:
            self.query_one(f"#{tab}-instruments").query(Stepper).first().focus(scroll_visible=False)

    def action_leave(self) -> None:
        self.app.pop_screen()

    def design(self) -> LabDesign:
        """The design on screen: both acts' settings and the answers committed so far."""
        answers = {}
        for act_id in TABS[:2]:
            for kind in QUESTION_KINDS:
                chosen = self.query_one(f"#{act_id}-{kind}", ChoiceQuestion).chosen
                if chosen is not None:
                    answers[(act_id, kind)] = chosen.id
        return LabDesign(self.data_parallel, self.three_d, answers)

    def keep_design(self) -> None:
        """Keep the design on screen in the store; a read-only store just means it is not kept."""
        keep_lab_design(self.store, self.lab, self.design())

    def action_save(self) -> None:
        if not self.unlocked("three-d"):
            self.notify("Commit your Act II prediction first; the design is the layout you choose there.",
                        title="Nothing to save yet")
            return
        design = self.design()
        try:
            count = record_lab_design(self.store, self.lab, design)
        except StoreError as exc:
            self.notify(str(exc), title="Design not saved", severity="error")
            return
        self.notify(f"{design.summary(self.lab)}.\nKept in your progress as design {count} of this lab: press d "
                    "to see your designs and restore one.", title="Design saved", timeout=8)

    def action_designs(self) -> None:
        entries = [entry for entry in self.store.entries("lab") if entry.name == self.lab.id]
        self.app.push_screen(LabDesignsScreen(self.lab, entries), self.restore)

    def restore(self, design: LabDesign | None) -> None:
        """Set every control to a saved design; answers still open take the design's."""
        if design is None:
            return
        setups = {"model-size": design.data_parallel.model, "gpus": design.data_parallel.gpus,
                  "micro-batch": design.data_parallel.micro_batch, "fabric": design.data_parallel.fabric,
                  "tp": design.three_d.tp, "pp": design.three_d.pp, "microbatches": design.three_d.microbatches}
        for stepper_id, value in setups.items():
            self.query_one(f"#{stepper_id}", Stepper).value = value   # each posts Changed: figures follow
        self.restore_answers(design.answers)
        self.focus_part(self.query_one(TabbedContent).active)
        self.notify(design.summary(self.lab), title="Design restored")
