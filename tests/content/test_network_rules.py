"""Issue 41's rules of `ringbook content check`, which hold the book to its network model (book.yaml's
hardware, grader/network.py): a port no faster than the product's node has, a group said to cross nodes
that does not fit in one, and a worked step rounded so that it no longer follows at its own figures.
Each test rebuilds the book's old faulty text in a copy of one built-in chapter, alone in its folder so
that other chapters' work in progress does not enter, and reads the real command's `path:line: message`
output; and shows the right text passing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.book.text_check import arithmetic_problems, network_problems
from grader.book.variants import format_number, render
from tui.cli.main import main

HARDWARE = {"H100": {"memory": 80, "nvlink": 450, "gpus": 8, "nics": 8, "network": 400, "pcie": 63},
            "A100": {"memory": 80, "nvlink": 300, "gpus": 8, "nics": 8, "network": 200, "pcie": 31.5}}

H100_PORTS = ("is faster than any of the H100's: its node's NICs run at 400 Gb/s (50 GB/s) each way, and the PCIe "
              "link that feeds each carries 63 GB/s (only several NICs together are faster: say so, or use the "
              "product's own rate)")


def only(chapters_copy, chapter: str, exercise: str, narrative: str | None = None) -> tuple[Path, Path]:
    """A copy of the built-in book with `chapter` alone, holding only `exercise` (and `narrative` as its
    chapter.md, if given): (the book, its exercises.yaml)."""
    book = chapters_copy(chapter)
    path = book / chapter / "exercises.yaml"
    path.write_text("exercises:\n" + exercise)
    if narrative is not None:
        (book / chapter / "chapter.md").write_text(narrative)
    return book, path


def run_check(book: Path, capsys) -> tuple[int, list[str]]:
    code = main(["content", "check", "--content", str(book)])
    return code, capsys.readouterr().out.splitlines()


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().split("\n")) if text in line) + 1


def at(rows: list[str], path: Path, line: int) -> list[str]:
    prefix = f"{path}:{line}: "
    return [row[len(prefix):] for row in rows if row.startswith(prefix)]


# --- 1. a port faster than the product's node has ----------------------------------------------------

# 13.4 as it was before the network model (2b31747): InfiniBand "ports at 100 GB/s" on an H100 node.
OLD_134 = '''  - id: "13.4"
    title: An all-reduce across two nodes
    kind: derive
    prompt: |
      A gradient of **{{M}} GB** is all-reduced by a flat ring over **16**
      GPUs in **two** H100 nodes. Most ring hops use NVLink (450 GB/s per
      direction), but the hops between
      the nodes go through InfiniBand ports at **{{B}} GB/s** per direction.
      A ring moves in lockstep, so its slowest hop sets the pace. Ignoring
      latency, how long does the all-reduce take, in ms?
    hints:
      - Every step waits for the slowest hop. Which bandwidth is that?
      - "T = 2M(N - 1)/(N B) with N = 16 and B = {{B}} GB/s."
    params:
      M: 16      # GB
      N: 16
      B: 50      # GB/s, one direction, InfiniBand
    vary:
      M: {choices: [2, 4, 8, 16, 32]}
      B: {choices: [25, 50, 100]}     # HDR, NDR, XDR ports
    answer: 1000*2*M*(N-1)/(N*B)
    unit: ms
    mistakes:
      - answer: 1000*2*M*(N-1)/(N*450)
        feedback: "Most hops run at NVLink speed, but every step waits for the two that cross InfiniBand."
      - answer: 1000*2*M*(N-1)/(N*8*B)
        feedback: "{{8*B}} is in gigabits per second. One port moves {{B}} GB/s."
    explanation: |
      ```text
      T = 2 x {{M}} x 15 / (16 x {{B}}) s = {{answer/1000}} s = {{answer}} ms
      ```
'''


def test_old_134_with_100_gbs_ports_on_an_h100_node_is_reported(chapters_copy, capsys):
    """100 GB/s is 800 Gb/s: no NIC of an H100 node runs so fast, nor could the PCIe Gen5 x16 link (63 GB/s)
    that feeds it carry it."""
    book, path = only(chapters_copy, "13-hardware", OLD_134)
    code, rows = run_check(book, capsys)
    messages = at(rows, path, line_of(path, "prompt: |"))
    assert code == 1 and len(messages) == 1, rows
    assert re.fullmatch(r"prompt: with seed \d+ \(M=\d+, N=16, B=100\), a port at \"100 GB/s\" "
                        + re.escape(H100_PORTS), messages[0]), messages[0]


def test_old_134_with_the_ports_an_h100_node_has_passes(chapters_copy, capsys):
    """HDR (25 GB/s) and NDR (50 GB/s) ports are ones an H100 node can have."""
    book, path = only(chapters_copy, "13-hardware", OLD_134.replace("[25, 50, 100]", "[25, 50]"))
    code, rows = run_check(book, capsys)
    assert not [row for row in rows if "a port at" in row], rows


def test_an_800_gbs_port_in_a_chapter_paragraph_about_an_h100_node_is_reported(chapters_copy, capsys):
    narrative = ("# Hardware\n\nSome words first.\n\nAn H100 node has eight network ports,\n"
                 "each at 800 Gb/s per direction.\n\nA node of another kind has 800 Gb/s ports.\n")
    book, path = only(chapters_copy, "13-hardware", OLD_134.replace("[25, 50, 100]", "[25, 50]"), narrative)
    code, rows = run_check(book, capsys)
    chapter = path.parent / "chapter.md"
    assert code == 1
    assert at(rows, chapter, 6) == [f'a port at "800 Gb/s" {H100_PORTS}']
    any_ports = H100_PORTS.replace("H100's", "H100/A100/B200's")   # a paragraph naming no product: any declared
    assert [row for row in rows if str(chapter) in row] == [f"{chapter}:6: a port at \"800 Gb/s\" {H100_PORTS}",
                                                            f"{chapter}:8: a port at \"800 Gb/s\" {any_ports}"]


def test_old_chapter_6_with_a_100_gbs_infiniband_link_is_reported(chapters_copy, capsys):
    """Issue 41: chapter 6 stretched TP over "an InfiniBand link of around 100 GB/s", a paragraph that names no
    product; no node the book declares has a port faster than 400 Gb/s (50 GB/s, fed by 63 GB/s of PCIe)."""
    narrative = ("# Tensor parallelism\n\nStretch the group to TP=16 across two nodes and the ring now crosses an\n"
                 "InfiniBand link of around 100 GB/s: each AllReduce takes about 1.26 ms.\n\n"
                 "Across two rail-optimized nodes the ring runs at 400 GB/s through all eight NICs.\n")
    book, path = only(chapters_copy, "13-hardware", OLD_134.replace("[25, 50, 100]", "[25, 50]"), narrative)
    code, rows = run_check(book, capsys)
    chapter = path.parent / "chapter.md"
    assert code == 1
    assert [row for row in rows if str(chapter) in row] == [
        f"{chapter}:4: a port at \"100 GB/s\" {H100_PORTS.replace('H100', 'H100/A100/B200')}"]


def test_a_chapter_paragraph_with_the_ports_an_h100_node_has_passes(chapters_copy, capsys):
    narrative = ("# Hardware\n\nAn H100 node has eight 400 Gb/s NDR ports, one per GPU:\n"
                 "8 x 400 Gb/s = 3,200 Gb/s, 400 GB/s for the node in total.\n")
    book, path = only(chapters_copy, "13-hardware", OLD_134.replace("[25, 50, 100]", "[25, 50]"), narrative)
    code, rows = run_check(book, capsys)
    assert code == 0, rows


@pytest.mark.parametrize("text, shown", [
    ("An H100 node has eight 800 Gb/s ports.", "800 Gb/s"),
    ("the H100's ~100 GB/s InfiniBand", "100 GB/s"),
    ("an H100 node's InfiniBand link of around 100 GB/s", "100 GB/s"),
    ("two H100 nodes joined by InfiniBand ports at **100 GB/s** per direction", "100 GB/s"),
    ("An A100 node with 400 Gb/s NDR ports", "400 Gb/s"),   # a DGX A100's NICs are HDR, 200 Gb/s, on PCIe Gen4
    ("A node with 800 Gb/s ports", "800 Gb/s"),             # no product named: faster than any the book declares
])
def test_ports_faster_than_the_products_node_has_are_found(text, shown):
    messages = network_problems(text, HARDWARE)
    assert len(messages) == 1 and messages[0].startswith(f'a port at "{shown}" is faster than any of the')


@pytest.mark.parametrize("text", [
    "two H100 nodes joined by InfiniBand ports at **50 GB/s** per direction",
    "An H100 node has eight 400 Gb/s ports: 8 x 400 Gb/s = 3,200 Gb/s.",   # a result is the node's
    "An H100 node's ports carry 3,200 Gb/s together.",                    # so is a rate said of all of them
    "An H100 node: 400 GB/s through all eight NICs.",                     # GB/s, not written as one port's
    "A node with 100 Gb/s Ethernet ports",                                # no product named, and any has it
    "An H100 node: 400 GB/s through all eight NICs, 50 GB/s per NIC.",   # all of them, then each one's
    "An H100 and a 200 Gb/s HDR port",
    "An H100 node. 3200 Gb/s is in gigabits per second.",                 # no port in that sentence
])
def test_ports_a_node_can_have_are_not_reported(text):
    assert network_problems(text, HARDWARE) == []


def test_an_exercise_about_a_card_is_held_to_its_ports_in_every_text():
    """A paragraph that names no product is about the exercise's card (or the products its texts name)."""
    assert network_problems("The hops between the nodes use ports at 100 GB/s.", HARDWARE, ("H100",)) \
        == [f'a port at "100 GB/s" {H100_PORTS}']
    assert network_problems("The hops between the nodes use ports at 100 GB/s.", HARDWARE) \
        == [f'a port at "100 GB/s" {H100_PORTS.replace("H100", "/".join(HARDWARE))}']   # no card: any product


