"""Algebraic templates vary: the symbols an instance writes its givens with, which quantity it
asks (the template's relation solved for one of its inputs), and how its givens are stated (a given
replaced by another quantity it follows from).

A template declares the variation as data: ``inputs.*.symbols`` (other names a given may be written
as), ``answers.*.solve_for`` (inputs the answer's relation may be solved for instead, the answer then
given), ``answers.*.symbol`` (how a given answer is written) and ``inputs.*.restated`` (a quantity
that states the given instead: the planet's mass through the orbit's period, a spring's stiffness
through its static stretch). :func:`compile_variation` checks it, solves the relations with SymPy
when the template compiles (the root that gives the input back at sample points across the ranges
is the physical one) and writes each answer in terms of each restated given. Instance ``k`` of an
algebraic template below ``c·u`` (``c`` choices of names, ``u`` unknowns) is unknown ``k mod u``
with the names of choice ``perm[k div u]`` of a seeded permutation of the choices; past them come
each restated given's problems, one per choice of the names still shown (:func:`problem`). So
instance numbers below :attr:`Variation.capacity` are all different problems, and instance 0 asks
the template's own answers. :func:`vary` turns every
variant a format builds for the template's own problem into that instance's: the prompt, the
steps, the options and the answers' texts respelled, the key written in the instance's own names
(so a reply in the renamed symbols is graded right and one in the old names is not), and, for a
solved relation, the answer given and the input asked.

>>> import physgen
>>> t = physgen.load_catalog()["mechanics.escape_from_orbit_symbolic"]
>>> t.capacity() >= 20
True
>>> vs = list(physgen.generate([t], n=t.capacity(), paraphrases=[0]))
>>> len({v.prompt for v in vs}) == t.capacity()
True
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .labels import PART_LABEL
from .sampling import spread, stream_key, uniforms
from .units import Style, to_si
from .variant import Answer, ShownQuantity, Variant

if TYPE_CHECKING:
    from .instance import Instance
    from .render import Text
    from .schema import Restatement
    from .template import Template

#: Points across the input ranges at which a solved root must give its input back (those that
#: meet the constraints; at least a quarter must).
ROOT_POINTS = 64
#: Operations a solved relation may take to write (``sympy.count_ops``): a quartic's root is no
#: question to ask.
MAX_OPERATIONS = 30
#: Symbols that are also English words: their mentions in prose cannot be told from the word.
WORDS = frozenset({"a", "A", "I"})
#: What may not touch a symbol for a mention of it to count (a letter, a subscript, ``\\``, ``Δ``).
_BEFORE = r"(?<![A-Za-z_\\Δ'’])(?<!_\{)(?<!\\Delta )"  # nor a LaTeX subscript, m_{l}, nor \Delta p
_AFTER = r"(?![A-Za-z0-9_₀-₉ₐ-ₜᵢ-ᵪ'′])"
_NAME_BEFORE = r"(?<![A-Za-z0-9_])"
_NAME_AFTER = r"(?![A-Za-z0-9_])"
_MATH = re.compile(r"(\$[^$]*\$)")


class Forms(NamedTuple):
    """How one name is written: in unicode and LaTeX texts (as the question shows it), and in SymPy."""

    unicode: str
    latex: str  # without the dollars
    name: str

    def shown(self, style: Style) -> str:
        """The text a prompt of ``style`` shows (LaTeX in dollars, as ``render.format_symbol``)."""
        return {"unicode": self.unicode, "latex": f"${self.latex}$", "ascii": self.name}[style]


@dataclass(frozen=True, eq=False)
class Solved:
    """An answer's relation solved for an input: the expression of the input, per style."""

    answer: str
    input: str
    texts: dict[str, str]  # style -> the expression as the question writes it; "sympy" -> SymPy text


@dataclass(frozen=True, eq=False)
class Restated:
    """A given stated through another quantity (``inputs.*.restated``): the sentence that gives it,
    the input in terms of it (for the steps), and each answer's key in terms of it."""

    input: str
    name: str
    unit: str
    sentence: Text
    means: dict[str, str]  # style -> the input in terms of the new given, as the steps write it
    keys: dict[str, dict[str, str]]  # answer -> style -> its key; "sympy" -> SymPy text
    value: Callable[..., Any]  # the new given in SI, from the inputs and constants in SI


@dataclass(frozen=True)
class Variation:
    """What an algebraic template's instances vary: names per input, the solved relations, and the
    givens stated through other quantities."""

    names: tuple[tuple[str, tuple[str, ...]], ...]  # input -> the names it may be written as, its own first
    forms: dict[str, Forms]  # every name an instance may write (inputs, constants, given answers)
    solved: tuple[Solved, ...] = ()
    restated: tuple[Restated, ...] = ()

    @property
    def choices(self) -> int:
        """How many ways the inputs' names can be chosen."""
        return math.prod(len(alts) for _, alts in self.names)

    def restated_choices(self, r: Restated) -> int:
        """How many ways the names can be chosen for ``r``'s problem (its input is not shown)."""
        return self.choices // next(len(alts) for n, alts in self.names if n == r.input)

    def solved_for(self, unknown: int) -> Solved | None:
        """The solved relation a :attr:`Problem.unknown` asks, if it asks one."""
        return self.solved[unknown - 1] if 0 < unknown <= len(self.solved) else None

    def restated_for(self, unknown: int) -> Restated | None:
        """The restated given a :attr:`Problem.unknown` states, if it states one."""
        k = unknown - 1 - len(self.solved)
        return self.restated[k] if 0 <= k < len(self.restated) else None

    @property
    def capacity(self) -> int:
        """How many different problems the template has: every choice of names, for the template's
        own unknowns and for each solved relation, and every choice of the names still shown for
        each restated given."""
        return self.choices * (1 + len(self.solved)) + sum(self.restated_choices(r) for r in self.restated)


