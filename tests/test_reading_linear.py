"""Every pattern of the reply reader runs in linear time on its worst inputs.

Two checks: a static one, `regexploit` (a ReDoS analyser), finds no pattern in ``physgen.reading``
whose backtracking can grow faster than linearly; and a measured one runs every pattern, and the
whole grader, on runs of whitespace, newlines, digits, labels, brackets and markers four times
longer, and asserts that the CPU time grows about four times, not sixteen (a ratio measured in one
run, never a time). ``regexploit`` cannot parse possessive quantifiers (``*+``): a pattern with them
is checked by the measured test alone.
"""

from __future__ import annotations

import gc
import importlib
import re
import time
from collections.abc import Callable, Iterator

import pytest

from physgen.grading import grade_answer
from physgen.reading.span import squeeze

MODULES = ("span", "segment", "numbers", "quantity", "units", "compare", "algebra", "choice", "refusal",
           "steps")
#: Patterns that see the reply as it came (every other one sees it squeezed, :func:`squeeze`).
RAW = ("span.",)
#: Patterns only ever matched at one place (``match``/``fullmatch``), measured that way.
ANCHORED = ("span._AFTER_BOX", "choice._EXPRESSION_LINE", "quantity._OUTER_PARENS")
#: reading.steps's patterns are measured as the step grader runs them (below): ``steps._AHEAD``
#: scans at most 200 characters after a value (``match(t, end, end + 200)``), so on its own over a
#: whole long text it would look superlinear while each use of it costs a bounded amount.
NOT_MEASURED = ("steps.",)
OPTIONS = ["1.0 m", "2.0 m", "4.2 m", "8.4 m"]


def patterns() -> Iterator[tuple[str, re.Pattern[str]]]:
    """Every compiled pattern a reading module declares (also inside lists of (pattern, repl))."""
    for name in MODULES:
        module = importlib.import_module(f"physgen.reading.{name}")
        for attr, value in vars(module).items():
            items = value if isinstance(value, list | tuple) else [value]
            for item in items:
                for p in item if isinstance(item, tuple) else (item,):
                    if isinstance(p, re.Pattern):
                        yield f"{name}.{attr}", p


ALL = sorted(dict(patterns()).items())


def test_the_reader_has_patterns_to_check() -> None:
    assert len(ALL) >= 80


@pytest.mark.parametrize(("name", "pattern"), ALL, ids=[n for n, _ in ALL])
def test_no_pattern_backtracks_superlinearly(name: str, pattern: re.Pattern[str]) -> None:
    sre = pytest.importorskip("regexploit.ast.sre")
    from regexploit.redos import find

    if re.search(r"[*+?}][+]", pattern.pattern):
        pytest.skip("possessive quantifiers: regexploit cannot parse them (the measured test covers it)")
    parsed = sre.SreOpParser().parse_sre(pattern.pattern, pattern.flags)
    found = [r for r in find(parsed) if r.starriness > 2]
    assert not found, [(r.starriness, r.example_prefix, str(r.redos_sequence)[:80]) for r in found]


