"""Run model-written Python under OS isolation (TPBench-style ``code`` answers).

Each call starts a fresh interpreter inside `bubblewrap <https://github.com/containers/bubblewrap>`_:
new user, PID, network, IPC, UTS, cgroup and mount namespaces; a read-only view of
``/usr`` and of the base Python's interpreter and ``lib/`` only (no ``/root``,
``/home``, ``/work`` or ``/etc``), with every folder of installed packages
(``site-packages``, ``dist-packages``, other Pythons under ``/usr``) covered by an
empty read-only tmpfs, so the answer sees the standard library and nothing else
installed; a fresh ``/proc`` that shows only the sandbox; a private, size-capped
tmpfs as the working directory; no environment; no capabilities; and a seccomp
filter that refuses new processes and threads, sockets of every address family
but ``AF_UNIX``, and a short list of kernel interfaces (``keyctl``, ``bpf``,
``io_uring``, ``mount``, ``ptrace``, ``pidfd_getfd`` ...). Limits on
CPU time, memory, file size and open files apply inside, and the sandbox is
killed as a whole at the wall-clock deadline: nothing it started outlives the call.

The child returns its result on a pipe: at most :data:`MAX_RESULT` bytes of one
JSON object, read before a deadline and checked against a strict schema. The
parent never opens a path the child can touch, and a malformed result becomes a
:class:`RunResult` with status ``"invalid"`` and a reason, never an exception.

>>> r = run_function("def f(x):\\n    return 2 * x\\n", "f", [{"x": 1.5}])
>>> r.status, r.outputs
('ok', [3.0])
>>> run_function("while True: pass", "f", [{}], timeout=1).status
'timeout'
>>> run_function("import os\\nos.fork()", "f", [{}]).error
'PermissionError: [Errno 1] Operation not permitted'

Without bubblewrap, :func:`run_function` raises :class:`SandboxUnavailable`;
``unsafe_local=True`` runs the answer in a plain limited subprocess instead.
"""

from __future__ import annotations

import json
import math
import os
import platform
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from .errors import PhysgenError

Status = Literal["ok", "syntax", "exception", "timeout", "crash", "invalid"]
Output = float | list[float] | dict[str, float]

#: Seconds of wall time for one run (all calls), from the moment the sandbox is up.
TIMEOUT = 10.0
#: Bytes of address space for the answer's process.
MEMORY = 1 << 30
#: Bytes per file the answer writes, and bytes of its whole working directory.
FILE_SIZE = 1 << 20
WORK_SIZE = 16 << 20
#: Bytes of result accepted from the sandbox; more is an ``"invalid"`` result.
MAX_RESULT = 1 << 20
#: Longest answer accepted, and longest error message returned.
MAX_CODE = 1 << 20
MAX_ERROR = 500
#: Most numbers in one output (a list or a name → number mapping).
MAX_ITEMS = 64
#: Seconds allowed for the sandbox to come up before it counts as broken.
STARTUP_TIMEOUT = 10.0

_INSTALL = ("install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap), or pass "
            "unsafe_local=True to run answers without isolation on a machine you do not mind losing")


class SandboxUnavailable(PhysgenError, RuntimeError):
    """Code answers cannot be run safely here: bubblewrap is missing or cannot start.

    The message says how to fix it (``apt-get install bubblewrap``) or how to opt out
    (``unsafe_local=True``)."""


@dataclass(frozen=True)
class RunResult:
    """What running an answer gave.

    ``status`` is ``"ok"`` (``outputs`` holds one float, list of floats or name →
    float mapping per call), ``"syntax"`` or ``"exception"`` (reported by the answer's
    process), ``"timeout"``, ``"crash"`` (the process ended without a result) or
    ``"invalid"`` (the result was malformed, oversized or not finite). ``error`` is a
    short, printable reason."""

    status: Status
    outputs: list[Output] = field(default_factory=list)
    error: str = ""


