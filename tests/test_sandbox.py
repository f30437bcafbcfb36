"""The sandbox contains hostile answers; the code format grades real functions."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import pytest

import physgen
from physgen import sandbox
from physgen.errors import PhysgenError
from physgen.grading import extract_code, grade
from physgen.sandbox import RunResult, SandboxUnavailable, parse_result, run_function


def test_runs_a_function_on_each_call() -> None:
    r = run_function("import math\ndef f(x, y):\n    return math.hypot(x, y)\n", "f",
                     [{"x": 3.0, "y": 4.0}, {"x": 5.0, "y": 12.0}])
    assert r.status == "ok" and r.outputs == [5.0, 13.0]


@pytest.mark.parametrize(("code", "status", "message"), [
    ("def f(x) return x", "syntax", "SyntaxError"),
    ("def f(x):\n    return 1 / 0\n", "exception", "ZeroDivisionError"),
    ("def g(x):\n    return x\n", "exception", "KeyError"),
    ("def f(x):\n    return 'text'\n", "exception", "ValueError"),
    # contained by the OS, not by Python: no process can be started, no host is reachable
    ("import os\nwhile True:\n    os.fork()\n", "exception", "PermissionError"),
    ("import subprocess\nsubprocess.run(['true'])\n", "exception", "PermissionError"),
    ("import socket\nsocket.create_connection(('127.0.0.1', 22))\n", "exception",
     "Address family not supported"),
    ("x = bytearray(10**10)\n", "exception", "MemoryError"),
    ("open('big.bin', 'wb').write(b'x' * 10**8)\n", "exception", "File too large"),
    ("open('/usr/lib/pwned', 'w')\n", "exception", "Read-only file system"),
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
    assert r.status == "exception" and "FileNotFoundError" in r.error  # the host's /tmp is not mounted
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


def test_outputs_may_be_floats_lists_or_mappings() -> None:
    code = "def f(k):\n    return [k, 2 * k] if k == 1 else {'a': k} if k == 2 else k\n"
    r = run_function(code, "f", [{"k": 1}, {"k": 2}, {"k": 3}])
    assert r == RunResult("ok", [[1.0, 2.0], {"a": 2.0}, 3.0])


def test_missing_bubblewrap_is_an_error_that_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_find_bwrap", lambda: None)
    with pytest.raises(SandboxUnavailable) as info:
        run_function("def f():\n    return 1\n", "f", [{}])
    assert isinstance(info.value, PhysgenError)
    assert "apt-get install bubblewrap" in str(info.value) and "unsafe_local=True" in str(info.value)
    # the explicit opt-out still works without bwrap
    assert run_function("def f():\n    return 1\n", "f", [{}], unsafe_local=True).outputs == [1.0]


def test_a_sandbox_that_cannot_start_is_an_error_not_a_wrong_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_bwrap_options", lambda bwrap: ("--no-such-option",))
    with pytest.raises(SandboxUnavailable, match="did not start"):
        run_function("def f():\n    return 1\n", "f", [{}])


def test_unsafe_local_runs_a_benign_function() -> None:
    r = run_function("import math\ndef f(x):\n    return math.sqrt(x)\n", "f", [{"x": 9.0}, {"x": 2.25}],
                     unsafe_local=True)
    assert r == RunResult("ok", [3.0, 1.5])
    assert run_function("while True: pass", "f", [{}], timeout=1, unsafe_local=True).status == "timeout"
    # a child that keeps the result pipe open delays nothing (waiting for it would end in "timeout"),
    # and dies with the process group; SIGKILL lands asynchronously, so look for it a few times
    marker = f"physgen-local-{uuid.uuid4().hex}"
    r = run_function("import os, sys\nif os.fork() == 0:\n    os.execv(sys.executable, [sys.executable, "
                     f"'-c', 'import time; time.sleep(120)', {marker!r}])\ndef f():\n    return 1\n", "f",
                     [{}], timeout=60, unsafe_local=True)
    assert r == RunResult("ok", [1.0])
    for _ in range(100):
        if not _running(marker):
            break
        time.sleep(0.1)
    assert not _running(marker)


def _running(marker: str) -> bool:
    """Whether a live process has ``marker`` on its command line (zombies have an empty one)."""
    found = False
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            found = found or marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
    return found


@pytest.mark.parametrize(("body", "n", "error"), [
    (b'{"status": "ok", "outputs": [1.0], "error": ""}', 1, ""),
    (b'{"status": "ok", "outputs": [1.0], "error": ""}', 2, "2 output(s)"),
    (b'{"status": "ok", "outputs": [Infinity], "error": ""}', 1, "not valid JSON"),
    (b'{"status": "ok", "outputs": [1e400], "error": ""}', 1, "not a finite number"),
    (b'{"status": "ok", "outputs": [false], "error": ""}', 1, "not a finite number"),
    (b'{"status": "ok", "outputs": [[1, "2"]], "error": ""}', 1, "not a finite number"),
    (b'{"status": "ok", "outputs": [{"1": 1, "2": [2]}], "error": ""}', 1, "not a finite number"),
    (b'{"status": "ok", "outputs": [[' + b"1.0," * 64 + b'1.0]], "error": ""}', 1, "not a finite number"),
    (b'{"status": "crash", "outputs": [], "error": "x"}', 0, "status"),
    (b'{"status": "exception", "outputs": [1.0], "error": "x"}', 1, "no outputs"),
    (b'{"status": "exception", "outputs": [], "error": 3}', 0, "short string"),
    (b'{"status": "ok", "outputs": [1.0], "error": "", "x": 1}', 1, "exactly the fields"),
    (b'\xef\xbb\xbf{}', 1, "not valid JSON"),
    (b'"' + b"\\" * 10 + b'"', 1, "exactly the fields"),
    (b"[" * 100_000, 1, "not valid JSON"),
    (b"1" * 10_000, 1, "not valid JSON"),
])
def test_the_result_schema_is_strict(body: bytes, n: int, error: str) -> None:
    r = parse_result(body, n)
    assert (r.status == "ok") == (error == "") and error in r.error, r


def test_errors_are_short_and_printable() -> None:
    r = run_function("raise RuntimeError('\\x1b[2J' + 'x' * 10**6)", "f", [{}])
    assert r.status == "exception" and len(r.error) <= sandbox.MAX_ERROR and r.error.isprintable()


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
