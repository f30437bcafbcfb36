"""Checks of an item's wording and options that need no redraw: what a careful solver reads.

Each check returns :class:`~physgen.errors.Problem` entries (file, field, message, fix):

* ``omit_grammar``: every ``[[ … ]]`` cut, in every paraphrase, leaves a sentence that reads:
  no function word or verb left hanging before punctuation ("The photon carries;"), no
  "has on top", no "is initially,", brackets balanced and none left empty. A heuristic on
  closed-class word lists; only what the cut adds is reported (the uncut text is the baseline);
* ``ask_unit``: a unit an ask names ("(in kHz)", "as a fraction of c", "in percent") agrees
  with the key's unit and dimension;
* ``definition``: a quantity with more than one common definition (``AMBIGUOUS``) is defined in
  every paraphrase: by one of the table's phrases, or by the answer's ``definition`` phrase;
* ``declared_range``: an answer that is a probability, a Lorentz factor … (``RANGES``) obeys the
  named limit of its kind (a ``checks`` entry), so no option outside it is offered;
* ``answerability``: the inputs ``omitted`` declares an answer unanswerable without are the ones
  it depends on numerically (:mod:`physgen.dependence`), not the names its expression reads;
* ``symbolic_options``: every ``mc_symbolic`` option reads back (:mod:`physgen.reading.algebra`)
  as the expression it was printed from (options with a word in subscript letters, which the reader
  does not read, are skipped), and holds no SymPy spelling (``Abs(``).

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.projectile_range"]
>>> [p.field for p in findings(t)]
[]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import Problem

if TYPE_CHECKING:
    from .template import Template

_ARTICLES = "a an the"
_PREPOSITIONS = "of at to with by from in on for into onto between against per than as via"  # not adverbs
_CONJUNCTIONS = "and or but nor"
_AUXILIARIES = "is are was were be been being has have had its their his her"
#: Words that cannot end a clause: a cut that leaves one before punctuation removed what it governed.
FUNCTION_WORDS = frozenset(f"{_ARTICLES} {_PREPOSITIONS} {_CONJUNCTIONS} {_AUXILIARIES}".split())
#: Verbs that need their object: a cut that leaves one before punctuation removed the object.
NEEDS_OBJECT = frozenset(("carries carry contains contain holds hold weighs weigh reads read "
                          "measures measure "
                          "emits emit absorbs absorb draws draw equals equal reaches reach becomes become "
                          "starts start stores store delivers deliver produces produce has have").split())
_WORD = r"[A-Za-z]+"
_AFTER_NUMBER = re.compile(r"\d\s?$")
_DANGLING = re.compile(rf"\b({_WORD})\s*([,;:.!?)]|$)")
_HAS_PREP = re.compile(r"\b(has|have|had|carries|contains|holds)\s+(on|at|of|and|or|with)\b", re.I)
_TWO_PREPOSITIONS = re.compile(
    r"\b(of|at|to|with|by|from|for|the|a|an)\s+(of|at|to|with|by|from|for|and|or|in)\b")
_BARE_ADVERB = re.compile(r"\b(is|are|was|were)\s+(\w+ly)\s*[,;:.]", re.I)
_EMPTY_BRACKETS = re.compile(r"\(\s*[,;:]?\s*\)|\[\s*\]")


def grammar_slips(text: str) -> list[str]:
    """Every heuristic grammar slip in ``text``, each as a short quote.

    >>> grammar_slips("The photon carries; find its wavelength.")
    ["'carries;'"]
    >>> grammar_slips("The left arm has on top and R2 = 394 Ω below.")
    ["'has on'"]
    >>> grammar_slips("It is initially, at 253 K, a gas ().")
    ["'is initially,'", "'()'"]
    >>> grammar_slips("An ideal diatomic gas (1.85 mol) starts.")
    ["'starts.'"]
    >>> grammar_slips("A cart moves at 2 m/s (on a level track.")
    ['unbalanced brackets']
    >>> grammar_slips("A ball is kicked from level ground at 20 m/s.")
    []
    >>> grammar_slips("The motor draws 28.6 A; the only loss is in the windings.")
    []
    """
    out = []
    for m in _DANGLING.finditer(text):
        word = m.group(1)
        if _AFTER_NUMBER.search(text, 0, m.start()):
            continue  # a unit symbol: "28.6 A;", "5 in."
        if word.lower() in FUNCTION_WORDS | NEEDS_OBJECT:
            out.append(f"'{word}{m.group(2)}'" if m.group(2) else f"'{word}' at the end")
    out += [f"'{m.group(0).strip()}'" for m in _HAS_PREP.finditer(text)]
    out += [f"'{m.group(0)}'" for m in _TWO_PREPOSITIONS.finditer(text)]
    out += [f"'{m.group(0).strip()}'" for m in _BARE_ADVERB.finditer(text)]
    out += [f"'{m.group(0)}'" for m in _EMPTY_BRACKETS.finditer(text)]
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        out.append("unbalanced brackets")
    return out


def _omit_grammar(t: Template) -> Iterator[Problem]:
    """Each cut of each paraphrase, rendered at the template's first instance, adds no slip."""
    from .formats.probes import omissible
    from .instance import iter_instances

    names = omissible(t)
    if not names:
        return
    inst = next(iter(iter_instances(t.sample(1, seed=0))))
    context = {**inst.context, "asks": "Find the answer."}
    for p, cuts in enumerate(t.omit_texts):
        whole = t.texts[p].render(context)
        before = grammar_slips(whole)
        for name in names:
            cut = cuts[name].render(context)
            added = [s for s in grammar_slips(cut) if s not in before]
            if added:
                yield Problem(t.source, f"text[{p}]",
                              f"cutting the span of {name!r} leaves {', '.join(added)}: "
                              f"{_around(cut, added[0])!r}",
                              f"move the words that only make sense with {name} inside its [[ … ]] span, "
                              "or reword so the sentence stands without it")


