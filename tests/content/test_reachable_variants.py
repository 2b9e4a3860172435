"""Every variant a learner can be posed is a problem a real engineer could meet (issue 21, section 2).

The variants are enumerated exhaustively: every combination of an exercise's `vary` choices that the
engine would pose (its constraints hold), not a sample of seeds. Each physical condition is then checked
with the physics written out here in plain Python (bytes per parameter, slots of a schedule), never with
the YAML's own formulas or constraints. Worked steps are read back from the rendered explanation and
recomputed from the operands they show."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from grader.book.variants import check_constraint, choices_of, draw, names_for_text, rendered, resolve
from grader.exercise import NumericAnswer
from grader.maths.evaluate import EvaluationError
from tests.built_in import builtin_book

BOOK = builtin_book()
VARYING = [e.id for e in BOOK.exercises if isinstance(e, NumericAnswer) and e.vary]
GB = 1e9
CARD_GB = 80            # the book's GPUs are 80 GB cards (A100 80 GB, H100)


def written_of(exercise_id: str) -> NumericAnswer:
    """A varying exercise as the book writes it, placeholders and all."""
    exercise = BOOK.exercise(exercise_id)
    assert isinstance(exercise, NumericAnswer) and exercise.written is not None, exercise_id
    return exercise.written


def reachable(exercise_id: str) -> list[dict[str, float]]:
    """The params of every variant of the exercise: the book's own, and every combination of its vary
    choices that satisfies its constraints (the engine poses exactly these, seed by seed)."""
    written = written_of(exercise_id)
    pools = {name: choices_of(name, rule) for name, rule in written.vary.items()}
    found = [resolve(written, {})]
    for combo in itertools.product(*pools.values()):
        try:
            env = resolve(written, dict(zip(pools, combo, strict=True)))
            names = names_for_text(written, env)
        except (EvaluationError, ZeroDivisionError):
            continue
        if all(check_constraint(c, names) for c in written.constraints):
            found.append(env)
    return found


@pytest.mark.parametrize("exercise_id", ["5.3", "8.5", "11.3", "14.1", "1.2", "3.3"])
def test_the_enumeration_holds_every_variant_the_engine_draws(exercise_id):
    """`reachable` is the engine's own set: every seed's variant is one of its members."""
    keys = {tuple(sorted(env.items())) for env in reachable(exercise_id)}
    ex = BOOK.exercise(exercise_id)
    for seed in range(1, 101):
        assert tuple(sorted(draw(ex, seed).env.items())) in keys, seed


# --- the physics of each finding --------------------------------------------------------------------

@pytest.mark.parametrize("exercise_id", ["5.3", "5.4", "9.6"])
def test_an_interleaved_1f1b_pipeline_always_has_m_a_multiple_of_p(exercise_id):
    """Megatron-LM's interleaved schedule sends micro-batches through the chunks in groups of p: it
    runs only when p divides m (chapter 5, exercises 5.6 and 9.6 say so)."""
    for env in reachable(exercise_id):
        p, m = int(env["p"]), int(env["m"])
        assert m % p == 0, f"{exercise_id}: m = {m} micro-batches on p = {p} stages"


def test_warm_up_is_at_most_a_tenth_of_the_run():
    """3.3: the rule W = 1000 steps per unit of batch growth, against the run's length. Warm-up beyond a
    tenth of the run (the top of the 5-10 % fine-tuning range the explanation cites; pre-training
    recipes sit under 1 %) would leave too little of the run at the peak rate."""
    for env in reachable("3.3"):
        growth = env["B2"] / env["B1"]
        warmup_steps = 1000 * growth
        assert warmup_steps <= 0.10 * env["S"], (env, warmup_steps)


def test_one_micro_batch_of_fp16_activations_fits_an_80_gb_card_with_room():
    """8.5: two b x s x d tensors kept per layer, 80 layers, 2 bytes each in FP16."""
    for env in reachable("8.5"):
        b, s = env["b"], env["s"]
        fp16_bytes = 80 * 2 * (b * s * 8192) * 2
        assert fp16_bytes / GB <= 0.55 * CARD_GB, (b, s, fp16_bytes / GB)
    posed = rendered(BOOK.exercise("8.5").written, reachable("8.5")[-1])
    assert "pipeline and tensor parallelism" in posed.explanation   # what spreads 80 layers over GPUs


def test_routed_expert_weights_and_gradients_per_gpu_fit_an_80_gb_card():
    """11.3: DeepSeek-V3's 256 routed experts per layer over EP GPUs, 58 MoE layers, three 7168 x 2048
    matrices per expert, BF16 weights and BF16 gradients: at least 20 GB left for the rest."""
    for env in reachable("11.3"):
        ep = int(env["P"])
        assert 256 % ep == 0, ep
        params_per_gpu = (256 // ep) * 58 * 3 * 7168 * 2048
        weights_and_grads = params_per_gpu * (2 + 2) / GB
        assert weights_and_grads <= CARD_GB - 20, (ep, weights_and_grads)


def test_zero_3_model_states_of_the_checkpointed_job_fit_half_a_card():
    """14.1: under ZeRO-3 each GPU keeps 1/N of 16 bytes per parameter (BF16 weights and gradients,
    FP32 master weights and two Adam moments): a run that exists has room left for activations."""
    for env in reachable("14.1"):
        per_gpu = 16 * env["P"] / env["N"] / GB
        assert per_gpu <= CARD_GB / 2, (env["P"] / 1e9, env["N"], per_gpu)


@pytest.mark.parametrize("exercise_id, sharded", [
    ("1.2", lambda n: (2 + 2, 12 / n)),        # ZeRO-1: full weights and gradients, optimizer sharded
    ("1.3", lambda n: (2, (2 + 12) / n)),      # ZeRO-2: full weights, gradients and optimizer sharded
    ("1.4", lambda n: (0, 16 / n)),            # ZeRO-3: everything sharded
])
def test_zero_model_states_per_gpu_leave_room_on_an_80_gb_card(exercise_id, sharded):
    for env in reachable(exercise_id):
        whole, shard = sharded(env["N"])
        per_gpu = (whole + shard) * env["P"] * 1e9 / GB
        assert per_gpu < CARD_GB - 10, (exercise_id, env["P"], env["N"], per_gpu)


def test_zero_3_shards_of_the_traffic_exercise_fit_an_80_gb_card():
    """1.5 ends on the ZeRO-3 memory of the run it times: 16 bytes per parameter of a Psi/2-B model over N."""
    for env in reachable("1.5"):
        params = env["Psi"] / 2 * 1e9
        assert 16 * params / env["N"] / GB < CARD_GB - 10, (env["Psi"], env["N"])


def test_activations_with_sequence_parallelism_leave_half_the_card():
    """10.1: 34 s b h bytes per layer (24 in the TP regions, 10 outside), all divided by t = 8 with SP."""
    for env in reachable("10.1"):
        per_gpu = env["L"] * 34 * env["s"] * 1 * 8192 / 8 / GB
        assert per_gpu <= CARD_GB / 2, (env["L"], env["s"], per_gpu)


# --- worked steps follow from the operands they show ------------------------------------------------

def shows(value: float, text: str) -> bool:
    """`text` is `value` at the precision `text` is written to."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(value - float(text)) <= 0.5 * 10 ** -decimals + 1e-9


