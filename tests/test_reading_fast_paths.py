"""The reader's fast paths read exactly what the plain versions read.

Step grading reached its speed through shortcuts: a quick scan that decides whether a
slow pattern can match at all, a lookahead that lets a pattern fail at once, one scan for
every part's label instead of one per part, a sieve before the exact match test, a
greedy alignment before the exhaustive one. Each shortcut is checked here against the
plain version it replaced, written out in the test, on texts built from the fragments
that matter to it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from physgen.reading import numbers, quantity, segment, span, steps
from physgen.reading.numbers import normalise, runs
from physgen.reading.steps import Found, _align, _align_exhaustive, _label, _near, matches, read_values


def _texts(fragments: Sequence[str], size: int = 12) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(list(fragments)), max_size=size).map("".join)


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


# -- quick scans: whenever the slow pattern would change the text, the scan finds something --
SCIENTIFIC = [
    "1",
    "0",
    "10",
    "2.5",
    " ",
    "×",
    "·",
    "x",
    "X",
    "*",
    "\\times",
    "\\cdot",
    "\t",
    "imes",
    "^",
    "{",
    "}",
    "(",
    ")",
    "-",
    "⁻",
    "³",
    "**",
    "s",
    "t",
    "e",
]
THOUSANDS = ["1", "25", "000", "250", " ", "\u2009", "\u202f", "\u00a0", ",", ".", "٣", "a"]
PRECISION = [
    "3",
    "12",
    " ",
    "s.f.",
    "S.F",
    "sf",
    "sig figs",
    "significant figures",
    "d.p.",
    "dp",
    "decimal places",
    "(",
    ")",
    "to ",
    "rounded to ",
    "ſ.f.",
    "x",
]


def _joined(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map("".join)


def _one_of(*texts: str) -> st.SearchStrategy[str]:
    return st.sampled_from(texts)


SPACE = _one_of("", " ", "  ", "\t")
WRITTEN_POWERS = _joined(
    _texts(SCIENTIFIC, 4),
    _one_of("", "-", "+"),
    _one_of("5", "2.5", ".5", "12."),
    SPACE,
    _one_of("\\times", "\\cdot", "×", "·", "x", "X", "*", "\t imes", "\ttimes", "\timesx"),
    SPACE,
    _one_of("10", "1 0"),
    _one_of("^5", "^{-3}", "^(+2)", "**4", "**(-2)", "⁻³", "³", "^"),
    _texts(SCIENTIFIC, 4),
)


@settings(max_examples=400)
@given(_texts(SCIENTIFIC) | WRITTEN_POWERS)
def test_the_scientific_notation_scan_misses_nothing(text: str) -> None:
    if numbers._SCI.sub(numbers._sci_repl, text) != text:
        assert numbers._SCI_HINT.search(text)


WRITTEN_THOUSANDS = _joined(
    _texts(THOUSANDS, 4),
    _one_of("1", "25", "250", "٣"),
    _one_of(" ", "\u2009", "\u202f", "\u00a0"),
    _one_of("000", "250", "٣٣٣", "00"),
    _one_of("", " 000", "\u00a0500", ",000"),
    _texts(THOUSANDS, 4),
)


@settings(max_examples=400)
@given(_texts(THOUSANDS) | WRITTEN_THOUSANDS)
def test_the_thousands_scan_misses_nothing(text: str) -> None:
    if numbers._THOUSANDS.search(text):
        assert numbers._THOUSANDS_HINT.search(text)


@settings(max_examples=400)
@given(_texts(PRECISION))
def test_the_precision_scan_misses_nothing(text: str) -> None:
    if quantity._PRECISION.search(text):
        assert quantity._PRECISION_HINT.search(text)


# -- lookaheads: a pattern with one finds what it finds without -------------------------------
def _without_lookahead(pattern: re.Pattern[str], lookahead: str) -> re.Pattern[str]:
    assert lookahead in pattern.pattern
    return re.compile(pattern.pattern.replace(lookahead, "", 1), pattern.flags)


RUNS = [
    "2",
    "3.5",
    ".5",
    "1e5",
    "pi",
    "sqrt(",
    "cbrt(",
    "root(",
    "exp(",
    "ln(",
    "log10(",
    "log(",
    "sin(",
    "cos(",
    "tan(",
    " ",
    "(",
    ")",
    "*",
    "/",
    "+",
    "-",
    "^",
    ",",
    "x",
    "a",
    "s",
    "e",
    "=",
    ".",
    "_",
]
CORRECTIONS = [
    "wait",
    "Wait",
    "WAIT",
    "actually",
    "correction",
    "I mean",
    "sorry",
    "scratch that",
    "oops",
    "let me correct",
    "on second thought",
    "should be",
    "rather",
    "instead",
    "corrected",
    "no,",
    "No,",
    ". ",
    "! ",
    "ſorry",
    " ",
    "x",
    "5 m",
    "\n",
]
CLAUSES = [
    "and",
    "so",
    "then",
    "with",
    "where",
    "using",
    "given",
    "since",
    "for",
    "at",
    "that",
    "->",
    "→",
    "⇒",
    "-",
    "T_f",
    "sand",
    "forth",
    ";",
    "\n",
    ".",
    ":",
    ",",
    " ",
    "x",
    "=",
    "5",
    "a",
    "ſo",
]


@settings(max_examples=400)
@given(_texts(RUNS))
def test_runs_scan_with_its_lookahead(text: str) -> None:
    plain = _without_lookahead(numbers._RUN, r"(?=[-+(\s\d.pscelrt])")
    assert _spans(numbers._RUN, text) == _spans(plain, text)


@settings(max_examples=400)
@given(_texts(CORRECTIONS))
def test_corrections_scan_with_its_lookahead(text: str) -> None:
    plain = _without_lookahead(quantity.CORRECTION, "(?=[wacisolrn.!])")
    assert _spans(quantity.CORRECTION, text) == _spans(plain, text)


@settings(max_examples=400)
@given(_texts(CLAUSES))
def test_clause_scan_with_its_lookahead(text: str) -> None:
    plain = _without_lookahead(steps._CLAUSE, "(?=[;\\n.:,astwugf\\-→⇒])")
    assert _spans(steps._CLAUSE, text) == _spans(plain, text)


SPELLINGS = {  # names, and how replies write them
    "h_max": ["h_max", "h_{max}", "h_{\\text{max}}", "hmax", "h_(max)"],
    "omega": ["omega", "ω", "\\omega", "Omega"],
    "v0": ["v0", "v_0", "v_{0}", "V0"],
    "Vs": ["Vs", "V_s", "V_{s}"],
    "X_L": ["X_L", "X_{L}", "XL", "x_L"],
    "t": ["t", "\\t", "T"],
    "theta_1": ["theta_1", "θ_1", "\\theta_{1}", "θ1"],
    "lambda": ["lambda", "λ", "\\lambda"],
}
NAME_TEXT = [
    "h",
    "_",
    "max",
    "{",
    "}",
    "\\",
    "text",
    "omega",
    "ω",
    "v",
    "0",
    "V",
    "s",
    "X",
    "L",
    "t",
    "θ",
    "1",
    "lambda",
    "λ",
    "=",
    ":",
    " ",
    "is",
    "≈",
    "\\approx",
    "$",
    "x",
    "(",
    ")",
]


@settings(max_examples=400)
@given(st.sampled_from(sorted(SPELLINGS)), st.data())
def test_name_labels_scan_with_their_lookahead(name: str, data: st.DataObject) -> None:
    written = _joined(
        _texts(NAME_TEXT, 4),
        _one_of("", "\\", "x", " ", "$", "_"),
        st.sampled_from(SPELLINGS[name]),
        SPACE,
        _one_of("=", ":", "≈", "is", "\\approx", "$ =", "~", ""),
        _texts(NAME_TEXT, 4),
    )
    text = data.draw(_texts(NAME_TEXT) | written)
    pattern = segment._name_label(segment._name_pattern(name))
    plain = re.compile(re.sub(r"\(\?=\[[^\]]*\]\)", "", pattern.pattern, count=1), pattern.flags)
    assert plain.pattern != pattern.pattern
    assert _spans(pattern, text) == _spans(plain, text)


# -- one scan for every part's label --------------------------------------------------------
@functools.lru_cache(maxsize=8)
def _one_letter(letter: str) -> re.Pattern[str]:  # the per-letter pattern the single scan replaced
    return re.compile(
        rf"(?:^|(?<=[\s$:,;]))(?:\*\*|__)?(?:[Pp]art[ \t]*)?\([ \t]*[{letter}{letter.upper()}][ \t]*\)"
        rf"(?:\*\*|__)?|"
        rf"^[ \t]*(?:[-*•][ \t]+)?(?:\*\*|__)?(?:[Pp]art[ \t]*)?{letter}[ \t]*[).:](?=\s|\*|$)(?:\*\*|__)?|"
        rf"(?<=\s){letter}\)(?=[ \t]+[-+−]?[\d$\\.])",
        re.M,
    )


LABELS = [
    "(a)",
    "(b)",
    "(C)",
    "a)",
    "b)",
    "A)",
    "B)",
    "c.",
    "d:",
    "a",
    "b",
    "**",
    "__",
    "Part ",
    "part",
    " ",
    "\n",
    "\t",
    "- ",
    "• ",
    "2.0 m",
    "$",
    "(",
    ")",
    "x",
    "-",
]


LABELLED = _joined(
    _texts(LABELS, 4),
    _one_of(" ", "\n", "\t", ""),
    _one_of("(a)", "(B)", "a)", "B)", "b.", "c:", "**(a)**", "Part (b)", "part c)", "- a)", "• b."),
    _one_of(" ", "\t", "  ", "", "\n"),
    _one_of("2.0 m", "-3 s", "$4$", ".5", "x", "\\frac"),
    _texts(LABELS, 4),
)


@settings(max_examples=400)
@given(st.integers(1, 4), _texts(LABELS) | LABELLED)
@example(2, "x\n- a) 2.0 m\n• b. 3 s")  # list marks start a line
@example(4, "d:**(a)** 2.0 m")  # two labels sharing "**": the scan reads the first
def test_one_scan_finds_every_parts_labels(n: int, text: str) -> None:
    """The one scan finds what a scan per letter finds. Where two letters' labels overlap (a CI
    run's draw, "d:**(a)** 2.0 m": "d:**" and "**(a)**" share the bold marks), no text can be
    both, and the one scan takes the first, as a reader does: then it finds each label of the
    letters' scans that does not overlap one it found, and nothing else."""
    each = {(m.start(), m.end(), k) for k in range(n) for m in _one_letter("abcd"[k]).finditer(text)}
    once = {(m.start(), m.end(), segment._letter_of(m)) for m in segment._letter_labels(n).finditer(text)}
    assert once <= each
    for start, end, _ in each - once:
        assert any(s < end and start < e for s, e, _ in once), (start, end)


