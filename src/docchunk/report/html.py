"""One self-contained HTML page that shows chunks in reading order (``docchunk inspect``).

The page has no external resource: CSS and JavaScript are inline, fonts are the
system's, and a Content-Security-Policy forbids every network request and every
script but the page's own (by its SHA-256), so text inside a chunk can never run.
Every chunk is one static element with a ``data-chunk`` attribute; the browser skips
laying out chunks off screen (``content-visibility: auto``), which keeps pages with
thousands of chunks fast. What a click shows (the contextualized text) is read from
one JSON blob.
"""

from __future__ import annotations

import base64
import hashlib
import json
import statistics
from collections.abc import Sequence
from html import escape
from importlib.resources import files
from typing import Any

from docchunk.report.views import ChunkView, DocumentView, rows_label

__all__ = ["TINY_FRACTION", "render_html"]

TINY_FRACTION = 0.25
"""A chunk is tiny when its token count is below this fraction of the budget."""

_BINS = 10
_PATH_SEP = " \u203a "  # single right-pointing angle quotation mark between headings


def render_html(
    documents: Sequence[DocumentView], title: str = "docchunk inspect", skipped: Sequence[tuple[str, str]] = ()
) -> str:
    """The report page for the chunks of one or more documents.

    Args:
        documents: One :class:`DocumentView` per input, from
            :func:`docchunk.report.inspect_document`.
        title: The page title.
        skipped: ``(path, reason)`` of the files of the input folders that were not
            read (``docchunk inspect`` names them on stderr too), listed in the summary.

    Returns:
        A complete HTML document (a ``str``; write it as UTF-8). It holds exactly one
        element with a ``data-chunk="<index>"`` attribute per chunk (and a
        ``data-doc="<document index>"``), in reading order; all text is escaped.

    Example:
        >>> from docchunk import RecursiveChunker
        >>> from docchunk.report import inspect_document
        >>> view = inspect_document(RecursiveChunker(chunk_size=8), "t.txt", "one two three four")
        >>> render_html([view]).count('data-chunk="')
        3
    """
    script = _asset("report.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    policy = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
              f"script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'")  # fmt: skip
    body = "".join(_document(d, n) for n, d in enumerate(documents))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{escape(title)}</title><style>{_asset("report.css")}</style></head>'
        f'<body><header class="summary"><h1>{escape(title)}</h1>{_summary(documents)}{_skipped(skipped)}</header>'
        f'<main id="reading">{body}</main>'
        '<aside id="panel" hidden><button type="button" id="panel-close" aria-label="close">&#x2715;</button>'
        '<div id="panel-meta"></div><h3>Contextualized (what is embedded)</h3><pre id="ctx"></pre>'
        '<div id="panel-context" hidden><h3>Refinery context</h3><pre id="context"></pre></div></aside>'
        f'<script type="application/json" id="chunk-data">{_data(documents)}</script>'
        f"<script>{script}</script></body></html>\n"
    )


def _asset(name: str) -> str:
    return files("docchunk.report").joinpath("assets").joinpath(name).read_text(encoding="utf-8")


def _anchor(doc: int, index: int) -> str:
    return f"c{doc}-{index}"


def _is_tiny(view: ChunkView, budget: int | None) -> bool:
    return budget is not None and view.token_count is not None and view.token_count < budget * TINY_FRACTION


def _is_over(view: ChunkView, budget: int | None) -> bool:
    return view.oversized or (budget is not None and view.token_count is not None and view.token_count > budget)


# --- summary -----------------------------------------------------------------------------------


def _summary(documents: Sequence[DocumentView]) -> str:
    counts = [c.token_count for d in documents for c in d.chunks if c.token_count is not None]
    total = sum(len(d.chunks) for d in documents)
    budgets = sorted({d.budget for d in documents if d.budget is not None})
    facts = [f'<b id="n-chunks">{total}</b> chunks in {len(documents)} document{"s" * (len(documents) != 1)}']
    if budgets:
        facts.append("budget " + ", ".join(str(b) for b in budgets) + " tokens")
    if counts:
        facts.append(f"tokens min {min(counts)} · median {statistics.median(counts):g} · max {max(counts)}")
    tokenizers = sorted({d.tokenizer for d in documents})
    facts.append("tokenizer " + ", ".join(escape(t) for t in tokenizers))
    chunkers = sorted({d.chunker for d in documents})
    tiny = [(n, c) for n, d in enumerate(documents) for c in d.chunks if _is_tiny(c, d.budget)]
    over = [(n, c) for n, d in enumerate(documents) for c in d.chunks if _is_over(c, d.budget)]
    many = len(documents) > 1
    sources = "".join(f'<li><a href="#d{n}">{escape(d.source)}</a> ({len(d.chunks)} chunks)</li>'
                      for n, d in enumerate(documents))  # fmt: skip
    return (
        f'<p class="facts">{" · ".join(facts)}</p>'
        f'<p class="chunker">{"<br>".join(f"<code>{escape(c)}</code>" for c in chunkers)}</p>'
        f'<ul class="sources">{sources}</ul>{_histogram(documents)}'
        + _links("tiny", f"Tiny chunks (under {TINY_FRACTION:.0%} of the budget)", tiny, many)
        + _links("oversized", "Oversized chunks (over the budget)", over, many)
    )