def steps_of(exercise_id: str):
    written = written_of(exercise_id)
    for env in reachable(exercise_id):
        yield env, rendered(written, env).explanation


def find(pattern: str, text: str) -> tuple[str, ...]:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in:\n{text}"
    return match.groups()


def test_5_6_the_smallest_m_shows_an_overhead_visibly_below_the_target():
    for env, text in steps_of("5.6"):
        idle, m, shown = find(r"\((\d+)/(\d+) = ([\d.]+)%\)", text)
        assert shows(100 * int(idle) / int(m), shown), text
        assert float(shown) < env["T"], f"{idle}/{m} shown as {shown}% against a target of {env['T']:g}%"


def test_6_5_each_step_follows_from_the_time_it_shows():
    for _env, text in steps_of("6.5"):
        traffic, bandwidth, t = find(r"([\d.]+)e6 B / (\d+)e9 B/s = ([\d.]+) ms", text)
        assert shows(float(traffic) * 1e6 / (float(bandwidth) * 1e9) * 1e3, t), text
        count, t_again, total = find(r"(\d+) × ([\d.]+) ms =\s+([\d.]+) ms", text)
        assert t_again == t and shows(int(count) * float(t), total), text
        total_again, compute, share = find(r"```text\s+([\d.]+) / (\d+) ≈ ([\d.]+) %", text)
        assert total_again == total and shows(100 * float(total) / float(compute), share), text
        t16, slower = find(r"which takes ([\d.]+) ms,\s+([\d.]+) times the in-node figure", text)
        assert shows(float(t16) / float(t), slower), text
        half, t16_again, total16, share16 = find(
            r"half the compute, ([\d.]+) ms,[\s\S]*?320 × ([\d.]+) ms = ([\d.]+) ms is"
            r"\s+about \*\*([\d.]+) %\*\*", text)
        assert float(half) == float(compute) / 2 and t16_again == t16 and shows(320 * float(t16), total16), text
        assert shows(100 * float(total16) / float(half), share16), text