class Problem(NamedTuple):
    """Which problem an instance shows: the name of each input, and the unknown (0: the template's
    own answers; k ≤ s: ``Variation.solved[k - 1]``; past the s solved relations: the template's
    own answers with ``Variation.restated[k - 1 - s]``'s given stated instead)."""

    names: tuple[str, ...]
    unknown: int


# -- which problem an instance shows --------------------------------------------------------------
@functools.lru_cache(maxsize=256)
def _order(template_id: str, seed: int, capacity: int) -> tuple[int, ...]:
    """A seeded permutation of the choices of names (instance k shows choice ``_order[k // u]``
    with unknown ``k % u``, where ``u`` counts the unknowns)."""
    key = stream_key(seed, f"{template_id}|problems")
    u = uniforms(key, np.arange(capacity, dtype=np.uint64), 0)
    return tuple(int(i) for i in np.argsort(u, kind="stable").tolist())


def problem(t: Template, seed: int, index: int) -> Problem | None:
    """The problem instance ``index`` of ``t`` shows under ``seed`` (None: ``t`` does not vary).

    >>> import physgen
    >>> t = physgen.load_catalog()["mechanics.escape_from_orbit_symbolic"]
    >>> problem(t, 0, 3) == problem(t, 0, 3), problem(t, 0, 3) != problem(t, 0, 4)
    (True, True)
    """
    var = t.variation
    if var is None:
        return None
    index %= var.capacity
    unknowns = 1 + len(var.solved)
    if index < var.choices * unknowns:  # instance 0 asks the template's own answers, 1 the first solved …
        unknown = index % unknowns
        number = _order(t.id, seed, var.choices)[index // unknowns]
        kept = ""
    else:  # then each restated given's problems, one block each
        index -= var.choices * unknowns
        k = 0
        while index >= var.restated_choices(var.restated[k]):
            index -= var.restated_choices(var.restated[k])
            k += 1
        r = var.restated[k]
        size = var.restated_choices(r)
        unknown, kept = unknowns + k, r.input
        number = _order(f"{t.id}|{r.name}", seed, size)[index]
    names = []
    for n, alts in var.names:
        if n == kept:  # not shown: its own name, in the steps
            names.append(n)
            continue
        names.append(alts[number % len(alts)])
        number //= len(alts)
    return Problem(tuple(names), unknown)


def problem_key(p: Problem | None) -> str:
    """What an instance id hashes besides the shown values: the names and the unknown."""
    return "" if p is None else f"|names={','.join(p.names)}|unknown={p.unknown}"


# -- respelling -----------------------------------------------------------------------------------
def _pattern(olds: Iterable[str], before: str, after: str) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(o) for o in sorted(olds, key=len, reverse=True))
    return re.compile(f"{before}(?:{alternatives}){after}")


def mentions(text: str, symbol: str) -> bool:
    """Whether ``text`` writes ``symbol`` as a symbol (not inside a word, a subscript or Δx).

    >>> mentions("E = ½ m ω² x²", "m"), mentions("the mass", "m"), mentions("(2m)", "m")
    (True, False, True)
    """
    return _mention(symbol).search(text) is not None


@functools.lru_cache(maxsize=4096)
def _mention(symbol: str) -> re.Pattern[str]:
    """The pattern of :func:`mentions`, kept per symbol (a variant asks it of several symbols, and
    :mod:`re`'s own cache of 512 patterns is shared by the whole process)."""
    return _pattern([symbol], _BEFORE, _AFTER)


@functools.lru_cache(maxsize=4096)
def _respeller(t: Template, renamed: tuple[tuple[str, str], ...], style: Style) -> Callable[[str], str]:
    """A function writing every mention of each renamed input with its new name, in ``style``:
    placeholders show the style's form, literal text the unicode one (LaTeX: unicode outside
    ``$…$``); in ASCII, the name wins where the two forms of an old name agree."""
    forms = t.variation.forms if t.variation is not None else {}
    prose = {forms[old].unicode: forms[new].unicode for old, new in renamed}
    prose.update({old: forms[new].unicode for old, new in renamed  # "m_l", "v0" written by name
                  if old not in prose and re.search(r"[_\d]", old)})
    if style == "ascii":
        prose.update({forms[old].name: forms[new].name for old, new in renamed})
    math_ = {forms[old].latex: forms[new].latex for old, new in renamed}
    out_prose = _pattern(prose, _BEFORE, _AFTER) if prose else None
    in_math = _pattern(math_, _BEFORE, _AFTER) if math_ else None

    def plain(text: str) -> str:  # a part label "(b) the pressure" is no mention of b
        if out_prose is None:
            return text
        labels = PART_LABEL.findall(text)
        pieces = [out_prose.sub(lambda m: prose[m.group(0)], piece) for piece in PART_LABEL.split(text)]
        return "".join(p + (labels[k] if k < len(labels) else "") for k, p in enumerate(pieces))

    if style != "latex":
        return plain

    def latex(text: str) -> str:
        parts = _MATH.split(text)
        return "".join(in_math.sub(lambda m: math_[m.group(0)], p) if k % 2 and in_math is not None
                       else plain(p) for k, p in enumerate(parts))

    return latex


