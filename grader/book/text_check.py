"""What a rendered text says that its own numbers contradict, found before a learner reads it.

A variant renders the same sentences with other numbers, so a sentence true of the book's own numbers can
turn false: a worked step whose shown result no longer follows from its shown operands, "a 8" or "1
minutes", or a product named with another product's figures. Each function takes one rendered text and
returns what is wrong with it, in words an author can act on; grader.book.variant_check runs them over the
sampled variants.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable

from grader.book.variants import DEFAULT_FIGURES, article
from grader.exercise import NumericAnswer, TextKey

# --- worked steps ---------------------------------------------------------------------------------

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[+-]?\d+)?"
UNITS = ("ms", "s", "min", "h", "hours", "days", "KB", "MB", "GB", "TB", "PB", "B", "bytes", "GB/s", "Gb/s", "TB/s",
         "B/s", "GPUs", "tokens", "steps", "FLOPs", "TFLOPS", "PFLOPS")
_UNIT = rf"(?:\s?%|\s(?:{'|'.join(sorted(map(re.escape, UNITS), key=len, reverse=True))})(?![\w/]))?"  # 0.13 ms, 6.5 %
_OPERATOR = r"\s*[×*/+]\s*|\s+[x\-−]\s+"
_STEP = re.compile(
    rf"(?<![\w.,^])(?P<chain>(?:{_NUMBER}){_UNIT}(?:(?:{_OPERATOR})(?:{_NUMBER}){_UNIT})+)"
    rf"\s*(?P<relation>=|≈)\s*(?P<result>{_NUMBER})(?P<percent>\s?%)?(?![\d.]*\s*(?:[×*/+^(]|[x\-−]\s+\d))")
_PARTS = re.compile(rf"(?P<number>{_NUMBER})(?P<unit>{_UNIT})|(?P<operator>{_OPERATOR})")
_BEFORE_BAD = "×*/+-−^)"   # a step that continues an expression on its left is only part of one


def arithmetic_problems(text: str) -> list[str]:
    """Each worked step "a × b = c" (also x, *, /, +, -, ≈) whose shown c does not follow from the shown a
    and b. A result is good within half a unit of its last digit, widened by how much the operands' own
    rounding moves it. The book drops trailing zeros, so a number showing fewer than 3 figures reads as
    exact: an operand such as 0.13 is taken as exact to DEFAULT_FIGURES figures ("320 × 0.13 ms = 41.8
    ms" is wrong), and a result after `=` that is a 3-figure rounding with its last figure dropped
    claims too much ("15/601 = 2.5%" says 2.500% of 2.496%). A result a power of ten (or of 1,024)
    away is a change of unit (16e9 x 2 bytes = 32 GB), not a slip."""
    found: list[str] = []
    if "=" not in text and "≈" not in text:
        return found
    for match in _STEP.finditer(text):
        before = text[:match.start()].rstrip(" *`")
        if before.endswith(tuple(_BEFORE_BAD)) or re.search(r"\sx$", before):
            continue
        numbers, operators = [], []
        for part in _PARTS.finditer(match["chain"]):
            if part["operator"]:
                operators.append(part["operator"].strip().replace("×", "*").replace("x", "*").replace("−", "-"))
            else:
                numbers.append((part["number"], "%" in part["unit"]))
        if len(operators) != len(numbers) - 1:
            continue
        result_text = match["result"]
        result = _value(result_text) / (100 if match["percent"] else 1)
        exact = _evaluate([_value(n) / (100 if pct else 1) for n, pct in numbers], operators)
        if exact is None or result == 0 or _change_of_unit(exact, result):
            continue
        low, high = _interval(numbers, operators)
        scale = 100 if match["percent"] else 1
        strict = match["relation"] == "=" and _figures(result_text) < 3 and _hides_a_digit(exact * scale, result_text)
        half = _half_unit(result_text, figures=DEFAULT_FIGURES if strict else None) / scale
        slack = half + 1e-9 * abs(result)
        shown = " ".join(match.group(0).split())
        percent = "%" if match["percent"] else ""
        if not low - slack <= result <= high + slack:
            found.append(f"the worked step \"{shown}\" does not follow from its numbers: they give "
                         f"{_plain(exact * scale)}{percent}"
                         + (" (write ≈, or show more figures)" if strict and abs(result - exact) <= 10 * half else ""))
        elif not strict and all(_figures(n) < 3 for n, _ in numbers):
            right = _rounded_as_shown(exact * scale, result_text)
            if right is not None:
                found.append(f"the worked step \"{shown}\" does not follow from its numbers at the figures it "
                             f"shows: they give {_plain(exact * scale)}{percent}, which rounds to {right}{percent} "
                             f"(or show {_plain(exact * scale)}{percent})")
    return found


def _rounded_as_shown(exact: float, shown: str) -> str | None:
    """What `exact` rounds to at the precision of `shown`, when that is not `shown`. Called for a step
    whose operands read as exact (fewer than 3 figures), so `exact` is the step's value itself, and a
    result rounded any other way is a slip even where the operands' allowance for trailing zeros would
    cover it: "15/120 = 12 %" shows 12.5 rounded toward zero, which a reader cannot follow (12.5 rounds
    to 13). A tie is rounded away from zero, as grader.book.variants.format_number does."""
    if "e" in shown.lower():
        return None
    half = _half_unit(shown)
    value, size = _value(shown), abs(exact)
    near = min(1e-9 * size, 1e-3 * half)   # a float's error, never a digit the result shows
    if abs(value) - half - near <= size < abs(value) + half - near or (exact > 0) != (value > 0):
        return None
    unit = 2 * half
    right = math.copysign(math.floor(size / unit + 0.5 + 1e-9) * unit, exact)
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return f"{right:{',' if ',' in shown else ''}.{decimals}f}"


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def _figures(text: str) -> int:
    digits = text.replace(",", "").split("e")[0].replace(".", "").lstrip("0")
    return len(digits.rstrip("0") if "." not in text else digits) or 1


def _half_unit(text: str, figures: int | None = None) -> float:
    """Half a unit of the last digit shown (or of the `figures`-th significant figure, if that is finer)."""
    plain = text.replace(",", "")
    mantissa, _, exponent = plain.partition("e")
    scale = 10.0 ** int(exponent or 0)
    if "." in mantissa:
        unit = 10.0 ** -len(mantissa.split(".")[1])
    else:
        unit = 10.0 ** (len(mantissa) - len(mantissa.rstrip("0")))
    value = float(mantissa)
    if figures is not None and value:
        unit = min(unit, 10.0 ** (math.floor(math.log10(abs(value))) - figures + 1))
    return unit * scale / 2


def _operand_half_unit(text: str) -> float:
    """How far an operand may be from what it stands for, as a reader takes it: 0.196 is rounded (half a
    unit of its last digit), while 0.13 or 8 reads as exact (the book drops trailing zeros, and shows 3
    figures or more of a rounded value unless told otherwise), so to DEFAULT_FIGURES figures."""
    return _half_unit(text, figures=DEFAULT_FIGURES if _figures(text) < 3 else None)


def _hides_a_digit(exact: float, shown: str) -> bool:
    """Whether `shown` is `exact` rounded to 3 figures with its last (zero) figure dropped: "2.5" for
    2.496, which reads as exactly 2.5."""
    if exact == 0:
        return False
    rounded = float(f"{exact:.3g}")
    return math.isclose(rounded, _value(shown), rel_tol=1e-12) and not math.isclose(exact, rounded, rel_tol=1e-4)


def _evaluate(values: list[float], operators: list[str]) -> float | None:
    """`values` joined by `operators`, * and / before + and -."""
    terms, signs, current = [], [], values[0]
    for operator, value in zip(operators, values[1:], strict=True):
        if operator == "*":
            current *= value
        elif operator == "/":
            if value == 0:
                return None
            current /= value
        else:
            terms.append(current)
            signs.append(operator)
            current = value
    terms.append(current)
    total = terms[0]
    for sign, term in zip(signs, terms[1:], strict=True):
        total = total + term if sign == "+" else total - term
    return total


def _interval(numbers: list[tuple[str, bool]], operators: list[str]) -> tuple[float, float]:
    """The least and greatest result over the operands' rounding (every corner: the steps are short)."""
    ranges = []
    for text, percent in numbers:
        scale = 100 if percent else 1
        value, half = _value(text) / scale, _operand_half_unit(text) / scale
        ranges.append((value - half, value + half))
    corners = [_evaluate(list(corner), operators) for corner in itertools.product(*ranges)]
    results = [r for r in corners if r is not None]
    return min(results), max(results)


def _change_of_unit(exact: float, shown: float) -> bool:
    if exact == 0 or (exact > 0) != (shown > 0):
        return False
    ratio = abs(exact / shown)
    for base in (10.0, 1024.0):
        power = round(math.log(ratio, base))
        if power != 0 and math.isclose(ratio, base ** power, rel_tol=0.02):
            return True
    return False


def _plain(value: float) -> str:
    return f"{value:.6g}"


# --- a formula's worked value -----------------------------------------------------------------------

_SHOWN_NUMBER = re.compile(rf"(?<![\w.,^])(?:{_NUMBER})(?![\w,]*\d)")


def worked_value_problems(text: str, symbols: tuple[str, ...], value: Callable[[dict[str, float]], float],
                          answer: str) -> list[tuple[int, str]]:
    """(line in `text`, message) for each paragraph that sets every symbol of a formula answer to a number
    (`b = 4, D = 8`) yet shows no figure the formula gives with them: nothing else states a formula
    exercise's answer, so a wrong formula would pass, as a worked step with the book's numbers catches it
    for a numeric one. A figure counts in any unit: a power of ten or of 1,024 away, or a percent."""
    found: list[tuple[int, str]] = []
    start = 0
    for paragraph in re.split(r"(\n\s*\n)", text):
        line = text.count("\n", 0, start) + 1
        start += len(paragraph)
        bound: dict[str, float] = {}
        for symbol in symbols:
            matches = list(re.finditer(rf"(?<![\w.]){re.escape(symbol)}\s*=\s*({_NUMBER})(?![\w.,]*\d)", paragraph))
            if matches:
                bound[symbol] = _value(matches[-1][1])
        if len(bound) < len(symbols) or not symbols:
            continue
        try:
            exact = value(bound)
        except (ArithmeticError, ValueError):
            continue
        if exact == 0 or not math.isfinite(exact):
            continue
        shown = [figure[0] for figure in _SHOWN_NUMBER.finditer(paragraph)]
        if not any(_shows(exact, figure) for figure in shown):
            said = ", ".join(f"{symbol} = {bound[symbol]:g}" for symbol in symbols)
            found.append((line + len(paragraph) - len(paragraph.lstrip("\n")),
                          f"with {said} the answer {answer} gives {_plain(exact)}, a figure this worked example "
                          "never shows: check the answer's formula (or the example's numbers)"))
    return found


def _shows(exact: float, figure: str) -> bool:
    """Whether `figure` is `exact` as shown, in some unit (a power of ten or of 1,024 away, or a percent)."""
    shown = _value(figure)
    if shown == 0:
        return False
    half = _half_unit(figure) + 1e-9 * shown
    return abs(exact - shown) <= half or (_change_of_unit(exact, shown) and abs(exact / _unit_ratio(exact, shown)
                                                                              - shown) <= half)


def _unit_ratio(exact: float, shown: float) -> float:
    """The power of ten or of 1,024 between `exact` and `shown` (what _change_of_unit found)."""
    ratio = exact / shown
    for base in (10.0, 1024.0):
        power = round(math.log(abs(ratio), base))
        if power != 0 and math.isclose(abs(ratio), base ** power, rel_tol=0.02):
            return math.copysign(base ** power, ratio)
    return 1.0


# --- grammar --------------------------------------------------------------------------------------

_ARTICLE = re.compile(r"(?<![\w-])(?P<article>an|a|An|A)[ \t]+(?P<stars>\**)"
                      r"(?P<number>\d[\d,]*(?:\.\d+)?)(?![\d,]*\.?\d)")
COUNT_NOUNS = ("minute", "hour", "second", "day", "week", "slot", "step", "GPU", "token", "node", "expert",
               "layer", "stage", "replica", "checkpoint", "failure")
_ONE_PLURAL = re.compile(rf"(?<![\d.,])(?<![-+−×*/] )(?<![-+−×*/])1\**[ \t]+(?P<noun>(?:{'|'.join(COUNT_NOUNS)})s)\b")
_MANY_SINGULAR = re.compile(r"(?<![\d.,])(?P<number>\d[\d,]*(?:\.\d+)?)\**[ \t]+(?P<noun>minute|hour|second|day|week|"
                            r"slot|step)\b(?![-s])")


def grammar_problems(text: str) -> list[str]:
    """"a 8", "An 1", "1 minutes", "3 slot": an article the number does not take, a plural after 1, a
    singular count noun after another number (templates have helpers for these: {{N|a}}, {{N|slot}})."""
    found = []
    for match in _ARTICLE.finditer(text):
        written, number = match["article"], match["number"]
        if written[0] == "A" and text[:match.start()].rstrip(" *_#>-").rstrip()[-1:] not in ("", ".", "!", "?", ":"):
            continue  # "expert A 8": a name, not an article
        right = article(number)
        if written.lower() != right:
            found.append(f"\"{written} {number}\" should be \"{right.capitalize() if written[0] == 'A' else right} "
                         f"{number}\" (write its placeholder with |a: {{{{N|a}}}})")
    for match in _ONE_PLURAL.finditer(text):
        singular = match["noun"][:-1]
        found.append(f"\"1 {match['noun']}\" should be \"1 {singular}\" (write {{{{N|{singular}}}}})")
    for match in _MANY_SINGULAR.finditer(text):
        if match["number"] not in ("1", "1.0"):
            found.append(f"\"{match['number']} {match['noun']}\" should be \"{match['number']} {match['noun']}s\" "
                         f"(write {{{{N|{match['noun']}}}}})")
    return found


# "N - 1 steps" is right, but a line may wrap after "N -", and the next one then reads "1 steps" (as a learner
# saw): a formula right before a count noun is written without spaces, N-1 steps, which never wraps inside.
WRAPPED_NOUNS = (*COUNT_NOUNS, "port", "chunk", "slice", "block", "transfer", "hop", "round", "phase", "bucket",
                 "rank", "forward", "backward")
_SPLIT_BEFORE_ONE = re.compile(rf"(?P<term>[\w)]+) (?P<op>[-+−]) 1\**[ \t]+(?P<noun>(?:{'|'.join(WRAPPED_NOUNS)})s)\b")


def wrapping_problems(text: str) -> list[str]:
    """"N - 1 steps": a line break after "N -" leaves a line that starts "1 steps"."""
    return [f"\"{m['term']} {m['op']} 1 {m['noun']}\" can wrap into a line that reads \"1 {m['noun']}\": write "
            f"{m['term']}{m['op']}1 {m['noun']}" for m in _SPLIT_BEFORE_ONE.finditer(text)]


# --- hardware -------------------------------------------------------------------------------------

_FIGURE = re.compile(r"(?<![\w.,])(?P<number>\d[\d,]*(?:\.\d+)?)\**\s?(?P<unit>GB/s|Gb/s|GB)(?![\w/])")


def hardware_problems(text: str, hardware: dict[str, dict[str, float]]) -> list[str]:
    """A paragraph that names products (H100) and quotes a figure of another product that none of those
    has: "An H100 data sheet lists NVLink at 600 GB/s" (600 GB/s is the A100's). GB/s is compared with
    NVLink (as printed, or per direction), Gb/s with the network port, GB with the memory."""
    if not hardware:
        return []
    found: list[str] = []
    names = [name for name in sorted(hardware, key=len, reverse=True) if name in text]
    if not names:
        return found
    for paragraph in re.split(r"\n\s*\n", text):
        named = [name for name in names if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", paragraph)]
        if not named:
            continue
        for match in _FIGURE.finditer(paragraph):
            value, unit = _value(match["number"]), match["unit"]
            owners = [name for name in hardware if value in _figures_in(hardware[name], unit)]
            if owners and not set(owners) & set(named):
                found.append(f"\"{match.group(0).replace('*', '')}\" is the {'/'.join(owners)}'s "
                             f"{_FIGURE_WORD[unit]}, in a paragraph about the {'/'.join(named)} "
                             f"({_said(hardware, named, unit)})")
    return found


_FIGURE_WORD = {"GB/s": "NVLink bandwidth", "Gb/s": "network port", "GB": "memory"}


def _figures_in(figures: dict[str, float], unit: str) -> tuple[float, ...]:
    if unit == "GB/s":
        return figures["nvlink"] * 2, figures["nvlink"]  # as data sheets print it, and per direction
    return (figures["network"],) if unit == "Gb/s" else (figures["memory"],)


def _said(hardware: dict[str, dict[str, float]], named: list[str], unit: str) -> str:
    return ", ".join(f"{name}: " + " or ".join(f"{_plain(v)} {unit}" for v in _figures_in(hardware[name], unit))
                     for name in named)


# --- network ports --------------------------------------------------------------------------------

_PORT = r"(?:InfiniBand|Ethernet|RoCE|IB|NICs?|ports?|network\s+cards?)"
_RATE = r"(?P<number>\d[\d,]*(?:\.\d+)?)\**\s?(?P<unit>Gb/s|GB/s)(?![\w/])"
_WAY = r"(?:\s+(?:per\s+direction|each\s+way|one\s+way|one-way))?"
_PORT_RATE = re.compile(
    rf"(?<![\w.,]){_RATE}\**(?={_WAY}\s+(?:\w+\s+)?{_PORT}\b)"                                # 50 GB/s port
    rf"|\b{_PORT}(?:\s+links?)?\s+(?:at|of)\s+(?:(?:around|about|roughly|some)\s+)?\**~?"
    rf"{_RATE.replace('number', 'after').replace('unit', 'after_unit')}"                        # ports at 100 GB/s
    rf"|(?<![\w.,])(?P<bits>\d[\d,]*(?:\.\d+)?)\**\s?Gb/s(?![\w/])")                          # any Gb/s rate
_TOTAL = re.compile(r"\b(?:in\s+total|together|per\s+node|for\s+the\s+node|aggregate|node's\s+(?:network|NICs)|"
                    r"all\s+(?:\w+\s+)?(?:NICs|ports))\b")
_PORT_WORD = re.compile(rf"\b{_PORT}\b|\b(?:HDR|NDR|XDR)\b")
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")


def network_problems(text: str, hardware: dict[str, dict[str, float]], about: tuple[str, ...] = ()) -> list[str]:
    """A network port faster than any the product's node has: "two H100 nodes ... InfiniBand ports at
    100 GB/s" (an H100 node's NICs run at 400 Gb/s, 50 GB/s, and the PCIe Gen5 x16 link feeding each
    carries 63 GB/s), or "an H100 node with 800 Gb/s ports". A rate in Gb/s is a network rate; one in GB/s
    is when it is written as a port's ("50 GB/s port", "InfiniBand ports at 50 GB/s"); either in a sentence
    about ports (a port, a NIC, InfiniBand, Ethernet, NDR). The product is
    the one the paragraph names, else those of `about` (the exercise's card, or the products its texts
    name), else any the book declares: "a ~100 GB/s InfiniBand link" is faster than every one of them. A
    result ("8 x 400 Gb/s = 3,200 Gb/s") and a sentence about several ports together ("3,200 Gb/s in total",
    "the node's network", "all eight NICs") are a node's, not a port's."""
    return [message for _, message in _network_findings(text, hardware, about)]


def narrative_problems(text: str, hardware: dict[str, dict[str, float]]) -> list[tuple[int, str]]:
    """(line, message) for each port in a chapter's Markdown faster than the products its paragraph names
    have, or than any the book declares where it names none (network_problems)."""
    return [(text.count("\n", 0, offset) + 1, message) for offset, message in _network_findings(text, hardware, ())]


def _network_findings(text: str, hardware: dict[str, dict[str, float]],
                      about: tuple[str, ...]) -> list[tuple[int, str]]:
    """(offset in `text`, message) for network_problems."""
    if not hardware or "b/s" not in text.replace("B/s", "b/s"):
        return []
    found: list[tuple[int, str]] = []
    names = _names(tuple(hardware))
    for block in re.finditer(r"(?:[^\n]|\n(?!\s*\n))+", text):
        paragraph = block.group(0)
        named = list(dict.fromkeys(names.findall(paragraph)))
        products = named or [name for name in about if name in hardware] or list(hardware)  # no product: any
        port_gbps = max(hardware[name]["network"] for name in products)
        host_gbs = max(hardware[name]["pcie"] for name in products)
        for match in _PORT_RATE.finditer(paragraph):
            number = match["number"] or match["after"] or match["bits"]
            in_bytes = (match["unit"] or match["after_unit"]) == "GB/s"
            before = paragraph[:match.start()].rstrip(" *~")
            sentence = _sentence(paragraph, match.start(), match.end())
            if before.endswith(("=", "≈")) or _TOTAL.search(sentence) or not _PORT_WORD.search(sentence):
                continue
            gbps = _value(number) * (8 if in_bytes else 1)
            if gbps <= port_gbps * (1 + 1e-9):
                continue
            who = "/".join(products)
            message = (f"a port at \"{number} {'GB/s' if in_bytes else 'Gb/s'}\" is faster than any of the {who}'s: "
                       f"its node's NICs run at "
                       f"{_plain(port_gbps)} Gb/s ({_plain(port_gbps / 8)} GB/s) each way")
            if gbps / 8 > host_gbs * (1 + 1e-9):
                message += f", and the PCIe link that feeds each carries {_plain(host_gbs)} GB/s"
            found.append((block.start() + match.start(),
                          message + " (only several NICs together are faster: say so, or use the product's own rate)"))
    return found


def _sentence(paragraph: str, start: int, end: int) -> str:
    """The sentence of `paragraph` that holds `start`..`end`."""
    ends = [m.end() for m in _SENTENCE_END.finditer(paragraph)]
    first = max((e for e in ends if e <= start), default=0)
    last = min((e for e in ends if e >= end), default=len(paragraph))
    return paragraph[first:last]


@functools.lru_cache(maxsize=16)
def _names(products: tuple[str, ...]) -> re.Pattern[str]:
    """A product's name as a word of a text: H100, not H1000."""
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, sorted(products, key=len, reverse=True)))})(?!\w)")