def _skipped(skipped: Sequence[tuple[str, str]]) -> str:
    """The files of the input folders that were not read, with why: a ``<details class="skipped">``, or ""."""
    if not skipped:
        return ""
    items = "".join(f"<li><code>{escape(path)}</code> ({escape(reason)})</li>" for path, reason in skipped)
    return (
        f'<details class="skipped" open><summary>Skipped <b>{len(skipped)}</b> file{"s" * (len(skipped) != 1)} '
        f'of the input folders (not read)</summary><ul class="sources">{items}</ul></details>'
    )


def _links(kind: str, label: str, chunks: list[tuple[int, ChunkView]], many: bool) -> str:
    items = " ".join(
        f'<a href="#{_anchor(n, c.index)}">{f"{n}:" if many else ""}#{c.index}'
        f"{f' ({c.token_count})' if c.token_count is not None else ''}</a>"
        for n, c in chunks
    )
    return f'<details class="{kind}"{" open" if 0 < len(chunks) <= 50 else ""}><summary>{label}: ' \
           f'<b id="n-{kind}">{len(chunks)}</b></summary><p>{items or "none"}</p></details>'  # fmt: skip


def _bin_counts(documents: Sequence[DocumentView]) -> tuple[list[int], int, bool]:
    """Histogram counts: ``(bins, scale, has_over_bin)``.

    Chunks per tenth of the common budget plus one bin over it, or per tenth of the
    largest count when the documents share no budget.
    """
    pairs = [(c.token_count, d.budget) for d in documents for c in d.chunks if c.token_count is not None]
    budgets = {b for _, b in pairs}
    common = budgets.pop() if len(budgets) == 1 else None
    scale = common if common is not None else max([1, *(n for n, _ in pairs)])
    bins = [0] * (_BINS + 1)
    for n, _ in pairs:
        fraction = n / scale
        bins[_BINS if fraction > 1 else min(int(fraction * _BINS), _BINS - 1)] += 1
    if common is None:  # nothing is over the largest count
        bins.pop()
    return bins, scale, common is not None


def _histogram(documents: Sequence[DocumentView]) -> str:
    """Inline SVG of :func:`_bin_counts`, each bar titled with its range and count."""
    bins, scale, over_bin = _bin_counts(documents)
    if not any(bins):
        return ""
    unit = "tokens of the budget" if over_bin else "tokens"
    width, height, gap = 560, 110, 4
    step = width / len(bins)
    top = max(bins) or 1
    bars = []
    for k, n in enumerate(bins):
        lo, hi = round(scale * k / _BINS), round(scale * (k + 1) / _BINS)
        span = f"over {scale}" if k == _BINS else f"{lo}–{hi}"
        h = round((height - 34) * n / top)
        bars.append(
            f"<g><title>{span} {unit}: {n} chunk{'s' * (n != 1)}</title>"
            f'<rect class="{"hb over" if k == _BINS else "hb"}" x="{k * step + gap / 2:.1f}" y="{height - 20 - h}" '
            f'width="{step - gap:.1f}" height="{h}"></rect>'
            f'<text x="{k * step + step / 2:.1f}" y="{height - 20 - h - 3}" class="hn">{n or ""}</text></g>'
        )
    if over_bin:  # where tiny ends
        x = width * TINY_FRACTION * _BINS / len(bins)
        bars.append(f'<line class="tl" x1="{x:.1f}" x2="{x:.1f}" y1="4" y2="{height - 20}"><title>tiny: under '
                    f'{TINY_FRACTION:.0%} of the budget</title></line>')  # fmt: skip
    right = width * _BINS / len(bins)
    axis = (f'<text x="0" y="{height - 4}" class="ha">0</text>'
            f'<text x="{right:.1f}" y="{height - 4}" class="ha" text-anchor="end">{scale}</text>')  # fmt: skip
    return (f'<figure class="histogram"><svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" aria-label="histogram of token counts">{"".join(bars)}{axis}</svg>'
            f"<figcaption>chunks by token count ({unit})</figcaption></figure>")  # fmt: skip


# --- reading view ------------------------------------------------------------------------------


