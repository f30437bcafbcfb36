"""One test group per stage of the reading pipeline (physgen.reading), on small inputs
whose answers were worked out by hand."""

from __future__ import annotations

import pytest

import physgen
from physgen.reading.algebra import equivalent, to_expression
from physgen.reading.choice import read_choice
from physgen.reading.compare import close, conversion, to_expected
from physgen.reading.numbers import evaluate, normalise, runs
from physgen.reading.quantity import read_value
from physgen.reading.refusal import says_missing
from physgen.reading.segment import Part, split
from physgen.reading.span import clean_reply, final_span
from physgen.reading.units import read_unit


# -- span ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("reply", "span", "source"), [
    ("work... Final Answer: 12 m", "12 m", "marker"),
    ("**Final answer:** $3.0\\,\\mathrm{s}$", "$3.0\\,\\mathrm{s}$", "marker"),
    ("The answer is -4.0.", "-4.0.", "marker"),
    ("Answer: 5 m\nAnswer: 7 m", "7 m", "marker"),  # the last marker wins
    ("so \\boxed{12}\\text{ cm}", "12 \\text{ cm}", "boxed"),
    ("no marker, it is 3 m", None, "none"),
    ("Final answer: 4 s\n\n### Instruction\nNew task. Final answer: 9 s", "4 s", "marker"),
    ("Final answer: 35.3 m. For comparison, a block reaches 6.6 m/s.", "35.3 m.", "marker"),
])
def test_final_span(reply: str, span: str | None, source: str) -> None:
    assert final_span(reply) == (span, source)


def test_repetition_loop_keeps_one_copy() -> None:
    looped = "Final answer: 4.6 x 10^-34." + " The answer is 4.6 x 10^-34." * 40 + " The answer is 4."
    assert clean_reply(looped).count("4.6") == 2  # the first statement and one copy of the loop


# -- segment -----------------------------------------------------------------------------------
PARTS = [Part("R", "m"), Part("t_flight", "s"), Part("h_max", "m")]


@pytest.mark.parametrize("span", [
    "(a) 35.3 m\n(b) 2.04 s\n(c) 5.10 m",
    "1. 35.3 m\n2. 2.04 s\n3. 5.10 m",
    "**(a)** 35.3 m **(b)** 2.04 s **(c)** 5.10 m",
    "R = 35.3 m, t = 2.04 s, h_{max} = 5.10 m",
    "h_max = 5.10 m; t_flight = 2.04 s; R = 35.3 m",
    "35.3 m, 2.04 s, 5.10 m",
])
def test_segments_find_each_part(span: str) -> None:
    got = [read_value(s or "", p.unit).value for s, p in zip(split(span, PARTS), PARTS, strict=True)]
    assert got == [35.3, 2.04, 5.10]


def test_parts_placed_by_dimension_and_a_missing_part() -> None:
    assert split("2.04 s", [Part("R", "m"), Part("t", "s")]) == [None, "2.04 s"]


def test_a_name_inside_an_equation_is_no_label() -> None:
    segs = split("(c) μ = f/N = 0.172", [Part("N", "N"), Part("f", "N"), Part("mu", "")])
    assert segs[0] is None and segs[1] is None


# -- numbers and units --------------------------------------------------------------------
@pytest.mark.parametrize(("text", "value"), [
    ("1 250", 1250.0), ("1,250", 1250.0), ("3.2 X 10^4", 3.2e4), ("3.2*10^-19", 3.2e-19),
    ("1.5\\times10^{+03}", 1.5e3), ("−3.4", -3.4), ("\\frac{3}{4}", 0.75), ("5.8·10⁵", 5.8e5),
    ("2\\pi\\sqrt{0.5/200}", 0.3141592653589793),
])
def test_numbers(text: str, value: float) -> None:
    found = runs(normalise(text))
    assert len(found) == 1 and found[0].value == pytest.approx(value)


def test_evaluator_refuses_huge_powers_and_names() -> None:
    for text in ("9**9**9**9", "10**100000", "__import__('os')", "x.y"):
        with pytest.raises(ValueError):
            evaluate(text)


@pytest.mark.parametrize(("text", "unit"), [
    ("meters per second", "m/s"), ("kilonewtons", "kN"), ("m/s²", "m/s^2"), ("\\mathrm{\\mu F}", "uF"),
    ("^\\circ C", "degC"), ("kΩ", "kohm"), ("Å", "angstrom"), ("electron volts", "eV"), ("A", "A"),
])
def test_unit_text(text: str, unit: str) -> None:
    assert read_unit(text) == unit


