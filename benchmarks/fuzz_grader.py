"""Fuzz the grader with generated hostile replies and print the slowest call.

Inputs: random text, nested brackets, huge exponents in numbers *and units*,
unicode, repetition, marker and label spam, 1 MB strings, and generators heavy in
whitespace (runs of spaces, tabs and unicode spaces around values), newlines (up to
30,000 in a row, blank lines with spaces, a value or marker at either end) and labels
(``(a)`` … ``(z)``, ``a.``, ``1.``, ``Part (b)`` in runs, with and without values). Input k is graded
as a one-part answer, a three-part answer or a multiple-choice letter, in turn; no
call may raise, and the slowest must stay under 50 ms of CPU time.

Run: ``python benchmarks/fuzz_grader.py [N] [SHARD/SHARDS]`` (default 1,000,000
inputs on one core; ``0/2`` and ``1/2`` in two processes make the same N inputs
between them, each shard from its own seed).
"""

from __future__ import annotations

import gc
import random
import sys
import time

from physgen.grading import grade_answer

PIECES = ["5", "3.2", "e", "E", "1e999", "10^", "^", "**", "×10^{", "}", "{", "(", ")", "[", "]", "\\frac{",
          "\\sqrt{", "\\boxed{", "m", "kg", "s^-2", "m^9^9^9", "Ω", "µ", "°C", " ", "\n", "=", "≈", "±", "-",
          "−", "Final answer:", "(a)", "(b)", "A", "B", "not", "or", "between", "and", "wait,", ",", ".",
          "$", "\\text{", "\\mathrm{", "π", "√", "⁻¹", "²", "Question:", "1 250", ":", "|", "é", "\x00"]
SIZES = (4, 16, 64, 256, 2048)


SPACES = [" ", "\t", "\u00a0", "\u2009", "\u3000", "\u200b", " \t"]
VALUES = ["5", "3.2 m", "1 250", "Final answer:", "(a)", "=", "\\boxed{3}", "wait,", "or", "A", "2.0e3 m/s",
          ""]
LABELS = ["(a)", "(b)", "(z)", "a.", "b)", "1.", "(2)", "Part (c)", "**(d)**", "- (e)", "(A)", "i."]


def whitespace_heavy(rng: random.Random) -> str:
    """Values separated by long runs of spaces, tabs and unicode spaces."""
    return "".join(rng.choice(SPACES) * rng.randrange(1, 20_000) + rng.choice(VALUES)
                   for _ in range(rng.randrange(1, 6)))


def newline_heavy(rng: random.Random) -> str:
    """Up to 30,000 newlines in a row, blank lines holding spaces, values and markers between."""
    runs = rng.choice(["\n", "\n\n", "\n \n", "\r\n", "\n\t"])
    return "".join(runs * rng.randrange(1, 30_000 // len(runs)) + rng.choice(VALUES)
                   for _ in range(rng.randrange(1, 4)))


def label_heavy(rng: random.Random) -> str:
    """Part labels in long runs, on one line or one per line, with and without values."""
    sep = rng.choice([" ", "\n", "", ", "])
    value = rng.choice(["", " 3 m", " 2 s", " x", " (a)"])
    return rng.choice(["", "Final answer:\n"]) + sep.join(
        rng.choice(LABELS) + value for _ in range(rng.randrange(1, 5000)))


def generate(rng: random.Random, k: int) -> str:
    """The k-th fuzz input: mostly short mixtures, now and then a huge or pathological one."""
    kind = k % 50
    if kind == 0:
        return rng.choice(["(", "{", "\\frac{", "\\boxed{", "[", "$"]) * rng.randrange(1, 200_000)
    if kind == 1:
        powers = (str(rng.randrange(2, 99)) for _ in range(rng.randrange(2, 60)))
        return f"{rng.randrange(10)} m^" + "^".join(powers)
    if kind == 2:
        return f"5 m 10^{rng.randrange(10**6, 10**9)} " + "s^" + "9" * rng.randrange(1, 5000)
    if kind == 3:
        return "".join(chr(rng.randrange(32, 0x10FFFF)) for _ in range(rng.randrange(1, 3000))
                       ).encode("utf-8", "ignore").decode("utf-8", "ignore")
    if kind == 4 and k % 1000 == 4:
        return ("The answer is 5 m. " * 60_000)[: 1 << 20]  # 1 MB
    if kind == 5:
        return "Final answer: " * rng.randrange(1, 5000) + "(a) 1 m " * rng.randrange(1, 3000)
    if kind in (6, 7, 8, 9):
        return whitespace_heavy(rng)
    if kind in (10, 11, 12, 13):
        return newline_heavy(rng)
    if kind in (14, 15, 16, 17):
        return label_heavy(rng)
    n = rng.choice(SIZES)
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, n)))


def main(n: int, shard: int = 0, shards: int = 1) -> None:
    rng = random.Random(shard)
    options = ["1.0 m", "2.0 m", "4.2 m", "8.4 m"]
    expectations = [("3 m", None), ({"a": "3.5 m/s", "b": "2 kg", "c": "1e-3 C"}, None), ("C", options)]
    slowest, worst = 0.0, ""
    for k in range(200):  # warm the caches, then keep the start-up heap out of later collections
        grade_answer(generate(rng, k), "3 m")
    gc.freeze()
    lo, hi = shard * n // shards, (shard + 1) * n // shards
    start = time.perf_counter()
    for k in range(lo, hi):
        text = generate(rng, k)
        expected, opts = expectations[k % 3]
        t0 = time.process_time()  # CPU time: the machine is shared, wall time is noise
        grade_answer(text, expected, options=opts)
        dt = time.process_time() - t0
        if dt > slowest:
            slowest, worst = dt, text
        if (k - lo) and (k - lo) % 100_000 == 0:
            print(f"{k - lo:,} inputs, slowest so far {slowest * 1000:.1f} ms", flush=True)
    total = time.perf_counter() - start
    print(f"{hi - lo:,} inputs (shard {shard}/{shards} of {n:,}) in {total:.0f} s; slowest call "
          f"{slowest * 1000:.1f} ms (limit 50 ms: {'met' if slowest < 0.05 else 'NOT met'}) on an input of "
          f"{len(worst):,} chars: {worst[:120]!r}")


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    part, parts = (int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "0/1").split("/"))
    main(count, part, parts)