# The program run inside the sandbox. It reads the job on stdin, applies the limits,
# sends stdin, stdout and stderr to /dev/null (the answer's prints go nowhere), writes
# "R" on a private copy of stdout, runs the answer and writes one JSON object after it.
# The answer runs in this process and can replace anything here, so the parent treats
# whatever arrives as untrusted: forging a result only gains what returning it would.
_RUNNER = r'''
import json, math, os, resource, sys
job = json.loads(sys.stdin.buffer.read())
os.environ.pop("PWD", None)  # set by bwrap --chdir; the answer gets an empty environment
for name, value in job["limits"].items():
    which = getattr(resource, name)
    hard = resource.getrlimit(which)[1]
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))
out = os.dup(1)
null = os.open("/dev/null", os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
os.close(null)
os.write(out, b"R")

def text(exc):
    try:
        return f"{type(exc).__name__}: {exc}"[:500]
    except BaseException:
        return "an exception that cannot be printed"

def number(value):
    value = float(value)
    if not math.isfinite(value):
        raise ValueError("the function returned a number that is not finite")
    return value

def convert(value):
    if isinstance(value, (dict, list, tuple)) and len(value) > 64:
        raise ValueError("the function returned more than 64 numbers")
    if isinstance(value, dict):
        return {str(k)[:100]: number(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [number(v) for v in value]
    return number(value)

try:
    code = compile(job["code"], "<answer>", "exec")
except (SyntaxError, ValueError) as exc:
    result = {"status": "syntax", "outputs": [], "error": text(exc)}
else:
    try:
        namespace = {"__name__": "__answer__"}
        exec(code, namespace)
        func = namespace[job["function"]]
        result = {"status": "ok", "outputs": [convert(func(**kw)) for kw in job["calls"]], "error": ""}
    except BaseException as exc:
        result = {"status": "exception", "outputs": [], "error": text(exc)}
try:
    data = json.dumps(result, allow_nan=False).encode()
except BaseException as exc:
    data = json.dumps({"status": "exception", "outputs": [], "error": text(exc)}).encode()
view = memoryview(data)
while view:
    view = view[os.write(out, view):]
os._exit(0)
'''


def run_function(code: str, function: str, calls: list[dict[str, float]], *,
                 timeout: float = TIMEOUT, memory: int = MEMORY, unsafe_local: bool = False) -> RunResult:
    """Define ``code``, then call ``function(**kwargs)`` for each of ``calls`` (SI floats).

    Runs in a bubblewrap sandbox (see the module docstring) and returns a
    :class:`RunResult`; a hostile or broken answer gives a non-``"ok"`` status, never
    an exception. ``timeout`` is wall time for all calls together, ``memory`` the
    address space of the answer's process.

    Raises :class:`SandboxUnavailable` when bubblewrap is missing or cannot create
    its namespaces.

    ``unsafe_local=True`` runs the answer in an ordinary subprocess with the same
    limits and result checks but **no isolation**: the answer can read and write
    your files, use the network, and start processes that outlive the call. Use it
    only for trusted code, or on a throwaway machine without bubblewrap.
    """
    if len(code) > MAX_CODE:
        return RunResult("invalid", error=f"the answer is longer than {MAX_CODE} characters")
    limits = {"RLIMIT_CPU": math.ceil(timeout) + 1, "RLIMIT_AS": memory, "RLIMIT_FSIZE": FILE_SIZE,
              "RLIMIT_NPROC": 16, "RLIMIT_NOFILE": 64, "RLIMIT_CORE": 0}
    job = json.dumps({"code": code, "function": function, "calls": calls, "limits": limits}).encode()
    if unsafe_local:
        with tempfile.TemporaryDirectory(prefix="physgen-sandbox-") as tmp:
            argv = [sys.executable, "-I", "-S", "-B", "-c", _RUNNER]
            return _run(argv, job, len(calls), timeout, cwd=tmp, keep=(), info=None)
    bwrap = _find_bwrap()
    if bwrap is None:
        raise SandboxUnavailable(f"code answers run in a bubblewrap sandbox, but `bwrap` was not found: "
                                 f"{_INSTALL}")
    info_r, info_w = os.pipe()
    keep = [info_w]  # the child's ends, closed here once the run is over
    try:
        argv = [bwrap, *_bwrap_options(bwrap), "--info-fd", str(info_w)]
        program = _seccomp_program()
        if program is not None:
            seccomp_r, seccomp_w = os.pipe()
            keep.append(seccomp_r)
            os.write(seccomp_w, program)  # a few hundred bytes: fits in the pipe buffer
            os.close(seccomp_w)
            argv += ["--seccomp", str(seccomp_r)]
        argv += ["--", _interpreter(), "-I", "-S", "-B", "-c", _RUNNER]
        return _run(argv, job, len(calls), timeout, cwd="/", keep=keep, info=info_r)
    finally:
        for fd in (info_r, *keep):
            os.close(fd)