def products_about(texts: list[str], hardware: dict[str, dict[str, float]], gpu: str | None) -> tuple[str, ...]:
    """The products an exercise is about: its card, else those its texts name."""
    if gpu is not None:
        return (gpu,)
    if not hardware:
        return ()
    named = set(_names(tuple(hardware)).findall("\n".join(texts)))
    return tuple(name for name in hardware if name in named)


# --- a group said to cross nodes that fits in one -------------------------------------------------

_GROUP = re.compile(r"\{\{\s*(?P<name>[A-Za-z_]\w*)\s*(?::[^{}|]*)?\}\}\**\s+(?:GPUs|ranks|GPU\s+ranks)\b"
                    r"(?!\s+(?:per|in\s+each|each|of\s+each)\b)")
_CROSSES = re.compile(r"\b(?:across|between|crosses|crossing|cross|spans?|spanning)\s+(?:the\s+|two\s+|several\s+|"
                      r"many\s+|\d+\s+)?nodes\b|\bcross-node\b|\binter-node\b|\bthe\s+network\b", re.IGNORECASE)


def group_params(templates: list[str]) -> tuple[str, ...]:
    """The params an exercise's texts give as a count of GPUs in its collective: "P = {{P}} GPUs", "over
    **{{N}}** GPUs" (not "{{g}} GPUs per node")."""
    return _group_params(tuple(templates))


