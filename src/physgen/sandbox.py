"""Run model-written Python in a fresh, limited subprocess (TPBench-style answers).

Each call gets a new ``python -I`` process in its own process group, an empty
environment and a temporary working directory, with limits on CPU time, memory,
file size and processes; the group is killed on timeout. Inside, an audit hook
refuses process creation, sockets and writes outside the working directory
before the model's code runs (root ignores the process limit, the hook does not).

>>> r = run_function("def f(x):\\n    return 2 * x\\n", "f", [{"x": 1.5}])
>>> r.status, r.outputs
('ok', [3.0])
>>> run_function("while True: pass", "f", [{}], timeout=1).status
'timeout'
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["ok", "syntax", "exception", "timeout", "crash"]

#: Defaults: seconds of wall time, bytes of address space, bytes per file written.
TIMEOUT = 10.0
MEMORY = 1 << 30
FILE_SIZE = 1 << 20

_RUNNER = r'''
import json, math, os, sys

def _guard(event, args):
    if event in ("os.system", "os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn",
                 "subprocess.Popen", "socket.__new__", "socket.connect", "os.kill", "os.killpg",
                 "ctypes.dlopen", "os.chdir", "shutil.rmtree"):
        raise PermissionError(f"{event} is not allowed in the sandbox")
    if event == "open":
        path, mode = args[0], args[1] if len(args) > 1 else "r"
        writing = isinstance(mode, str) and any(c in mode for c in "wax+")
        if isinstance(mode, int):
            writing = bool(mode & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        if writing and isinstance(path, (str, bytes)):
            full = os.path.realpath(path if isinstance(path, str) else path.decode())
            if not full.startswith(os.getcwd() + os.sep):
                raise PermissionError(f"writing {full} is not allowed in the sandbox")
    if event in ("os.remove", "os.rename", "os.rmdir", "os.mkdir"):
        target = os.path.realpath(str(args[0]))
        if not target.startswith(os.getcwd() + os.sep):
            raise PermissionError(f"{event} outside the working directory is not allowed")

job = json.loads(sys.stdin.read())
sys.addaudithook(_guard)
out = {"status": "ok", "outputs": [], "error": ""}
try:
    code = compile(job["code"], "<answer>", "exec")
except (SyntaxError, ValueError) as exc:
    out = {"status": "syntax", "outputs": [], "error": f"{type(exc).__name__}: {exc}"}
else:
    try:
        namespace = {"__name__": "__answer__"}
        exec(code, namespace)
        func = namespace[job["function"]]
        for kwargs in job["calls"]:
            result = func(**kwargs)
            if isinstance(result, dict):
                result = {str(k): float(v) for k, v in result.items()}
            elif isinstance(result, (list, tuple)):
                result = [float(v) for v in result]
            else:
                result = float(result)
            out["outputs"].append(result)
    except BaseException as exc:
        out = {"status": "exception", "outputs": [], "error": f"{type(exc).__name__}: {exc}"[:500]}
with open("result.json", "w") as fh:
    json.dump(out, fh)
'''


@dataclass(frozen=True)
class RunResult:
    """What running an answer gave: a status, one output per call, or the error."""

    status: Status
    outputs: list[Any] = field(default_factory=list)
    error: str = ""


def _limits(memory: int, cpu_seconds: int, file_size: int) -> None:
    os.setsid()  # own process group, killed as a whole on timeout
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    resource.setrlimit(resource.RLIMIT_NPROC, (64, 64))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_function(code: str, function: str, calls: list[dict[str, float]], *,
                 timeout: float = TIMEOUT, memory: int = MEMORY) -> RunResult:
    """Define ``code``, then call ``function(**kwargs)`` for each of ``calls`` (SI floats)."""
    with tempfile.TemporaryDirectory(prefix="physgen-sandbox-") as tmp:
        runner = Path(tmp) / "runner.py"
        runner.write_text(_RUNNER, encoding="utf-8")
        job = json.dumps({"code": code, "function": function, "calls": calls})
        proc = subprocess.Popen(
            [sys.executable, "-I", "-B", str(runner)], cwd=tmp, env={},
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: _limits(memory, int(timeout) + 1, FILE_SIZE),
        )
        try:
            proc.communicate(job.encode(), timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return RunResult("timeout", error=f"no result within {timeout:g} s")
        finally:
            _kill_group(proc)  # anything the answer left behind in its group
        result = Path(tmp) / "result.json"
        if proc.returncode != 0 or not result.exists():
            return RunResult("crash", error=f"the process ended with status {proc.returncode}")
        try:
            data = json.loads(result.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            return RunResult("crash", error="the result file was unreadable")
        return RunResult(data["status"], data["outputs"], data["error"])


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()