# --- 2. a group said to cross nodes that fits in one -------------------------------------------------

# 11.2 as it was (2b31747): P = 8 among its choices, and a "cross-node network" in the explanation.
OLD_112 = '''  - id: "11.2"
    title: All-to-all bytes per GPU per MoE layer
    kind: derive
    prompt: |
      Expert parallelism spreads the experts evenly over P = {{P}} GPUs. Each
      GPU holds T = {{T}} tokens, the router picks k = {{k}} experts per token,
      the hidden size is h = 7168, and activations travel in BF16 (2 bytes).
      Assume each assignment lands on any GPU with equal probability, and
      that an assignment to a local expert costs no traffic.

      In the **forward pass of one MoE layer**, how many megabytes does one
      GPU send in total (dispatch plus combine)? Use 1 MB = 10^6 bytes.
    hints:
      - Each token is sent once per chosen expert, each copy h x 2 bytes.
      - A fraction 1/P of the assignments stays on the local GPU.
      - Dispatch and combine move the same amount.
    params:
      P: 64
      T: 4096
      k: 8
      h: 7168
      b: 2
    vary:
      P: {choices: [8, 16, 32, 64, 128]}
      T: {choices: [4096, 8192]}
      k: {choices: [4, 8]}
    constraints: ["answer > 800", "answer < 1000"]    # "almost a gigabyte", as the explanation says
    answer: 2*T*k*h*b*(P-1)/P/1e6
    unit: MB
    mistakes:
      - answer: T*k*h*b*(P-1)/P/1e6
        feedback: "That's the dispatch alone. The expert outputs have to come back in the combine
          all-to-all, the same size again."
      - answer: 2*T*h*b*(P-1)/P/1e6
        feedback: "A token routed to {{k}} experts is sent {{k}} times (once to each expert's GPU), not once."
      - answer: 2*T*k*h*b/P/1e6
        feedback: "That's what goes to a single peer GPU. The all-to-all sends to all {{P-1}} other GPUs."
    explanation: |
      ```text
      one copy        h b             = 7168 x 2 B        = 14.3 kB
      assignments     T k             = {{T}} x {{k}}          = {{T*k}}
      dispatch        T k h b (P-1)/P = {{T*k*h*b/1e6}} MB x {{P-1}}/{{P}}  = {{answer/2}} MB
      dispatch+combine                                    = {{answer}} MB
      ```

      Almost a gigabyte per GPU per MoE layer, in the forward pass alone;
      the backward pass sends the same again as gradients. Over a
      cross-node network at 50 GB/s that is {{answer/50:3}} ms per layer, which is
      why real systems limit each token to experts on a few nodes (sending
      one copy per node and fanning out over NVLink) and overlap the
      all-to-all with compute.
'''

