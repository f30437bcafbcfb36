"""A symbol a template declares in unicode (``symbol: ρ_o``) is printed as LaTeX inside LaTeX maths
(``$\\rho_{o}$``), in every format, and the grader reads it back as the same name and grades the
keys and worked steps printed that way. Prose outside the maths keeps its unicode (docs/design.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import physgen
from physgen.formats import FORMATS, get_format
from physgen.letters import GREEK, LATEX, latex_symbol
from physgen.reading.algebra import to_expression
from physgen.render import format_expression, format_symbol

#: LaTeX maths in a text: $…$, \(…\) and \[…\]
MATH = re.compile(r"\$([^$]*)\$|\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)


@pytest.mark.parametrize(("symbol", "latex"), [
    ("ρ_o", r"\rho_{o}"), ("ω₀", r"\omega_{0}"), ("Δp", r"\Delta p"), ("λ", r"\lambda"), ("θ", r"\theta"),
    ("ε₀", r"\varepsilon_{0}"), ("μ_B", r"\mu_{B}"), ("ħ", r"\hbar"), ("ħc", r"\hbar c"), ("ℓ", r"\ell"),
    ("a₀", "a_{0}"), ("k_B", "k_{B}"), ("GM_sun", "GM_{sun}"), ("E_R", "E_{R}"), ("v′", "v'"),
    ("e²/4πε₀", r"e^{2}/4\pi\varepsilon_{0}"), ("m_α c²", r"m_{\alpha} c^{2}"), ("T½", "T_{1/2}"),
    ("T½(⁹⁹ᵐTc)", "T_{1/2}(^{99m}Tc)"), ("x⁻²", "x^{-2}"), ("½m", r"\tfrac{1}{2}m"), ("µ", r"\mu"),
    ("x_{max}", "x_{max}"), ("v0", "v0"), ("", ""),
])
def test_a_unicode_symbol_is_written_as_latex(symbol: str, latex: str) -> None:
    assert latex_symbol(symbol) == latex


def test_a_declared_symbol_is_latex_in_a_latex_text_and_kept_elsewhere() -> None:
    import sympy as sp

    assert format_symbol("rho_o", "latex", "ρ_o") == r"$\rho_{o}$"
    assert format_symbol("rho_o", "unicode", "ρ_o") == format_symbol("rho_o", "ascii", "ρ_o") == "ρ_o"
    expr = sp.sympify("(rho_b*H - rho_o*t)/rho_w")
    names = {"rho_b": "ρ_b", "rho_o": "ρ_o", "rho_w": "ρ_w", "H": None, "t": None}
    assert format_expression(expr, names, "latex") == r"$\frac{H \rho_{b} - \rho_{o} t}{\rho_{w}}$"
    assert format_expression(expr, names, "unicode") == "(H·ρ_b - t·ρ_o)/ρ_w"


@pytest.mark.parametrize("letter", sorted(LATEX))
def test_every_letter_printed_as_latex_is_read_back_as_its_name(letter: str) -> None:
    word = {"π": "pi", "ħ": "hbar", "ℓ": "l"}.get(letter) or GREEK[letter]
    if word == "pi":  # π is the constant, not a name
        assert to_expression(f"${latex_symbol('2π')}$", []) == "2*pi"
        return
    for symbol, name in ((letter, word), (f"{letter}₀", f"{word}0"), (f"{letter}_b", f"{word}_b")):
        printed = f"${latex_symbol(symbol)}$"
        assert to_expression(printed, [name, "x"]) == name, (symbol, printed)
        assert to_expression(f"2 x {printed}", [name, "x"]) == f"2*x*{name}", (symbol, printed)


def _symbols(t: physgen.Template) -> Iterator[tuple[str, str]]:
    """(name, declared symbol) of every quantity an algebraic template writes with a symbol."""
    spec = t.spec
    for part in (spec.inputs, spec.constants, spec.answers):
        yield from ((n, s.symbol) for n, s in part.items() if s.symbol is not None)
    for i in spec.inputs.values():
        yield from ((r.name, r.symbol) for r in i.restated if r.symbol is not None)


def test_every_declared_symbol_of_an_algebraic_template_reads_back_as_its_name(
        catalog: physgen.Catalog) -> None:
    checked, bad = 0, []
    for t in catalog.filter(question_type="algebraic").templates():
        names = [*t.spec.inputs, *t.spec.constants, *t.spec.answers,
                 *(r.name for i in t.spec.inputs.values() for r in i.restated)]
        for name, symbol in _symbols(t):
            read = {style: to_expression(format_symbol(name, style, symbol), names)
                    for style in ("unicode", "latex")}
            checked += 1
            if read["latex"] != read["unicode"] or read["latex"] != name:
                bad.append((t.id, name, symbol, read))
        if t.variation is not None:  # and every name an instance may write, as it writes it
            forms = t.variation.forms
            for name, form in forms.items():
                checked += 1
                read_back = to_expression(f"${form.latex}$", list(forms))
                if read_back != name:
                    bad.append((t.id, name, form.latex, {"latex": read_back}))
    assert checked >= 300 and not bad, bad


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def _non_ascii_in_maths(text: str) -> list[str]:
    spans = (next(g for g in m.groups() if g is not None) for m in MATH.finditer(text))
    return [span for span in spans if not span.isascii()]


def _latex_variants(t: physgen.Template, formats: list[str]) -> Iterator[physgen.Variant]:
    """Two instances of ``t`` in LaTeX, every paraphrase, and for an algebraic template one instance
    of each of its problems besides: every solved relation and every restated given."""
    yield from physgen.generate([t], n=2, seed=5, formats=formats, style="latex")
    var = t.variation
    if var is None:
        return
    unknowns = 1 + len(var.solved)
    starts = list(range(2, unknowns))
    first = var.choices * unknowns
    for r in var.restated:
        starts.append(first)
        first += var.restated_choices(r)
    for k in starts:
        yield from physgen.generate([t], n=1, seed=5, start=k, formats=formats, style="latex",
                                    paraphrases=[k % len(t.texts)])


def test_latex_maths_holds_no_unicode_and_every_latex_variant_grades_its_own_key_and_steps(
        catalog: physgen.Catalog) -> None:
    """Every template, every format: no character beyond ASCII inside LaTeX maths of any text a
    variant holds (prompt, options, answers, steps, reference reply); each variant's reference
    reply, and its worked steps followed by it, grade correct (``code``'s replies are code)."""
    formats = sorted(FORMATS)
    raw, wrong, count = [], [], 0
    for t in catalog.templates():
        for v in _latex_variants(t, formats):
            count += 1
            raw += [(v.variant_id, m) for text in _strings(v.to_dict()) for m in _non_ascii_in_maths(text)]
            if v.format == "code":  # a reply is code, run by the grader: test_code_tests.py
                continue
            reference = get_format(v.format).reference(v)
            raw += [(v.variant_id, m) for m in _non_ascii_in_maths(reference)]
            worked = "\n".join([*v.steps, reference])
            # an omitted probe's steps state the value its reference says cannot be found
            for reply in (reference,) if v.format == "omitted" else (reference, worked):
                if not physgen.grade(v, reply).correct:
                    wrong.append((v.variant_id, reply[-200:]))
    assert count > 5 * len(catalog), count
    assert not raw, raw[:10]
    assert not wrong, wrong[:10]


def test_the_letter_after_a_latex_delta_is_no_mention_of_that_symbol() -> None:
    from physgen.algebraic import mentions

    assert not mentions(r"$\frac{\Delta p}{\eta}$", "p") and not mentions("Δp", "p")
    assert mentions(r"$\Delta p + p$", "p")
