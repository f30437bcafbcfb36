"""The letters a symbol may be written with beyond ASCII, and how LaTeX writes each: one table,
which the printer uses (:func:`latex_symbol`: a template's ``symbol: ρ_o`` in a LaTeX text) and
the grader reads (:data:`GREEK`, the word each Greek letter is read as).

>>> latex_symbol("ρ_o"), latex_symbol("ω₀"), latex_symbol("Δp"), latex_symbol("ħc")
('\\\\rho_{o}', '\\\\omega_{0}', '\\\\Delta p', '\\\\hbar c')
>>> GREEK["ε"], LATEX["ε"]
('epsilon', '\\\\varepsilon')
"""

from __future__ import annotations

import unicodedata

#: Each Greek letter a symbol or a reply may hold, and the LaTeX command that writes it. Its word
#: (:data:`GREEK`) is the command without ``\\`` and ``var``: ``\\varepsilon`` is ``epsilon``.
GREEK_LATEX: dict[str, str] = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon", "ζ": r"\zeta",
    "η": r"\eta", "θ": r"\theta", "ϑ": r"\vartheta", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu",
    "ν": r"\nu", "ξ": r"\xi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "φ": r"\varphi", "ϕ": r"\phi",
    "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "Δ": r"\Delta", "Φ": r"\Phi", "Ω": r"\Omega",
    "Γ": r"\Gamma", "Λ": r"\Lambda",
}
#: The word the grader reads each Greek letter as (ε and ϵ are ``epsilon``, θ and ϑ ``theta``).
GREEK: dict[str, str] = {ch: cmd[1:].removeprefix("var") for ch, cmd in GREEK_LATEX.items()}
#: Every letter :func:`latex_symbol` writes as a command: the Greek ones, and π, ħ and ℓ (which the
#: grader reads elsewhere: π as ``pi``, ħ as ``hbar``, ℓ as ``l``).
LATEX: dict[str, str] = {**GREEK_LATEX, "π": r"\pi", "ħ": r"\hbar", "ℓ": r"\ell"}
#: Primes, written as LaTeX's.
PRIMES: dict[str, str] = {"′": "'", "″": "''", "‴": "'''"}
_SCRIPTS = {"<sub>": "_", "<super>": "^"}


def _script(ch: str) -> tuple[str, str] | None:
    """``("_", base)`` for a subscript character, ``("^", base)`` for a superscript one."""
    kind, _, code = unicodedata.decomposition(ch).partition(" ")
    if kind not in _SCRIPTS or not code:
        return None
    base = chr(int(code.split()[0], 16))
    return _SCRIPTS[kind], "-" if base == "−" else base


def _fraction(ch: str) -> tuple[str, str] | None:
    """``("1", "2")`` for ``½``."""
    kind, _, codes = unicodedata.decomposition(ch).partition(" ")
    if kind != "<fraction>":
        return None
    top, _, bottom = "".join(chr(int(c, 16)) for c in codes.split()).partition("⁄")
    return top, bottom


def latex_symbol(symbol: str) -> str:
    """How LaTeX maths writes a symbol a template spells in unicode: a letter of :data:`LATEX` as
    its command (a space after it before a letter: ``Δp`` is ``\\Delta p``), a run of subscript or
    superscript characters, or of name characters after ``_``, in braces (``ε₀`` is
    ``\\varepsilon_{0}``, ``GM_sun`` is ``GM_{sun}``), primes as ``'``, and a fraction as
    ``\\tfrac{1}{2}``, or as a subscript right after a letter (``T½`` is ``T_{1/2}``). Anything
    else is kept.

    >>> latex_symbol("μ_B"), latex_symbol("e²/4πε₀"), latex_symbol("m_α c²"), latex_symbol("v′")
    ('\\\\mu_{B}', 'e^{2}/4\\\\pi\\\\varepsilon_{0}', 'm_{\\\\alpha} c^{2}', "v'")
    >>> latex_symbol("T½(⁹⁹ᵐTc)"), latex_symbol("x_{max}"), latex_symbol("v0")
    ('T_{1/2}(^{99m}Tc)', 'x_{max}', 'v0')
    """
    out: list[str] = []
    i = 0
    while i < len(symbol):
        ch = symbol[i]
        script = _script(ch)
        if script is not None:  # a run of one kind: ⁹⁹ᵐ
            mark, run = script[0], []
            while i < len(symbol) and (s := _script(symbol[i])) is not None and s[0] == mark:
                run.append(latex_symbol(s[1]))
                i += 1
            _append(out, f"{mark}{{{''.join(run)}}}")
            continue
        if ch == "_" and i + 1 < len(symbol) and _in_name(symbol[i + 1]):
            j = i + 1
            while j < len(symbol) and _in_name(symbol[j]):
                j += 1
            _append(out, f"_{{{latex_symbol(symbol[i + 1:j])}}}")
            i = j
            continue
        fraction = _fraction(ch)
        if fraction is not None:
            top, bottom = fraction
            after_letter = i > 0 and symbol[i - 1].isalpha()
            _append(out, f"_{{{top}/{bottom}}}" if after_letter else f"\\tfrac{{{top}}}{{{bottom}}}")
        else:
            letter = LATEX.get(ch) or LATEX.get(unicodedata.normalize("NFKC", ch))  # µ (micro) is μ
            _append(out, letter or PRIMES.get(ch, ch))
        i += 1
    return "".join(out)


def _in_name(ch: str) -> bool:
    return (ch.isascii() and ch.isalnum()) or ch in LATEX


def _append(out: list[str], piece: str) -> None:
    """Add ``piece``, with a space if it would run into the command before it (``\\Delta p``)."""
    if out and piece[:1].isalpha() and piece[:1].isascii() and _ends_in_command(out[-1]):
        out.append(" ")
    out.append(piece)


def _ends_in_command(text: str) -> bool:
    """Whether ``text`` ends in a LaTeX command's name (``\\alpha``, not ``\\alpha_{0}``)."""
    stem = text.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return stem != text and stem.endswith("\\")
