"""Hostile code answers against the real bubblewrap sandbox.

Every payload runs through :func:`physgen.sandbox.run_function` with a short timeout,
and every run is checked for all the guarantees at once (:func:`assert_contained`):
it returned (no exception, no hang), nothing outside the work dir changed, no
connection reached a server of ours, no canary secret appears in any field of the
result, no process carrying the payload's marker is left, and no child of ours is
left. Each payload also declares the statuses it may end with, so that a payload
that *succeeds* at its attack (returning 666 or 7777) fails the test.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import physgen
from physgen import sandbox
from physgen.errors import PhysgenError
from physgen.grading import grade
from physgen.sandbox import RunResult, SandboxUnavailable, run_function

TIMEOUT = 2.0
#: a hang guard, not a speed test: every run must end by the sandbox's own wall-clock kill
pytestmark = pytest.mark.timeout(60)
PREFIX = "physgen-canary-"  # payloads know the prefix; only the random rest is secret
SECRET = PREFIX + secrets.token_hex(12)
CANARY_ENV = "PHYSGEN_CANARY_SECRET"
ROOT = Path(__file__).resolve().parent.parent  # the checkout: under /work in our CI


# -- the host side: canaries, servers, snapshots ------------------------------------------------------


@dataclass
class Host:
    dir: Path  # a host directory outside the sandbox, writable by anyone on the host
    victim: Path  # an existing file in it
    files: list[Path]  # canary files (in the checkout and in the home directory)
    port: int
    udp_port: int
    abstract: str
    unix_path: Path
    host_ip: str
    connections: list[str]
    signals: list[int]


def _host_ip() -> str:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 9))  # no packet is sent; picks the outgoing interface
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _serve(sock: socket.socket, log: list[str], what: str, stop: threading.Event) -> None:
    sock.settimeout(0.2)
    while not stop.is_set():
        try:
            if sock.type == socket.SOCK_DGRAM:
                data, _ = sock.recvfrom(4096)
                log.append(f"{what}: {data[:60]!r}")
            else:
                conn, _ = sock.accept()
                log.append(what)
                conn.close()
        except (TimeoutError, OSError):
            continue


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    token = secrets.token_hex(6)
    probe = ROOT / f".sandbox-probe-{token}"
    probe.mkdir()
    probe.chmod(0o777)
    victim = probe / "victim.txt"
    victim.write_text("original\n")
    files = [probe / "canary.txt", ROOT / f".canary-{token}.txt", Path.home() / f".physgen-canary-{token}"]
    if not os.access(Path.home(), os.W_OK):
        files[2] = probe / "home-canary.txt"  # a home we cannot write to: keep a third copy here
    for f in files:
        f.write_text(f"secret={SECRET}\n")
    os.environ[CANARY_ENV] = SECRET
    stop = threading.Event()
    connections: list[str] = []
    tcp = socket.create_server(("0.0.0.0", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("0.0.0.0", 0))
    abstract = f"physgen-probe-{token}"
    abs_sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abs_sock.bind("\0" + abstract)
    abs_sock.listen()
    unix_path = probe / "s.sock"
    path_sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path_sock.bind(str(unix_path))
    path_sock.listen()
    threads = [threading.Thread(target=_serve, args=(s, connections, w, stop), daemon=True)
               for s, w in ((tcp, "tcp"), (udp, "udp"), (abs_sock, "abstract"), (path_sock, "unix"))]
    for t in threads:
        t.start()
    received: list[int] = []
    old = signal.signal(signal.SIGUSR1, lambda signum, frame: received.append(signum))
    try:
        yield Host(probe, victim, files, tcp.getsockname()[1], udp.getsockname()[1], abstract, unix_path,
                   _host_ip(), connections, received)
    finally:
        signal.signal(signal.SIGUSR1, old)
        stop.set()
        for t in threads:
            t.join()
        for s in (tcp, udp, abs_sock, path_sock):
            s.close()
        del os.environ[CANARY_ENV]
        for f in files[1:]:
            f.unlink(missing_ok=True)
        for f in sorted(probe.rglob("*"), reverse=True):
            f.unlink() if not f.is_dir() or f.is_symlink() else f.rmdir()
        probe.rmdir()


def _snapshot(h: Host) -> dict[str, object]:
    """Everything a write outside the work dir could change."""
    def entry(p: Path) -> tuple[object, ...]:
        st = p.lstat()
        body = p.read_bytes() if stat.S_ISREG(st.st_mode) else b""
        return (st.st_mode, st.st_nlink, st.st_size, st.st_mtime_ns, body)
    stdlib = Path(os.__file__).parent
    return {
        "probe": {p.name: entry(p) for p in h.dir.iterdir()},
        "canaries": [entry(f) for f in h.files],
        "stdlib": sorted(p.name for p in stdlib.iterdir()),
        "os.py": entry(Path(os.__file__)),
        "usr/bin": sorted(os.listdir("/usr/bin")),
    }


def _marked(marker: str) -> list[str]:
    """Processes whose name or command line carries ``marker``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{pid}/comm", "rb") as fh:
                comm = fh.read()
        except OSError:
            continue
        if marker.encode() in cmd or marker.encode() in comm:
            found.append(f"{pid}: {comm!r} {cmd[:200]!r}")
    return found