NUMBERED = ["1.", "2)", "(3)", "4:", "10.", "**", "Part ", " ", "\n", "- ", "* ", "x", "5 m"]


@settings(max_examples=400)
@given(st.integers(1, 4), _texts(NUMBERED))
def test_one_scan_finds_every_numbered_label(n: int, text: str) -> None:
    def one(k: int) -> re.Pattern[str]:
        return re.compile(rf"^[ \t]*(?:[-*][ \t]*)?(?:\*\*)?(?:[Pp]art[ \t]*)?\(?{k + 1}[.):](?:\*\*)?(?=\s)",
                          re.M)

    each = {(m.start(), m.end(), k) for k in range(n) for m in one(k).finditer(text)}
    once = {(m.start(), m.end(), int(m.group("k")) - 1) for m in segment._number_labels(n).finditer(text)}
    assert once == each


# -- the answer marker is looked for from the first "answer" on --------------------------------
MARKERS = [
    "final",
    "Final",
    "FINAL",
    "answer",
    "Answer",
    "ANSWERS",
    "anſwer",
    "fınal",
    "the",
    "The",
    " ",
    "\n",
    "#",
    "##",
    ":",
    "**",
    "is",
    "are",
    "would be",
    "x",
    "5 m",
    ".",
    "_",
]


