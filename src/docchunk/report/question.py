"""One self-contained HTML page for one doc-qa question (``docchunk eval-docs --question QID --html FILE``).

The page shows the question, its answer and evidence, the recall of the top 1, 3 and
5 chunks, then every chunk of the question's document in rank order with its cosine
score, the share of the evidence it holds, its headings, and its text with the
evidence it holds highlighted (``<mark class="text">`` for characters of text items,
``<mark class="cell">`` for table cells). No script, no external resource: a
Content-Security-Policy forbids both, so text inside a chunk can never run.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from docchunk.report.views import rows_label

if TYPE_CHECKING:
    from docchunk.evaluation.docqa import Evidence
    from docchunk.evaluation.question import QuestionRanking

__all__ = ["render_question"]

_PATH_SEP = " \u203a "  # single right-pointing angle quotation mark between headings

_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
_CSS = """
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: #1d2330; }
header { padding: 16px 24px; background: #f7f8fb; border-bottom: 1px solid #d9dde5; }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 18px 0 6px; }
main { padding: 0 24px 48px; max-width: 980px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dt { color: #6b7280; } dd { margin: 0; }
.ev { margin: 0; padding-left: 18px; color: #374151; font-size: 13px; }
.ck { border: 1px solid #d9dde5; border-left: 4px solid #9aa3b5; border-radius: 4px; margin: 8px 0; }
.ck.hit { border-left-color: #2f8f4e; }
.m { display: flex; flex-wrap: wrap; gap: 4px 12px; padding: 3px 8px; background: #f7f8fb;
     font-size: 12px; color: #6b7280; }
.m b { color: #1d2330; }
.hp { padding: 2px 8px; font-size: 12px; color: #6b7280; }
.t { margin: 0; padding: 6px 8px; white-space: pre-wrap; word-break: break-word;
     font: 13px/1.45 ui-monospace, Menlo, Consolas, monospace; }
mark.text { background: #ffe58a; } mark.cell { background: #a7e3b5; }
"""


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _highlighted(text: str, marks: list[tuple[int, int, str]]) -> str:
    """``text`` escaped, with each mark ``(start, end, kind)`` as ``<mark class="kind">``."""
    out, at = [], 0
    for start, end, kind in marks:
        out.append(escape(text[at:start]))
        out.append(f'<mark class="{escape(kind)}">{escape(text[start:end])}</mark>')
        at = end
    out.append(escape(text[at:]))
    return "".join(out)


def _evidence(evidence: list[Evidence]) -> str:
    items = []
    for e in evidence:
        if e["kind"] == "cell":
            items.append(f"<li>cell {escape(e['ref'])} row {e['row']}, column {e['col']}</li>")
        else:
            items.append(f"<li>text {escape(e['ref'])} [{e['start']}, {e['end']})</li>")
    return f'<ul class="ev">{"".join(items)}</ul>'


def render_question(ranking: QuestionRanking, title: str | None = None) -> str:
    """The page for one question: its chunks in rank order, the evidence highlighted.

    Args:
        ranking: A :class:`docchunk.evaluation.question.QuestionRanking`.
        title: The page title (default: ``docchunk eval-docs: <qid>``).

    Returns:
        A complete HTML document (write it as UTF-8): one element with a
        ``data-rank="<rank>"`` attribute per chunk, best first; all text escaped.
    """
    q = ranking.question
    title = title or f"docchunk eval-docs: {q['qid']}"
    answer = q.get("answer")
    answer_text = "; ".join(map(str, answer)) if isinstance(answer, list) else str(answer or "")
    options = ", ".join(f"{k}={v!r}" for k, v in ranking.config["options"].items() if v is not None)
    recall = " · ".join(f"{k} {_percent(v)}" for k, v in ranking.recall.items())
    head = (
        f"<h1>{escape(title)}</h1><dl>"
        f'<dt>question</dt><dd class="question">{escape(q["question"])}</dd>'
        f'<dt>answer</dt><dd class="answer">{escape(answer_text)}</dd>'
        f"<dt>document</dt><dd>{escape(q['doc_id'])} ({escape(ranking.genre)})</dd>"
        f"<dt>chunker</dt><dd>{escape(ranking.config['chunker'])}({escape(options)})</dd>"
        f'<dt>recall</dt><dd class="recall">{escape(recall)}</dd>'
        f"<dt>evidence</dt><dd>{_evidence(q['evidence'])}</dd></dl>"
    )
    blocks = []
    for c in ranking.chunks:
        facts = [f"<b>#{c.rank}</b>", f"score {c.score:.3f}", f"evidence held {_percent(c.share)}",
                 f"chunk {c.index}", f"{c.token_count} tokens"]  # fmt: skip
        if c.table_rows is not None:
            facts.append(rows_label(c.table_rows))
        if c.table_cols:
            facts.append("columns " + ", ".join(f"row {r + 1}: {s + 1}–{e}" for r, s, e in c.table_cols))
        path = _PATH_SEP.join([*(c.headings or []), *(c.captions or [])])
        blocks.append(
            f'<section class="ck{" hit" if c.marks else ""}" data-rank="{c.rank}" data-chunk="{c.index}">'
            f'<div class="m">{" ".join(f"<span>{f}</span>" for f in facts)}</div>'
            + (f'<div class="hp">{escape(path)}</div>' if path else "")
            + f'<pre class="t">{_highlighted(c.text, c.marks)}</pre></section>'
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{escape(title)}</title><style>{_CSS}</style></head>'
        f"<body><header>{head}</header><main><h2>Chunks, best first</h2>{''.join(blocks)}</main></body></html>\n"
    )