@functools.lru_cache(maxsize=4096)
def _renamer(renamed: tuple[tuple[str, str], ...]) -> Callable[[str], str]:
    """SymPy text with every renamed name replaced (identifiers only)."""
    table = dict(renamed)
    pattern = _pattern(table, _NAME_BEFORE, _NAME_AFTER)
    return lambda text: pattern.sub(lambda m: table[m.group(0)], text)


# -- applying it to a variant ---------------------------------------------------------------------
def vary(inst: Instance, made: Iterable[Variant], style: Style) -> Iterator[Variant]:
    """The variants a format built from ``inst`` for its template's own problem, made the
    instance's problem (unchanged when the template does not vary). For a solved relation, a
    variant whose prompt does not ask the template's answers as free text (``mc_symbolic``: its
    options are the answer's) has no counterpart and is left out."""
    p = inst.problem
    if p is None:
        yield from made
        return
    t = inst.template
    var = t.variation
    assert var is not None
    renamed = tuple((n, c) for (n, _), c in zip(var.names, p.names, strict=True) if c != n)
    solved, restated = var.solved_for(p.unknown), var.restated_for(p.unknown)
    for v in made:
        changed = (_swap(inst, v, solved, style) if solved is not None
                   else _restate(inst, v, restated, style) if restated is not None else v)
        if changed is None:
            continue
        yield _respelled(changed, inst, renamed, style) if renamed else changed


def _added(inst: Instance, v: Variant) -> str:
    """Text a format added that is no part of the template (``noop``'s sentence, whose unit may
    be written like a renamed symbol), or ''."""
    if v.format != "noop":
        return ""
    from .formats.probes import noop_sentence

    return noop_sentence(inst, v.paraphrase)


#: The last instance respelled, and its texts respelled so far (see :func:`_respelling`).
_last: tuple[Instance, tuple[tuple[str, str], ...], Style, Callable[[str], str]] | None = None


def _respelling(inst: Instance, renamed: tuple[tuple[str, str], ...], style: Style) -> Callable[[str], str]:
    """:func:`_respeller` for ``inst``, each text respelled once: every paraphrase and format of an
    instance repeats its steps and the texts of its givens and answers. Kept for the last instance
    only, so the memo holds one instance's texts."""
    global _last
    seen = _last  # one read: another thread may replace it meanwhile
    if seen is not None and seen[0] is inst and seen[1] == renamed and seen[2] == style:
        return seen[3]
    respell = _respeller(inst.template, renamed, style)
    done: dict[str, str] = {}

    def once(text: str) -> str:
        out = done.get(text)
        if out is None:
            out = done[text] = respell(text)
        return out

    _last = (inst, renamed, style, once)
    return once


def _respelled(v: Variant, inst: Instance, renamed: tuple[tuple[str, str], ...], style: Style) -> Variant:
    respell = _respelling(inst, renamed, style)
    kept = _added(inst, v)

    def text(s: str) -> str:  # what a format added keeps its letters ("3.2 m" is a unit)
        if not kept or kept not in s:
            return respell(s)
        return kept.join(respell(part) for part in s.split(kept))

    names = _renamer(renamed)
    new = dict(renamed)
    answers = {new.get(n, n): a._replace(text=text(a.text), expr=None if a.expr is None else names(a.expr))
               for n, a in v.answers.items()}  # an input asked (a solved relation) is named as shown
    inputs = {new.get(n, n): q._replace(text=text(q.text)) for n, q in v.inputs.items()}
    return dataclasses.replace(v, prompt=text(v.prompt), answers=answers, inputs=inputs,
                               steps=tuple(text(s) for s in v.steps),
                               options={k: text(o) for k, o in v.options.items()},
                               unanswerable=tuple(new.get(n, n) for n in v.unanswerable))


