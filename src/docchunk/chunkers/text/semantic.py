"""Semantic chunking (topic boundaries from embeddings) and semantic double-pass merging (SDPM)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Literal

from docchunk._extras import require
from docchunk.chunkers.text.base import TextChunker, check_size
from docchunk.chunkers.text.recursive import RecursiveChunker
from docchunk.chunkers.text.sentence import sentence_spans
from docchunk.errors import ConfigError
from docchunk.tokenizers import Sizer, TokenizerSpec
from docchunk.types import Chunk, EmbedBatch
from docchunk.types.embedding import checked_vectors

__all__ = ["SDPMChunker", "SemanticChunker"]

BOUNDARIES = ("paragraph", "sentence")


def _sentences(text: str) -> list[tuple[int, int]]:
    r""":func:`sentence_spans`, with whitespace-only spans (``"\n \n"``) joined to a neighbouring sentence."""
    spans: list[tuple[int, int]] = []
    for a, b in sentence_spans(text):
        if spans and (not text[a:b].strip() or not text[spans[-1][0] : spans[-1][1]].strip()):
            spans[-1] = (spans[-1][0], b)  # a blank span joins the sentence before; a leading one the next
        else:
            spans.append((a, b))
    return spans


def _is_paragraph_break(text: str, before: tuple[int, int], after: tuple[int, int]) -> bool:
    """Whether the whitespace between two sentences holds a blank line (two line breaks, or U+2029)."""
    a, b = before
    c, d = after
    gap = text[a + len(text[a:b].rstrip()) : c + len(text[c:d]) - len(text[c:d].lstrip())]
    return gap.count("\n") >= 2 or "\u2029" in gap


class SemanticChunker(TextChunker):
    """Splits text where the topic changes, by the similarity of the sentences on either side of a gap.

    First pass (block comparison and paragraph-break boundaries after Hearst's
    TextTiling, "TextTiling: Segmenting Text into Multi-paragraph Subtopic Passages",
    Computational Linguistics 23(1), 1997; sentence embeddings in place of term
    vectors as in Solbiati et al., "Unsupervised Topic Segmentation of Meetings with
    BERT Embeddings", 2021; the quantile cutoff after Greg Kamradt's semantic chunking
    and chonkie's ``SemanticChunker``):

    1. split the text into sentences (they tile the text; a paragraph break or any
       line break ends a sentence);
    2. embed each sentence once (one ``embed_batch`` call per ``batch_size``
       sentences);
    3. list the candidate gaps: with ``boundaries="paragraph"`` (the default) the
       paragraph breaks, i.e. the sentence ends followed by a blank line, as TextTiling
       places its boundaries; with ``boundaries="sentence"``, or when the text has no
       blank line, every sentence end;
    4. score each candidate gap after sentence ``i`` by the cosine similarity of two
       blocks: the mean embedding of sentences ``i - similarity_window .. i`` and that
       of sentences ``i + 1 .. i + 1 + similarity_window`` (clipped at the ends of the
       text). Neither block crosses the gap, so a topic change shows as a dip exactly
       at the gap;
    5. place a boundary at every candidate gap whose score is below
       ``similarity_floor`` (whether or not it is a local minimum: unrelated
       paragraphs are always split), and at a candidate gap whose score is a local
       minimum of the candidates' scores and is low: below the ``threshold``
       quantile of them, or clearly low on its own, so that a text with a single
       candidate gap (two paragraphs, or two sentences with
       ``boundaries="sentence"``) can still be split: when the sentence pair across
       the gap is less similar than every pair of adjacent sentences inside the
       paragraphs (the text's own sentence-to-sentence similarities, at the
       sentence ends that are not candidates);
    6. group the sentences between boundaries (a group keeps at least
       ``min_sentences_per_chunk`` sentences) and pack each group into chunks of at
       most ``chunk_size`` tokens, whole sentences first; a sentence longer than
       that is split by :class:`RecursiveChunker`, keeping offsets.

    Why paragraph breaks: with a real model most sentence-level similarity dips fall
    inside paragraphs (a list item, a table row, a short aside), so on the documents
    measured in ``docs/semantic.md`` only 4-10% of sentence-level boundaries fell on a
    section start, against 24-100% at paragraph breaks. A text without blank lines
    keeps sentence-level boundaries.

    Args:
        embed_batch: ``list[str] -> array of shape (n, d)`` (numpy or list of lists).
        threshold: Quantile in [0, 1] of the candidate gaps' similarities below
            which a local minimum becomes a boundary: higher gives more boundaries.
        chunk_size: Maximum chunk size in tokens of ``tokenizer``; >= 1.
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts.
        similarity_window: Neighbouring sentences, besides the one next to the gap,
            in each block compared across a gap; >= 0 (0 compares single sentences).
        min_sentences_per_chunk: Fewest sentences in a topic group; >= 1.
        batch_size: Sentences per ``embed_batch`` call; >= 1.
        boundaries: ``"paragraph"`` (boundaries only at blank lines when the text has
            any) or ``"sentence"`` (at any sentence end).
        similarity_floor: Cosine similarity in [-1, 1] below which a candidate gap
            is always a boundary, whatever the quantile (between paragraphs, also
            when it is below with the blocks clipped to the two paragraphs; only
            ``min_sentences_per_chunk`` can remove it); :class:`SDPMChunker` never
            merges across it. None turns the floor off. The default 0.15 suits all-MiniLM-L6-v2, whose unrelated
            sentences score about 0.0 (95% below 0.16) and related neighbours mostly
            0.2-0.6 (``docs/semantic.md``); raise it for models whose similarities
            run higher.

    Attributes:
        embedded_count: Texts embedded by the last ``chunk()`` call (one per sentence).

    Invariants: chunks tile the text (``source[start_index:end_index] == text``, no
    gap); ``token_count <= chunk_size`` unless one character (or one CRLF) is larger; text
    without sentence punctuation still gets chunks within the limit.

    Raises:
        ConfigError: Invalid parameters, or ``embed_batch`` returned something that is not
            ``(n, d)`` finite floats with ``d >= 1`` (ragged vectors, a wrong shape, NaN or
            infinite values; :class:`~docchunk.errors.ConfigTypeError` for strings or
            generators): the message names ``embed_batch`` and the shape it must return.
    """

    def __init__(
        self,
        embed_batch: EmbedBatch,
        threshold: float = 0.8,
        chunk_size: int = 2048,
        tokenizer: TokenizerSpec = "character",
        similarity_window: int = 1,
        min_sentences_per_chunk: int = 1,
        batch_size: int = 64,
        boundaries: Literal["paragraph", "sentence"] = "paragraph",
        similarity_floor: float | None = 0.15,
    ):
        super().__init__(tokenizer)
        if not callable(embed_batch):
            raise ConfigError(f"embed_batch must be a callable list[str] -> (n, d) array, got {embed_batch!r}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
            raise ConfigError(f"threshold must be a number in [0, 1], got {threshold!r}")
        self.embed_batch = embed_batch
        self.threshold = float(threshold)
        self.chunk_size = check_size("chunk_size", chunk_size, 1)
        self.similarity_window = check_size("similarity_window", similarity_window, 0)
        self.min_sentences_per_chunk = check_size("min_sentences_per_chunk", min_sentences_per_chunk, 1)
        self.batch_size = check_size("batch_size", batch_size, 1)
        if boundaries not in BOUNDARIES:
            raise ConfigError(f"boundaries must be one of {BOUNDARIES}, got {boundaries!r}")
        self.boundaries = boundaries
        if similarity_floor is not None and (
            isinstance(similarity_floor, bool)
            or not isinstance(similarity_floor, (int, float))
            or not -1.0 <= similarity_floor <= 1.0
        ):
            raise ConfigError(
                f"similarity_floor must be a cosine similarity in [-1, 1] or None, got {similarity_floor!r}"
            )
        self.similarity_floor = None if similarity_floor is None else float(similarity_floor)
        self.embedded_count = 0
        self._splitter = RecursiveChunker(chunk_size=chunk_size, tokenizer=self.tokenizer)

    # -- embedding --------------------------------------------------------------------
    def _embed(self, texts: list[str]) -> Any:
        """Unit-length embeddings of ``texts``, shape ``(len(texts), d)``, one ``embed_batch`` call per batch.

        Raises:
            ConfigError: ``embed_batch`` returned something that is not ``(n, d)`` finite
                numbers with ``d >= 1`` (:class:`ConfigTypeError` when numpy refused a type).
        """
        np = require("numpy", "semantic", "Semantic chunking")
        rows = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            rows.append(checked_vectors(self.embed_batch(batch), batch))
        self.embedded_count += len(texts)
        matrix = np.vstack(rows)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1.0, norms)

    # -- first pass -------------------------------------------------------------------
    def _candidates(self, text: str, spans: list[tuple[int, int]]) -> list[int]:
        """Sentence indices after which a boundary may fall: paragraph breaks, else every sentence end."""
        every = list(range(len(spans) - 1))
        if self.boundaries == "sentence":
            return every
        breaks = [i for i in every if _is_paragraph_break(text, spans[i], spans[i + 1])]
        return breaks or every

    def _gap_similarities(self, unit: Any, gaps: list[int], window: int | None = None) -> Any:
        """Cosine similarity of the sentence blocks on either side of each gap (TextTiling block comparison)."""
        np = require("numpy", "semantic", "Semantic chunking")
        w = self.similarity_window if window is None else window
        # zero rows pad both ends so blocks clip there; summing shifted copies (not differences of
        # running sums) keeps equal blocks exactly equal, so ties between gaps stay ties
        padded = np.vstack([np.zeros((w, unit.shape[1])), unit, np.zeros((w + 1, unit.shape[1]))])
        idx = np.asarray(gaps, dtype=int) + w
        left = sum(padded[idx - j] for j in range(w + 1))
        right = sum(padded[idx + 1 + j] for j in range(w + 1))
        dots = np.einsum("ij,ij->i", left, right)
        norms = np.linalg.norm(left, axis=1) * np.linalg.norm(right, axis=1)
        return np.where(norms > 0, dots / np.where(norms > 0, norms, 1.0), 1.0)

    def _boundaries(self, text: str, spans: list[tuple[int, int]], unit: Any) -> tuple[list[int], set[int]]:
        """Sentence indices after which a topic boundary falls, and those of the gaps below the floor.

        Every candidate gap below ``similarity_floor``, and the candidate gaps that are
        local minima of the candidates' scores and low (below the quantile cutoff, or
        clearly low).
        """
        np = require("numpy", "semantic", "Semantic chunking")
        gaps = self._candidates(text, spans)
        if not gaps:
            return [], set()
        sims = self._gap_similarities(unit, gaps)
        cutoff = float(np.quantile(sims, self.threshold))
        clearly_low = self._clearly_low(unit, gaps, sims)
        below = self._below_floor(unit, gaps, sims, paragraphs=len(gaps) < len(unit) - 1)
        cuts = []
        for k, s in enumerate(sims):
            left = sims[k - 1] if k > 0 else np.inf
            right = sims[k + 1] if k + 1 < len(sims) else np.inf
            if gaps[k] in below or ((s < cutoff or clearly_low[k]) and s <= left and s <= right):
                cuts.append(gaps[k])
        kept = self._enforce_min_sentences(cuts, len(unit))
        return kept, below & set(kept)

    def _below_floor(self, unit: Any, gaps: list[int], sims: Any, paragraphs: bool) -> set[int]:
        """The candidate gaps whose similarity is below ``similarity_floor``.

        Between paragraphs, also when the blocks are clipped to the two paragraphs next
        to the gap: a wide ``similarity_window`` reaches into the paragraphs beyond, so
        ducks, rates, ducks would score the rates paragraph against ducks on both sides.
        """
        floor = self.similarity_floor
        if floor is None:
            return set()
        low = {g for g, s in zip(gaps, sims, strict=True) if float(s) < floor}
        if paragraphs and self.similarity_window:
            np = require("numpy", "semantic", "Semantic chunking")
            w, n = self.similarity_window, len(unit)
            for k, g in enumerate(gaps):
                lo = max(gaps[k - 1] + 1 if k else 0, g - w)
                hi = min(gaps[k + 1] + 1 if k + 1 < len(gaps) else n, g + 2 + w)
                left, right = unit[lo : g + 1].sum(axis=0), unit[g + 1 : hi].sum(axis=0)
                norms = float(np.linalg.norm(left) * np.linalg.norm(right))
                if norms > 0 and float(left @ right) / norms < floor:
                    low.add(g)
        return low

    def _clearly_low(self, unit: Any, gaps: list[int], sims: Any) -> list[bool]:
        """Per candidate gap, whether its similarity is clearly low.

        Its score is below ``similarity_floor``, or its two sentences are less similar
        than every pair of adjacent sentences at the sentence ends that are not candidates.
        """
        floor = self.similarity_floor
        low = [floor is not None and float(s) < floor for s in sims]
        inside = sorted(set(range(len(unit) - 1)) - set(gaps))
        if inside:
            pairs = self._gap_similarities(unit, [*gaps, *inside], window=0)
            reference = float(pairs[len(gaps) :].min())
            low = [flag or float(p) < reference for flag, p in zip(low, pairs[: len(gaps)], strict=False)]
        return low

    def _enforce_min_sentences(self, cuts: list[int], n: int) -> list[int]:
        kept, start = [], 0
        for cut in cuts:
            if cut + 1 - start >= self.min_sentences_per_chunk and n - (cut + 1) >= self.min_sentences_per_chunk:
                kept.append(cut)
                start = cut + 1
        return kept

    def _groups(self, spans: list[tuple[int, int]], cuts: list[int]) -> list[tuple[int, int]]:
        """Sentence index ranges ``[a, b)`` between boundaries."""
        bounds = [0, *(c + 1 for c in cuts), len(spans)]
        return list(pairwise(bounds))

    def _pack(self, text: str, spans: list[tuple[int, int]], lo: int, hi: int, sizer: Sizer) -> list[Chunk]:
        """Chunks of sentences ``lo..hi`` within ``chunk_size``: whole sentences, long ones split."""
        out: list[Chunk] = []
        counts = sizer.count_batch([text[a:b] for a, b in spans[lo:hi]])
        i = lo
        while i < hi:
            s, n = spans[i][0], counts[i - lo]
            if n > self.chunk_size:
                for piece in self._splitter.chunk(text[s : spans[i][1]]):
                    assert piece.start_index is not None and piece.end_index is not None  # slices of the text
                    out.append(Chunk(text=piece.text, start_index=s + piece.start_index, end_index=s + piece.end_index,
                                     token_count=piece.token_count, oversized=piece.oversized))  # fmt: skip
                i += 1
                continue
            j = i + 1
            while j < hi:
                cut = spans[j][0]
                if sizer.clean(text[cut - 1], text[cut]):
                    m = n + counts[j - lo]
                else:
                    m = sizer.count(text[s : spans[j][1]])
                if m > self.chunk_size:
                    break
                n, j = m, j + 1
            out.append(Chunk(text=text[s : spans[j - 1][1]], start_index=s, end_index=spans[j - 1][1], token_count=n))
            i = j
        return out

    def _first_pass(self, text: str) -> tuple[list[tuple[int, int]], Any, list[tuple[int, int]], set[int]]:
        """Sentences, their embeddings, the topic groups, and the boundaries below the floor."""
        spans = _sentences(text)
        unit = self._embed([text[a:b] for a, b in spans])
        cuts, below = self._boundaries(text, spans, unit)
        return spans, unit, self._groups(spans, cuts), below

    def chunk(self, text: str) -> list[Chunk]:
        """Split ``text`` at topic boundaries (see the class docstring)."""
        text = self._check_text(text)
        self.embedded_count = 0
        if not text:
            return []
        sizer = Sizer(self.tokenizer)
        spans, unit, groups, below = self._first_pass(text)
        groups = self._second_pass(text, spans, unit, groups, sizer, below)
        return [c for lo, hi in groups for c in self._pack(text, spans, lo, hi, sizer)]

    def _second_pass(self, text: str, spans: list[tuple[int, int]], unit: Any, groups: list[tuple[int, int]],
                     sizer: Sizer, below: set[int]) -> list[tuple[int, int]]:  # fmt: skip
        """Hook for :class:`SDPMChunker`; the single-pass chunker keeps its groups."""
        return groups


class SDPMChunker(SemanticChunker):
    """Semantic double-pass merging: the first pass of :class:`SemanticChunker`, then merging.

    Second pass (after chonkie's ``SDPMChunker``): each topic group's embedding is the
    mean of its sentences' embeddings (no new embedding calls); a group is
    compared with the one ``skip_window`` positions ahead, and when their cosine
    similarity is at least ``threshold`` and the whole span (with the groups between
    them) fits ``chunk_size`` tokens, the span becomes one group. Passes repeat
    until nothing merges; the groups are then packed into chunks as in the first pass.
    ``skip_window=1`` merges neighbours only; 2 bridges one intermediate group (a
    short digression) unless a gap around it is below ``similarity_floor``: a merge
    never spans such a gap (pass ``similarity_floor=None`` to bridge unrelated text).

    Args:
        embed_batch: ``list[str] -> array of shape (n, d)``.
        skip_window: How many groups ahead to compare; >= 1.
        threshold: First pass: quantile of window similarities (see
            :class:`SemanticChunker`); second pass: the minimum cosine similarity of
            two groups' mean embeddings to merge them.
        chunk_size: Maximum chunk size in tokens of ``tokenizer``; >= 1.
        tokenizer: Any spec :func:`docchunk.get_tokenizer` accepts.
        similarity_window: As in :class:`SemanticChunker`.
        min_sentences_per_chunk: As in :class:`SemanticChunker`.
        batch_size: As in :class:`SemanticChunker`.
        boundaries: As in :class:`SemanticChunker`.
        similarity_floor: As in :class:`SemanticChunker`.

    Raises:
        ConfigError: Invalid parameters, or ``embed_batch`` returned no ``(n, d)`` finite
            floats (as in :class:`SemanticChunker`).
    """

    def __init__(
        self,
        embed_batch: EmbedBatch,
        skip_window: int = 1,
        threshold: float = 0.8,
        chunk_size: int = 2048,
        tokenizer: TokenizerSpec = "character",
        similarity_window: int = 1,
        min_sentences_per_chunk: int = 1,
        batch_size: int = 64,
        boundaries: Literal["paragraph", "sentence"] = "paragraph",
        similarity_floor: float | None = 0.15,
    ):
        super().__init__(embed_batch, threshold, chunk_size, tokenizer, similarity_window, min_sentences_per_chunk,
                         batch_size, boundaries, similarity_floor)  # fmt: skip
        self.skip_window = check_size("skip_window", skip_window, 1)

    def _second_pass(self, text: str, spans: list[tuple[int, int]], unit: Any, groups: list[tuple[int, int]],
                     sizer: Sizer, below: set[int]) -> list[tuple[int, int]]:  # fmt: skip
        """Merge groups ``skip_window`` apart while similar and within ``chunk_size``, until stable.

        A merge never spans a boundary whose gap is below ``similarity_floor`` (``below``).
        """
        np = require("numpy", "semantic", "Semantic chunking")
        groups = list(groups)
        k = self.skip_window
        changed = True
        while changed:
            changed = False
            i = 0
            while i + k < len(groups):
                a, b = groups[i], groups[i + k]
                ea, eb = unit[a[0] : a[1]].mean(axis=0), unit[b[0] : b[1]].mean(axis=0)
                denom = float(np.linalg.norm(ea) * np.linalg.norm(eb)) or 1.0
                similar = float(ea @ eb) / denom >= self.threshold and not any(a[0] <= c < b[1] - 1 for c in below)
                joined = text[spans[a[0]][0] : spans[b[1] - 1][1]]
                if similar and not sizer.exceeds(joined, self.chunk_size):
                    groups[i : i + k + 1] = [(a[0], b[1])]
                    changed = True
                    continue
                i += 1
        return groups