CROSSING = ('it says the traffic crosses nodes ("cross-node"), but P = 8 GPUs fit in one H100/A100/B200 node '
            "(8 GPUs), where they talk over NVLink: keep P above 8 with a constraint, or guard the sentence with "
            "`when`")


def test_old_112_crossing_nodes_with_8_gpus_is_reported(chapters_copy, capsys):
    book, path = only(chapters_copy, "11-expert-parallelism", OLD_112)
    code, rows = run_check(book, capsys)
    messages = at(rows, path, line_of(path, "explanation: |"))
    assert code == 1 and len(messages) == 1, rows
    assert re.fullmatch(r"explanation: with seed \d+ \(P=8, T=\d+, k=\d, h=7168, b=2\), " + re.escape(CROSSING),
                        messages[0]), messages[0]


def test_old_112_with_groups_larger_than_a_node_passes(chapters_copy, capsys):
    larger = OLD_112.replace("[8, 16, 32, 64, 128]", "[16, 32, 64, 128]")
    book, path = only(chapters_copy, "11-expert-parallelism", larger)
    code, rows = run_check(book, capsys)
    assert code == 0, rows


def test_old_112_with_its_network_sentence_guarded_passes(chapters_copy, capsys):
    """The sentence kept only where the group spans nodes (`when: "P > 8"`), P = 8 still drawn."""
    start = OLD_112.index("      Almost a gigabyte")
    guarded = (OLD_112[:OLD_112.index("    explanation: |")] + "    explanation:\n      - |\n"
               + "\n".join("  " + line if line else line for line in
                           OLD_112[OLD_112.index("    explanation: |") + len("    explanation: |\n"):start]
                           .rstrip("\n").split("\n"))
               + "\n      - when: \"P > 8\"\n        text: |\n"
               + "\n".join("    " + line for line in OLD_112[start:].rstrip("\n").split("\n")) + "\n")
    book, path = only(chapters_copy, "11-expert-parallelism", guarded)
    code, rows = run_check(book, capsys)
    assert code == 0, rows


