"""Headless Chromium driven over the DevTools protocol on a pipe (stdlib only), for page checks.

`--remote-debugging-pipe` makes Chromium read NUL-terminated JSON commands on fd 3 and write replies and
events on fd 4: no port, no websocket library, no browser download. Used by the tests to open the
leaderboard page and a run's report.html, click, read the DOM, collect console errors and screenshot.
"""
from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-dev-shm-usage", "--remote-debugging-pipe")
CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium() -> str | None:
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


class BrowserError(RuntimeError):
    pass


class Chromium:
    """One headless browser with one page; `with Chromium() as page: page.open(path)`."""

    def __init__(self, executable: str | None = None, timeout: float = 20.0) -> None:
        self.executable = executable or find_chromium()
        if not self.executable:
            raise BrowserError("chromium not found (apt-get install -y chromium)")
        self.timeout = timeout
        self.console: list[str] = []  # console errors, uncaught exceptions, error log entries
        self.requests: list[str] = []  # every URL the page asked for
        self._replies: dict[int, queue.Queue] = {}
        self._events: queue.Queue = queue.Queue()
        self._next_id = 0
        self._lock = threading.Lock()
        self.session: str | None = None

    # ------------------------------------------------------------------ process and transport
    def __enter__(self) -> Chromium:
        self._profile = tempfile.mkdtemp(prefix="ids-bench-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire_pipes() -> None:  # runs in the child: the protocol's fixed descriptors
            # Copy out of the way first: a pipe end may already sit on fd 3 or 4, and dup2 onto itself
            # would keep its close-on-exec flag.
            reader, writer = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(reader, 3)
            os.dup2(writer, 4)

        self.process = subprocess.Popen(
            [self.executable, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            preexec_fn=wire_pipes, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        threading.Thread(target=self._reader, daemon=True).start()
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.viewport(1400, 1000)
        return self

    def __exit__(self, *exc_info) -> None:
        try:
            self.call("Browser.close", session=False, timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        shutil.rmtree(self._profile, ignore_errors=True)

    def _reader(self) -> None:
        buffer = b""
        with os.fdopen(self._from_browser, "rb", buffering=0) as stream:
            while chunk := stream.read(65536):
                buffer += chunk
                while b"\0" in buffer:
                    raw, buffer = buffer.split(b"\0", 1)
                    self._dispatch(json.loads(raw))

    def _dispatch(self, message: dict) -> None:
        if "id" in message:
            with self._lock:
                box = self._replies.get(message["id"])
            if box is not None:
                box.put(message)
            return
        method, params = message.get("method", ""), message.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.console.append(details.get("exception", {}).get("description") or details.get("text", ""))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.console.append(params["entry"].get("text", ""))
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        self._events.put(message)

    def call(self, method: str, params: dict | None = None, *, session: bool = True,
             timeout: float | None = None) -> dict:
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            box: queue.Queue = queue.Queue()
            self._replies[ident] = box
        message = {"id": ident, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode("utf-8") + b"\0")
        try:
            reply = box.get(timeout=timeout or self.timeout)
        except queue.Empty as exc:
            raise BrowserError(f"{method}: no reply within {timeout or self.timeout}s") from exc
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    # ------------------------------------------------------------------ page helpers
    def open(self, path: Path | str) -> None:
        """Load a local file (or an http:// URL on this machine) and wait for its load event."""
        url = path if str(path).startswith(("http://127.0.0.1", "http://localhost")) else Path(path).resolve().as_uri()
        while not self._events.empty():
            self._events.get_nowait()
        self.call("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                event = self._events.get(timeout=0.2)
            except queue.Empty:
                continue
            if event.get("method") == "Page.loadEventFired":
                return
        raise BrowserError(f"{url}: no load event within {self.timeout}s")

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise BrowserError(f"timed out waiting for {expression}")

    def viewport(self, width: int, height: int = 900) -> None:
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def screenshot(self, path: Path | str) -> Path:
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        path = Path(path)
        path.write_bytes(base64.b64decode(data))
        return path