def _around(text: str, slip: str) -> str:
    quote = slip.strip("'").split("'")[0]
    at = _unbalanced_at(text) if slip == "unbalanced brackets" else text.find(quote)
    return text[max(0, at - 40): at + len(quote) + 20] if at >= 0 else text[:80]


def _unbalanced_at(text: str) -> int:
    """Where the first unmatched bracket of ``text`` is (-1 if none).

    >>> _unbalanced_at("a (b) c) d"), _unbalanced_at("a (b c"), _unbalanced_at("(a)")
    (7, 2, -1)
    """
    open_at: list[int] = []
    for i, ch in enumerate(text):
        if ch in "([":
            open_at.append(i)
        elif ch in ")]":
            if not open_at:
                return i
            open_at.pop()
    return open_at[0] if open_at else -1


# -- asks and units ----------------------------------------------------------------------------
_IN_UNIT = re.compile(r"\(in ([^()]+)\)|\bin ([^\s,;()]+)\s*$|\bin (percent|per cent|eV|keV|MeV|GeV)\b")
_FRACTION_OF = re.compile(
    r"\b(?:as a fraction of|in units of|as a multiple of|relative to) (c|the speed of light)\b")
_DECIBEL = ("db", "decibel", "decibels")
_PERCENT = re.compile(r"\b(?:in percent|in per cent|as a percentage|percentage)\b")


def _ask_unit(t: Template) -> Iterator[Problem]:
    from .units import check_unit_text, parse_unit, to_si

    for name, ans in t.spec.answers.items():
        conv = t.answer_units[name]
        ask = ans.ask
        field = f"answers.{name}.ask"
        if _FRACTION_OF.search(ask) and conv.si_unit != "dimensionless":
            yield Problem(t.source, field, f"{ask!r} asks for a fraction of c, but the key is in {ans.unit}",
                          "key the dimensionless ratio (expr divided by c, unit '') or drop the phrase")
            continue
        if _PERCENT.search(ask) and to_si(ans.unit or "").factor != 0.01:
            yield Problem(t.source, field,
                          f"{ask!r} asks for percent, but the key is in {ans.unit or 'a pure number'}",
                          "give the answer `unit: percent`, or drop the phrase")
            continue
        m = _IN_UNIT.search(ask)
        if m is None:
            continue
        said = next(g for g in m.groups() if g)
        try:
            check_unit_text(said)  # a template's text reaches Pint only when bounded (docs/security.md)
            unit = parse_unit(said.replace("per cent", "percent"))
        except Exception:  # Pint raises several kinds on a text that is no unit
            continue  # not a unit: "in the wire"
        try:
            key = parse_unit(ans.unit or "dimensionless")
        except Exception:  # Pint raises several kinds on a text that is no unit
            continue
        if said.lower() in _DECIBEL and not key.dimensionality:
            continue  # a level in dB is keyed as a pure number
        if unit.dimensionality != key.dimensionality or abs(float((1 * unit).to(key).magnitude) - 1) > 1e-9:
            yield Problem(t.source, field,
                          f"{ask!r} names the unit {said!r}, but the key is in {ans.unit or '1'}",
                          f"drop the unit from the ask (physgen adds 'in {ans.unit}' itself) "
                          f"or key the answer in {said}")


# -- quantities with more than one common definition ---------------------------------------------
@dataclass(frozen=True)
class Ambiguous:
    """A quantity with rival definitions: asks that name it, and phrases any of which defines it."""

    asks: re.Pattern[str]
    phrases: tuple[str, ...]
    why: str
    applies: Callable[[Template, str], bool] = lambda t, a: True