def _swap(inst: Instance, v: Variant, s: Solved, style: Style) -> Variant | None:
    """``v`` (asking the template's answers in free text) made to give answer ``s.answer`` and ask
    input ``s.input``; None for a variant that does not ask them so (multiple choice). A variant
    without one of the givens (``omitted``) asks the input without it too, and declares it
    unanswerable when the relation needs the removed given (measured, :mod:`physgen.dependence`:
    the solved input moves with a given exactly when the answer does)."""
    t = inst.template
    if set(v.answers) == {s.input}:
        return v  # made already (a format built on another one)
    from .formats.probes import depends_on
    from .formats.prompting import asks, instruction, instruction_for

    removed = [n for n in t.spec.inputs if n not in v.inputs]
    if len(removed) > 1 or s.input in removed:
        return None
    without = removed[0] if removed else None
    old_asks = (asks(t, v.paraphrase, style, without=without) if without
                else t.display[style].asks[v.paraphrase])
    if v.options or old_asks not in v.prompt or s.answer not in v.answers:
        return None  # options are about the template's own answers
    asked = swapped_asks(t, s, style, v.paraphrase, without)
    prompt = v.prompt.replace(old_asks, asked, 1)
    old_instruction = instruction_for(t)
    if prompt.endswith(old_instruction):
        prompt = prompt[:-len(old_instruction)] + instruction([s.input], "expressions")
    var = t.variation
    assert var is not None
    spec = t.spec.inputs[s.input]
    x = inst.inputs[s.input]
    given = inst.answers[s.answer]
    inputs = {n: q for n, q in v.inputs.items() if n != s.input}
    inputs[s.answer] = ShownQuantity(given.value, given.unit, var.forms[s.answer].shown(style))
    key = Answer(x.value, x.unit, s.texts[style], spec.sig_figs, s.texts["sympy"])
    shown_x = var.forms[s.input].shown(style)
    steps = (*v.steps, f"Solved for {shown_x}: {shown_x} = {s.texts[style]}.")
    needed = without is not None and without in depends_on(t, s.answer)
    return dataclasses.replace(v, prompt=prompt, inputs=inputs, answers={s.input: key}, steps=steps,
                               intermediates={}, unanswerable=(s.input,) if needed else ())


@functools.lru_cache(maxsize=4096)
def swapped_asks(t: Template, s: Solved, style: Style, paraphrase: int, without: str | None = None) -> str:
    """The sentences that give answer ``s.answer`` and ask input ``s.input`` (in the template's
    own names; :func:`vary` respells them with the instance's), in terms of every symbol the
    solved relation uses but ``without`` (a given ``omitted`` removed)."""
    from .render import asks_sentence, listed

    var = t.variation
    assert var is not None
    ask = t.spec.answers[s.answer].ask
    label = t.spec.inputs[s.input].label or s.input
    symbol = var.forms[s.answer].shown(style)
    named = mentions(ask, var.forms[s.answer].unicode)  # "the uncertainty Δx": no "… Δx is Δx"
    given = f"{ask[:1].upper()}{ask[1:]} is {'given' if named else symbol}."
    used = set(re.findall(r"[A-Za-z_]\w*", s.texts["sympy"]))
    order = [s.answer, *t.spec.inputs, *t.spec.constants]
    shown = [var.forms[n].shown(style) for n in order if n in used and n not in (s.input, without)]
    phrase = f"the {label} {var.forms[s.input].shown(style)}"
    return f"{given} {asks_sentence([(phrase, f'in terms of {listed(shown)}')], paraphrase)}"


def _restate(inst: Instance, v: Variant, r: Restated, style: Style) -> Variant | None:
    """``v`` (the template's own problem in free form) with ``r.input`` stated through ``r.name``:
    its mention cut from the paraphrase, ``r``'s sentence added, the answers asked and keyed in
    terms of ``r.name``, and a first step that gives the input back from it. None for any other
    variant (options, a removed given, an added sentence are about the template's own givens)."""
    from .formats.prompting import with_instruction

    t = inst.template
    if v.format != "free_form" or v.options or set(v.inputs) != set(t.spec.inputs):
        return None
    var = t.variation
    assert var is not None
    shown = var.forms[r.name].shown(style)
    asked = restated_asks(t, r, style, v.paraphrase)
    marker = "\x00"
    body = t.omit_texts[v.paraphrase][r.input].render({**inst.context, "asks": marker})
    sentence = r.sentence.render({**inst.context, r.name: shown})
    if body.endswith(marker):  # the question ends the text: the new given comes just before it
        text = f"{body[:-len(marker)]}{sentence} {asked}"
    else:
        text = f"{body.replace(marker, asked)} {sentence}"
    si = [t.input_si[n].to_si(inst.inputs[n].value) for n in t.spec.inputs]
    si += [c.si_value for c in t.constants.values()]
    with np.errstate(all="ignore"):
        value = float(to_si(r.unit).from_si(float(r.value(*si)[0])))
    inputs = {n: q for n, q in v.inputs.items() if n != r.input}
    inputs[r.name] = ShownQuantity(value, r.unit, shown)
    answers = {a: ans._replace(text=r.keys[a][style], expr=r.keys[a]["sympy"]) if a in r.keys else ans
               for a, ans in v.answers.items()}
    first = f"From the statement, {var.forms[r.input].shown(style)} = {r.means[style]}."
    last = [f"In terms of {shown}: {var.forms[a].shown(style)} = {r.keys[a][style]}." for a in r.keys]
    return dataclasses.replace(v, prompt=with_instruction(text, t), inputs=inputs, answers=answers,
                               steps=(first, *v.steps, *last), intermediates={}, unanswerable=())