WRITTEN_MARKERS = _joined(
    _texts(MARKERS, 4),
    _one_of("", "\n", "\n\n", " "),
    _one_of("", "#", "## ", "**"),
    _one_of("", "the ", "The  ", "THE\n"),
    _one_of("", "final ", "Final\n", "fınal"),
    _one_of("answer", "Answers", "anſwer"),
    _one_of("", " is", " are", ":", " :", "**:"),
    _texts(MARKERS, 4),
)


@settings(max_examples=400)
@given(_texts(MARKERS) | WRITTEN_MARKERS)
def test_markers_found_from_the_floor_are_all_markers(text: str) -> None:
    first = span._ANSWER_WORD.search(text)
    whole = _spans(span.MARKER, text)
    if first is None:
        assert whole == []
    else:
        assert _spans_from(text, span._marker_floor(text, first.start())) == whole


def _spans_from(text: str, floor: int) -> list[tuple[int, int]]:
    return [m.span() for m in span.MARKER.finditer(text, floor)]


def test_answer_span_says_where_the_answer_starts() -> None:
    assert span.answer_span("v = 3 m/s.\n### Final answer\n2 s") == ("2 s", "marker", 11)  # the heading
    # a heading with "The" is no heading marker: the marker is "final answer" itself
    assert span.answer_span("v = 3 m/s.\n### The final answer\n2 s") == ("2 s", "marker", 19)
    assert span.answer_span("so \\boxed{4} and \\boxed{5}", 2)[1:] == ("boxed", 3)
    assert span.answer_span("no answer here: 5") == (None, "none", 17)