# -- the sandbox's command line ----------------------------------------------------------------------


def _find_bwrap() -> str | None:
    """The bubblewrap executable, or None (tests replace this to simulate a missing one)."""
    found = shutil.which("bwrap")
    return found or next((p for p in ("/usr/bin/bwrap", "/bin/bwrap") if os.access(p, os.X_OK)), None)


@lru_cache(maxsize=4)
def _bwrap_help(bwrap: str) -> str:
    try:
        done = subprocess.run([bwrap, "--help"], capture_output=True, timeout=STARTUP_TIMEOUT, env={})
    except (OSError, subprocess.SubprocessError) as exc:
        raise SandboxUnavailable(f"{bwrap} cannot run ({exc}): {_INSTALL}") from exc
    return (done.stdout + done.stderr).decode(errors="replace")


def _stdlib() -> str:
    """The base install's standard library (``lib/pythonX.Y``), as a real path."""
    return os.path.realpath(sysconfig.get_paths()["stdlib"])


def _hidden_python() -> list[str]:
    """Folders of installed Python packages inside the bound trees, covered with an empty read-only
    tmpfs: the answer sees the standard library and nothing else that is installed."""
    stdlib = _stdlib()
    found = [os.path.join(stdlib, "site-packages"), os.path.join(stdlib, "dist-packages")]
    for top in ("/usr/lib", "/usr/local/lib", "/usr/lib64", "/usr/local/lib64"):
        found += [os.path.join(top, name) for name in _listdir(top) if name.startswith("python")]
    return [p for p in dict.fromkeys(os.path.realpath(p) for p in found)
            if os.path.isdir(p) and not _inside(stdlib, p)]


def _listdir(path: str) -> list[str]:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def _python_roots() -> list[str]:
    """Directories of the base Python install, outside /usr (a venv's base, pyenv, conda ...)."""
    roots = []
    for prefix in dict.fromkeys((sys.base_prefix, sys.base_exec_prefix)):
        real = os.path.realpath(prefix)
        if real != "/" and not _inside(real, "/usr") and real not in roots:
            roots.append(real)
    return roots


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


