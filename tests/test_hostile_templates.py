"""Hostile template files never run code, hang or exhaust memory (issue 20, docs/security.md).

Each payload is a minimal template file: the valid fixture with one field made hostile, or
raw YAML. Loading it must refuse it with exactly one problem, on one short line naming the
file and the field; a canary file the payload would create must not exist; and loading must
finish within a bound enforced from outside the loading process (a forked worker waited on
with a timeout, or a subprocess timeout), since SymPy's or Pint's loops in C ignore signals.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml

import physgen
from physgen.errors import CatalogError
from physgen.render import Text, compile_text

from .conftest import good, write_template

ROOT = Path(__file__).resolve().parents[1]
#: Generous bound on loading one payload file; a payload that needs more has won.
BOUND = 120

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the bound is enforced with a forked worker")

TOUCH = "touch CANARY"
Payload = Callable[[], "dict[str, Any] | str"]


def _with(path: tuple[Any, ...], value: Any) -> Payload:
    """The valid fixture with the field at ``path`` set to ``value``."""
    def make() -> dict[str, Any]:
        data = good()
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return data
    return make


def _steps(text: str) -> Payload:
    return _with(("steps", 0), text)


def _text(text: str) -> Payload:
    return _with(("text", 0), text)


def _expr(text: str) -> Payload:
    return _with(("answers", "v", "expr"), text)


def _fixture(change: Callable[[dict[str, Any]], object]) -> Payload:
    def make() -> dict[str, Any]:
        data = good()
        change(data)
        return data
    return make


def _raw(text: str) -> Payload:
    return lambda: text


def _fixture_yaml(extra: str = "") -> str:
    return yaml.safe_dump(good(), sort_keys=False) + extra


ALIAS_BOMB = """\
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""

