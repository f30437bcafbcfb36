"""Numbers, units and texts as the model reads them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import physgen
from physgen.render import compile_text, format_number, format_quantity
from physgen.units import format_unit


@pytest.mark.parametrize(("x", "sig", "style", "text"), [
    (0.5, 3, "unicode", "0.500"),
    (20.0, 3, "unicode", "20.0"),
    (2205.0, 3, "unicode", "2200"),
    (98765.0, 3, "unicode", "98800"),
    (584000.0, 3, "unicode", "5.84 × 10⁵"),
    (584000.0, 3, "latex", "5.84 \\times 10^{5}"),
    (584000.0, 3, "ascii", "5.84e5"),
    (1.602e-19, 4, "unicode", "1.602 × 10⁻¹⁹"),
    (0.00123, 3, "unicode", "0.00123"),
    (0.000123, 3, "unicode", "1.23 × 10⁻⁴"),
    (9.996, 3, "unicode", "10.0"),
    (-0.0351, 2, "unicode", "-0.035"),
])
def test_format_number(x: float, sig: int, style: str, text: str) -> None:
    assert format_number(x, sig, style) == text  # type: ignore[arg-type]


def test_notation_can_be_forced() -> None:
    assert format_number(12.5, 3, notation="scientific") == "1.25 × 10¹"
    assert format_number(1.25e6, 3, notation="plain") == "1250000"


@given(st.floats(1e-30, 1e30), st.integers(1, 6))
def test_shown_number_has_the_declared_significant_figures(x: float, sig: int) -> None:
    text = format_number(x, sig, "ascii", "scientific")
    mantissa = text.split("e")[0]
    assert len(mantissa.replace(".", "").lstrip("-")) == sig
    assert float(text) == pytest.approx(x, rel=0.5 * 10 ** (1 - sig) + 1e-12)


@pytest.mark.parametrize(("unit", "unicode", "ascii_", "latex"), [
    ("m/s^2", "m/s²", "m/s^2", "\\mathrm{m\\,s^{-2}}"),
    ("kN/C", "kN/C", "kN/C", "\\mathrm{kN\\,C^{-1}}"),
    ("J/(kg*K)", "J/(kg·K)", "J/(kg*K)", "\\mathrm{J\\,kg^{-1}\\,K^{-1}}"),
    # ascii is plain ASCII: the shared unit table spells Ω and µ as ohm and u
    ("ohm", "Ω", "ohm", "\\mathrm{\\Omega}"),
    ("uC", "µC", "uC", "\\mathrm{\\mu C}"),
    ("1/m", "m⁻¹", "m^-1", "\\mathrm{m^{-1}}"),
    ("L", "L", "L", "\\mathrm{L}"),
    ("", "", "", ""),
])
def test_format_unit(unit: str, unicode: str, ascii_: str, latex: str) -> None:
    assert format_unit(unit, "unicode") == unicode
    assert format_unit(unit, "ascii") == ascii_
    assert format_unit(unit, "latex") == latex


def test_quantities_attach_degrees_and_percent() -> None:
    assert format_quantity(30.0, "deg", 2) == "30°"
    assert format_quantity(37.25, "percent", 3) == "37.2%"
    assert format_quantity(23.7, "A", 3, style="latex") == "$23.7\\,\\mathrm{A}$"


def test_fast_path_equals_jinja_for_every_catalog_text(catalog: physgen.Catalog) -> None:
    from physgen.formats.prompting import asks
    from physgen.instance import iter_instances

    fast = 0
    for t in catalog.values():
        for inst in iter_instances(t.sample(3, seed=1)):
            for p, text in enumerate(t.texts):
                ctx = {**inst.context, "asks": asks(t, p, "unicode")}
                assert text.render(ctx) == text.render_jinja(ctx)
                fast += text._pieces is not None
            for step in t.steps:
                assert step.render(inst.context) == step.render_jinja(inst.context)
    assert fast > 0


def test_attribute_placeholders_use_jinja() -> None:
    from physgen.render import Shown

    text = compile_text("P = {{ I.value }} A × {{ V.value }} V")
    assert text._pieces is None
    assert text.render({"I": Shown("2.0 A", "2.0", "A"), "V": Shown("3 V", "3", "V")}) == "P = 2.0 A × 3 V"


class _Formats(float):
    """A value whose ``format(v, "")`` differs from its ``str`` (Jinja prints the ``str``)."""

    def __format__(self, spec: str) -> str:
        return "formatted"


@pytest.mark.parametrize("value", ["3.0 m/s", "$\\mathrm{A}_{0}$", "{x}", "}{", "", 2.5, 7, None, True,
                                   _Formats(1.25)])
def test_fast_path_equals_jinja_for_any_value_and_literal_braces(value: object) -> None:
    """The fast path is a format string: literal braces stay literal, a value containing braces
    is not read as a field, and a value that is not a str is converted as Jinja converts it."""
    from physgen.render import Shown

    text = compile_text("{ $\\frac{a}{b}$ {{ v }}}{{ w }} {{ v }}{")
    assert text.pieces is not None
    for ctx in ({"v": value, "w": "ok"}, {"v": Shown("1.5 m", "1.5", "m"), "w": value}):
        assert text.render(ctx) == text.render_jinja(ctx)
    with pytest.raises(KeyError):
        text.render({"v": value})


def test_latex_style_end_to_end() -> None:
    v = next(physgen.generate(["electricity.coulomb_force"], n=1, seed=0, style="latex"))
    assert "\\mathrm{nC}" in v.prompt and "$" in v.prompt
    assert "× 10" not in v.prompt


def test_answers_computed_from_shown_values(catalog: physgen.Catalog) -> None:
    t = catalog["electricity.dc_motor_losses"]
    for v in physgen.generate([t], n=50, seed=9, paraphrases=[0]):
        shown = {n: float(q.text.split()[0]) for n, q in v.inputs.items()}
        assert v.answers["P_motor"].value == pytest.approx(shown["I"] * shown["V"], rel=1e-11)