@functools.lru_cache(maxsize=512)
def _group_params(templates: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(match["name"] for text in templates for match in _GROUP.finditer(text)))


def crossing_problems(text: str, groups: dict[str, float], node_gpus: float, node: str) -> list[str]:
    """A text that says its traffic crosses nodes ("across nodes", "cross-node", "the network") while the
    exercise's group (`groups`: each param that counts its GPUs, with this variant's value) fits in one
    `node` of `node_gpus` GPUs: its traffic stays on NVLink."""
    crossing = _CROSSES.search(text)
    small = [(name, value) for name, value in groups.items() if value <= node_gpus]
    if crossing is None or not small:
        return []
    name, value = small[0]
    return [f"it says the traffic crosses nodes (\"{' '.join(crossing.group(0).split())}\"), but {name} = "
            f"{_plain(value)} GPUs fit in one {node} node ({_plain(node_gpus)} GPUs), where they talk over NVLink: "
            f"keep {name} above {_plain(node_gpus)} with a constraint, or guard the sentence with `when`"]


def crossing_findings(posed: NumericAnswer) -> list[tuple[TextKey, str]]:
    """`crossing_problems` over the texts of an exercise as posed with one variant's numbers: its groups
    are the params its templates give as counts of GPUs, its node that of its card (or of the products
    its texts name, else the smallest the book declares)."""
    if not posed.hardware:
        return []
    names = group_params((posed.written or posed).texts)
    groups = {name: float(value) for name in names
              if isinstance(value := posed.params.get(name), (int, float)) and not isinstance(value, bool)}
    if not groups or all(value > max(f["gpus"] for f in posed.hardware.values()) for value in groups.values()):
        return []
    products = products_about(posed.texts, posed.hardware, posed.gpu) or tuple(posed.hardware)
    node_gpus = min(posed.hardware[name]["gpus"] for name in products)
    if all(value > node_gpus for value in groups.values()):
        return []
    node = "/".join(products)
    return [(keys, messages[0]) for keys, text in posed.keyed_texts() if keys != ("title",)
            for messages in [crossing_problems(text, groups, node_gpus, node)] if messages]