def _signed(t: Template, answer: str) -> bool:
    return t.spec.answers[answer].sign != "positive"


def _not_angular(t: Template, answer: str) -> bool:
    return t.answer_units[answer].si_unit != "radian / second"


#: Quantities a prompt must define: Q factor, cyclotron f or ω, Heisenberg ħ or ħ/2, phase sign,
#: magnification sign.
AMBIGUOUS: dict[str, Ambiguous] = {
    "quality_factor": Ambiguous(re.compile(r"quality factor|\bQ[- ]factor|\bthe Q of\b", re.I),
                                ("defined as", "Q =", "Q ≡", "energy stored", "stored energy", "per radian",
                                 "2π times", "2π ×", "f₀/Δf", "ω₀/Δω", "bandwidth"),
                                "Q is 2π × stored/lost per cycle, ω₀/Δω, or ω₀L/R; "
                                "they differ away from high Q"),
    "cyclotron_frequency": Ambiguous(re.compile(
        r"cyclotron frequency|frequency of (?:its|the) (?:circular|orbit)", re.I),
                                     ("revolutions per second", "orbits per second", "cycles per second",
                                      "turns per second", "angular frequency", "ω =", "f ="),
                                     "f or ω = 2πf: a factor 2π", _not_angular),
    "heisenberg": Ambiguous(re.compile(r"(?:minimum|smallest|least|lowest) (?:possible )?(?:[\w-]+ )?"
                                       r"uncertainty|uncertainty principle", re.I),
                            ("ħ/2", "h/(4π)", "h/4π", "ħ / 2", "Δx Δp ≥", "Δx·Δp ≥", "ΔxΔp ≥", "σ_x σ_p",
                             "ΔE Δt ≥", "ΔE·Δt ≥"),
                            "Δx Δp ≥ ħ/2 or ≈ ħ (or h): a factor 2 or 4π"),
    "phase_sign": Ambiguous(re.compile(r"phase (?:angle|difference|shift)|\bleads\b|\blags\b", re.I),
                            ("positive if", "negative if", "positive when", "negative when", "sign",
                             "positive for", "negative for", "(+)", "(−)"),
                            "a lead and a lag differ in sign", _signed),
    "magnification_sign": Ambiguous(re.compile(r"magnification", re.I),
                                    ("negative", "sign", "inverted image", "positive for",
                                     "upright is positive"),
                                    "an inverted image has m < 0 by one convention and |m| by another",
                                    _signed),
}


def _definitions(t: Template) -> Iterator[Problem]:
    for name, ans in t.spec.answers.items():
        for kind, rule in AMBIGUOUS.items():
            if not rule.asks.search(ans.ask) or not rule.applies(t, name):
                continue
            phrases = (ans.definition,) if ans.definition else rule.phrases
            for p, text in enumerate(t.spec.text):
                where = f"{text} {ans.ask}".lower()
                if not any(ph.lower() in where for ph in phrases):
                    yield Problem(t.source, f"text[{p}]",
                                  f"{name} ({kind.replace('_', ' ')}) is not defined: {rule.why}",
                                  f"state the definition in every paraphrase (e.g. {phrases[0]!r}), or give "
                                  f"`answers.{name}.definition:` the phrase that does")
                    break


# -- physical ranges that must be declared --------------------------------------------------------
#: Asks naming a quantity with a physical range, and the named limit (of :mod:`physgen.limits`) it needs.
_HEAD = r"^(?:the |its |their |a |an )?(?:[\w-]+ ){0,2}?"  # the ask's head noun: a few words in at most
RANGES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(_HEAD + r"(?:probability|transmission coefficient|reflection coefficient|fraction)\b"
                r"(?! of c\b)(?! of the speed of light)", re.I), ("probability", "efficiency")),
    (re.compile(_HEAD + r"efficiency\b", re.I), ("efficiency", "probability")),
    (re.compile(_HEAD + r"(?:lorentz factor|γ|gamma factor)", re.I), ("lorentz_factor",)),
)


def _declared_ranges(t: Template) -> Iterator[Problem]:
    bounded = {c.of.strip() for c in t.spec.checks if c.limit is not None and c.of is not None}
    limits = {c.of.strip(): c.limit for c in t.spec.checks if c.limit is not None and c.of is not None}
    for name, ans in t.spec.answers.items():
        if t.answer_units[name].si_unit != "dimensionless":
            continue
        for pattern, wanted in RANGES:
            if pattern.search(ans.ask) and not (name in bounded and limits[name] in wanted):
                yield Problem(t.source, "checks",
                              f"{name} ({ans.ask!r}) has a physical range, but no named limit bounds it, so "
                              "options outside it may be offered",
                              f"add `{{limit: {wanted[0]}, of: {name}}}` to `checks`")
                break