@lru_cache(maxsize=1)
def _interpreter() -> str:
    """The base interpreter (not a venv's wrapper), at a path visible inside the sandbox."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    roots = ["/usr", *_python_roots()]
    for candidate in (sys.executable, getattr(sys, "_base_executable", ""),
                      os.path.join(sys.base_prefix, "bin", f"python{version}"),
                      os.path.join(sys.base_prefix, "bin", "python3")):
        real = os.path.realpath(candidate) if candidate else ""
        if real and os.access(real, os.X_OK) and any(_inside(real, r) for r in roots):
            return real
    raise SandboxUnavailable(f"cannot find the base Python interpreter under {', '.join(roots)}; "
                             "run physgen from a regular Python install, or pass unsafe_local=True")


#: Root-only or host-wide /proc files, masked with /dev/null (matters when the caller is root).
_MASKED_PROC = ("cmdline", "iomem", "ioports", "kallsyms", "kcore", "key-users", "keys", "kmsg",
                "kpagecgroup", "kpagecount", "kpageflags", "latency_stats", "sched_debug", "slabinfo",
                "timer_list", "vmallocinfo")


@lru_cache(maxsize=4)
def _bwrap_options(bwrap: str) -> tuple[str, ...]:
    helptext = _bwrap_help(bwrap)
    opts = ["--unshare-all", "--unshare-user", "--hostname", "sandbox", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL", "--clearenv", "--ro-bind", "/usr", "/usr"]
    if "--disable-userns" in helptext:
        opts.append("--disable-userns")
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            opts += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            opts += ["--ro-bind", top, top]
    for root in _python_roots():  # a base install outside /usr: its interpreter and lib/ only
        for name in ("lib", "lib64"):
            if os.path.isdir(os.path.join(root, name)) and not os.path.islink(os.path.join(root, name)):
                opts += ["--ro-bind", os.path.join(root, name), os.path.join(root, name)]
        if _inside(_interpreter(), root):
            opts += ["--ro-bind", _interpreter(), _interpreter()]
    for hidden in _hidden_python():
        opts += ["--tmpfs", hidden, "--remount-ro", hidden]
    opts += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--proc", "/proc", "--dev", "/dev"]
    for name in _MASKED_PROC:
        if os.path.exists(f"/proc/{name}"):
            opts += ["--ro-bind", "/dev/null", f"/proc/{name}"]
    if "--size" in helptext:
        opts += ["--size", str(WORK_SIZE)]
    opts += ["--tmpfs", "/tmp", "--chdir", "/tmp", "--remount-ro", "/proc", "--remount-ro", "/dev",
             "--remount-ro", "/"]
    return tuple(opts)


# -- seccomp: a classic-BPF filter, assembled here (no libseccomp needed) ------------------------------

#: Syscalls refused with EPERM: anything that makes a new process or thread, and kernel
#: interfaces an answer never needs but exploits like (keyrings, bpf, io_uring, mounts, another
#: process's file descriptors ...). ``socket`` and ``socketpair`` are refused with EAFNOSUPPORT
#: for every address family but AF_UNIX (no AF_INET, AF_VSOCK, AF_NETLINK, AF_PACKET ...).
_DENIED = ("fork", "vfork", "clone", "clone3", "ptrace", "process_vm_readv", "process_vm_writev", "syslog",
           "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
           "keyctl", "add_key", "request_key", "unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
           "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
           "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "acct", "swapon",
           "swapoff", "reboot", "quotactl", "name_to_handle_at", "open_by_handle_at", "pidfd_getfd")
_SOCKETS = ("socket", "socketpair")
_AF_UNIX, _EAFNOSUPPORT = 1, 97
_SYSCALLS = {
    "x86_64": (0xC000003E, dict(
        clone=56, fork=57, vfork=58, ptrace=101, syslog=103, pivot_root=155, chroot=161, acct=163, mount=165,
        umount2=166, swapon=167, swapoff=168, reboot=169, init_module=175, delete_module=176, quotactl=179,
        kexec_load=246, add_key=248, request_key=249, keyctl=250, unshare=272, perf_event_open=298,
        name_to_handle_at=303, open_by_handle_at=304, setns=308, process_vm_readv=310, process_vm_writev=311,
        finit_module=313, kexec_file_load=320, bpf=321, userfaultfd=323, io_uring_setup=425,
        io_uring_enter=426, io_uring_register=427, open_tree=428, move_mount=429, fsopen=430, fsconfig=431,
        fsmount=432, fspick=433, clone3=435, pidfd_getfd=438, mount_setattr=442, socket=41, socketpair=53)),
    "aarch64": (0xC00000B7, dict(
        umount2=39, mount=40, pivot_root=41, chroot=51, quotactl=60, acct=89, unshare=97, kexec_load=104,
        init_module=105, delete_module=106, syslog=116, ptrace=117, reboot=142, add_key=217, request_key=218,
        keyctl=219, clone=220, swapon=224, swapoff=225, perf_event_open=241, name_to_handle_at=264,
        open_by_handle_at=265, setns=268, process_vm_readv=270, process_vm_writev=271, finit_module=273,
        bpf=280, userfaultfd=282, kexec_file_load=294, io_uring_setup=425, io_uring_enter=426,
        io_uring_register=427, open_tree=428, move_mount=429, fsopen=430, fsconfig=431, fsmount=432,
        fspick=433, clone3=435, pidfd_getfd=438, mount_setattr=442, socket=198, socketpair=199)),
}
_MACHINES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}


@lru_cache(maxsize=1)
def _seccomp_program() -> bytes | None:
    """The filter for this machine's architecture, or None where the syscall table is not known."""
    machine = _MACHINES.get(platform.machine().lower())
    if machine is None:
        return None
    arch, table = _SYSCALLS[machine]
    numbers = sorted({table[name] for name in _DENIED if name in table})
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JGE|K, BPF_RET|K
    allow, deny = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
    no_family = 0x00050000 | _EAFNOSUPPORT
    # (op, jump if true, jump if false, k), jumps given as labels resolved below
    prog: list[tuple[int, str | int, str | int, int]] = [
        (ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, deny),  # a foreign architecture: refuse
        (ld, 0, 0, 0)]  # the syscall number
    if machine == "x86_64":
        prog.append((jge, "deny", 0, 0x40000000))  # the x32 ABI
    prog += [(jeq, "deny", 0, n) for n in numbers]
    prog += [(jeq, "socket", 0, table[name]) for name in _SOCKETS]
    prog += [(ret, 0, 0, allow),
             (ld, 0, 0, 16),  # "socket": the low 32 bits of args[0], the address family (little-endian)
             (jeq, "allow", "no_family", _AF_UNIX),
             (ret, 0, 0, allow), (ret, 0, 0, no_family), (ret, 0, 0, deny)]
    labels = {"socket": len(prog) - 5, "allow": len(prog) - 3, "no_family": len(prog) - 2,
              "deny": len(prog) - 1}
    code = []
    for i, (op, jt, jf, k) in enumerate(prog):
        jt_, jf_ = (labels[j] - i - 1 if isinstance(j, str) else j for j in (jt, jf))
        code.append(struct.pack("=HBBI", op, jt_, jf_, k))
    return b"".join(code)


