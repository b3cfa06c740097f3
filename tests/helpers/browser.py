"""The inspect page: an HTML parser of its structure, and a headless Chromium over its DevTools protocol."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from typing import Any


class ReportPage(HTMLParser):
    """What a test needs from a ``docchunk inspect`` page, read by the standard HTML parser.

    Attributes:
        chunks: ``(data-doc, data-chunk)`` of every element with a ``data-chunk``
            attribute, in document order.
        texts: The text of each chunk element's ``.t`` body, in the same order.
        tags: Every start tag: ``(name, attrs)``.
        scripts: ``(attrs, content)`` of every ``<script>``.
        data: The parsed JSON blob of ``<script id="chunk-data">``.
    """

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.chunks: list[tuple[int, int]] = []
        self.texts: list[str] = []
        self.tags: list[tuple[str, dict[str, Any]]] = []
        self.scripts: list[tuple[dict[str, Any], str]] = []
        self._depth = 0  # open elements inside the current .t body, 0 when outside
        self._script: dict[str, Any] | None = None
        self.feed(html)
        self.close()
        blob = [body for attrs, body in self.scripts if attrs.get("id") == "chunk-data"]
        self.data = json.loads(blob[0]) if blob else None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        if "data-chunk" in found:
            self.chunks.append((int(found["data-doc"] or 0), int(found["data-chunk"] or -1)))
        if tag == "script":
            self._script = found
            self.scripts.append((found, ""))
        if self._depth:
            self._depth += 1
        elif tag == "div" and found.get("class") == "t":
            self._depth = 1
            self.texts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None
        if self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            attrs, body = self.scripts[-1]
            self.scripts[-1] = (attrs, body + data)
        elif self._depth:
            self.texts[-1] += data

    def contextualized(self, position: int) -> str:
        """The panel text of the chunk element at ``position``, rebuilt as the page's script does."""
        doc, index = self.chunks[position]
        assert self.data is not None
        spec = self.data["docs"][doc]["chunks"][index]["x"]
        return spec if isinstance(spec, str) else spec[0] + self.texts[position] + spec[1]


CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip


class Chromium:
    """Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``).

    No client library: Chromium reads JSON commands, each ended by a NUL byte, on
    its file descriptor 3 and writes replies and events on 4. Use as a context
    manager; :meth:`open` loads a page in a new tab and returns its session id.
    """

    def __init__(self, executable: str, user_data_dir: str, timeout: float = 120.0):
        import subprocess

        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def on_fds_3_and_4() -> None:  # runs in the child before exec
            a, b = os.dup(commands_read), os.dup(replies_write)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [executable, *CHROMIUM_FLAGS, f"--user-data-dir={user_data_dir}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=on_fds_3_and_4, pass_fds=(3, 4),
        )  # fmt: skip
        os.close(commands_read)
        os.close(replies_write)
        self.timeout = timeout
        self.events: list[dict[str, Any]] = []
        self._buffer = b""
        self._last_id = 0

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:

        try:
            self.send("Browser.close", timeout=10)
        except Exception:  # it may close the pipe before it answers
            pass
        try:
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._replies)

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float | None = None) -> dict[str, Any]:  # fmt: skip
        """Run one DevTools command and return its result (events that arrive meanwhile are kept)."""
        import time

        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode("utf-8") + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._next(deadline)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str, since: int = 0) -> dict[str, Any]:
        """The first event named ``method`` of ``session`` from ``self.events[since]`` on (or the next to come)."""
        import time

        deadline = time.monotonic() + self.timeout
        for event in self.events[since:]:
            if event.get("method") == method and event.get("sessionId") == session:
                return event
        while True:
            event = self._next(deadline)
            self.events.append(event)
            if event.get("method") == method and event.get("sessionId") == session:
                return event

    def _next(self, deadline: float) -> dict[str, Any]:
        import select
        import time

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from chromium")
            ready, _, _ = select.select([self._replies], [], [], left)
            if ready:
                data = os.read(self._replies, 1 << 20)
                if not data:
                    raise EOFError("chromium closed its DevTools pipe")
                self._buffer += data
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def open(self, url: str, width: int = 1280, height: int = 900) -> str:
        """Load ``url`` in a new tab of ``width`` x ``height`` CSS pixels; returns the session id."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable", session=session)
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.send("Emulation.setDeviceMetricsOverride", metrics, session=session)
        since = len(self.events)
        self.send("Page.navigate", {"url": url}, session=session)
        self.wait_for("Page.loadEventFired", session, since)
        return session

    def evaluate(self, session: str, expression: str) -> Any:
        """The value of a JavaScript expression in the page (of the promise's result, for a promise)."""
        params = {"expression": expression, "returnByValue": True, "awaitPromise": True}
        result = self.send("Runtime.evaluate", params, session=session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, session: str, x: float, y: float) -> None:
        """A left mouse click at viewport coordinates ``(x, y)``."""
        for kind in ("mousePressed", "mouseReleased"):
            event = {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}
            self.send("Input.dispatchMouseEvent", event, session=session)

    def screenshot(self, session: str) -> bytes:
        """A PNG of the viewport."""
        import base64

        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"])

    def errors(self) -> list[dict[str, Any]]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if (
                method == "Runtime.exceptionThrown"
                or (method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"))
                or (method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error")
            ):
                found.append(event)
        return found