#: Worst cases: long runs of one kind, and runs interleaved with what patterns look for after them.
WORST: dict[str, Callable[[int], str]] = {
    "newlines": lambda n: "\n" * n,
    "blank lines": lambda n: "\n \n" * (n // 3),
    "spaces": lambda n: " " * n,
    "tabs and newlines": lambda n: " \t\n" * (n // 3),
    "digits": lambda n: "1" * n,
    "digits and dots": lambda n: "1." * (n // 2),
    "labels": lambda n: "(a) " * (n // 4),
    "line labels": lambda n: "a.\n" * (n // 3),
    "brackets": lambda n: "(" * n,
    "asides": lambda n: "(x = 1, y) = " * (n // 13),
    "nested brackets": lambda n: "min(a, (b = 1 and " * (n // 18),
    "braces": lambda n: "\\frac{" * (n // 6),
    "markers": lambda n: "Final answer: " * (n // 14),
    "equals": lambda n: "x = " * (n // 4),
    "letters": lambda n: "A " * (n // 2),
    "words": lambda n: "wait " * (n // 5),
    "powers": lambda n: "10^" * (n // 3),
    "hashes": lambda n: "#" * n + "\n",
}


def _cost(fn: Callable[[], object]) -> float:
    """Best of three CPU times of ``fn`` (the machine is shared: the best is the least noisy)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _growth(run: Callable[[str], object], make: Callable[[int], str], n: int) -> float:
    """CPU time on 4n characters over that on n, with the garbage collector paused while timing (a
    collection of the test process's whole heap costs far more than the scans measured, and once
    per measurement it was most of this file's run time)."""
    small, large = make(n), make(4 * n)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return (_cost(lambda: run(large)) + 1e-4) / (_cost(lambda: run(small)) + 1e-4)
    finally:
        if was_enabled:
            gc.enable()


def _scan(name: str, pattern: re.Pattern[str]) -> Callable[[str], object]:
    if name in ANCHORED:
        return pattern.match
    return lambda s: sum(1 for _ in pattern.finditer(s))


@pytest.mark.parametrize("kind", sorted(WORST))
def test_every_pattern_is_linear_on_worst_inputs(kind: str) -> None:
    """4x the input costs at most 8x the time for every pattern (quadratic would be 16x), on what
    the pattern sees: the reply, or the reply squeezed (no run longer than a few characters)."""
    slow = {}
    for name, pattern in ALL:
        if name.startswith(NOT_MEASURED):
            continue
        make = WORST[kind] if name.startswith(RAW) else (lambda n: squeeze(WORST[kind](n)))
        ratio = _growth(_scan(name, pattern), make, 2_000)
        if ratio > 8:
            slow[name] = round(ratio, 1)
    assert not slow, slow


def grade_all(text: str) -> None:
    """One reply graded as a one-part answer, a three-part answer and a choice."""
    grade_answer(text, "3 m")
    grade_answer(text, {"a": "3 m", "b": "2 s", "c": "1 kg"})
    grade_answer(text, "C", options=OPTIONS)


@pytest.mark.parametrize("kind", sorted(WORST))
def test_the_grader_is_linear_on_worst_inputs(kind: str) -> None:
    grade_all("warm up 5 m")
    assert _growth(grade_all, WORST[kind], 2_000) < 8


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(WORST))
def test_the_grader_is_linear_on_long_worst_inputs(kind: str) -> None:
    """The same at the size replies are cut to (:data:`~physgen.reading.span.MAX_REPLY`)."""
    assert _growth(grade_all, WORST[kind], 5_000) < 8


def test_thirty_thousand_newlines_return() -> None:
    """The reply that never returned (the continuation pattern backtracked over every newline)."""
    for text in ("\n" * 30_000, "\n" * 30_000 + "Final answer: 3 m", "Question:" + "\n" * 30_000):
        assert grade_answer(text, "3 m").parts[0].reason in ("missing", "unparseable", "correct")


@pytest.fixture(scope="module")
def with_steps() -> object:
    import physgen

    t = next(t for t in physgen.load_catalog().templates() if t.spec.intermediates)
    return next(physgen.generate([t], n=1, seed=0))


@pytest.mark.parametrize("kind", sorted(WORST))
def test_step_grading_is_linear_on_worst_inputs(kind: str, with_steps: object) -> None:
    """grade(..., steps=True) reads the working too (``reading.steps``): 4x the reply, at most 8x
    the time, with each worst run placed inside a realistic worked solution."""
    import physgen

    v = with_steps
    assert isinstance(v, physgen.Variant)
    worked = " ".join(v.steps)

    def grade_steps(text: str) -> None:
        physgen.grade(v, worked + "\n" + text + "\n" + worked, steps=True)

    grade_steps("warm up 5 m")
    assert _growth(grade_steps, WORST[kind], 2_000) < 8
