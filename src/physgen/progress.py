"""Progress on stderr for long work: generating, writing, and compiling a catalog.

tqdm's bar when tqdm is installed (the ``progress`` extra), else a plain one-line bar
redrawn at most five times a second, so a long first run is never silent.

>>> import io
>>> out = io.StringIO()
>>> bar = Progress(3, True, "templates", out, plain=True)
>>> bar(3); bar.close()
>>> out.getvalue().splitlines()[-1].split(",")[0]  # the last state of the redrawn line
'[##############################] 100% 3/3 templates'
"""

from __future__ import annotations

import importlib
import sys
import time
from typing import IO, Any


class Progress:
    """Progress on stderr, fed the running count: tqdm's bar when tqdm is installed, else a
    plain one-line bar redrawn at most five times a second (``plain=True``: the plain bar even
    with tqdm). ``total`` may be unknown (``None``).
    """

    def __init__(self, total: int | None, enabled: bool, unit: str = "variants",
                 stream: IO[str] | None = None, *, plain: bool = False) -> None:
        self.total, self.enabled, self.unit = total, enabled, unit
        self.stream = stream or sys.stderr
        self.start = self.last = time.monotonic()
        self.done = 0
        self._bar: Any = None
        if enabled and not plain:
            try:  # optional: no stubs needed for one call
                tqdm = importlib.import_module("tqdm").tqdm
            except ImportError:
                return
            self._bar = tqdm(total=total, unit=f" {unit}", unit_scale=total is None or total >= 10_000,
                             file=self.stream,
                             dynamic_ncols=True, leave=True)

    def __call__(self, done: int) -> None:
        """Report ``done`` items so far."""
        self.done = done
        if self._bar is not None:
            self._bar.update(done - self._bar.n)
        elif self.enabled and time.monotonic() - self.last >= 0.2:
            self._draw("")

    def close(self) -> None:
        """End the bar (its last state stays on screen)."""
        if self._bar is not None:
            self._bar.close()
        elif self.enabled:
            self._draw("\n")

    def _draw(self, end: str) -> None:
        now = self.last = time.monotonic()
        rate = self.done / max(now - self.start, 1e-9)
        if self.total:
            frac = min(self.done / self.total, 1.0)
            bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
            text = f"[{bar}] {frac:4.0%} {self.done:,}/{self.total:,} {self.unit}"
        else:
            text = f"{self.done:,} {self.unit}"
        self.stream.write(f"\r{text}, {rate:,.0f}/s{end}" if rate >= 10 else f"\r{text}, {rate:.2g}/s{end}")
        self.stream.flush()