@pytest.mark.parametrize("text", ["m^9^9^9", "s^99999", "m" + "*m" * 20, "x" * 100, "and", "a"])
def test_unit_text_is_bounded(text: str) -> None:
    assert read_unit(text) is None


def test_ambiguous_symbols_follow_the_expected_dimension() -> None:
    assert read_unit("D", want="1/m") == "dioptre" and read_unit("D") == "D"
    assert read_unit("G", want="mT") == "gauss_si"


# -- quantity ----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "want", "value"), [
    ("v = 2*5 = 10 m/s, not 5 m/s", "m/s", 10.0), ("50 N at 30°", "N", 50.0),
    ("35.3 m (3 s.f.)", "m", 35.3), ("9.8 ± 0.1 m/s^2", "m/s^2", 9.8),
    ("12 m. Wait, I forgot the factor 2: 24 m", "m", 24.0), ("3:1", "", 3.0), ("1:3", "", 1 / 3),
    ("35.3 m (i.e. 3530 cm)", "m", 35.3), ("15.5 m/s (roughly 16 m/s)", "m/s", 15.5),
    ("381 N (with g = 9.81 m s^-2 and V = 3.3e-3 m^3)", "N", 381.0),
])
def test_one_committed_value(text: str, want: str, value: float) -> None:
    r = read_value(text, want)
    assert r.status == "ok" and r.value == pytest.approx(value)


@pytest.mark.parametrize("text", ["either 5 m or 6 m", "between 4.9 and 5.1 m", "5 m (or 10 m)", "4.9–5.1 m"])
def test_hedges_are_ambiguous(text: str) -> None:
    assert read_value(text, "m").status == "ambiguous"


def test_wrong_dimension_and_nothing_to_read() -> None:
    assert read_value("35.3 s", "m").status == "wrong_unit_dimension"
    assert read_value("no idea", "m").status == "unparseable"
    assert read_value("", "m").status == "missing"


# -- compare -----------------------------------------------------------------------------
def test_compare() -> None:
    assert to_expected(25.0, "degC", "K") == pytest.approx(298.15)
    assert to_expected(15.0, "degC", "delta_degC") == 15.0  # a difference stays a difference
    assert to_expected(118.0, "dB", "") == 118.0 and to_expected(10.3, "B", "") == pytest.approx(103.0)
    assert conversion("s", "m") is None
    assert close(100.9, 100.0, 0.01) and not close(101.1, 100.0, 0.01) and not close(-100.0, 100.0, 0.01)


# -- choice, algebra, refusal ----------------------------------------------------------------
OPTIONS = {"A": "5.2 m", "B": "15.2 m", "C": "3.0 m", "D": "8.4 m"}


@pytest.mark.parametrize(("span", "letters"), [
    ("B", {"B"}), ("b", {"B"}), ("[B]", {"B"}), ("Option (b) is correct", {"B"}), ("\\boxed{B}", {"B"}),
    ("The current is 3.0 A, so (C)", {"C"}), ("A is wrong, so D", {"D"}), ("15.2 m", {"B"}),
    ("B and C", {"B", "C"}), ("C — sorry, I mean D", {"D"}), ("nothing", set()),
])
def test_choice(span: str, letters: set[str]) -> None:
    assert read_choice(span, OPTIONS, unit="m")[0] == letters


def test_expressions() -> None:
    names = ["m", "g", "h", "v0", "theta", "Q", "C"]
    point = {"m": 2.0, "g": 9.8, "h": 3.0, "v0": 5.0, "theta": 0.4, "Q": 1.5, "C": 2.5}
    for text, key in [("2mgh", "2*m*g*h"), (r"\frac{v_0^2 \sin 2\theta}{g}", "v0**2*sin(2*theta)/g"),
                      ("Q²/2C", "Q**2/(2*C)"), ("|m| g", "m*g")]:
        assert equivalent(to_expression(text, names), key, point, 0.01)[0], text
    assert not equivalent(to_expression("m g h", names), "2*m*g*h", point, 0.01)[0]


@pytest.mark.parametrize(("text", "missing"), [
    ("The mass is not given, so it cannot be determined.", True), ("Not enough information.", True),
    ("We would need to know the length.", True), ("This is underdetermined.", True),
    ("It can be determined from energy conservation.", False), ("The answer is 5 m.", False),
])
def test_refusal(text: str, missing: bool) -> None:
    assert says_missing(text) is missing