# --- 3. a result rounded so that its step looks wrong ------------------------------------------------

def test_a_step_whose_result_hides_a_tie_is_reported(chapters_copy, capsys):
    """"15/120 = 12 %": the step gives 12.5 %, which rounds to 13 (or shows as 12.5), never 12. The old
    check took 12 as good because 12.5 lies just within half a unit of it, and the operands' allowance for
    dropped zeros widened that further."""
    book = chapters_copy("00-ring-allreduce")
    path = book / "00-ring-allreduce" / "exercises.yaml"
    text = path.read_text()
    path.write_text(text.replace("    explanation: |\n", "    explanation: |\n      Check: 15/120 = 12 %.\n", 1))
    code, rows = run_check(book, capsys)
    messages = at(rows, path, line_of(path, "explanation: |"))
    assert code == 1
    assert messages == ['explanation: with the book\'s own numbers, the worked step "15/120 = 12 %" does not follow '
                        "from its numbers at the figures it shows: they give 12.5%, which rounds to 13% (or show "
                        "12.5%)"]


def test_a_template_step_that_ties_is_shown_rounded_away_from_zero(chapters_copy, capsys):
    """A placeholder rounds a tie as a reader does: {{100*15/120:2}} shows 13, where Python's own formatting
    gave 12 (a tie to even)."""
    assert render("15/120 = {{100*15/120:2}} %", {}) == "15/120 = 13 %"
    book = chapters_copy("00-ring-allreduce")
    path = book / "00-ring-allreduce" / "exercises.yaml"
    text = path.read_text()
    check = "    explanation: |\n      Check: 15/120 = {{100*15/120:2}} %.\n"
    path.write_text(text.replace("    explanation: |\n", check, 1))
    code, rows = run_check(book, capsys)
    assert not [row for row in rows if "15/120" in row], rows


