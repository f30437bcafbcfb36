"""Read an algebraic answer and compare it with the key at random points.

LaTeX and unicode are read: ``\\frac{}{}``, ``\\sqrt{}``, ``\\sin\\theta``
(a function applied to the next factor), implicit multiplication (``2mgh`` when
``m``, ``g`` and ``h`` are the question's symbols), Greek letters and subscripts.

>>> to_expression(r"v = \\sqrt{2 g h}", ["g", "h"])
'sqrt(2*g*h)'
>>> to_expression(r"$T = 2\\pi\\sqrt{\\frac{L}{g}}$", ["L", "g"])
'2*pi*sqrt(((L)/(g)))'
>>> to_expression(r"\\frac{v_0^2 \\sin 2\\theta}{g}", ["v0", "theta", "g"])
'((v0**2*sin(2*theta))/(g))'
>>> equivalent("m*g*h", "g*h*m", {"m": 2.0, "g": 9.8, "h": 3.0}, 0.01)
(True, '')
"""

from __future__ import annotations

import functools
import hashlib
import random
import re
from collections.abc import Mapping, Sequence

from ..letters import GREEK
from .compare import close
from .numbers import FUNCS, KNOWN_NAMES, evaluate, normalise, to_python

# Patterns used inside functions, compiled once: other libraries (Pint's parser) churn
# the `re` module's own cache, and recompiling a pattern costs more than using it.
_P1 = re.compile(r"_\{\s*\\(?:text|mathrm|rm)\s*\{([^{}]*)\}\s*\}")
_P2 = re.compile(r"_\{\\?([^{}]*)\}")
_P3 = re.compile(r"\\([A-Za-z]+)(_[A-Za-z0-9]+)?")  # \theta, \sin, \rho_o (its subscript kept)
_P4 = re.compile(r"\|([^|]{1,40})\|")
#: LaTeX's math delimiters \( \) \[ \] (dollars are cut by ``normalise``)
_DELIMITERS = re.compile(r"\\[()\[\]]")
#: LaTeX's variant letters, written as the letter they vary (\varepsilon_0 is ε₀), and \ell as ℓ
_VARIANTS = re.compile(r"\\(?:var(epsilon|phi|theta|rho|pi|sigma|kappa)|(ell))(?![A-Za-z])")
_FRACTIONS = str.maketrans({"½": "(1/2)", "⅓": "(1/3)", "⅔": "(2/3)", "¼": "(1/4)", "¾": "(3/4)"})
#: \Delta p, \Delta{p} (normalised to \Delta(p)): Δp
_LATEX_DELTA = re.compile(r"\\Delta\s*(?:[{(]\s*([A-Za-z]\w*)\s*[})]|(?=[A-Za-z]))")
_P5 = re.compile(r",?\s+(?:where|with|for|if|when|since|assuming)\b|\.\s")
_TRAILING_JOIN = re.compile(r"(?:\s*(?:[,;]|\band\b|\bso\b|\bthen\b))+\s*$")  # "ω = √(k/m) and" (T = … next)
_P6 = re.compile(r"\s+")
_P7 = re.compile(r"/\s*(\d+(?:\.\d+)?\s*[A-Za-z_][\w ]*?)(?=$|[-+)]|\s[-+])")

#: Random points at which two expressions are compared: half within ±30 % of the instance's
#: values, half within a factor of 2 of them. Two expressions that differ by more than the tolerance
#: on a share p of that box pass with probability (1 - p)^POINTS: below 1e-6 for p ≥ 0.5.
POINTS = 20

_FUNC_NAMES = "|".join(sorted((f for f in FUNCS if f.isalpha()), key=len, reverse=True))
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FUNC_POWER = re.compile(rf"\b({_FUNC_NAMES})\s*\^\s*\(?(\d)\)?\s*([A-Za-z_]\w*|\d+(?:\.\d+)?)")  # sin^2 x
_FUNC_ARGUMENT = re.compile(rf"\b({_FUNC_NAMES})\s+(\d*\s*[A-Za-z_]\w*|\d+(?:\.\d+)?)(?![\w(])")  # sin x
_FUNC_NUMBER = re.compile(rf"\b({_FUNC_NAMES})(\d+(?:\.\d+)?)\b")  # ln2


@functools.lru_cache(maxsize=1024)
def _called(alternatives: str) -> re.Pattern[str]:
    """A variable followed by ``(``: ``g(1 - x)`` multiplies."""
    return re.compile(rf"\b({alternatives})\s*\(")


def _plain(name: str) -> str:
    return name.replace("_", "").replace("(", "").replace(")", "")


#: Symbols a question may print for a name: Greek letters, and ħ and ℓ.
_LETTER_WORDS = {**GREEK, "ħ": "hbar", "ℓ": "l"}
_GREEK_RUN = re.compile(f"([{''.join(_LETTER_WORDS)}])(\\d*(?:_[A-Za-z0-9]+)?)")  # ρ_b, ε₀ (digits by now)
_DIFFERENCE = re.compile(r"Δ\s?([A-Za-z]\w*)")  # Δp, ΔT: a difference named d<symbol>
_GREEK_WORD = re.compile("|".join(sorted(set(GREEK.values()), key=len, reverse=True)))


def _canon(name: str) -> str:
    """A name with every Greek word cut to its first three letters (``epsilon0`` and ``eps0``
    are one name; ``lambda`` and ``lam``)."""
    return _GREEK_WORD.sub(lambda m: m.group(0)[:3], _plain(name))