@functools.lru_cache(maxsize=4096)
def restated_asks(t: Template, r: Restated, style: Style, paraphrase: int) -> str:
    """The sentence asking the template's answers in terms of the givens of ``r``'s problem (in the
    template's own names; :func:`vary` respells them with the instance's).

    >>> import physgen
    >>> t = physgen.load_catalog()["mechanics.escape_from_orbit_symbolic"]
    >>> restated_asks(t, t.variation.restated[0], "ascii", 0)
    'Find the smallest speed increase that lets the spacecraft escape (in terms of T_orb and r).'
    """
    from .render import asks_sentence, listed

    var = t.variation
    assert var is not None
    order = [*(r.name if n == r.input else n for n in t.spec.inputs), *t.spec.constants]
    parts = []
    for a, spec in t.spec.answers.items():
        used = set(re.findall(r"[A-Za-z_]\w*", r.keys[a]["sympy"])) if a in r.keys else t.answer_symbols[a]
        shown = [var.forms[n].shown(style) for n in order if n in used]
        parts.append((spec.ask, f"in terms of {listed(shown)}" if shown else ""))
    return asks_sentence(parts, paraphrase)


# -- compiling it ---------------------------------------------------------------------------------
def _forms(name: str, symbol: str | None) -> Forms:
    from .render import format_symbol

    return Forms(format_symbol(name, "unicode", symbol), format_symbol(name, "latex", symbol).strip("$"),
                 name)


def compile_variation(t: Template, add: Callable[[str, str, str], None]) -> Variation | None:
    """The variation ``t`` declares, checked (``add(field, message, fix)`` for each problem), with
    every declared relation solved; None when ``t`` declares none."""
    spec = t.spec
    declared = [n for n, i in spec.inputs.items() if i.symbols]
    solving = [(a, x) for a, s in spec.answers.items() for x in s.solve_for]
    restating = [(n, k, r) for n, i in spec.inputs.items() for k, r in enumerate(i.restated)]
    if spec.question_type != "algebraic":
        for n in declared:
            add(f"inputs.{n}.symbols", "only algebraic templates write their givens as symbols",
                "remove `symbols`, or make the template `question_type: algebraic`")
        for a, _ in solving:
            add(f"answers.{a}.solve_for", "only algebraic templates solve their relation for a given",
                "remove `solve_for`, or make the template `question_type: algebraic`")
        for n, k, _ in restating:
            add(f"inputs.{n}.restated[{k}]", "only algebraic templates state a given through another "
                "quantity", "remove `restated`, or make the template `question_type: algebraic`")
        return None
    forms = {n: _forms(n, i.symbol) for n, i in spec.inputs.items()}
    forms.update({n: _forms(n, c.symbol) for n, c in spec.constants.items()})
    forms.update({a: _forms(a, s.symbol) for a, s in spec.answers.items()})
    alternatives = {n: tuple(dict.fromkeys(spec.inputs[n].symbols)) for n in declared}
    for alts in alternatives.values():
        forms.update({alt: _forms(alt, None) for alt in alts})
    _check_names(t, alternatives, forms, add)
    solved = tuple(s for a, x in solving if (s := _solve(t, a, x, forms, add)) is not None)
    taken = {*spec.inputs, *spec.constants, *spec.answers}
    taken.update(x for alts in alternatives.values() for x in alts)
    restated: list[Restated] = []
    for n, k, r in restating:
        field = f"inputs.{n}.restated[{k}]"
        if r.name in taken:
            add(f"{field}.name", f"{r.name!r} is already a name of the template", "choose a new name")
            continue
        taken.add(r.name)
        forms[r.name] = _forms(r.name, r.symbol)
        made = _restated(t, n, r, forms, field, add)
        if made is not None:
            restated.append(made)
    if not declared and not solved and not restated:
        return None
    names = tuple((n, (n, *(a for a in alternatives.get(n, ()) if a != n))) for n in spec.inputs)
    return Variation(names, forms, solved, tuple(restated))