# name -> (the file, the field its one problem names)
PAYLOADS: dict[str, tuple[Payload, str]] = {
    # -- texts: code, loops, memory -------------------------------------------------------
    "step_cycler_globals": (_steps("v = {{ cycler.__init__.__globals__.os.system('touch CANARY') }}"),
                            "steps[0]"),
    "text_cycler_globals": (_text("{{ cycler.__init__.__globals__.os.system('touch CANARY') }} "
                                  "{{ d }} {{ t }}. {{ asks }}"), "text[0]"),
    "step_subclasses": (_steps("{{ ''.__class__.__mro__[1].__subclasses__() }}"), "steps[0]"),
    "text_lipsum_popen": (_with(("text", 1), "{{ lipsum.__globals__['os'].popen('touch CANARY').read() }}"
                                "{{ d }} {{ t }}. {{ asks }}"), "text[1]"),
    "step_self_builtins": (_steps("{{ self.__init__.__globals__.__builtins__.open('CANARY', 'w') }}"),
                           "steps[0]"),
    "step_for_loop_bomb": (_steps("{% for i in range(10**9) %}{{ v }}{% endfor %}"), "steps[0]"),
    "step_string_bomb": (_steps("{{ 'x' * 10**9 }}"), "steps[0]"),
    "step_center_bomb": (_steps("{{ v | center(1000000000) }}"), "steps[0]"),
    "step_set_namespace": (_steps("{% set n = namespace(x=1) %}{{ v }}"), "steps[0]"),
    "text_attr_filter": (_text("{{ d | attr('__class__') }} {{ t }}. {{ asks }}"), "text[0]"),
    "step_format_filter": (_steps("{{ '%s%s' | format(v, v) }}"), "steps[0]"),
    "step_include": (_steps("{% include '/etc/passwd' %}"), "steps[0]"),
    "step_extends": (_steps("{% extends 'base.html' %}"), "steps[0]"),
    "step_recursive_macro": (_steps("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}"), "steps[0]"),
    "step_dunder_attribute": (_steps("{{ v.__class__ }}"), "steps[0]"),
    "step_item_access": (_steps("{{ v['__class__'] }}"), "steps[0]"),
    "step_call": (_steps("{{ joiner() }}"), "steps[0]"),
    "step_deep_parentheses": (_steps("{{ " + "(" * 800 + "v" + ")" * 800 + " }}"), "steps[0]"),
    "text_omit_span_payload": (_text("A runner covers [[ {{ d.__class__ }} ]] in {{ t }}. {{ asks }}"),
                               "text[0]"),
    "step_conditional": (_steps("{{ v if v else t }}"), "steps[0]"),
    "step_autoescape_tag": (_steps("{% autoescape false %}{{ v }}{% endautoescape %}"), "steps[0]"),
    # -- expressions ---------------------------------------------------------------------------
    "expr_lambda": (_expr("(lambda: 1)() + d/t"), "answers.v.expr"),
    "expr_import_system": (_expr("__import__('os').system('touch CANARY') + d/t"), "answers.v.expr"),
    "expr_power_tower": (_expr("d/t + 0*9**9**9"), "answers.v.expr"),
    "expr_big_power": (_expr("d/t*(1 + 0*2**(10**6))"), "answers.v.expr"),
    "expr_big_literal": (_expr("d/t*" + "7" * 40), "answers.v.expr"),
    "expr_too_long": (_expr("d/t" + " + 0*d/t" * 200), "answers.v.expr"),
    "expr_too_deep": (_expr("sqrt(" * 60 + "d/t" + ")" * 60), "answers.v.expr"),
    "expr_exp_tower": (_expr("d/t*exp(exp(exp(100)))"), "answers.v.expr"),
    "expr_symbol_call": (_expr("Symbol('x')*d/t"), "answers.v.expr"),
    "expr_eval": (_expr("eval('d/t')"), "answers.v.expr"),
    "expr_attribute": (_expr("d.__class__"), "answers.v.expr"),
    "constraint_power_tower": (_with(("constraints",), ["9**9**9 > d"]), "constraints[0]"),
    "check_expr_mro": (_with(("checks",), [{"name": "x", "expr": "().__class__.__bases__[0] > 1"}]),
                       "checks[0].expr"),
    "check_of_attribute": (_with(("checks",), [{"limit": "below_c", "of": "d.__class__"}]), "checks[0].of"),
    "mistake_lambda": (_with(("mistakes",), [{"name": "x", "v": "(lambda: d)()"}]), "mistakes[0].v"),
    "intermediate_list_bomb": (_fixture(lambda d: d.update(  # v is found from x, so x is on the way
        intermediates={"x": {"expr": "[d]*10**9", "unit": "m", "step": 0}},
        answers={"v": {**d["answers"]["v"], "expr": "x/t"}},
        steps=["x = {{ x }}, v = x/t = {{ v }}"])), "intermediates.x.expr"),
    # -- units -------------------------------------------------------------------------------------
    "unit_power_tower": (_with(("inputs", "d", "unit"), "m^9^9^9"), "inputs.d.unit"),
    "constant_power_tower": (_with(("constants",), {"g": "9**9**9 m/s^2"}), "constants.g"),
    "constant_unit_group_power": (_with(("constants",), {"g": {"value": "9.81 m/s^2",
                                                               "unit": "((m**12)**12)/s^2"}}),
                                  "constants.g.unit"),
    # -- solver -------------------------------------------------------------------------------------
    "solver_os_system": (_fixture(lambda d: (d["answers"]["v"].pop("expr"), d.update(solver="os:system"))),
                         "solver"),
    "solver_not_a_function": (_fixture(lambda d: (d["answers"]["v"].pop("expr"),
                                                  d.update(solver="physgen.solvers.orbits:np"))), "solver"),
    # -- YAML ---------------------------------------------------------------------------------------
    "yaml_alias_bomb": (_raw(ALIAS_BOMB), "line 1"),
    "yaml_merge_alias": (_raw(_fixture_yaml("base: &b {x: 1}\nother:\n  <<: *b\n")), "line "),
    "yaml_deep_nesting": (_raw("id: " + "[" * 50_000 + "]" * 50_000 + "\n"), "line 1"),
    "yaml_python_object": (_raw("id: !!python/object/apply:os.system ['touch CANARY']\n"), "line 1"),
    "yaml_python_name": (_raw("id: !!python/name:os.system\n"), "line 1"),
    "yaml_huge_integer": (_raw(_fixture_yaml().replace("version: 1", "version: 1" + "0" * 5000)), ""),
    "yaml_not_utf8": (_raw("id: caf\udce9\n"), ""),
    "file_too_large": (_raw(_fixture_yaml("#" + "x" * 300_000 + "\n")), ""),
    # -- sizes --------------------------------------------------------------------------------------
    "paraphrases_3000": (_with(("text",), [f"Case {k}: a runner covers {{{{ d }}}} in {{{{ t }}}}. "
                                            "{{ asks }}" for k in range(3000)]), "text"),
    "text_100k": (_text("A runner covers {{ d }} in {{ t }}. " + "Lorem ipsum. " * 8000 + "{{ asks }}"),
                  "text.0"),
    "inputs_1000": (_with(("inputs",), {f"x{k}": {"unit": "m", "range": [1, 2]} for k in range(1000)}),
                    "inputs"),
    "answers_100": (_with(("answers",), {f"a{k}": {"expr": "d/t", "unit": "m/s", "ask": "the speed"}
                                         for k in range(100)}), "answers"),
    "steps_1000": (_with(("steps",), ["v = {{ v }}"] * 1000), "steps"),
    "mistakes_1000": (_with(("mistakes",), [{"name": f"m{k}", "v": "2*d/t"} for k in range(1000)]),
                      "mistakes"),
    "mistake_100_answers": (_with(("mistakes",), [{"name": "m", **{f"a{k}": "d" for k in range(100)}}]),
                            "mistakes.0"),
    "long_unit_text": (_with(("answers", "v", "unit"), "m/s" + "*m/m" * 200), "answers.v.unit"),
}