def _split_identifier(token: str, names: Sequence[str]) -> list[str] | None:
    """``mgh`` → ``[m, g, h]`` when those are names; None if it cannot be split."""
    vocab = sorted({*names, *KNOWN_NAMES}, key=len, reverse=True)
    out: list[str] = []
    i = 0
    while i < len(token):
        for word in vocab:
            if token.startswith(word, i):
                out.append(word)
                i += len(word)
                break
        else:
            return None
    return out


def to_expression(text: str, names: Sequence[str]) -> str:
    """Python syntax for an answer expression written in ``names`` (best effort)."""
    t = _DELIMITERS.sub(" ", text).translate(_FRACTIONS)
    # a braced subscript ends where its brace does: t_{0}y is t₀ y
    t = _P1.sub(r"_\1 ", t)  # h_{\text{max}}
    t = _P2.sub(r"_\1 ", t)  # v_{0}, h_{\max}
    t = _VARIANTS.sub(lambda m: f"\\{m.group(1)}" if m.group(1) else "ℓ", t)
    t = normalise(t).replace("[", "(").replace("]", ")")
    t = _LATEX_DELTA.sub(lambda m: f"Δ{m.group(1) or ''}", t)
    t = _P3.sub(r" \1\2 ", t)
    t = _DIFFERENCE.sub(lambda m: f" d{m.group(1)} " if f"d{m.group(1)}" in names else m.group(0), t)
    t = _GREEK_RUN.sub(lambda m: f" {_LETTER_WORDS[m.group(1)]}{m.group(2)} ", t)  # ε₀ → epsilon0
    t = _P4.sub(r"abs(\1)", t)
    t = t.split("=")[-1]
    head, approx, tail = t.partition("≈")  # "√(Gm/R)(√2 − 1) ≈ 0.414√(Gm/R)": the exact form
    if approx:
        t = tail if _NAME.fullmatch(head.strip()) or not head.strip() else head
    t = _P5.split(t)[0]
    t = _TRAILING_JOIN.sub("", t.strip().rstrip(".,;: "))
    t = _FUNC_POWER.sub(r"(\1(\3))^\2", t)
    t = _FUNC_ARGUMENT.sub(r"\1(\2)", t)
    t = _FUNC_NUMBER.sub(lambda m: m.group(0) if m.group(0) in FUNCS else f"{m.group(1)}({m.group(2)})", t)
    by_plain = {_plain(n): n for n in names}
    by_canon = {_canon(n): n for n in names}

    def rename(m: re.Match[str]) -> str:
        token = m.group(0)
        if token in KNOWN_NAMES or token in names:
            return token
        if _plain(token) in by_plain:
            return by_plain[_plain(token)]
        if _canon(token) in by_canon:  # epsilon0 is the template's eps0, lambda its lam
            return by_canon[_canon(token)]
        parts = _split_identifier(token, [*names, *by_plain])
        if parts is None and "_" in token:  # C_1V (LaTeX: C₁ V), NRT_0
            parts = _split_identifier(_plain(token), [*names, *by_plain])
        if parts is None:
            return token
        return " ".join(by_plain.get(p, p) for p in parts)

    t = _NAME.sub(rename, t)
    t = _P6.sub(" ", t).strip()
    variables = [n for n in names if n not in KNOWN_NAMES]
    if variables:  # "g(1 - x)" multiplies: a variable is no function
        alternatives = "|".join(map(re.escape, sorted(variables, key=len, reverse=True)))
        t = _called(alternatives).sub(r"\1*(", t)
    # "Q^2/2C" is Q^2/(2C): a juxtaposed product after a slash binds first
    t = _P7.sub(r"/(\1)", t)
    return _P6.sub("", to_python(t))


def equivalent(got: str, want: str, point: Mapping[str, float], rtol: float) -> tuple[bool, str]:
    """Whether two Python expressions agree at ``POINTS`` random points near ``point``;
    the second item says where they differ, or why ``got`` could not be evaluated."""
    variables = sorted({n for n in _NAME.findall(want) if n not in KNOWN_NAMES})
    rng = random.Random(int(hashlib.blake2b(want.encode(), digest_size=8).hexdigest(), 16))
    compared = 0
    unscaled = any(v not in point for v in variables)  # a constant (G) with no value: the instance's
    for attempt in range(POINTS * 8):  # scales mean nothing (2GM − Rv² at G = 1), so points near 1
        if compared == POINTS:
            break
        # near the instance first; if the key cannot be evaluated there (a constant the reply
        # writes as a symbol stands at 1, so exp(ħω/kT) overflows), at points near 1
        scale = point if attempt < POINTS * 4 and not unscaled else {}
        near = compared < POINTS // 2
        at = {v: scale.get(v, 1.0) * (rng.uniform(0.7, 1.3) if near else 2 ** rng.uniform(-1, 1))
              for v in variables}
        try:
            expected = evaluate(want, at)
        except ValueError:
            continue  # outside the key's domain: try another point
        try:
            value = evaluate(got, at)
        except ValueError as err:
            return False, f"cannot evaluate: {err}"
        if not close(value, expected, rtol):
            return False, f"differs at {at}"
        compared += 1
    return compared > 0, "" if compared else "the key could not be evaluated"
