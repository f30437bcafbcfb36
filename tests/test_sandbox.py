"""The sandbox contains hostile answers; the code format grades real functions."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

import physgen
from physgen.grading import extract_code, grade
from physgen.sandbox import run_function


def test_runs_a_function_on_each_call() -> None:
    r = run_function("import math\ndef f(x, y):\n    return math.hypot(x, y)\n", "f",
                     [{"x": 3.0, "y": 4.0}, {"x": 5.0, "y": 12.0}])
    assert r.status == "ok" and r.outputs == [5.0, 13.0]


@pytest.mark.parametrize(("code", "status", "message"), [
    ("def f(x) return x", "syntax", "SyntaxError"),
    ("def f(x):\n    return 1 / 0\n", "exception", "ZeroDivisionError"),
    ("def g(x):\n    return x\n", "exception", "KeyError"),
    ("def f(x):\n    return 'text'\n", "exception", "ValueError"),
    ("import os\nwhile True:\n    os.fork()\n", "exception", "os.fork is not allowed"),
    ("import os\nos.system('echo hi')\n", "exception", "os.system is not allowed"),
    ("import subprocess\nsubprocess.run(['true'])\n", "exception", "subprocess.Popen is not allowed"),
    ("import socket\nsocket.socket()\n", "exception", "socket.__new__ is not allowed"),
    ("x = bytearray(10**10)\n", "exception", "MemoryError"),
    ("open('big.bin', 'wb').write(b'x' * 10**8)\n", "exception", "File too large"),
    ("import ctypes\nctypes.CDLL(None)\n", "exception", "not allowed"),
])
def test_hostile_payloads_are_contained(code: str, status: str, message: str) -> None:
    r = run_function(code, "f", [{"x": 1.0}], timeout=5)
    assert r.status == status and message in r.error, r


def test_infinite_loop_times_out() -> None:
    assert run_function("while True:\n    pass\n", "f", [{}], timeout=1).status == "timeout"


def test_busy_child_processes_die_with_the_group() -> None:
    # even if a fork slipped through, the process group is killed at the end
    r = run_function("def f():\n    while True: pass\n", "f", [{}], timeout=1)
    assert r.status == "timeout"


def test_no_writes_outside_the_working_directory(tmp_path: Path) -> None:
    target = tmp_path / f"pwned-{uuid.uuid4().hex}"
    r = run_function(f"open({str(target)!r}, 'w').write('x')\n", "f", [{}], timeout=5)
    assert r.status == "exception" and "not allowed" in r.error
    assert not target.exists()
    ok = run_function("open('scratch.txt', 'w').write('x')\ndef f():\n    return 1\n", "f", [{}])
    assert ok.status == "ok"


def test_environment_is_empty() -> None:
    os.environ["PHYSGEN_SECRET"] = "s3cret"
    try:
        probe = ("import os\nleaked = [k for k in os.environ if k != 'LC_CTYPE']\n"
                 "def f():\n    return float(len(leaked))\n")  # Python itself may set LC_CTYPE
        r = run_function(probe, "f", [{}])
        assert r.status == "ok" and r.outputs == [0.0]
    finally:
        del os.environ["PHYSGEN_SECRET"]


def test_extract_code() -> None:
    assert extract_code("text\n```python\na = 1\n```\nmore\n```python\nb = 2\n```") == "b = 2\n"
    assert extract_code("```\nc = 3\n```") == "c = 3\n"
    assert extract_code("def f(): pass") == "def f(): pass"


PROJECTILE = """
import math
def solve(v0, theta):
    g = 9.81
    return (v0**2 * math.sin(2 * theta) / g, 2 * v0 * math.sin(theta) / g,
            (v0 * math.sin(theta))**2 / (2 * g))
"""


def test_code_format_grades_a_correct_and_a_wrong_function() -> None:
    v = next(physgen.generate(["mechanics.projectile_range"], n=1, formats=["code"]))
    assert "solve(v0, theta)" in v.prompt and "theta in rad" in v.prompt
    assert len(v.code_tests) == 5
    assert grade(v, f"```python\n{PROJECTILE}```").correct
    wrong = grade(v, f"```python\n{PROJECTILE.replace('(2 * g)', 'g')}```")
    assert [p.correct for p in wrong.parts] == [True, True, False] and wrong.score == pytest.approx(2 / 3)
    crash = grade(v, "```python\ndef solve(v0, theta):\n    raise RuntimeError('no')\n```")
    assert not crash.correct and "exception" in crash.parts[0].detail
    assert grade(v, "I refuse").parts[0].reason == "unparseable"


def test_code_tests_are_reproducible() -> None:
    a = next(physgen.generate(["optics.thin_lens"], n=1, seed=4, formats=["code"]))
    b = next(physgen.generate(["optics.thin_lens"], n=1, seed=4, formats=["code"]))
    assert a.code_tests == b.code_tests and physgen.Variant.from_dict(a.to_dict()) == a