def _children() -> list[str]:
    """Processes whose parent is this test process (a sandbox that was not reaped)."""
    me, found = os.getpid(), []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == me:
            found.append(f"{pid}: {fields[0]!r}")
    return found


# -- payloads -----------------------------------------------------------------------------------------

PRELUDE = """\
import ctypes as _ctypes, os, sys
try:  # name the process after the marker, so that a survivor can be found in /proc
    _ctypes.CDLL(None).prctl(15, b"@MARK@", 0, 0, 0)
except Exception:
    pass
"""

ANY = frozenset({"ok", "syntax", "exception", "timeout", "crash", "invalid"})
FAILED = frozenset({"exception", "timeout", "crash", "invalid"})  # anything but success


@dataclass(frozen=True)
class Payload:
    cls: str
    name: str
    code: str
    statuses: frozenset[str] = FAILED
    outputs: tuple[float, ...] | None = None  # exact outputs when the status is ok
    error: str | None = None  # a substring of the error


PAYLOADS: list[Payload] = []


def payload(cls: str, name: str, code: str, statuses: frozenset[str] | set[str] = FAILED,
            outputs: tuple[float, ...] | None = None, error: str | None = None) -> None:
    PAYLOADS.append(Payload(cls, name, textwrap.dedent(code), frozenset(statuses), outputs, error))


# Filesystem: every write-like call, aimed at a host directory outside the sandbox (not
# mounted), at the interpreter's own files, and at every read-only part of the sandbox.
FS = """
import os, shutil
TARGETS = ["@HOSTDIR@", os.path.dirname(os.__file__), "/usr/bin", "/", "/etc", "/root", "/dev", "/dev/shm",
           "/proc", "/proc/self/root@HOSTDIR@", "/proc/1/root/usr"]
VICTIMS = ["@VICTIM@", os.__file__, "/usr/bin/env", "/etc/ld.so.cache", "/proc/sys/kernel/core_pattern",
           "/proc/1/root" + os.__file__]
def solve(x):
    done = []
    for t in (@ON@):
        try:
            @OP@
            done.append(t)
        except OSError:
            pass
    if done:
        return 666.0
    raise PermissionError("no write outside the work dir")
"""
for _name, _on, _op in [
    ("open_w", "TARGETS", "open(t + '/pg-new.txt', 'w').write('pwned')"),
    ("open_a_existing", "VICTIMS", "open(t, 'a').write('pwned')"),
    ("os_open_creat", "TARGETS", "os.close(os.open(t + '/pg-new.txt', os.O_CREAT | os.O_WRONLY, 0o644))"),
    ("os_open_trunc", "VICTIMS", "os.close(os.open(t, os.O_WRONLY | os.O_TRUNC))"),
    ("rename", "VICTIMS", "os.rename(t, t + '.pg')"),
    ("link", "VICTIMS", "os.link(t, t + '.pg-link')"),
    ("link_into_workdir", "VICTIMS", "os.link(t, '/tmp/pg-link')"),
    ("symlink", "TARGETS", "os.symlink('/etc/shadow', t + '/pg-symlink')"),
    ("truncate", "VICTIMS", "os.truncate(t, 0)"),
    ("chmod", "VICTIMS", "os.chmod(t, 0o777)"),
    ("chown", "VICTIMS", "os.chown(t, 65534, 65534)"),
    ("utime", "VICTIMS", "os.utime(t, (0, 0))"),
    ("remove", "VICTIMS", "os.remove(t)"),
    ("mkdir", "TARGETS", "os.mkdir(t + '/pg-dir')"),
    ("mknod_fifo", "TARGETS", "os.mkfifo(t + '/pg-fifo')"),
    ("setxattr", "VICTIMS", "os.setxattr(t, 'user.pg', b'1')"),
    ("shutil_copy", "TARGETS", "shutil.copy('/usr/bin/env', t + '/pg-copy')"),
    ("shutil_rmtree", "TARGETS", "shutil.rmtree(t)"),
]:
    payload("filesystem", _name, FS.replace("@ON@", _on).replace("@OP@", _op))

