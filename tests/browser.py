"""Load a page in headless Chromium and take a full-page screenshot, over the DevTools protocol
on a pipe (``--remote-debugging-pipe``: no port, no extra Python package).

``render(path)`` returns the screenshot (PNG bytes), the page's height, the state of
its images, the DOM as the browser built it (``document.documentElement.outerHTML``), the
value of an optional JavaScript ``probe`` expression, and every console error, uncaught
exception, failed load and Content-Security-Policy violation the page caused.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Debian calls it chromium; elsewhere it may be chrome.
NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find() -> str | None:
    """The Chromium executable, if one is installed."""
    return next((p for p in map(shutil.which, NAMES) if p), None)


@dataclass
class Rendered:
    png: bytes
    height: int
    images: list[dict[str, Any]]
    errors: list[str] = field(default_factory=list)
    dom: str = ""
    probed: Any = None


class _Pipe:
    """Chrome DevTools protocol messages, NUL-separated JSON, on two pipes."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd, self.read_fd = write_fd, read_fd
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 60.0) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        while True:
            for reply in self._read(timeout):
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})  # type: ignore[no-any-return]
                self.events.append(reply)

    def wait(self, method: str, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method:
                    return self.events.pop(i)
            self.events.extend(self._read(deadline - time.monotonic()))

    def _read(self, timeout: float) -> list[dict[str, Any]]:
        if timeout <= 0 or not select.select([self.read_fd], [], [], timeout)[0]:
            raise TimeoutError("Chromium did not answer in time")
        chunk = os.read(self.read_fd, 1 << 20)
        if not chunk:
            raise RuntimeError("Chromium closed the pipe")
        self.buffer += chunk
        *messages, self.buffer = self.buffer.split(b"\0")
        return [json.loads(m) for m in messages if m]


def render(page: Path, width: int = 1280, max_height: int = 16_000, probe: str | None = None) -> Rendered:
    """Load ``page`` and screenshot all of it (up to ``max_height`` pixels); ``probe`` is a
    JavaScript expression evaluated after the load, whose (JSON) value is returned."""
    executable = find()
    if executable is None:
        raise FileNotFoundError("no Chromium: apt-get install chromium")
    to_chrome = os.pipe()
    from_chrome = os.pipe()
    with tempfile.TemporaryDirectory(prefix="physgen-chromium-") as profile:
        def fds() -> None:  # Chromium reads commands on fd 3 and answers on fd 4
            # Copies above 10 first, so neither dup2 overwrites the other pipe's end; the
            # copies close on exec, and only 3 and 4 (inheritable) reach Chromium. Not
            # pass_fds=(3, 4): that fails with EBADF when the parent has no fd 3 or 4 open.
            ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_chrome[0], from_chrome[1])]
            os.dup2(ends[0], 3)
            os.dup2(ends[1], 4)

        proc = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--remote-debugging-pipe", "--hide-scrollbars", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=fds)
        os.close(to_chrome[0])
        os.close(from_chrome[1])
        cdp = _Pipe(to_chrome[1], from_chrome[0])
        try:
            target = cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                cdp.send(f"{domain}.enable", session=session)
            cdp.send("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session)
            cdp.send("Page.navigate", {"url": page.resolve().as_uri()}, session)
            cdp.wait("Page.loadEventFired")
            measure = ("JSON.stringify({height: document.documentElement.scrollHeight, images: "
                       "[...document.images].map(i => ({complete: i.complete, width: i.naturalWidth, "
                       "height: i.naturalHeight}))})")
            state = json.loads(cdp.send("Runtime.evaluate", {"expression": measure, "returnByValue": True},
                                        session)["result"]["value"])
            height = min(int(state["height"]), max_height)
            dom = cdp.send("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                                "returnByValue": True}, session)["result"]["value"]
            probed = None if probe is None else cdp.send("Runtime.evaluate", {
                "expression": probe, "returnByValue": True}, session)["result"].get("value")
            shot = cdp.send("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}}, session)
            errors = []
            for event in cdp.events:
                method, params = event.get("method"), event.get("params", {})
                if method == "Runtime.exceptionThrown":
                    errors.append(json.dumps(params.get("exceptionDetails", {}))[:300])
                elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                    errors.append(json.dumps(params.get("args", []))[:300])
                elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                    errors.append(params["entry"].get("text", "")[:300])
            rendered = Rendered(base64.b64decode(shot["data"]), height, state["images"], errors, dom, probed)
            os.write(cdp.write_fd, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
        finally:
            os.close(to_chrome[1])
            os.close(from_chrome[0])
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return rendered