# Valid files using what the rules still allow: each must load.
CONTROLS: dict[str, Payload] = {
    "fixture": good,
    "value_and_unit_parts": _steps("v = {{ d.value }} {{ d.unit }} / {{ t }} = {{ v }}"),
    "filters": _steps("v = d/t = {{ v | trim }}; {{ v | upper }}"),
    "caret_power_and_functions": _expr("Max(d/t, 0.5*d/t) * (t^2/t**2) * exp(0*log(2))"),
    "unit_with_group": _fixture(lambda d: d.update(
        constants={"k": {"value": "1 W/(m^2*K^4)", "common": True}})),
    "anchor_without_alias": _raw(_fixture_yaml().replace("source: ", "source: &s ")),
    "raw_block": _steps("{% raw %}v = d/t{% endraw %} = {{ v }}"),
}


def _load(path: str) -> tuple[list[tuple[str, str, str]], bool]:
    """In the worker: load ``path`` as ``physgen generate --path`` does; its problems and
    whether the canary beside it exists."""
    problems: list[tuple[str, str, str]] = []
    try:
        physgen.load_catalog(path)
    except CatalogError as exc:
        problems = [(p.source, p.field, str(p)) for p in exc.problems]
    return problems, (Path(path) / "CANARY").exists()


@pytest.fixture(scope="module")
def worker() -> Iterator[concurrent.futures.ProcessPoolExecutor]:
    """One forked process that loads payloads; the test waits on it with a timeout."""
    pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    yield pool
    for process in list(getattr(pool, "_processes", {}).values()):
        process.kill()  # a worker stuck in C would otherwise keep running
    pool.shutdown(wait=False, cancel_futures=True)


def _write(root: Path, name: str, payload: Payload) -> Path:
    content = payload()
    canary = str(root / "CANARY")
    if isinstance(content, str):
        path = root / "mechanics" / "demo_speed.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = content.replace("CANARY", canary)
        path.write_bytes(raw.encode("utf-8", "surrogateescape"))
        return path
    text = yaml.safe_dump(content, sort_keys=False, allow_unicode=True).replace("CANARY", canary)
    return write_template(root, text, "mechanics/demo_speed.yaml")