payload("filesystem", "workdir_is_private_and_usable", """
import os
open("scratch.txt", "w").write("x")
def solve(x):
    return float(os.path.getsize("scratch.txt")) + float(os.getcwd() == "/tmp")
""", {"ok"}, (2.0,))


# Secrets: each probe returns 7777 if it saw the canary prefix, else raises with what it read.
SECRET_PROBE = """
import os
def look():
@LOOK@
def solve(x):
    data = look()
    data = data.decode("latin-1") if isinstance(data, bytes) else str(data)
    if "@PREFIX@" in data:
        return 7777.0
    raise RuntimeError(data[:400])
"""
for _name, _look in [
    ("environment", "return repr(dict(os.environ))"),
    ("proc_1_environ", "return open('/proc/1/environ', 'rb').read()"),
    ("proc_ppid_environ", "return open(f'/proc/{os.getppid()}/environ', 'rb').read()"),
    ("proc_parent_environ", "return open('/proc/@PARENT@/environ', 'rb').read()"),
    ("proc_parent_cwd", "return repr(os.listdir('/proc/@PARENT@/cwd'))"),
    ("proc_parent_mem", """\
    found = b""
    with open("/proc/@PARENT@/maps") as maps, open("/proc/@PARENT@/mem", "rb") as mem:
        for line in maps:
            lo, hi = (int(v, 16) for v in line.split()[0].split("-"))
            try:
                mem.seek(lo)
                chunk = mem.read(min(hi - lo, 1 << 24))
            except (OSError, ValueError, OverflowError):
                continue
            if b"@PREFIX@" in chunk:
                found += chunk[chunk.index(b"@PREFIX@"):][:64]
    return found"""),
    ("every_proc_environ", """\
    out = []
    for pid in os.listdir("/proc"):
        for f in ("environ", "cmdline"):
            try:
                out.append(open(f"/proc/{pid}/{f}", "rb").read().decode("latin-1"))
            except OSError:
                pass
    return "|".join(out)"""),
    ("etc_shadow", "return open('/etc/shadow').read()"),
    ("canary_in_checkout", "return open('@REPOFILE@').read()"),
    ("canary_in_home", "return open('@HOMEFILE@').read()"),
    ("canary_next_to_victim", "return open('@HOSTDIR@/canary.txt').read()"),
    ("home_and_work_listing",
     "return repr([os.listdir(d) for d in ('/root', '/home', '/work') if os.path.isdir(d)])"),
    ("grep_whole_filesystem", """\
    import time
    end, hits = time.monotonic() + 1.2, []
    for top, dirs, files in os.walk("/"):
        if top == "/":  # /proc and /dev hold pipes that block (see every_proc_environ instead)
            dirs[:] = [d for d in dirs if d not in ("proc", "dev")]
        if time.monotonic() > end:
            break
        for f in files:
            try:
                with open(os.path.join(top, f), "rb") as fh:
                    data = fh.read(1 << 16)
            except OSError:
                continue
            if b"@PREFIX@" in data:
                hits.append(data)
    return b"".join(hits) or b"nothing found"
    """),
]:
    payload("secrets", _name, SECRET_PROBE.replace("@LOOK@", textwrap.indent(textwrap.dedent(_look), "    ")))

payload("secrets", "hostname", """
import socket
def solve(x):
    raise RuntimeError(socket.gethostname() + " " + os.uname().nodename)
""", {"exception"}, error="RuntimeError: sandbox sandbox")
payload("secrets", "only_sandbox_processes_visible", """
def solve(x):
    return float(len([p for p in os.listdir("/proc") if p.isdigit()]))
""", {"ok"}, (2.0,))
payload("secrets", "masked_kernel_files", """
def solve(x):
    total = 0
    for f in ("kallsyms", "keys", "timer_list", "cmdline", "slabinfo", "iomem"):
        try:
            total += len(open("/proc/" + f, "rb").read())
        except OSError:
            pass
    return float(total)
""", {"ok"}, (0.0,))