@pytest.mark.parametrize("step, message", [
    ("15/120 = 12 %", "they give 12.5%, which rounds to 13% (or show 12.5%)"),
    ("1/8 = 0.12", "they give 0.125, which rounds to 0.13 (or show 0.125)"),
    ("2 × 7.5 × 99/100 = 14.8", "they give 14.85, which rounds to 14.9 (or show 14.85)"),
    ("15/120 ≈ 12%", "they give 12.5%, which rounds to 13% (or show 12.5%)"),
])
def test_results_rounded_the_wrong_way_at_their_figures_are_found(step, message):
    assert arithmetic_problems(step) == [f'the worked step "{step}" does not follow from its numbers at the figures '
                                         f"it shows: {message}"]


@pytest.mark.parametrize("step", [
    "15/120 = 13 %", "15/120 = 12.5 %", "10/3 = 3.3", "2/3 = 0.67", "3/8 = 0.375",
    "2 × 6.25 = 12",                  # 6.25 shows 3 figures: a rounded number, maybe 6.2496
    "2 × 8.39 MB × 3/4 = 12.58",      # the same: 8.39 is 8.388608 rounded
    "2 × 7.5 × 999/1000 = 14.98",     # and 999 reads as rounded too (it shows 3 figures)
    "80 * 268,435,456 = 21,474,836,480",
])
def test_results_rounded_right_are_not_reported(step):
    assert arithmetic_problems(step) == []


@pytest.mark.parametrize("value, spec, shown", [
    (12.5, "2", "13"), (14.985, "4", "14.99"), (11.625, "4", "11.63"), (0.125, "2", "0.13"), (-12.5, "2", "-13"),
    (2.675, ".2", "2.68"), (41.76 / 320 * 100, ".1", "13.1"), (0.1 + 0.2, "", "0.3"), (12.49, "2", "12"),
])
def test_format_number_rounds_a_tie_away_from_zero(value, spec, shown):
    assert format_number(value, spec) == shown


def test_a_nic_faster_than_the_pcie_link_that_feeds_it_is_a_book_problem(chapters_copy, capsys):
    """Issue 41: an H100-era NIC sits on PCIe Gen5 x16 (about 63 GB/s per direction), so book.yaml cannot give an
    H100 node 800 Gb/s (100 GB/s) NICs."""
    book = chapters_copy("13-hardware")
    path = book / "book.yaml"
    path.write_text(path.read_text().replace("nics: 8, network: 400, pcie: 63}   # HGX H100",
                                             "nics: 8, network: 800, pcie: 63}   # HGX H100"))
    code, rows = run_check(book, capsys)
    assert code == 1
    assert at(rows, path, line_of(path, "  H100: {")) == [
        "hardware H100: NICs of 800 Gb/s move 100 GB/s each, more than the 63 GB/s PCIe link that feeds each (pcie)"]


@pytest.mark.parametrize("figures", ["nics: .inf, network: .inf, pcie: .inf", "nics: .nan, network: 400, pcie: 63",
                                     "nics: 7.5, network: 400, pcie: 63"])
def test_hardware_figures_that_no_server_has_are_a_book_problem(chapters_copy, capsys, figures):
    """Found reading the change: .inf passed `> 0` (a NIC and its PCIe link both infinite), and a node of 7.5
    NICs was taken; the exercises then failed far from book.yaml, where the figure is."""
    book = chapters_copy("13-hardware")
    path = book / "book.yaml"
    path.write_text(path.read_text().replace("nics: 8, network: 400, pcie: 63}   # HGX H100",
                                             f"{figures}}}   # HGX H100"))
    code, rows = run_check(book, capsys)
    assert code == 1
    assert at(rows, path, line_of(path, "  H100: {")) == [
        "hardware H100: give memory (GB per GPU), nvlink (GB/s per GPU, one direction), gpus and nics (per node, "
        "whole), network (Gb/s per NIC) and pcie (GB/s of the link feeding a NIC), positive finite numbers"]