# -- running and reading ----------------------------------------------------------------------------


def _run(argv: list[str], job: bytes, n_calls: int, timeout: float, *, cwd: str,
         keep: tuple[int, ...] | list[int], info: int | None) -> RunResult:
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=cwd, env={}, pass_fds=tuple(keep), process_group=0)
    except OSError as exc:
        raise SandboxUnavailable(f"cannot start {argv[0]} ({exc}): {_INSTALL}") from exc
    watch = _Watch(proc, job, info)
    try:
        watch.pump(timeout)
    finally:
        watch.stop()
    if not watch.started:
        detail = watch.err[:MAX_ERROR].decode(errors="replace").strip() or f"exit status {proc.returncode}"
        if watch.expired:
            detail = f"no sign of life within {STARTUP_TIMEOUT:g} s"
        raise SandboxUnavailable(f"the sandbox did not start ({_printable(detail)}); check that `bwrap` "
                                 "works here (it needs user namespaces: sysctl user.max_user_namespaces > 0 "
                                 "and, on Debian, kernel.unprivileged_userns_clone=1), or pass "
                                 "unsafe_local=True to run without isolation")
    if watch.overflow:
        return RunResult("invalid", error=f"the result was longer than {MAX_RESULT} bytes")
    if watch.expired:
        return RunResult("timeout", error=f"no result within {timeout:g} s")
    body = bytes(watch.out[1:])
    if not body:
        return RunResult("crash", error=f"the process ended (exit status {proc.returncode}) without a result")
    return parse_result(body, n_calls)