def _document(doc: DocumentView, n: int) -> str:
    parts = [f'<section class="doc" id="d{n}"><h2>{escape(doc.source)}</h2>']
    if doc.text is not None:
        parts.extend(_text_flow(doc, n))
    else:
        path: list[str] | None = None
        for view in doc.chunks:
            if view.headings != path:
                path = view.headings
                parts.append(f'<div class="hp">{escape(_PATH_SEP.join(path)) or "(no heading)"}</div>')
            parts.append(_chunk(view, n, doc.budget, escape(view.text)))
    parts.append("</section>")
    return "".join(parts)


def _text_flow(doc: DocumentView, n: int) -> list[str]:
    """Chunks over their source text: text no chunk holds shown between them, overlaps dimmed."""
    text = doc.text or ""
    parts: list[str] = []
    pos = 0
    for view in doc.chunks:
        start, end = view.start_index, view.end_index
        if start is None or end is None:
            parts.append(_chunk(view, n, doc.budget, escape(view.text)))
            continue
        if start > pos:
            parts.append(f'<span class="gap">{escape(text[pos:start])}</span>')
        seen = min(max(pos - start, 0), len(view.text))
        body = escape(view.text[seen:])
        if seen:
            body = f'<span class="ov" title="also in the previous chunk">{escape(view.text[:seen])}</span>{body}'
        parts.append(_chunk(view, n, doc.budget, body))
        pos = max(pos, end)
    if pos < len(text):
        parts.append(f'<span class="gap">{escape(text[pos:])}</span>')
    return parts


def _chunk(view: ChunkView, n: int, budget: int | None, body: str) -> str:
    classes = ["ck"]
    if _is_tiny(view, budget):
        classes.append("tiny")
    if _is_over(view, budget):
        classes.append("over")
    meta = [f'<a class="n" href="#{_anchor(n, view.index)}">#{view.index}</a>', _bar(view.token_count, budget)]
    if view.pages:
        meta.append(f'<span class="pg">{escape(_pages_label(view.pages))}</span>')
    if view.oversized:
        meta.append('<span class="flag">oversized</span>')
    if view.table_rows is not None:
        meta.append(f'<span class="rows">{escape(rows_label(view.table_rows))}</span>')
    elif "table" in view.labels:
        meta.append('<span class="rows">table</span>')
    if view.headings:
        meta.append(f'<span class="hd">{escape(_PATH_SEP.join(view.headings))}</span>')
    return (f'<div class="{" ".join(classes)}" id="{_anchor(n, view.index)}" data-doc="{n}" '
            f'data-chunk="{view.index}" tabindex="0"><div class="m">{"".join(meta)}</div>'
            f'<div class="t">{body}</div></div>')  # fmt: skip


def _bar(tokens: int | None, budget: int | None) -> str:
    if tokens is None:
        return '<span class="tk">? tokens</span>'
    if budget is None:
        return f'<span class="tk">{tokens} tokens</span>'
    fill = min(100.0, 100.0 * tokens / budget)
    over = " over" if tokens > budget else ""
    return (f'<span class="bar{over}" title="{tokens} of {budget} tokens"><i style="width:{fill:.1f}%"></i></span>'
            f'<span class="tk">{tokens}/{budget}</span>')  # fmt: skip


def _pages_label(pages: list[int]) -> str:
    if len(pages) > 1 and pages == list(range(pages[0], pages[-1] + 1)):
        return f"p. {pages[0]}–{pages[-1]}"
    return "p. " + ", ".join(map(str, pages))


# --- data for the panel ------------------------------------------------------------------------


def _data(documents: Sequence[DocumentView]) -> str:
    """The JSON blob the page's script reads, safe inside ``<script>`` (``<``, ``>``, ``&`` escaped)."""
    docs = [{"source": d.source, "chunks": [_record(c) for c in d.chunks]} for d in documents]
    blob = json.dumps({"docs": docs}, ensure_ascii=False, separators=(",", ":"))
    return blob.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _record(view: ChunkView) -> dict[str, Any]:
    """What the panel shows beyond the element.

    ``x`` is the contextualized text, or ``[before, after]`` around the chunk's text
    as the page holds it (half the size).
    """
    ctx = view.contextualized
    text = view.text
    exact_in_page = "\r" not in text and "\0" not in text  # HTML parsing rewrites these
    before, found, after = ctx.partition(text) if text and exact_in_page else (ctx, "", "")
    record: dict[str, Any] = {"x": [before, after] if found else ctx}
    for key, value in (("c", view.context), ("k", view.captions), ("l", view.labels), ("s", view.start_index),
                       ("e", view.end_index), ("r", view.table_rows and rows_label(view.table_rows))):  # fmt: skip
        if value not in (None, [], ""):
            record[key] = value
    return record