def test_there_are_at_least_40_payloads() -> None:
    assert len(PAYLOADS) >= 40


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_payload_is_refused_in_one_line(name: str, tmp_path: Path,
                                        worker: concurrent.futures.ProcessPoolExecutor) -> None:
    payload, field = PAYLOADS[name]
    path = _write(tmp_path, name, payload)
    problems, ran = worker.submit(_load, str(tmp_path)).result(timeout=BOUND)
    assert not ran and not (tmp_path / "CANARY").exists(), "the payload ran"
    assert len(problems) == 1, problems
    source, got_field, text = problems[0]
    first, *rest = text.splitlines()
    assert source == str(path) and got_field.startswith(field), text
    assert first.startswith(f"{path}: {got_field}: " if got_field else f"{path}: "), first
    assert len(first) < 300 + len(str(path)), first
    assert all(line.startswith("    fix: ") for line in rest), text


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_valid_controls_still_load(name: str, tmp_path: Path,
                                   worker: concurrent.futures.ProcessPoolExecutor) -> None:
    _write(tmp_path, name, CONTROLS[name])
    problems, _ = worker.submit(_load, str(tmp_path)).result(timeout=BOUND)
    assert problems == []


def test_the_sandbox_stops_a_text_that_skipped_the_checks(tmp_path: Path) -> None:
    """Defence in depth: a Text built by hand, past compile_text, still renders in the sandbox."""
    canary = tmp_path / "CANARY"
    for source in (f"{{{{ cycler.__init__.__globals__.os.system('touch {canary}') }}}}",
                   "{{ ''.__class__.__mro__[1].__subclasses__() }}"):
        with pytest.raises(jinja2.exceptions.SecurityError):
            Text(source, frozenset(), None).render({})
    assert not canary.exists()


def test_the_catalog_text_with_parts_renders_as_before() -> None:
    text = compile_text("P = {{ I.value }} A × {{ V.value }} V = {{ P }}.")
    shown = physgen.render.Shown("2.00 A", "2.00", "A")
    assert text.render({"I": shown, "V": shown, "P": "4.00 W"}) == "P = 2.00 A × 2.00 V = 4.00 W."


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PHYSGEN_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "physgen.cli", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_validate_refuses_every_payload_of_a_pack(tmp_path: Path) -> None:
    """`physgen validate` on a pack of every payload (each file under its own id) and the
    controls: exit status 1, every payload file named, every control passing, nothing ran."""
    pack = tmp_path / "pack"
    for k, name in enumerate(sorted(PAYLOADS)):
        content = PAYLOADS[name][0]()
        if isinstance(content, dict):
            content["id"] = f"mechanics.payload_{k}"
            content = yaml.safe_dump(content, sort_keys=False, allow_unicode=True)
        file = pack / "mechanics" / f"payload_{k}.yaml"
        file.parent.mkdir(parents=True, exist_ok=True)
        raw = content.replace("CANARY", str(tmp_path / "CANARY"))
        file.write_bytes(raw.encode("utf-8", "surrogateescape"))
    result = _cli("validate", str(pack), "--time-limit", "60", "--no-progress", cache=tmp_path / "cache")
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("physgen validate: error:"), lines[0]
    named = [line for line in lines[1:] if not line.startswith("    fix: ")]
    assert len(named) == len(PAYLOADS), "\n".join(named)
    for k in range(len(PAYLOADS)):
        assert sum(f"payload_{k}.yaml:" in line for line in named) == 1, k
    assert not (tmp_path / "CANARY").exists()


def test_validate_stops_a_file_over_its_time_limit(tmp_path: Path) -> None:
    """The bound itself: a valid file given 1 ms is stopped and reported on one line."""
    path = write_template(tmp_path / "pack", good())
    result = _cli("validate", str(tmp_path / "pack"), "--time-limit", "0.001", "--no-progress",
                  cache=tmp_path / "cache")
    assert result.returncode == 1
    problem = [line for line in result.stderr.splitlines() if line.startswith(str(path))]
    assert problem == [f"{path}: checking took longer than 0.001 s, so it was stopped"], result.stderr