def _restated(t: Template, n: str, r: Restatement, forms: Mapping[str, Forms], field: str,
              add: Callable[[str, str, str], None]) -> Restated | None:
    """``inputs.n.restated`` entry ``r`` checked and compiled: its name is read back as itself and
    is new to the texts, ``value`` has ``unit``'s dimension, ``means`` gives the input back from
    ``value`` at ``ROOT_POINTS`` points across the ranges, every paraphrase marks the input's
    mention (``[[ … ]]``, cut where the sentence replaces it), the sentence renders and states the
    new given, and each key is short enough to ask and gradable."""
    import sympy as sp

    from .expressions import ExpressionError, parse_expression, regime_value, symbols_for
    from .functions import numpy_function
    from .render import STYLES, compile_text, format_expression
    from .units import Quantity, parse_unit

    spec = t.spec
    others = [i for i in spec.inputs if i != n]
    problem = _unusable(r.name, forms[r.name], [*spec.inputs, *spec.constants, *spec.answers, r.name],
                        _rendered(t))
    if problem is not None:
        add(f"{field}.{'symbol' if r.symbol else 'name'}", *problem)
        return None
    unmarked = [k for k, cuts in enumerate(t.omit_texts) if n not in cuts]
    if unmarked:
        add(field, f"text[{unmarked[0]}] does not mark the mention of {n} with [[ … ]], so the sentence "
            "stating it another way cannot replace it", f"wrap the phrase that gives {n} in [[ ]]")
        return None
    try:
        value = parse_expression(r.value, [*spec.inputs, *spec.constants])
    except ExpressionError as exc:
        add(f"{field}.value", str(exc), exc.fix)
        return None
    try:
        means = parse_expression(r.means, [r.name, *others, *spec.constants])
    except ExpressionError as exc:
        add(f"{field}.means", str(exc), exc.fix)
        return None
    try:
        unit = parse_unit(r.unit)
    except Exception:
        add(f"{field}.unit", f"{r.unit!r} is not a unit", "use a Pint unit such as 's', 'm', 'J'")
        return None
    symbols = list(symbols_for([*spec.inputs, *spec.constants]).values())
    try:
        with np.errstate(all="ignore"):
            got = regime_value(symbols, value, t.pint_arguments())
        dimension = got.dimensionality if isinstance(got, Quantity) else Quantity(1).dimensionality
    except Exception as exc:
        add(f"{field}.value", f"dimensions do not work out: {exc}", "only like quantities can be added")
        return None
    if dimension != unit.dimensionality:
        add(f"{field}.value", f"{r.value!r} has dimension {dimension or 'dimensionless'}, but its unit "
            f"{r.unit!r} is {unit.dimensionality or 'dimensionless'}", "fix `value` or `unit`")
        return None
    compute = numpy_function(symbols, [value])
    si = spread(t, f"restate:{t.id}:{n}:{r.name}", ROOT_POINTS)
    consts = [c.si_value for c in t.constants.values()]
    restated_symbols = list(symbols_for([r.name, *others, *spec.constants]).values())

    def at_points(function: Callable[..., Any], *args: Any) -> Any:  # one value per point
        with np.errstate(all="ignore"):
            return np.broadcast_to(np.asarray(function(*args)[0], dtype=float), (ROOT_POINTS,))

    new = at_points(compute, *(si[i] for i in spec.inputs), *consts)
    given = at_points(numpy_function(restated_symbols, [means]), new, *(si[i] for i in others), *consts)
    with np.errstate(all="ignore"):
        usable = t.constraint_mask(si) & np.isfinite(new)
    if usable.sum() < ROOT_POINTS // 4 or not np.allclose(given[usable], si[n][usable], rtol=1e-7, atol=0.0):
        add(f"{field}.means", f"{n} = {r.means} does not give {n} back from {r.name} = {r.value} across the "
            "ranges", f"write `means` as {n} solved from `value`")
        return None
    try:
        sentence = compile_text(r.text)
    except Exception as exc:  # TextError, or jinja2.s TemplateSyntaxError
        add(f"{field}.text", f"cannot be read: {exc}", "write a sentence with {{ name }} placeholders")
        return None
    allowed = {r.name, *others, *spec.constants}
    if not sentence.names <= allowed or r.name not in sentence.names:
        add(f"{field}.text", f"the sentence uses {sorted(sentence.names)}; it must state {r.name} "
            f"({{{{ {r.name} }}}}) and may use only {sorted(allowed)}",
            f"write e.g. 'It is given as {{{{ {r.name} }}}}.'")
        return None
    printed: dict[str, str | None] = {i: s.symbol for i, s in spec.inputs.items()}
    printed.update({c: s.symbol for c, s in spec.constants.items()})
    printed[r.name] = r.symbol
    signs = {i: spec.inputs[i].bounds()[0] > 0 for i in spec.inputs}
    signs.update({c: k.si_value > 0 for c, k in t.constants.items()})
    signs[r.name] = bool((new[usable] > 0).all())
    assumed = {x: sp.Symbol(x, positive=True) if signs[x] else sp.Symbol(x, real=True) for x in signs}
    keys: dict[str, dict[str, str]] = {}
    with np.errstate(all="ignore"):  # points outside the constraints may leave a domain
        answers = t.evaluate_si(si)
    for a in spec.answers:
        expr = t.expressions.get(a)
        if expr is None or n not in {str(x) for x in expr.free_symbols}:
            continue
        rewritten = expr.xreplace({x: assumed[str(x)] for x in expr.free_symbols})
        inserted = means.xreplace({x: assumed[str(x)] for x in means.free_symbols})
        found = _simplest(rewritten.xreplace({assumed[n]: inserted}))
        found = found.xreplace({x: sp.Symbol(str(x)) for x in found.free_symbols})
        if sp.count_ops(found) > MAX_OPERATIONS:
            add(field, f"{a} in terms of {r.name} takes {sp.count_ops(found)} operations to write",
                "state the input through a simpler quantity")
            return None
        again = at_points(numpy_function(restated_symbols, [found]), new, *(si[i] for i in others), *consts)
        if not np.allclose(again[usable], answers[a][usable], rtol=1e-7, atol=0.0):
            add(field, f"{a} in terms of {r.name} does not give the key back", "check `value` and `means`")
            return None
        keys[a] = {style: format_expression(found, printed, style) for style in STYLES}
        keys[a]["sympy"] = str(found)
    if not keys:
        add(field, f"no answer uses {n}, so stating it another way changes no key", "remove `restated`")
        return None
    means_texts: dict[str, str] = {style: format_expression(means, printed, style) for style in STYLES}
    return Restated(n, r.name, r.unit, sentence, means_texts, keys, compute)