class _Watch:
    """Feeds the job to the sandbox and reads its stdout, stderr and bwrap's info pipe, under caps
    and deadlines, without ever blocking on the child."""

    def __init__(self, proc: subprocess.Popen[bytes], job: bytes, info: int | None) -> None:
        self.proc, self.job = proc, memoryview(job)
        self.out, self.err, self.info = bytearray(), bytearray(), bytearray()
        self.started = self.expired = self.overflow = False
        self.pidfd: int | None = None
        self.sel = selectors.DefaultSelector()
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self.stdin = proc.stdin.fileno()
        os.set_blocking(self.stdin, False)
        self.sel.register(self.stdin, selectors.EVENT_WRITE, "stdin")
        self.sel.register(proc.stdout.fileno(), selectors.EVENT_READ, "out")
        self.sel.register(proc.stderr.fileno(), selectors.EVENT_READ, "err")
        if info is not None:
            self.sel.register(info, selectors.EVENT_READ, "info")

    def pump(self, timeout: float) -> None:
        """Run until the child has exited (or closed stdout and stderr), a deadline passes or the
        result outgrows :data:`MAX_RESULT`."""
        try:
            exited = os.pidfd_open(self.proc.pid)
        except OSError:
            exited = -1
        else:
            self.sel.register(exited, selectors.EVENT_READ, "exit")
        try:
            self._pump(timeout)
        finally:
            if exited >= 0:
                os.close(exited)

    def _pump(self, timeout: float) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        open_outputs = 2
        while open_outputs:
            left = deadline - time.monotonic()
            if left <= 0:
                self.expired = True
                return
            for key, _ in self.sel.select(left):
                was_started = self.started
                if key.data == "stdin":
                    self._feed()
                elif key.data == "exit":  # all it wrote before exiting is in the pipes: drain them
                    assert self.proc.stdout is not None and self.proc.stderr is not None
                    for what, stream in (("err", self.proc.stderr), ("out", self.proc.stdout)):
                        os.set_blocking(stream.fileno(), False)
                        while self._take(what, self._read(stream.fileno())):
                            pass
                    return
                elif not self._take(key.data, self._read(key.fd)):
                    if self.overflow or (key.data == "out" and not self.started):
                        return
                    self.sel.unregister(key.fd)
                    open_outputs -= key.data != "info"
                if self.started and not was_started:  # "R": the answer starts running now
                    deadline = time.monotonic() + timeout

    @staticmethod
    def _read(fd: int) -> bytes:
        try:
            return os.read(fd, 1 << 16)
        except OSError:  # BlockingIOError when drained
            return b""

    def _take(self, what: str, chunk: bytes) -> bool:
        """Keep ``chunk`` from the pipe ``what``; False at its end or when reading must stop."""
        if not chunk:
            return False
        if what == "out":
            if not self.out:  # the runner's first byte, written before the answer runs
                self.started = chunk[:1] == b"R"
                if not self.started:
                    return False
            self.out += chunk
            self.overflow = len(self.out) > MAX_RESULT + 1
            return not self.overflow
        if what == "err":
            self.err += chunk[: max(0, 4096 - len(self.err))]  # keep the head, drain the rest
        elif len(self.info) < 4096 and self.pidfd is None:
            self.info += chunk
            self._track()
        return True

    def _feed(self) -> None:
        try:
            written = os.write(self.stdin, self.job[:1 << 16])
        except BlockingIOError:
            return
        except OSError:  # the child closed its end: it will not read the job
            written = len(self.job)
        self.job = self.job[written:]
        if not self.job:
            self.sel.unregister(self.stdin)
            assert self.proc.stdin is not None
            self.proc.stdin.close()

    def _track(self) -> None:
        """Pin bwrap's pid 1 of the sandbox with a pidfd, so that killing it empties the namespace."""
        try:
            pid = int(json.loads(self.info)["child-pid"])
            pidfd = os.pidfd_open(pid)
        except (ValueError, KeyError, TypeError, OSError, OverflowError, RecursionError):
            return
        try:  # the pidfd holds the pid; make sure it is still bwrap's child and not a reused number
            with open(f"/proc/{pid}/stat", "rb") as fh:
                ppid = int(fh.read(4096).rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            ppid = -1
        if ppid == self.proc.pid:
            self.pidfd = pidfd
        else:
            os.close(pidfd)

    def stop(self) -> None:
        """Kill whatever is left and wait until it is gone: the sandbox's pid 1 first (the kernel kills
        every process of its PID namespace before pid 1 exits), then let bwrap reap it and exit, then
        kill bwrap's process group (all there is without a PID namespace, as with ``unsafe_local``)."""
        self.sel.close()
        if self.pidfd is not None:
            try:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            except OSError:
                pass
            _wait_readable(self.pidfd, 5.0)  # readable once pid 1, and so its namespace, is gone
            os.close(self.pidfd)
            _wait_exit(self.proc.pid, 5.0)
        try:  # bwrap is not reaped before proc.wait(), so its group id cannot have been reused
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


def _wait_readable(fd: int, seconds: float) -> None:
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        sel.select(seconds)


def _wait_exit(pid: int, seconds: float) -> None:
    """Wait until our child ``pid`` has exited, without reaping it."""
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        _wait_readable(pidfd, seconds)
    finally:
        os.close(pidfd)


# -- the result schema ------------------------------------------------------------------------------


class _Invalid(Exception):
    pass


def parse_result(body: bytes, n_calls: int) -> RunResult:
    """Check what the sandbox sent: exactly ``{"status", "outputs", "error"}``, a known status, one
    finite output per call. Anything else is an ``"invalid"`` :class:`RunResult`, never an exception.

    >>> parse_result(b'{"status": "ok", "outputs": [1, [2.5], {"v": 3}], "error": ""}', 3).outputs
    [1.0, [2.5], {'v': 3.0}]
    >>> parse_result(b'{"status": "ok", "outputs": [NaN], "error": ""}', 1).error
    'the result is not valid JSON'
    """
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError, MemoryError):  # also UnicodeDecodeError, too-long integers
        return RunResult("invalid", error="the result is not valid JSON")
    try:
        return _check(data, n_calls)
    except _Invalid as exc:
        return RunResult("invalid", error=str(exc))


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def _check(data: object, n_calls: int) -> RunResult:
    if not isinstance(data, dict) or set(data) != {"status", "outputs", "error"}:
        raise _Invalid("the result does not have exactly the fields status, outputs and error")
    status, outputs, error = data["status"], data["outputs"], data["error"]
    if not isinstance(error, str) or len(error) > 4 * MAX_ERROR:
        raise _Invalid("the result's error is not a short string")
    if status in ("syntax", "exception"):
        if outputs != [] or not error:
            raise _Invalid(f"a {status} result must have no outputs and an error")
        return RunResult(status, [], _printable(error))
    if status != "ok":
        raise _Invalid("the result's status is not ok, syntax or exception")
    if error != "" or not isinstance(outputs, list) or len(outputs) != n_calls:
        raise _Invalid(f"an ok result must have {n_calls} output(s) and no error")
    return RunResult("ok", [_output(o, k) for k, o in enumerate(outputs)])


def _output(value: object, k: int) -> Output:
    if isinstance(value, list) and len(value) <= MAX_ITEMS:
        return [_number(v, k) for v in value]
    if isinstance(value, dict) and len(value) <= MAX_ITEMS:
        if not all(isinstance(name, str) and len(name) <= 100 for name in value):
            raise _Invalid(f"output {k} has a name that is not a short string")
        return {name: _number(v, k) for name, v in value.items()}
    return _number(value, k)


def _number(value: object, k: int) -> float:
    if type(value) is float or type(value) is int:  # not bool, not containers
        try:
            x = float(value)
        except OverflowError:
            x = math.inf
        if math.isfinite(x):
            return x
    raise _Invalid(f"output {k} is not a finite number, a list of at most {MAX_ITEMS} of them or a "
                   "name → number mapping")


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else " " for c in text[:MAX_ERROR])