def test_7_3_each_step_follows_and_the_lost_work_is_one_figure():
    for env, text in steps_of("7.3"):
        c, f, product, hours, minutes = find(
            r"sqrt\(2 × (\d+)/3600 h × (\d+) h\) = sqrt\((\d+)/3600 h²\)\s+= ([\d.]+) h ≈ ([\d.]+) minutes", text)
        assert 2 * int(c) * int(f) == int(product), text
        assert shows(math.sqrt(int(product) / 3600), hours), text
        assert shows(60 * float(hours), minutes), text
        c2, f2, shortcut = find(r"sqrt\(2 × (\d+) × (\d+)\) =\s+([\d.]+)", text)
        assert shows(math.sqrt(2 * int(c2) * int(f2)), shortcut), text
        lost, = find(r"A crash then loses about ([\d.]+) minutes", text)
        again, = find(r"Expected lost work is also ([\d.]+) min", text)
        young_minutes = math.sqrt(2 * env["C"] / 3600 * env["F"]) * 60
        assert lost == again and shows(young_minutes / 2, lost), text


def test_11_3_each_step_follows_from_the_figures_it_shows():
    for _env, text in steps_of("11.3"):
        per_expert, = find(r"3 x 7168 x 2048\s+= ([\d.]+) M", text)
        assert shows(3 * 7168 * 2048 / 1e6, per_expert), text
        ep, experts = find(r"256 / (\d+) x 58\s+= (\d+)", text)
        assert 256 // int(ep) * 58 == int(experts), text
        experts_again, per_expert_again, billions = find(r"(\d+) x ([\d.]+) M\s+= ([\d.]+) B", text)
        assert (experts_again, per_expert_again) == (experts, per_expert), text
        assert shows(int(experts) * float(per_expert) / 1e3, billions), text
        gigabytes, = find(r"x 2\s+= ([\d.]+) GB", text)
        assert shows(2 * float(billions), gigabytes), text


def test_15_4_each_step_follows_from_the_figures_it_shows():
    for _env, text in steps_of("15.4"):
        c, t, overhead = find(r"C/T\s+= ([\d.]+)/(\d+)\s+= ([\d.]+) %", text)
        assert shows(100 * float(c) / int(t), overhead), text
        lost, m, failures = find(r"\(T/2 \+ R\)/M = ([\d.]+)/(\d+)\s+= ([\d.]+) %", text)
        assert shows(100 * float(lost) / int(m), failures), text
        waste, goodput = find(r"goodput\s+100 - ([\d.]+)\s+= ([\d.]+) %", text)
        assert shows(100 - float(waste), goodput), text
        young_stalls, young_failures, young_waste, young_goodput = find(
            r"gives ([\d.]+) % \+ ([\d.]+) % = ([\d.]+) % waste, a goodput of\s+([\d.]+) %", text)
        assert shows(float(young_stalls) + float(young_failures), young_waste), text
        assert shows(100 - float(young_waste), young_goodput), text