# Network: our servers listen on 0.0.0.0 (TCP, UDP), an abstract and a path Unix socket.
NET = """
import socket
def solve(x):
@DO@
    return 666.0
"""
for _name, _do in [
    ("tcp_loopback", "socket.create_connection(('127.0.0.1', @PORT@), timeout=1).sendall(b'@MARK@')"),
    ("tcp_host_ip", "socket.create_connection(('@HOSTIP@', @PORT@), timeout=1).sendall(b'@MARK@')"),
    ("tcp_ipv6_loopback", "socket.create_connection(('::1', @PORT@), timeout=1).sendall(b'@MARK@')"),
    ("http_urllib", "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:@PORT@/', timeout=1)"),
    ("dns_lookup", "socket.getaddrinfo('example.com', 443)"),
    ("dns_udp_query", "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                      "s.sendto(b'x', ('8.8.8.8', 53))\ns.settimeout(1)\ns.recv(10)"),
    ("abstract_unix", "s = socket.socket(socket.AF_UNIX)\ns.connect('\\0@ABSTRACT@')"),
    ("path_unix", "s = socket.socket(socket.AF_UNIX)\ns.connect('@UNIXPATH@')"),
    ("raw_packet_socket", "socket.socket(socket.AF_PACKET, socket.SOCK_RAW)"),
]:
    payload("network", _name, NET.replace("@DO@", textwrap.indent(_do, "    ")))
payload("network", "udp_datagram", """
import socket
def solve(x):
    for host in ("127.0.0.1", "@HOSTIP@"):
        try:
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"@MARK@", (host, @UDPPORT@))
        except OSError:
            pass
    return 1.0
""", {"ok"}, (1.0,))


# Processes: every way to start one, each carrying the marker in its command line.
SLEEPER = '[sys.executable, "-c", "import time; time.sleep(60)", "@MARK@"]'
PROC = """
import signal, time
def solve(x):
@DO@
    return 666.0
"""
for _name, _do in [
    ("fork_exec", f"if os.fork() == 0:\n    os.execv(sys.executable, {SLEEPER})"),
    ("subprocess_popen", f"import subprocess\nsubprocess.Popen({SLEEPER})"),
    ("spawnv_passfds", "import multiprocessing.util\n"
                       f"multiprocessing.util.spawnv_passfds(sys.executable, {SLEEPER}, [])"),
    ("multiprocessing_process", "import multiprocessing\n"
                                "multiprocessing.Process(target=time.sleep, args=(60,)).start()"),
    ("setsid_fork_outlive", f"if os.fork() == 0:\n    os.setsid()\n    os.execv(sys.executable, {SLEEPER})"),
    ("setsid_then_linger", "try:\n    os.setsid()\nexcept OSError:\n    pass\ntime.sleep(60)"),
    ("fork_bomb", "while True:\n    os.fork()"),
    ("posix_spawn", f"os.posix_spawn(sys.executable, {SLEEPER}, {{}})"),
    ("os_system", "if os.system('sleep 60 # @MARK@') != 0:\n    raise OSError('system failed')"),
    ("pty_fork", f"import pty\nif pty.fork()[0] == 0:\n    os.execv(sys.executable, {SLEEPER})"),
    ("raw_syscall_fork", "import platform\nlibc = _ctypes.CDLL(None, use_errno=True)\n"
                         "nr = {'x86_64': 57, 'aarch64': 220}[platform.machine()]\n"
                         "if libc.syscall(nr, 17, 0, 0, 0, 0) < 0:\n"
                         "    raise OSError(_ctypes.get_errno(), 'fork')"),
    ("thread", "import threading\nthreading.Thread(target=time.sleep, args=(60,)).start()"),
    ("ptrace_parent", "libc = _ctypes.CDLL(None, use_errno=True)\n"
                      "if libc.ptrace(16, os.getppid(), 0, 0) < 0:\n"
                      "    raise OSError(_ctypes.get_errno(), 'ptrace')"),
]:
    payload("processes", _name, PROC.replace("@DO@", textwrap.indent(_do, "    ")))
payload("processes", "execv_replaces_the_runner", f"""
os.execv(sys.executable, {SLEEPER})
""", {"timeout", "crash"})
payload("processes", "kill_parent_and_everyone", """
import signal
def solve(x):
    for pid in (os.getppid(), 1, -1, @PARENT@):
        try:
            os.kill(pid, signal.SIGKILL if pid != @PARENT@ else signal.SIGUSR1)
        except OSError:
            pass
    return 1.0
""", {"ok"}, (1.0,))


# Tampering with the runner that reports the result (the old audit hook's weakness).
payload("tampering", "old_guard_switch_off", """
sys.modules["__main__"]._guard.__code__ = (lambda *a: None).__code__
""", {"exception"}, error="AttributeError")
payload("tampering", "runner_number_check_replaced", """
sys.modules["__main__"].number.__code__ = (lambda value: value).__code__
def solve(x):
    return "not a number"
""", {"invalid"})
payload("tampering", "json_dumps_replaced", """
import json
json.dumps = lambda *a, **k: '{"status": "ok", "outputs": [1.0], "error": "", "admin": true}'
def solve(x):
    return 1.0
""", {"invalid"})
payload("tampering", "float_builtin_replaced", """
import builtins
builtins.float = lambda v: v
def solve(x):
    return [1e999]
""", {"exception", "invalid"})
payload("tampering", "raise_own_limits", """
import resource
resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
""", {"exception"}, error="ValueError")
payload("tampering", "seccomp_switch_off", """
libc = _ctypes.CDLL(None, use_errno=True)
libc.prctl(22, 0, 0, 0, 0)  # PR_SET_SECCOMP, SECCOMP_MODE_DISABLED: not a thing
libc.prctl(38, 0, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS 0: cannot be cleared
os.fork()
""", {"exception"}, error="PermissionError")
payload("tampering", "audit_hook_that_raises_everywhere", """
sys.addaudithook(lambda event, args: (_ for _ in ()).throw(RuntimeError(event)))
def solve(x):
    return 1.0
""", {"ok", "exception"})


# Resource exhaustion.
payload("resources", "memory_at_once", "x = bytearray(10**10)", {"exception"}, error="MemoryError")
payload("resources", "memory_growing", "a = []\nwhile True:\n    a.append(bytearray(10**7))",
        {"exception", "timeout"}, error="MemoryError")  # zeroing 1 GiB can take 2 s on a busy machine
payload("resources", "cpu_loop", "while True:\n    pass", {"timeout"})
payload("resources", "huge_int", "x = 10 ** 10 ** 10", {"exception", "timeout"})
payload("resources", "huge_output", "def solve(x):\n    return [1.0] * 10**6", {"exception"})
payload("resources", "huge_error", "raise RuntimeError('x' * 10**8)", {"exception"})
payload("resources", "infinite_recursion", "def solve(x):\n    return solve(x)", {"exception"},
        error="RecursionError")
payload("resources", "c_stack_overflow", "sys.setrecursionlimit(10**8)\ndef solve(x):\n    return solve(x)",
        {"crash", "exception", "timeout"})
payload("resources", "huge_file", "open('big.bin', 'wb').write(b'x' * 10**8)", {"exception"},
        error="File too large")
payload("resources", "fill_work_dir", """
for i in range(1000):
    with open(f"f{i}", "wb") as fh:
        fh.write(b"x" * ((1 << 20) - 1))
""", {"exception"}, error="No space left")
payload("resources", "file_descriptors", "fds = [os.open('/dev/null', os.O_RDONLY) for _ in range(10**5)]",
        {"exception"}, error="Too many open files")
payload("resources", "print_flood", "while True:\n    print('x' * 10**6)\n    sys.stderr.write('y' * 10**6)",
        {"timeout"})


# Hostile results: written straight to the runner's result pipe.
EMIT = """
def emit(data):
    out = sys.modules["__main__"].out
    while data:
        data = data[os.write(out, data):]
    os._exit(0)
"""
for _name, _data, _statuses in [
    ("forged_unknown_status", b'{"status": "timeout", "outputs": [], "error": "x"}', {"invalid"}),
    ("forged_extra_field", b'{"status": "ok", "outputs": [1.0], "error": "", "admin": 1}', {"invalid"}),
    ("forged_wrong_length", b'{"status": "ok", "outputs": [1.0, 2.0], "error": ""}', {"invalid"}),
    ("forged_empty_outputs", b'{"status": "ok", "outputs": [], "error": ""}', {"invalid"}),
    ("forged_string_output", b'{"status": "ok", "outputs": ["1.0"], "error": ""}', {"invalid"}),
    ("forged_bool_output", b'{"status": "ok", "outputs": [true], "error": ""}', {"invalid"}),
    ("forged_null_output", b'{"status": "ok", "outputs": [null], "error": ""}', {"invalid"}),
    ("forged_nested_list", b'{"status": "ok", "outputs": [[[1.0]]], "error": ""}', {"invalid"}),
    ("forged_dict_of_strings", b'{"status": "ok", "outputs": [{"a": "b"}], "error": ""}', {"invalid"}),
    ("forged_nan", b'{"status": "ok", "outputs": [NaN], "error": ""}', {"invalid"}),
    ("forged_infinity", b'{"status": "ok", "outputs": [1e999], "error": ""}', {"invalid"}),
    ("forged_huge_integer", b'{"status": "ok", "outputs": [' + b"9" * 5000 + b'], "error": ""}', {"invalid"}),
    ("forged_long_error", b'{"status": "exception", "outputs": [], "error": "' + b"e" * 10**4 + b'"}',
     {"invalid"}),
    ("forged_list_result", b'[1.0]', {"invalid"}),
    ("non_utf8", b'{"status": "ok", "outputs": [1.0], "error": "\xff\xfe"}', {"invalid"}),
    ("deeply_nested", b"[" * 500_000 + b"]" * 500_000, {"invalid"}),
    ("huge_json", b'{"status": "ok", "outputs": [' + b"1.0, " * 400_000 + b'1.0], "error": ""}', {"invalid"}),
    ("truncated_json", b'{"status": "ok", "outp', {"invalid"}),
]:
    payload("results", _name, EMIT + f"def solve(x):\n    emit({_data!r})\n", _statuses)
payload("results", "forged_valid_result_counts_as_the_answer", EMIT + """
def solve(x):
    emit(b'{"status": "ok", "outputs": [42.0], "error": ""}')
""", {"ok"}, (42.0,))
payload("results", "forged_then_real_result", """
def solve(x):
    os.write(sys.modules["__main__"].out, b'{"status": "ok", "outputs": [42.0], "error": ""}')
    return 1.0
""", {"invalid"})
payload("results", "forged_via_fd_scan", """
def solve(x):
    for fd in range(3, 64):
        try:
            os.write(fd, b'{"status": "ok", "outputs": [NaN], "error": ""}')
        except OSError:
            pass
    return 1.0
""", {"invalid"})
payload("results", "dev_zero_into_result", EMIT + """
def solve(x):
    zero = open("/dev/zero", "rb")
    while True:
        os.write(sys.modules["__main__"].out, zero.read(1 << 16))
""", {"invalid"})
payload("results", "old_result_file_attacks_are_moot", """
os.symlink("/dev/zero", "result.json")
os.mkfifo("result.fifo")
def solve(x):
    return 1.0
""", {"ok"}, (1.0,))
payload("results", "printed_forgery_is_ignored", """
print('{"status": "ok", "outputs": [42.0], "error": ""}')
def solve(x):
    print('{"status": "ok", "outputs": [42.0], "error": ""}', file=sys.stderr)
    return 1.0
""", {"ok"}, (1.0,))
payload("results", "close_every_fd", """
def solve(x):
    os.closerange(0, 1024)
    return 1.0
""", {"crash"})
payload("results", "stdout_flood_via_proc", """
def solve(x):
    fd = os.open("/proc/1/fd/1", os.O_WRONLY)
    while True:
        os.write(fd, b"x" * 65536)
""", {"invalid", "exception"})
payload("results", "stderr_flood_via_proc", """
def solve(x):
    fd = os.open("/proc/1/fd/2", os.O_WRONLY)
    for _ in range(500):
        os.write(fd, b"y" * 65536)
    return 1.0
""", {"ok", "exception"})
payload("results", "control_characters_in_error", r"""
raise RuntimeError("\x1b[2J\x00\r\n\x07")
""", {"exception"})
payload("results", "non_finite_return", "def solve(x):\n    return float('nan')", {"exception"},
        error="not finite")
payload("results", "exit_without_result", "os._exit(0)", {"crash"})
payload("results", "kill_self", "import signal\nos.kill(os.getpid(), signal.SIGKILL)", {"crash"})


# Time.
payload("time", "sleep_past_timeout", "import time\ntime.sleep(60)", {"timeout"})
payload("time", "ignore_sigterm", """
import signal, time
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU, signal.SIGALRM):
    signal.signal(sig, signal.SIG_IGN)
time.sleep(60)
""", {"timeout"})
payload("time", "swallow_every_exception", """
while True:
    try:
        while True:
            pass
    except BaseException:
        pass
""", {"timeout"})
payload("time", "block_on_fifo", "os.mkfifo('/tmp/f')\nopen('/tmp/f').read()", {"timeout"})
payload("time", "block_in_select", "import select\nselect.select([], [], [])", {"timeout"})
payload("time", "stop_itself", "import signal\nos.kill(os.getpid(), signal.SIGSTOP)", {"timeout"})
payload("time", "partial_result_then_sleep", """
import time
os.write(sys.modules["__main__"].out, b'{"status": "ok", "outputs": [1.0]')
time.sleep(60)
""", {"timeout"})
payload("time", "atexit_sleep_is_skipped", """
import atexit, time
atexit.register(time.sleep, 60)
def solve(x):
    return 1.0
""", {"ok"}, (1.0,))
payload("time", "slow_startup_then_answer", """
import time
time.sleep(0.5)
def solve(x):
    return 2 * x
""", {"ok"}, (2.0,))


# -- running ------------------------------------------------------------------------------------------


def fill(code: str, h: Host, marker: str) -> str:
    values = {
        "@MARK@": marker, "@HOSTDIR@": str(h.dir), "@VICTIM@": str(h.victim), "@REPOFILE@": str(h.files[1]),
        "@HOMEFILE@": str(h.files[2]), "@PORT@": str(h.port), "@UDPPORT@": str(h.udp_port),
        "@ABSTRACT@": h.abstract, "@UNIXPATH@": str(h.unix_path), "@HOSTIP@": h.host_ip,
        "@PARENT@": str(os.getpid()), "@PREFIX@": PREFIX,
    }
    for key, value in values.items():
        code = code.replace(key, value)
    assert "@" not in code, code
    return code.replace("def solve(x):", "def solve(x=1.0, **kw):")  # the grader passes other names


def assert_contained(result: object, h: Host, before: dict[str, object], marker: str) -> None:
    """The guarantees every payload must leave intact (a run that overstays its wall-clock kill is
    caught by the module's pytest-timeout, never by timing it here)."""
    assert _snapshot(h) == before, "something outside the work dir changed"
    assert SECRET not in repr(result), "the canary secret leaked into the result"
    assert not h.connections, f"the sandbox reached a server: {h.connections}"
    assert not h.signals, "the sandbox signalled the grading process"
    assert not _marked(marker), f"processes left behind: {_marked(marker)}"
    assert not _children(), f"unreaped children: {_children()}"


@pytest.mark.parametrize("p", PAYLOADS, ids=[f"{p.cls}-{p.name}" for p in PAYLOADS])
def test_hostile_payload(p: Payload, host: Host) -> None:
    marker = "pg" + secrets.token_hex(6)
    code = PRELUDE.replace("@MARK@", marker) + fill(p.code, host, marker)
    before = _snapshot(host)
    r = run_function(code, "solve", [{"x": 1.0}], timeout=TIMEOUT)
    assert isinstance(r, RunResult)
    assert r.status in p.statuses, r
    assert len(r.error) <= sandbox.MAX_ERROR and r.error.isprintable(), r
    if r.status == "ok":
        assert len(r.outputs) == 1 and 666.0 not in r.outputs and 7777.0 not in r.outputs, r
        if p.outputs is not None:
            assert tuple(r.outputs) == p.outputs, r
    if p.error is not None and r.status in ("exception", "syntax"):
        assert p.error in r.error, r
    assert_contained(r, host, before, marker)


def test_the_suite_covers_every_class() -> None:
    counts = {c: sum(p.cls == c for p in PAYLOADS) for c in dict.fromkeys(p.cls for p in PAYLOADS)}
    assert set(counts) == {"filesystem", "secrets", "network", "processes", "tampering", "resources",
                           "results", "time"}
    assert sum(counts.values()) >= 40 and min(counts.values()) >= 5, counts


# -- the probes have teeth: without isolation the same payloads do get through ------------------------


def test_the_probes_detect_a_breach_without_isolation(host: Host) -> None:
    """``unsafe_local=True`` runs without isolation, so the probes must catch it: this is what
    keeps the payload suite from passing vacuously."""
    marker = "pg" + secrets.token_hex(6)
    network = run_function(fill(NET.replace("@DO@", "    socket.create_connection(('127.0.0.1', @PORT@), "
                                            "timeout=1).close()"), host, marker), "solve", [{}],
                           timeout=TIMEOUT, unsafe_local=True)
    deadline = time.monotonic() + 2
    while not host.connections and time.monotonic() < deadline:
        time.sleep(0.05)
    assert network.outputs == [666.0] and host.connections == ["tcp"]
    host.connections.clear()
    target = host.dir / "pg-new.txt"
    written = run_function(f"open({str(target)!r}, 'w').write('x')\ndef solve():\n    return 1.0\n", "solve",
                           [{}], timeout=TIMEOUT, unsafe_local=True)
    assert written.status == "ok" and target.exists()
    target.unlink()
    leaked = run_function(fill(SECRET_PROBE.replace("@LOOK@", "    return open('@REPOFILE@').read()"), host,
                               marker), "solve", [{"x": 1.0}], timeout=TIMEOUT, unsafe_local=True)
    assert leaked.outputs == [7777.0]
    escape = f"""
import os, sys, time
if os.fork() == 0:
    os.setsid()
    os.execv(sys.executable, {SLEEPER})
time.sleep(0.5)  # let the child leave the process group before this one is killed
def solve():
    return 1.0
"""
    run_function(fill(escape, host, marker), "solve", [{}], timeout=TIMEOUT, unsafe_local=True)
    left = _marked(marker)
    for line in left:  # the sleeper we just started, found by its marker
        os.kill(int(line.split(":")[0]), signal.SIGKILL)
    assert left, "a process that left the group should have survived without isolation"


PARENT_SCRIPT = """
import json, os, sys
from physgen.sandbox import run_function
code = '''
import os
def solve():
    found = []
    for path in ("/proc/1/environ", "/proc/PID/environ", "/proc/PPID/environ"):
        try:
            found.append(open(path, "rb").read().decode("latin-1"))
        except OSError as exc:
            found.append(repr(exc))
    try:
        with open("/proc/PID/maps") as maps, open("/proc/PID/mem", "rb") as mem:
            for line in maps:
                lo, hi = (int(v, 16) for v in line.split()[0].split("-"))
                try:
                    mem.seek(lo)
                    found.append(mem.read(min(hi - lo, 1 << 22)).decode("latin-1"))
                except (OSError, ValueError, OverflowError):
                    pass
    except OSError as exc:
        found.append(repr(exc))
    text = "|".join(found)
    i = text.find("PREFIX")
    raise RuntimeError(text[i:i + 60] if i >= 0 else text[:300])
'''.replace("PPID", str(os.getppid())).replace("PID", str(os.getpid()))
results = [run_function(code, "solve", [{}], timeout=5, unsafe_local=local) for local in (False, True)]
print(json.dumps([[r.status, r.error] for r in results]))
"""


def test_parent_environment_and_memory_never_reach_the_result() -> None:
    """A grading process whose *initial* environment (``/proc/<pid>/environ``) and memory hold a
    secret: the sandbox cannot see either. Without isolation the same probe finds it."""
    secret = PREFIX + secrets.token_hex(12)
    env = {**os.environ, CANARY_ENV: secret}
    done = subprocess.run([sys.executable, "-c", PARENT_SCRIPT.replace("PREFIX", PREFIX)], env=env,
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    (status, error), (local_status, local_error) = json.loads(done.stdout)
    assert status == "exception" and secret not in error and secret not in done.stdout.split("],")[0]
    assert local_status == "exception" and secret in local_error  # the probe works


# -- through the grader -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pendulum() -> physgen.Variant:
    return next(physgen.generate(["mechanics.simple_pendulum_period"], n=1, formats=["code"]))


@pytest.mark.parametrize("name", ["environment", "proc_parent_environ", "canary_in_checkout", "tcp_loopback",
                                  "fork_exec", "forged_valid_result_counts_as_the_answer", "deeply_nested",
                                  "sleep_past_timeout", "memory_at_once", "old_guard_switch_off"])
def test_grade_of_a_hostile_reply_is_wrong_with_a_reason(name: str, pendulum: physgen.Variant,
                                                         host: Host) -> None:
    p = next(p for p in PAYLOADS if p.name == name)
    marker = "pg" + secrets.token_hex(6)
    code = PRELUDE.replace("@MARK@", marker) + fill(p.code, host, marker)
    before = _snapshot(host)
    g = grade(pendulum, f"Here is my answer.\n```python\n{code}```\n", timeout=TIMEOUT)
    assert not g.correct and g.score == 0.0
    assert all(part.reason in ("wrong_value", "unparseable") and part.detail for part in g.parts), g
    assert SECRET not in json.dumps(g.to_dict())
    assert_contained(g, host, before, marker)


def test_grade_raises_when_bubblewrap_is_missing(pendulum: physgen.Variant,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_find_bwrap", lambda: None)
    with pytest.raises(SandboxUnavailable, match="apt-get install bubblewrap") as info:
        grade(pendulum, "```python\ndef solve(L):\n    return 1.0\n```")
    assert "unsafe_local=True" in str(info.value)
    assert isinstance(info.value, PhysgenError)
