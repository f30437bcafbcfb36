"""Expanding the derived expressions: parsing each text again against reusing the graph's parse.

Compile needs every derived quantity expanded in the inputs and constants. It used to parse
each expression again with ``substitutions`` of the earlier ones (``compile._expand``, and the
same again in ``compile_intermediates``, ``compile_printed`` and the decision checks); now
:func:`physgen.graph.solution_graph` parses each text once and
:func:`physgen.expressions.expand_in_order` substitutes with ``xreplace``. Over every template
file of the catalog, in one run (process CPU time), each with the solution graph that compile
builds either way: the old way (the graph, then a second parse with substitutions), the new way
(the graph keeping its parse, then the substitution), their ratio, and whether the expressions
are the same (``srepr``).

Run: ``python benchmarks/expand.py [--repeat 3]`` (prints figures, asserts nothing; reads the
template files only, no compile).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import sympy as sp

from physgen.catalog import BUILTIN_ROOT, read_spec
from physgen.expressions import expand_in_order, parse_expression
from physgen.graph import solution_graph


def _texts(spec: Any, order: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for name in order:
        text = spec.answers[name].expr if name in spec.answers else spec.intermediates[name].expr
        if text is not None:
            out.append((name, text))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the catalog (best kept)")
    args = parser.parse_args()
    specs = [read_spec(path) for path in sorted(BUILTIN_ROOT.rglob("*.yaml"))]
    graphs = [solution_graph(spec)[0] for spec in specs]
    old_best = new_best = float("inf")
    same = True
    for _ in range(args.repeat):
        sp.core.cache.clear_cache()
        start = time.process_time()
        old = []
        for spec in specs:
            graph = solution_graph(spec)[0]  # compile builds the graph either way
            names = [*spec.inputs, *spec.constants, *(n for n, a in spec.answers.items() if a.expr is None)]
            full: dict[str, Any] = {}
            for name, text in _texts(spec, graph.order):
                full[name] = parse_expression(text, names, substitutions=dict(full))
            old.append(full)
        old_best = min(old_best, time.process_time() - start)
        sp.core.cache.clear_cache()
        start = time.process_time()
        new = []
        for spec in specs:
            raw: dict[str, Any] = {}
            graph = solution_graph(spec, raw)[0]
            new.append(expand_in_order(raw, graph.order))
        new_best = min(new_best, time.process_time() - start)
        same = same and all(sp.srepr(a[n]) == sp.srepr(b[n])
                            for a, b in zip(old, new, strict=True) for n in a)
    count = sum(len(_texts(s, g.order)) for s, g in zip(specs, graphs, strict=True))
    print(f"{len(specs)} templates, {count} derived expressions")
    print(f"graph, then parse again with substitutions: {old_best:.2f} s CPU")
    print(f"graph keeping its parse, then expand_in_order: {new_best:.2f} s CPU")
    print(f"ratio old/new: {old_best / new_best:.1f}x; same expressions: {same}")


if __name__ == "__main__":
    main()