# -- a label is the symbol before the clause's first "=" ---------------------------------------
def _label_plain(text: str, at: int, start: int, clauses: Sequence[tuple[int, int, int]]) -> str:
    """The label as it was read before the fast version: the whole clause searched (a boundary
    counts when it ends before the value and the aside it stands in, if any, closes after it)."""
    low = max(start, at - 200)
    k = max((i for i, c in enumerate(clauses) if c[1] <= at < c[2]), default=-1)
    clause = text[clauses[k][1] : at] if k >= 0 and clauses[k][0] >= low else text[low:at]
    cut = min((i for i in (clause.find("="), clause.find("≈")) if i >= 0), default=-1)
    if cut < 0:
        return ""
    m = steps._LABEL.search(clause[:cut])
    before = clause[: m.start()].split() if m else []
    if before and before[-1] == steps._MARK:  # the mark that starts a line is no word
        before = []
    if (
        m is None
        or m.group(1).count(")") > m.group(1).count("(")  # "GM/(R v) = …": the end of an expression
        or steps._FUNCTION_BEFORE.search(clause[: m.start()])
        or (before and len(steps.plain(before[-1])) <= 2 and before[-1].lower() not in steps._SHORT_WORDS)
        or (before and "_" in before[-1])  # "h_FE I_B = …": a product
        or (before and before[-1][-1].isdigit())  # "6.40 m = …": a unit
    ):
        return ""
    return steps.plain(m.group(1))


CLAUSE_TEXT = [
    "v",
    "_x",
    "X_L",
    " ",
    "  ",
    "=",
    "≈",
    "/",
    " / ",
    "sin",
    "cos θ",
    "g t",
    "is",
    "so",
    "and",
    ",",
    ";",
    "14.4",
    "2",
    "m/s",
    " ;¶ ",  # the join of two lines
    "(",
    ")",
    "\\",
    "{",
    "}",
    "long_symbol_name_that_goes_on",
]


ASSIGNED = _joined(
    _texts(CLAUSE_TEXT, 6),
    _one_of("", " ", "so ", "x ", "cos ", "a b "),
    _one_of("v", "X_L", "v / c", "v/ c", "v /c", "a / b / c", "θ", "g t", "Δp", "\\omega_{0}"),
    SPACE,
    _one_of("=", "≈", " = 2 ="),
    _texts(CLAUSE_TEXT, 6),
)