# -- answerability, numerically ---------------------------------------------------------------------
def _answerability(t: Template) -> Iterator[Problem]:
    """Where the names an expression reads and the numeric dependence disagree (informative: the
    probe uses the numeric one; a name that cancels is usually a sign of a misleading scene). A
    template computed by a ``solver`` has no expression to read: every input is its argument, and
    what an answer needs is what the solver's result moves with (Kepler's E needs e, P and t; the
    semi-major axis only gives r), so only the measured dependence applies."""
    from .formats.probes import _named_in, omissible

    if t.spec.solver is not None:
        return
    for name in omissible(t):
        for answer in t.spec.answers:
            named = name in _named_in(t, answer)
            if answer in t.dependencies and named != (name in t.dependencies[answer]):
                yield Problem(t.source, f"answers.{answer}.expr",
                              f"its expression uses {name!r}, but its value does not move when {name} moves "
                              "(it cancels): `omitted` now keeps the part answerable without it",
                              f"check the scene: if {name} is not needed, say so or drop it from the givens")


# -- symbolic options ------------------------------------------------------------------------------
def _symbolic_options(t: Template) -> Iterator[Problem]:
    from .units import to_si

    texts = t.option_texts.get()
    if not texts:
        return
    names = [*t.spec.inputs, *t.constants]
    point = {n: c.si_value or 1.0 for n, c in t.constants.items()}  # log(P/(4πr²I₀)) needs I₀'s value
    for n, spec in t.spec.inputs.items():
        lo, hi = spec.bounds()
        point[n] = float(to_si(spec.unit).to_si((lo + hi) / 2)) or 1.0
    for answer in t.spec.answers:
        option = texts.get((answer, "unicode"))
        if option is None:
            continue
        wrong = _wrong_exprs(t, answer)  # (name, SymPy text), by the position option.wrong keeps
        printed = list(zip(wrong, option.wrong, strict=True))
        bad = [name for (name, _), text in printed if "Abs(" in text]
        if "Abs(" in option.right:
            bad.insert(0, "right")
        if bad:
            text = next((x for _, x in printed if "Abs(" in x), option.right)
            text = option.right if bad[0] == "right" else text
            yield Problem(t.source, f"answers.{answer}",
                          f"mc_symbolic option(s) {bad} print SymPy's Abs(…), e.g. {text!r}",
                          "write the expression so that no absolute value is needed (declare the sign, or "
                          "square before the root), or drop the mistake")
            continue
        if not _reads_back(option.right, str(t.expressions[answer]), names, point):
            continue  # the reader cannot read this template's symbols at all: nothing to compare
        slips = [(name, text, want) for (name, want), text in printed  # the reader knows no ᵣᵢᵥₑᵣ
                 if not _SUBSCRIPT_WORD.search(text) and not _reads_back(text, want, names, point)]
        if slips:
            name, text, want = slips[0]
            yield Problem(t.source, f"answers.{answer}",
                          f"{len(slips)} mc_symbolic option(s) do not read back as the expression "
                          f"they print, e.g. {name!r}: {text!r} is not {want}",
                          "rename symbols that print ambiguously (a digit suffix becomes a subscript), or "
                          "rewrite the mistake so its printed form keeps its precedence")


_SUBSCRIPT_WORD = re.compile("[ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ]{2,}")


def _reads_back(text: str, want: str, names: list[str], point: dict[str, float]) -> bool:
    from .reading.algebra import equivalent, to_expression

    try:
        return equivalent(to_expression(text, names), want, point, 1e-6)[0]
    except Exception:  # the reader's own failure counts as not reading back
        return False


def _wrong_exprs(t: Template, answer: str) -> list[tuple[str, str]]:
    """Each wrong option's name and SymPy text, in the order ``OptionTexts.wrong`` keeps them."""
    from .distractors import candidates, scaled

    return [(name, str(e)) for name, e in (*candidates(t, answer), *scaled(t, answer))]


CHECKS: dict[str, Callable[[Template], Iterator[Problem]]] = {
    "omit_grammar": _omit_grammar,
    "ask_unit": _ask_unit,
    "definition": _definitions,
    "declared_range": _declared_ranges,
    "answerability": _answerability,
    "symbolic_options": _symbolic_options,
}


def findings(t: Template) -> list[Problem]:
    """Every problem the checks of this module find in ``t`` (each tagged with its check name in
    :func:`findings_by_check`)."""
    return [p for _, p in findings_by_check(t)]


def findings_by_check(t: Template) -> list[tuple[str, Problem]]:
    """``(check name, problem)`` for every problem found in ``t``, check by check."""
    return [(name, p) for name, check in CHECKS.items() for p in check(t)]