def _check_names(t: Template, alternatives: Mapping[str, tuple[str, ...]], forms: dict[str, Forms],
                 add: Callable[[str, str, str], None]) -> None:
    """Every alternative name is new, is read back as itself, and is not written in the texts
    already; every input that has alternatives is a symbol no English word shares."""
    from .reading.algebra import to_expression

    spec = t.spec
    own = [*spec.inputs, *spec.constants, *spec.answers]
    texts = _rendered(t)
    seen: dict[str, str] = {}
    for n, alts in alternatives.items():
        field = f"inputs.{n}.symbols"
        if forms[n].unicode in WORDS:
            add(field, f"{n} is written {forms[n].unicode!r}, which is also a word, so its mentions in "
                "the texts cannot be respelled", "remove `symbols`, or give the input another `symbol`")
            continue
        for alt in alts:
            if (alt in own and alt != n) or alt in seen:
                add(field, f"{alt!r} is already the name of {alt if alt in own else seen[alt]!r}",
                    "choose names that no other input, constant or answer has")
                continue
            seen[alt] = n
            problem = _unusable(alt, forms[alt], [*own, *seen], texts if alt != n else [])
            if problem is not None:
                add(field, *problem)
    for a, s in spec.answers.items():
        if not s.solve_for:
            continue
        read = to_expression(forms[a].unicode, [*own, *seen])
        if read != a:
            add(f"answers.{a}.symbol", f"{a} is printed {forms[a].unicode!r}, which the grader reads as "
                f"{read!r}", f"give `symbol` a form read back as {a!r} (dv: Δv; hbar: ħ)")


def _unusable(name: str, form: Forms, names: list[str],
              texts: list[tuple[str, str]]) -> tuple[str, str] | None:
    """Why an instance cannot write ``name`` (printed as ``form``), as (message, fix), or None: it
    reads as a function, a constant or a word; the grader, reading ``names``, does not read it back
    as itself; or one of ``texts`` (:func:`_rendered`) writes it already, so it would be ambiguous."""
    from .reading.algebra import to_expression
    from .reading.numbers import KNOWN_NAMES

    if name in KNOWN_NAMES or form.unicode in WORDS:
        return (f"{name!r} reads as {'a function or constant' if name in KNOWN_NAMES else 'a word'}",
                "choose another name")
    back = {style: to_expression(text, names) for style, text in
            (("unicode", form.unicode), ("latex", f"${form.latex}$"))}
    bad = [f"{style} {text!r}" for style, text in back.items() if text != name]
    if bad:
        return (f"{name!r} is printed {form.unicode!r}, which the grader reads as {', '.join(bad)}",
                "choose a name the grader reads back (a letter, a Greek letter's name, a letter with a "
                "digit)")
    hits = [where for where, text in texts if mentions(text, form.unicode)]
    if hits:
        return (f"{hits[0]} already writes {form.unicode!r}, so a mention of {name} would be ambiguous",
                "choose a symbol the texts do not use")
    return None


def _rendered(t: Template) -> list[tuple[str, str]]:
    """Each text (with its asks sentence), step and ask, as the unicode prompt shows them."""
    display = t.display.get("unicode")
    if display is None or display.symbols is None:
        return []
    context: dict[str, Any] = dict(display.symbols)
    out = []
    for k, text in enumerate(t.texts):
        out.append((f"text[{k}]", text.render({**context, "asks": display.asks[k]})))
    out += [(f"steps[{k}]", step.render(context)) for k, step in enumerate(t.steps)]
    return out