@settings(max_examples=400)
@given(_texts(CLAUSE_TEXT, 40) | ASSIGNED, st.data())
def test_labels_read_as_the_whole_clause_would(text: str, data: st.DataObject) -> None:
    text += " 5"
    at = len(text) - 1
    start = data.draw(st.integers(0, at))
    # where the aside each boundary stands in closes: anywhere, or in none
    until = st.integers(0, len(text) + 1) | st.just(steps._OUTSIDE)
    clauses = [(*m.span(), data.draw(until)) for m in steps._CLAUSE.finditer(text)]
    assert _label(text, at, start, clauses) == _label_plain(text, at, start, clauses)


# -- the sieve before the exact match test drops nothing it would accept -----------------------
UNITS = ["", "m", "cm", "km", "s", "ms", "degC", "K", "eV", "J", "m/s", "km/h", "deg", "rad", "percent"]


@settings(max_examples=400)
@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.sampled_from(UNITS),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.sampled_from(UNITS),
    st.sampled_from([0.001, 0.01, 0.2]),
    st.integers(1, 5),
)
def test_the_sieve_keeps_every_match(
    value: float, unit: str, said: float, said_unit: str, rtol: float, figures: int
) -> None:
    text = f"{said:.{figures}g}"
    found = Found(0, float(text), said_unit, text, "", False, 0, 1, text)
    for target in (value, float(text)):  # a value far off, and one the text rounds
        if matches(found, target, unit, rtol):
            assert _near([found], target, unit, rtol) == [found]


# -- the alignment: the greedy pass gives what the exhaustive one gives -------------------------
positions = st.lists(st.integers(0, 30), max_size=4).map(lambda p: sorted(set(p)))


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[list[int]], list[list[int]]]:
    """Occurrences of up to 7 intermediates, and for each the earlier ones it must follow."""
    occurrences = draw(st.lists(positions, min_size=1, max_size=7))
    after = [sorted(draw(st.sets(st.integers(0, i - 1), max_size=i))) if i else []
             for i in range(len(occurrences))]
    return occurrences, after


@settings(max_examples=400)
@given(graphs())
def test_alignment_is_the_exhaustive_one(graph: tuple[list[list[int]], list[list[int]]]) -> None:
    occurrences, after = graph
    picks = _align(occurrences, after)
    assert picks == _align_exhaustive(occurrences, after)
    _assert_in_order(picks, occurrences, after)


def _assert_in_order(picks: list[int | None], occurrences: list[list[int]], after: list[list[int]]) -> None:
    """Every credited value is one of its own, after the credited values of those it follows."""
    for i, p in enumerate(picks):
        if p is not None:
            assert p in occurrences[i]
            assert all(q < p for j in after[i] if (q := picks[j]) is not None), (i, picks)


def _by_steps(groups: Sequence[Sequence[Sequence[int]]]) -> list[list[int | None]]:
    """The alignment by steps alone (every step after every earlier one), as it was before the
    solution graph was read: weigh every cut of each step; on a tie credit the later steps."""
    memo: dict[tuple[int, int], tuple[int, list[list[int | None]]]] = {}

    def best(g: int, frontier: int) -> tuple[int, list[list[int | None]]]:
        if g == len(groups):
            return 0, []
        if (g, frontier) not in memo:
            firsts = [next((p for p in occ if p > frontier), None) for occ in groups[g]]
            count, rest = best(g + 1, frontier)
            choice: tuple[int, int, list[list[int | None]]] = (count, 0, [[None] * len(firsts), *rest])
            for cut in sorted({p for p in firsts if p is not None}):
                taken = [p if p is not None and p <= cut else None for p in firsts]
                n = sum(p is not None for p in taken)
                later, rest = best(g + 1, cut)
                if (n + later, -n) > (choice[0], -choice[1]):
                    choice = (n + later, n, [taken, *rest])
            memo[(g, frontier)] = (choice[0], choice[2])
        return memo[(g, frontier)]

    return best(0, -1)[1]


