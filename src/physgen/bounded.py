"""Run a function in a child process with a time and memory bound.

Checking an untrusted template file runs SymPy, Pint and NumPy, whose loops in C
ignore signals and threads; only a separate process can be stopped for sure. The
child is forked, so it starts at once with everything the parent has imported,
and its result comes back pickled, from our own process. Where ``fork`` is not
available (Windows, or macOS where it is unsafe), the function runs in this
process without a bound.

>>> run_bounded(sum, [1, 2, 3], seconds=30)
6
>>> import time
>>> run_bounded(time.sleep, 5, seconds=0.5)
Traceback (most recent call last):
...
TimeoutError: took longer than 0.5 s
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

T = TypeVar("T")

#: How much memory the child may take beyond what the parent had when it forked, in bytes.
MEMORY_MARGIN = 2 * 1024**3


def can_bound() -> bool:
    """Whether :func:`run_bounded` bounds its function (it needs ``fork``, on Linux)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def run_bounded(func: Callable[..., T], *args: Any, seconds: float,
                memory: int = MEMORY_MARGIN) -> T:
    """``func(*args)``, run in a forked child that is killed after ``seconds`` (wall clock)
    and may allocate ``memory`` bytes beyond the parent's size.

    Raises :class:`TimeoutError` when the time is up, :class:`MemoryError` when the child
    ran out of memory, :class:`ChildProcessError` when it died or ``func`` raised (with
    the exception's type and message). ``func`` and its result must pickle.
    """
    if not can_bound():
        return func(*args)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, memory, func, *args), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise TimeoutError(f"took longer than {seconds:g} s")
        try:
            kind, value = receive.recv()
        except EOFError:
            child.join(1)
            raise ChildProcessError(f"the process stopped (exit status {child.exitcode})") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if kind == "memory":
        raise MemoryError(value)
    if kind == "error":
        raise ChildProcessError(value)
    return value  # type: ignore[no-any-return]


def _child(send: Connection, memory: int, func: Callable[..., Any], *args: Any) -> None:
    _limit_memory(memory)
    try:
        result: tuple[str, Any] = ("ok", func(*args))
    except MemoryError:
        result = ("memory", f"needed more than {memory / 1024**3:g} GiB of memory")
    except BaseException as exc:  # reported to the parent, which raises ChildProcessError
        result = ("error", " ".join(f"{type(exc).__name__}: {exc}".split()))
    try:
        send.send(result)
    except MemoryError:
        send.send(("memory", f"needed more than {memory / 1024**3:g} GiB of memory"))


def _limit_memory(margin: int) -> None:
    """Cap the address space at its present size plus ``margin``."""
    import resource

    try:
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = size + margin
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (OSError, ValueError):
        pass  # no /proc, or a limit that cannot be set: the time bound still holds