def _solve(t: Template, answer: str, unknown: str, forms: Mapping[str, Forms],
           add: Callable[[str, str, str], None]) -> Solved | None:
    """``answer``'s relation solved for input ``unknown``: the one root that gives the input back
    at ``ROOT_POINTS`` points across the ranges that meet the constraints (symbols declared
    positive where their range is)."""
    import sympy as sp

    from .render import STYLES, format_expression

    spec = t.spec
    field = f"answers.{answer}.solve_for"
    if unknown not in spec.inputs:
        add(field, f"{unknown!r} is not an input", f"use one of {list(spec.inputs)}")
        return None
    inp = spec.inputs[unknown]
    if forms[unknown].unicode in WORDS:
        add(field, f"{unknown} is written {forms[unknown].unicode!r}, which is also a word, so a reply "
            f"'{forms[unknown].unicode} = …' cannot be told from prose", "solve for another input")
        return None
    if inp.integer:
        add(field, f"{unknown} is a whole number (a count), not a quantity to solve for",
            "solve for a continuous input")
        return None
    if not inp.label:
        add(f"inputs.{unknown}.label", f"{unknown} is asked when the relation is solved for it, and has "
            "no label to ask it by", "give it a `label`, e.g. 'mass of the planet'")
        return None
    expr = t.expressions.get(answer)
    if expr is None:
        add(field, "the answer has no expression to solve", "give it an `expr`")
        return None
    if unknown not in {str(s) for s in expr.free_symbols}:
        add(field, f"{answer} does not depend on {unknown}", "solve for an input the answer uses")
        return None
    symbols = {}
    for n, i in spec.inputs.items():
        symbols[n] = sp.Symbol(n, positive=True) if i.bounds()[0] > 0 else sp.Symbol(n, real=True)
    for n, c in t.constants.items():
        symbols[n] = sp.Symbol(n, positive=True) if c.si_value > 0 else sp.Symbol(n, real=True)
    sign = spec.answers[answer].sign
    given = sp.Symbol(answer, **({"positive": True} if sign == "positive" else
                                 {"negative": True} if sign == "negative" else {"real": True}))
    relation = expr.xreplace({s: symbols[str(s)] for s in expr.free_symbols})
    try:  # no cubic or quartic formulas (no question to ask), and the roots are checked numerically
        roots = sp.solve(sp.Eq(given, relation), symbols[unknown], check=False, simplify=False,
                         cubics=False, quartics=False)
    except (NotImplementedError, ValueError) as exc:
        add(field, f"SymPy cannot solve {answer} = {expr} for {unknown}: {exc}",
            f"remove {unknown!r} from `solve_for`")
        return None
    roots = [r for r in roots if not r.has(sp.RootOf) and sp.count_ops(r) <= 4 * MAX_OPERATIONS]
    kept = [_simplest(r) for r in roots if _gives_back(t, answer, unknown, r)]
    if len(kept) != 1:
        add(field, f"solving {answer} = {expr} for {unknown} gives {len(roots)} root(s), {len(kept)} of "
            "which give the input back across its range", f"remove {unknown!r} from `solve_for`, or "
            "narrow the ranges (or declare the answer's `sign`) so that one root is the physical one")
        return None
    root = kept[0]
    if sp.count_ops(root) > MAX_OPERATIONS:
        add(field, f"{unknown} = {str(root)[:120]}… takes {sp.count_ops(root)} operations to write, more "
            f"than a student can be asked to find ({MAX_OPERATIONS})", f"remove {unknown!r} from `solve_for`")
        return None
    if root.has(sp.Abs, sp.I):
        add(field, f"{unknown} = {root} needs an absolute value or a complex number",
            "declare the inputs' ranges (positive) or the answer's `sign`")
        return None
    names: dict[str, str | None] = {n: i.symbol for n, i in spec.inputs.items()}
    names.update({n: c.symbol for n, c in spec.constants.items()})
    names[answer] = spec.answers[answer].symbol
    texts: dict[str, str] = {style: format_expression(root, names, style) for style in STYLES}
    texts["sympy"] = str(root)
    solved = Solved(answer, unknown, texts)
    if not _gradable(t, solved):
        add(field, f"the grader cannot evaluate {unknown} = {root} near the instances' values (a "
            "constant with no value stands at 1 there, so a root of a difference may have no real value)",
            f"remove {unknown!r} from `solve_for`")
        return None
    return solved


def _gradable(t: Template, s: Solved) -> bool:
    """Whether the grader can evaluate the key of ``s`` at the points it compares replies at, for
    a few instances (their shown inputs, and the answer given)."""
    from .reading.algebra import equivalent

    batch = t.sample(4, seed=0)
    for k in range(len(batch)):
        point = {n: float(batch.shown[n][k]) for n in t.spec.inputs if n != s.input}
        point[s.answer] = float(batch.answers[s.answer][k])
        if not equivalent(s.texts["sympy"], s.texts["sympy"], point, 1e-6)[0]:
            return False
    return True


def _simplest(root: Any) -> Any:
    """The shortest of a root, SymPy's simplification of it and that with its logarithms expanded
    (``C·log(b/a)/(2πε₀κ)`` rather than ``log((b/a)^(C/(2πε₀κ)))``)."""
    import sympy as sp

    simple = sp.simplify(root)
    return min((root, simple, sp.expand_log(simple, force=True)), key=sp.count_ops)


def _gives_back(t: Template, answer: str, unknown: str, root: Any) -> bool:
    """Whether ``root`` (in the other inputs, the answer and constants) gives ``unknown`` back at
    ``ROOT_POINTS`` points across the input ranges."""
    import sympy as sp

    from .functions import numpy_function

    spec = t.spec
    index = np.arange(ROOT_POINTS, dtype=np.uint64)
    si = spread(t, f"solve:{t.id}:{answer}:{unknown}", ROOT_POINTS)
    with np.errstate(all="ignore"):
        values = t.evaluate_si(si)
        names = [n for n in spec.inputs if n != unknown] + [answer, *t.constants]
        args: list[Any] = [si[n] for n in spec.inputs if n != unknown] + [values[answer]]
        args += [c.si_value for c in t.constants.values()]
        symbols = [sp.Symbol(n) for n in names]
        plain = root.xreplace({s: sp.Symbol(str(s)) for s in root.free_symbols})
        try:
            value = np.broadcast_to(np.asarray(numpy_function(symbols, [plain])(*args)[0], dtype=complex),
                                    index.shape)
        except Exception:
            return False
    got = value.real
    want = si[unknown]
    real = np.abs(value.imag) <= 1e-9 * np.abs(value.real)
    ok = np.isfinite(got) & np.isfinite(values[answer]) & real
    with np.errstate(all="ignore"):  # every point with an answer must give the input back
        finite = np.isfinite(values[answer]) & t.constraint_mask(si)
    return bool(finite.sum() >= ROOT_POINTS // 4 and (ok[finite]).all()
                and np.allclose(got[finite], want[finite], rtol=1e-7, atol=0.0))

