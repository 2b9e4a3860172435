"""A learner's lab design: each act's settings and answers, as the JSON the progress store keeps.

One shape serves twice: a design saved with `s` goes to the ledger, and the design on screen is kept as a
state so that leaving the lab, or ringbook, loses nothing. Both are read back field by field, because a
stored file is hostile: a value that is damaged, or no longer offered by the lab, falls back to the
starting one instead of failing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from grader.lab.model import (
    FABRICS,
    FORMER_FABRIC_IDS,
    GPU_COUNTS,
    MICRO_BATCHES,
    MODELS,
    PIPELINE_MICROBATCHES,
    PP_DEGREES,
    TP_DEGREES,
    DataParallelSetup,
    Lab,
    ThreeDSetup,
    data_parallel_figures,
    data_parallel_mfu,
    three_d_figures,
)

QUESTION_KINDS = ("prediction", "reflection")
T = TypeVar("T")


def lab_state_key(lab_id: str) -> str:
    """The store state that keeps the design on screen in a lab."""
    return f"lab:{lab_id}"


@dataclass(frozen=True)
class LabDesign:
    """Both acts' settings, and the option id the learner committed to each question, by (act id, kind)."""

    data_parallel: DataParallelSetup = DataParallelSetup()
    three_d: ThreeDSetup = ThreeDSetup()
    answers: dict[tuple[str, str], str] = field(default_factory=dict)

    def summary(self, lab: Lab) -> str:
        """One line a learner recognises a design by: its Act II layout and MFU, then its Act I setup."""
        td, dp = self.three_d, self.data_parallel
        f = three_d_figures(td, lab.hardware)
        return (f"TP {td.tp} x PP {td.pp} x DP {f.dp}, m = {td.microbatches}: MFU {100 * f.mfu:.1f}%"
                f"   (Act I: {dp.model.name} on {dp.gpus} GPUs, "
                f"{100 * data_parallel_mfu(dp, lab.hardware):.1f}%)")

    def payload(self, lab: Lab) -> dict[str, Any]:
        """Each act's settings, figures and answers (right or not), for the ledger and the kept state."""
        hw = lab.hardware
        dp_setup, dp_figures = self.data_parallel, data_parallel_figures(self.data_parallel, hw)
        td_setup, td_figures = self.three_d, three_d_figures(self.three_d, hw)
        return {
            "data-parallel": {
                "config": {"model": dp_setup.model.name, "gpus": dp_setup.gpus,
                           "micro_batch": dp_setup.micro_batch, "fabric": dp_setup.fabric.id},
                "figures": {"mfu": round(data_parallel_mfu(dp_setup, hw), 4),
                            "compute_s": round(dp_figures.compute_s, 4), "comm_s": round(dp_figures.comm_s, 4),
                            "memory_gb": round(dp_figures.memory_gb, 2), "oom": dp_figures.oom},
                **self.answer_fields(lab, "data-parallel"),
            },
            "three-d": {
                "config": {"tp": td_setup.tp, "pp": td_setup.pp, "dp": td_figures.dp,
                           "microbatches": td_setup.microbatches},
                "figures": {"mfu": round(td_figures.mfu, 4), "memory_gb": round(td_figures.memory_gb, 2),
                            "oom": td_figures.oom, "tp_cross_node": td_figures.tp_cross_node,
                            "bubble_overhead": round(td_figures.bubble_overhead, 4),
                            "idle_share": round(td_figures.idle_share, 4), "step_s": round(td_figures.step_s, 4)},
                **self.answer_fields(lab, "three-d"),
            },
        }

    def answer_fields(self, lab: Lab, act_id: str) -> dict[str, Any]:
        act, result = lab.act(act_id), {}
        for kind in QUESTION_KINDS:
            chosen = getattr(act, kind).option(self.answers.get((act_id, kind), ""))
            result[kind] = chosen.id if chosen else None
            result[f"{kind}_right"] = chosen.correct if chosen else None
        return result


def _pick(value: Any, offered: Iterable[T], key: Callable[[T], object] = lambda choice: choice) -> T | None:
    """The offered choice whose key is `value`, else None (a value the lab no longer offers, or damage)."""
    return next((choice for choice in offered if type(value) is type(key(choice)) and key(choice) == value), None)


def _mapping(value: Any) -> dict[str, Any]:
    """`value` if it is a mapping, else an empty one: a damaged part reads as a missing one."""
    return value if isinstance(value, dict) else {}


def _current_fabric_id(value: Any) -> Any:
    """A fabric id as the lab names it now: a design saved before the network model was made true to real
    clusters names the fabric it meant by its old id."""
    return FORMER_FABRIC_IDS.get(value, value) if isinstance(value, str) else value


def design_from(payload: Any, lab: Lab) -> LabDesign:
    """Read a design back from `payload` (a ledger entry's, or a kept state's); whatever is missing, damaged
    or no longer offered keeps its starting value, and an answer the lab's questions do not have is dropped."""
    acts = _mapping(payload)
    parts = {act_id: _mapping(acts.get(act_id)) for act_id in ("data-parallel", "three-d")}
    config = {act_id: _mapping(part.get("config")) for act_id, part in parts.items()}

    dp, chosen = DataParallelSetup(), config["data-parallel"]
    dp = replace(dp, model=_pick(chosen.get("model"), MODELS, lambda m: m.name) or dp.model,
                 gpus=_pick(chosen.get("gpus"), GPU_COUNTS) or dp.gpus,
                 micro_batch=_pick(chosen.get("micro_batch"), MICRO_BATCHES) or dp.micro_batch,
                 fabric=_pick(_current_fabric_id(chosen.get("fabric")), FABRICS, lambda f: f.id) or dp.fabric)
    td, chosen = ThreeDSetup(), config["three-d"]
    td = replace(td, tp=_pick(chosen.get("tp"), TP_DEGREES) or td.tp, pp=_pick(chosen.get("pp"), PP_DEGREES) or td.pp,
                 microbatches=_pick(chosen.get("microbatches"), PIPELINE_MICROBATCHES) or td.microbatches)

    answers = {}
    for act in lab.acts:
        for kind in QUESTION_KINDS:
            option = _pick(parts.get(act.id, {}).get(kind), getattr(act, kind).options, lambda o: o.id)
            if option is not None:
                answers[(act.id, kind)] = option.id
    return LabDesign(dp, td, answers)


def kept_design(saved: str, lab: Lab) -> LabDesign:
    """The design kept in the store's state, from its JSON; damaged or empty is the starting design."""
    try:
        payload = json.loads(saved or "{}")
    except ValueError:
        payload = {}
    return design_from(payload, lab)