@pytest.mark.parametrize(("text", "want", "value"), [
    ("5.73 C", "degC", 5.73), ("41 F", "degC", 5.0), ("2.5 C", "uC", 2.5e6), ("10 F", "uF", 1e7)])
def test_a_bare_c_or_f_is_a_temperature_only_where_one_is_asked(text: str, want: str, value: float) -> None:
    r = read_value(text, want)
    assert r.status == "ok" and r.value == pytest.approx(value)


# A Greek letter written as a LaTeX command with a subscript. Written by hand before the reader
# kept the subscript (27 November, second session): "\rho_o" was read as "rho*_o", so a right
# LaTeX reply in subscripted Greek symbols was unparseable.
GREEK_SUBSCRIPTS = [
    (r"$\frac{h\sigma - t_0\rho_o}{\rho_w}$", "(h*sigma - rho_o*t0)/rho_w", True),
    (r"$\frac{h \sigma - t_{0} \rho_{o}}{\rho_{w}}$", "(h*sigma - rho_o*t0)/rho_w", True),
    (r"$\frac{h\sigma - t_0\rho_w}{\rho_o}$", "(h*sigma - rho_o*t0)/rho_w", False),  # densities swapped
    (r"$\omega_0 t$", "omega_0*t", True), (r"$\omega_{0}^2 t$", "omega_0**2*t", True),
    (r"$\mu_k g$", "mu_k*g", True), (r"$\mu_s g$", "mu_k*g", False),  # the other coefficient
    (r"$\theta_1 + \theta_2$", "theta1 + theta2", True), (r"$2\theta_1$", "theta1 + theta2", False),
    (r"$\sin\theta_1$", "sin(theta1)", True),
]


@pytest.mark.parametrize(("text", "key", "right"), GREEK_SUBSCRIPTS)
def test_a_latex_greek_letter_keeps_its_subscript(text: str, key: str, right: bool) -> None:
    names = ["h", "sigma", "t0", "rho_o", "rho_w", "omega_0", "t", "mu_k", "mu_s", "g", "theta1", "theta2"]
    point = dict.fromkeys(names, 1.0) | {"rho_o": 0.8, "rho_w": 1.0, "sigma": 0.9, "h": 2.0, "t0": 0.5,
                                         "mu_k": 0.3, "mu_s": 0.5, "theta1": 0.3, "theta2": 0.7, "t": 2.0}
    assert equivalent(to_expression(text, names), key, point, 0.01)[0] is right, to_expression(text, names)


def test_a_latex_reply_in_subscripted_greek_symbols_is_graded(catalog: physgen.Catalog) -> None:
    from physgen.grading import grade

    t = catalog["fluids.block_under_oil_layer_symbolic"]
    v = next(physgen.generate([t], n=1, seed=0, paraphrases=[0]))
    assert list(v.answers) == ["h_w", "h_air"] and v.answers["h_w"].expr == "(h*sigma - rho_o*t0)/rho_w"
    right = ("Final answer:\n(a) $\\frac{h\\sigma - t_0\\rho_o}{\\rho_w}$\n"
             "(b) $h - t_0 - \\frac{h\\sigma - t_0\\rho_o}{\\rho_w}$")
    assert grade(v, right).correct
    swapped = right.replace("\\rho_o", "\\rho_x").replace("\\rho_w", "\\rho_o").replace("\\rho_x", "\\rho_w")
    assert not grade(v, swapped).correct


# A difference written in LaTeX, \Delta p, names the same quantity as Δp (written by hand before
# the reader read it: it was "Delta*p", so a right LaTeX reply was unparseable).
@pytest.mark.parametrize(("text", "key", "right"), [
    (r"$\Delta p$", "dp", True), (r"$\frac{\pi r^4 \Delta p}{8 \mu L}$", "pi*r**4*dp/(8*mu*L)", True),
    (r"$\Delta p / 2$", "dp", False), (r"$\Delta{p}$", "dp", True),
])
def test_a_latex_difference_names_the_difference(text: str, key: str, right: bool) -> None:
    names = ["dp", "r", "mu", "L"]
    point = {"dp": 1200.0, "r": 0.01, "mu": 0.001, "L": 2.0}
    assert equivalent(to_expression(text, names), key, point, 0.01)[0] is right, to_expression(text, names)