@settings(max_examples=400)
@given(st.lists(st.lists(positions, min_size=1, max_size=3), min_size=1, max_size=4))
def test_following_every_earlier_step_is_the_alignment_by_steps(groups: list[list[list[int]]]) -> None:
    # a variant that does not record what its intermediates are found from is read by steps
    occurrences = [occ for group in groups for occ in group]
    step = [g for g, group in enumerate(groups) for _ in group]
    after = [[j for j in range(i) if step[j] < step[i]] for i in range(len(step))]
    assert _align(occurrences, after) == [p for picks in _by_steps(groups) for p in picks]


@pytest.mark.parametrize("k", [30, 300])
def test_many_intermediates_are_aligned_in_bounded_work(k: int) -> None:
    # each follows every one before, and the values come in reverse order: one can be credited
    # (weighed up to MAX_ALIGN_DEPTH intermediates, credited as they come past it)
    occurrences = [[k - i, 2 * k + i] if i % 7 == 3 else [k - i] for i in range(k)]
    after = [list(range(i)) for i in range(k)]
    picks = _align(occurrences, after)
    _assert_in_order(picks, occurrences, after)
    assert len(picks) == k and sum(p is not None for p in picks) >= 2


def test_an_alignment_past_the_states_weighed_is_still_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # 60 intermediates, each following about a third of those before, values scattered; and the
    # same with the weighing cut short at once: each is then credited as its values come
    import random

    rng = random.Random(0)
    occurrences = [sorted(rng.sample(range(240), 3)) for _ in range(60)]
    after = [[j for j in range(i) if rng.random() < 0.3] for i in range(60)]
    weighed = _align(occurrences, after)
    _assert_in_order(weighed, occurrences, after)
    monkeypatch.setattr(steps, "MAX_ALIGN_STATES", 1)
    cut = _align(occurrences, after)
    _assert_in_order(cut, occurrences, after)
    assert 0 < sum(p is not None for p in cut) <= sum(p is not None for p in weighed)


# -- small readings the fast paths must keep ---------------------------------------------------
def test_an_exponent_after_a_space_is_no_value() -> None:
    assert [r.value for r in runs(normalise("k = 5 s^ (-1) and 3 m^(2)"))] == [5.0, 3.0]


def test_a_cached_expression_reads_the_same_twice() -> None:
    first = read_values("T = 2π·√(0.5/200) = 0.314 s")
    assert read_values("T = 2π·√(0.5/200) = 0.314 s") == first
    assert [(f.value, f.literal) for f in first][-1] == (0.314, False)


# -- a part that is one number and a unit is read as the general reader reads it ----------------
SIMPLE_UNITS = [
    "",
    "sig",
    "Sf",
    "decimal",
    "x10",
    "s^10",
    "kV",
    "°",
    "µC/m",
    "μF",
    "m/s^2",
    "m/s",
    "s^99999",
    "x10^3",
    "sf",
    "s.f.",
    "dp",
    "in",
    "at",
    "N",
    "Ω",
    "kOhm",
    "kΩ",
    "percent",
    "%",
    "degC",
    "a",
    "A",
    "wait",
    "m2",
    "mm",
    "D",
    "kg_m",
    "J",
    "eV",
    "nm",
    "Hz",
    "s",
    "rad",
    "deg",
]


@settings(max_examples=400)
@given(
    _joined(
        _one_of("", " ", "\n", "  "),
        _one_of("145", "-2.5e3", ".5", "+3", "0", "1e999", "12.", "-0.0"),
        _one_of("", " ", "  "),
        st.sampled_from(SIMPLE_UNITS),
        _one_of("", ".", ",", ";", "\n", " ", ". x"),
    ),
    st.sampled_from(
        ["m", "kV", "V", "C/m", "F", "m/s^2", "degC", "K", "", "rad", "percent", "ohm", "s", "J"]
    ),
)
def test_a_number_and_its_unit_read_as_the_general_reader_reads_them(text: str, want: str) -> None:
    fast = quantity.read_value(text, want)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(quantity, "_simple", lambda text, want: None)
        assert quantity.read_value(text, want) == fast