# --- each exercise stands alone, and its title holds under every variant ---------------------------

# A bare number in a varying exercise's title, allowed because it names what is asked, not a drawn figure.
FIXED_IN_TITLE = {
    "16.2": "TP = 16",     # the proposal the exercise weighs; only the MFU and the link vary
}

# "The same pipeline", "as before", "exercise 4.3": on a review card nothing came before.
CROSS_REFERENCE = re.compile(
    r"(?i)\bsame\s+(?:\S+\s+){0,2}?(?:setup|move|job|model|pipeline|run|cluster|gradient|all-reduce|allreduce|node|nodes|"
    r"network|layer|layers|layer shape|numbers|data)\b|\bas before\b|\b(?:previous|last|earlier|preceding) "
    r"(?:exercise|question|one|problem)\b|\bexercise \d+\.\d+\b|\bsetup of \d+\.\d+\b|^\s*(?:keep|now)\b",
    re.MULTILINE)

# Cross-references in a prompt that restates every number it refers to: (id, phrase) -> the numbers.
RESTATED: dict[tuple[str, str], str] = {}

BARE_NUMBER = re.compile(r"(?<![\w-])\d[\d,.]*[kKMBGT]?(?![\w-])")    # 8, 16k, 7B; not FP8, ZeRO-1, 1F1B


@pytest.mark.parametrize("exercise_id", VARYING)
def test_a_varying_exercise_s_title_states_no_number(exercise_id):
    """Lists show the title with the book's numbers while a review poses the variant's: a title must not
    say 16k GPUs or 7B when the card asks about other numbers. Numbers inside names (ZeRO-3, FP8, 1F1B)
    are not figures."""
    title = BOOK.exercise(exercise_id).written.title
    assert "{{" not in title, f"{exercise_id}: the title {title!r} changes with the variant"
    rest = title.replace(FIXED_IN_TITLE.get(exercise_id, "\0"), " ")
    assert not BARE_NUMBER.search(rest), f"{exercise_id}: the title {title!r} states a number"


@pytest.mark.parametrize("exercise_id", VARYING)
def test_a_varying_exercise_s_prompt_and_title_stand_alone(exercise_id):
    written = BOOK.exercise(exercise_id).written
    for field, text in (("title", written.title), ("prompt", written.prompt)):
        for match in CROSS_REFERENCE.finditer(text):
            assert (exercise_id, match.group(0)) in RESTATED, \
                f"{exercise_id} {field}: {match.group(0)!r} points at another exercise:\n{text}"
    for (ex_id, phrase) in RESTATED:
        assert phrase in BOOK.exercise(ex_id).written.prompt


def test_the_cross_reference_rule_catches_what_issue_21_found():
    for text in ("Same setup: on 4 GPUs, 16 rounds", "The same pipeline (p = 8, m = 12) switches",
                 "Now the same 8 GB gradient is all-reduced", "The same 7B model with ZeRO Stage 2",
                 "Keep p = 4, m = 12", "The cross-node AllReduce from exercise 4.3 takes"):
        assert CROSS_REFERENCE.search(text), text
    for text in ("the gradient sent back is the same size", "It receives the same amount.",
                 "the ones holding the same shard"):
        assert not CROSS_REFERENCE.search(text), text
    for title in ("Goodput at 16k GPUs", "7B with ZeRO-1 on 64 GPUs", "Ring or tree for a 8 GB gradient?"):
        assert BARE_NUMBER.search(title), title
    for title in ("Model states under ZeRO-1", "Activation memory saved by FP8", "Bubble overhead of a 1F1B pipeline"):
        assert not BARE_NUMBER.search(title), title
