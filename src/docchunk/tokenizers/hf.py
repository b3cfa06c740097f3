"""Hugging Face tokenizers (the Rust ``tokenizers`` library) as docchunk tokenizers."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

from docchunk._extras import require
from docchunk.embeddings.models import DEFAULT_MODEL, HUB_DEFAULT_MODEL, INPUT_LIMITS
from docchunk.errors import MissingDependencyError, TokenizerError
from docchunk.tokenizers.base import Tokenizer, not_text_error
from docchunk.tokenizers.word_cache import WordCache

__all__ = ["BUNDLED_TOKENIZER_JSON", "HFTokenizer", "transformers_limit"]

BUNDLED_TOKENIZER_JSON = Path(__file__).parent / "data" / "all-MiniLM-L6-v2.tokenizer.json"
# the default model (its tokenizer.json ships with docchunk), by hub id and by short name
_BUNDLED = {name: (BUNDLED_TOKENIZER_JSON, INPUT_LIMITS[HUB_DEFAULT_MODEL])
            for name in (HUB_DEFAULT_MODEL, DEFAULT_MODEL)}  # fmt: skip
_MAX_SANE_LIMIT = 1_000_000
_R = TypeVar("_R")


def _load_tokenizers():
    return require("tokenizers", None, "A Hugging Face tokenizer")  # a core dependency, in no extra


class HFTokenizer(Tokenizer):
    """Counts tokens with a ``tokenizers.Tokenizer``, without special tokens.

    Truncation and padding configured in a ``tokenizer.json`` are switched off on
    a private copy, so counts are never capped or padded. Counts equal
    ``len(transformers_tokenizer.tokenize(text))``, which is what docling-core's
    ``HuggingFaceTokenizer`` counts.

    Args:
        tokenizer: A ``tokenizers.Tokenizer``; it is copied, not modified.
        max_tokens: The model's input limit in tokens, or None when unknown.
        name: Name shown in reprs and error messages.
    """

    def __init__(self, tokenizer: Any, max_tokens: int | None = None, name: str = "hf"):
        tk = _load_tokenizers()
        own = tk.Tokenizer.from_str(tokenizer.to_str())
        own.no_truncation()
        own.no_padding()
        self._tok = own
        self.max_tokens = max_tokens
        self.name = name
        self.max_token_chars = max((len(t) for t in own.get_vocab(with_added_tokens=True)), default=None)
        self._pre = self._pipeline_kind(tk)
        # WordPiece-style pipelines: no token crosses a clean boundary (whitespace, and punctuation
        # for BERT), and a span between such boundaries is tokenized as it is within the whole text
        self.offsets_count_spans = self._pre is not None
        # the same property: each distinct word is tokenized once (docchunk.tokenizers.word_cache)
        self._words = WordCache(own, batches=_slices) if self._pre is not None and WordCache.applies_to(own) else None

    def _pipeline_kind(self, tk: Any) -> str | None:
        """"bert" or "whitespace" for WordPiece pipelines whose words are tokenized alone, else None."""
        norm = self._tok.normalizer
        if not isinstance(self._tok.model, tk.models.WordPiece):
            return None
        if not (norm is None or isinstance(norm, tk.normalizers.BertNormalizer)):
            return None
        pre = self._tok.pre_tokenizer
        if isinstance(pre, tk.pre_tokenizers.BertPreTokenizer):
            return "bert"
        if isinstance(pre, tk.pre_tokenizers.WhitespaceSplit):
            return "whitespace"
        return None

    def joins_additively(self, delim: str) -> bool:
        """True for WordPiece (BERT-style) pipelines joined by whitespace.

        Their normalizer works character by character and their pre-tokenizer splits
        at every whitespace, so no token spans a whitespace delimiter.
        """
        return self._pre is not None and bool(delim) and all(_is_bert_space(c) for c in delim)

    def clean_boundary(self, left: str, right: str) -> bool:
        """True at whitespace (and, for BERT pre-tokenization, punctuation) in WordPiece pipelines."""
        if self._pre is None:
            return False
        if _is_bert_space(left) or _is_bert_space(right):
            return True
        return self._pre == "bert" and (_is_bert_punct(left) or _is_bert_punct(right))

    @property
    def backend(self) -> Any:
        """The underlying ``tokenizers.Tokenizer`` (truncation and padding off)."""
        return self._tok

    def count_tokens(self, text: str) -> int:
        """The number of tokens in ``text`` (see :class:`docchunk.Tokenizer`)."""
        try:
            words = self._words
            if words is not None and words.covers(text):
                return words.counts([text])[0]
            if len(text) > 64:  # longer texts: without offsets is faster
                return self._native_counts([text])[0]
            return len(self._tok.encode(text, add_special_tokens=False))
        except TypeError as exc:
            raise _encode_error(self.name, [text], exc) from exc

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """The number of tokens of each text, in order (see :class:`docchunk.Tokenizer`)."""
        if not texts:
            return []
        try:
            return self._by_words(texts, WordCache.counts, self._native_counts)
        except TypeError as exc:
            raise _encode_error(self.name, texts, exc) from exc

    def _native_counts(self, texts: Sequence[str]) -> list[int]:
        # encode_batch_fast (tokenizers >= 0.20) skips the offsets, which a count does not need
        encode = getattr(self._tok, "encode_batch_fast", self._tok.encode_batch)
        out: list[int] = []
        for part in _slices(texts):
            out.extend(len(e) for e in encode(part, add_special_tokens=False))
        return out

    def _by_words(self, texts: Sequence[str], by_words: Callable[[WordCache, list[str]], list[_R]],
                  native: Callable[[list[str]], list[_R]]) -> list[_R]:  # fmt: skip
        """``by_words`` of the texts the word cache covers, ``native`` of the others, in the order of ``texts``."""
        words = self._words
        if words is None:
            return native(list(texts))
        covered = [words.covers(t) for t in texts]
        if all(covered):
            return by_words(words, list(texts))
        mine = iter(by_words(words, [t for t, c in zip(texts, covered, strict=True) if c]))
        theirs = iter(native([t for t, c in zip(texts, covered, strict=True) if not c]))
        return [next(mine) if c else next(theirs) for c in covered]

    def token_offsets(self, text: str) -> list[int]:
        """The start offset of every token of ``text``, in order (see :class:`docchunk.Tokenizer`)."""
        try:
            words = self._words
            if words is not None and words.covers(text):
                return cast(list[int], words.counts_and_offsets([text], -1)[0][1])
            return [start for start, _ in self._tok.encode(text, add_special_tokens=False).offsets]
        except TypeError as exc:
            raise _encode_error(self.name, [text], exc) from exc

    def token_offsets_batch(self, texts: Sequence[str]) -> list[list[int]]:
        """The token offsets of each text, in one native batch (see :meth:`token_offsets`)."""
        return [cast(list[int], offsets) for _, offsets in self.counts_and_offsets_batch(texts, -1)]

    def counts_and_offsets_batch(self, texts: Sequence[str], over: int) -> list[tuple[int, list[int] | None]]:
        """Counts, and the offsets of texts of more than ``over`` tokens, in one native batch.

        See :meth:`docchunk.Tokenizer.counts_and_offsets_batch`; the offsets of the
        other texts are not read out of the encodings (most of the cost of offsets).
        """
        def native(part_texts: list[str]) -> list[tuple[int, list[int] | None]]:
            out: list[tuple[int, list[int] | None]] = []
            for part in _slices(part_texts):
                encodings = self._tok.encode_batch(part, add_special_tokens=False)
                out.extend((len(e), [start for start, _ in e.offsets] if len(e) > over else None) for e in encodings)
            return out

        try:
            return self._by_words(texts, lambda words, ts: words.counts_and_offsets(ts, over), native)
        except TypeError as exc:
            raise _encode_error(self.name, texts, exc) from exc

    @classmethod
    def from_spec(cls, ref: str, max_tokens: int | None = None) -> HFTokenizer:
        """Load from a hub name, a local model directory or a ``tokenizer.json`` path.

        ``sentence-transformers/all-MiniLM-L6-v2`` resolves to the copy bundled with
        docchunk and never touches the network. Other hub names are read from the
        local Hugging Face cache, or downloaded when the Hub answers; offline (no
        network, or ``HF_HUB_OFFLINE=1``) an uncached name fails at once. The limit
        comes from the model's ``sentence_bert_config.json`` or ``tokenizer_config.json``,
        else, for a common embedding model, from
        :data:`docchunk.embeddings.models.INPUT_LIMITS`.

        Raises:
            TokenizerError: When nothing can be loaded from ``ref``; for a hub name that
                is not cached and cannot be downloaded, the message says how to get it.
        """
        tk = _load_tokenizers()
        path = Path(ref).expanduser()
        limit: int | None = None
        try:
            if ref in _BUNDLED:
                file, limit = _BUNDLED[ref]
                tok = tk.Tokenizer.from_file(str(file))
            elif path.is_dir():
                if not (path / "tokenizer.json").is_file():
                    raise TokenizerError(
                        f"tokenizer directory {ref!r} holds no tokenizer.json; "
                        "pass a directory saved by transformers/sentence-transformers or the path of a tokenizer.json"
                    )
                tok = tk.Tokenizer.from_file(str(path / "tokenizer.json"))
                limit = _limit_from_dir(path)
            elif path.is_file():
                tok = tk.Tokenizer.from_file(str(path))
                limit = _limit_from_dir(path.parent)
            elif ref.startswith(("/", ".", "~", "\\")) or path.suffix == ".json":
                raise TokenizerError(
                    f"no tokenizer at {ref!r}: no such file or directory; give an existing model directory, "
                    "the path of a tokenizer.json, or a hub name such as 'sentence-transformers/all-MiniLM-L6-v2'"
                )
            else:
                tok, limit = _from_hub(tk, ref)
        except (TokenizerError, MissingDependencyError):
            raise
        except Exception as exc:
            raise TokenizerError(
                f"could not load the Hugging Face tokenizer {ref!r}: {exc}. "
                "Give a local directory with a tokenizer.json, the path of a tokenizer.json, "
                "or a hub name while online"
            ) from exc
        return cls(tok, max_tokens=max_tokens if max_tokens is not None else limit, name=f"hf:{ref}")


def _from_hub(tk: Any, repo_id: str) -> tuple[Any, int | None]:
    """A hub model's tokenizer and input limit, from the cache or downloaded (fails fast offline)."""
    from docchunk.tokenizers.hub import hub_file, optional_hub_file

    path, online = hub_file(repo_id, "tokenizer.json")
    for extra in ("sentence_bert_config.json", "tokenizer_config.json"):
        optional_hub_file(repo_id, extra, online)
    limit = _limit_from_dir(path.parent)
    return tk.Tokenizer.from_file(str(path)), limit if limit is not None else INPUT_LIMITS.get(repo_id)


def transformers_limit(tok: Any) -> int | None:
    """The input limit in tokens of a transformers tokenizer's model, as :meth:`HFTokenizer.from_spec` reads it.

    The model's files (``sentence_bert_config.json``, then ``tokenizer_config.json``)
    when the tokenizer's ``name_or_path`` is the bundled model, a local directory or a
    hub name in the local Hugging Face cache (never downloaded); else the tokenizer's
    ``model_max_length``. transformers sets ``model_max_length`` to a huge sentinel
    (about 1e30) when the model declares none: that, or anything from 1e6 up, is no limit (None).
    """
    ref = str(getattr(tok, "name_or_path", "") or "")
    limit: int | None = None
    if ref in _BUNDLED:
        limit = _BUNDLED[ref][1]
    elif ref and Path(ref).expanduser().is_dir():
        limit = _limit_from_dir(Path(ref).expanduser())
    elif ref:
        from docchunk.tokenizers.hub import cached_hub_file

        config = cached_hub_file(ref, "sentence_bert_config.json") or cached_hub_file(ref, "tokenizer_config.json")
        limit = _limit_from_dir(config.parent) if config is not None else None
    if limit is None:
        value = getattr(tok, "model_max_length", None)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < _MAX_SANE_LIMIT:
            limit = int(value)
    return limit


def _limit_from_dir(directory: Path) -> int | None:
    """Read a model's input limit: sentence-transformers' config first, then tokenizer_config."""
    st = directory / "sentence_bert_config.json"
    if st.is_file():
        try:
            return int(json.loads(st.read_text())["max_seq_length"])
        except (ValueError, KeyError, TypeError):
            pass
    tc = directory / "tokenizer_config.json"
    if tc.is_file():
        try:
            value = int(json.loads(tc.read_text())["model_max_length"])
            return value if 0 < value < _MAX_SANE_LIMIT else None
        except (ValueError, KeyError, TypeError):
            pass
    return None


_SLICE_CHARS = 1 << 18


def _slices(texts: Sequence[str], max_chars: int | None = None) -> Iterator[list[str]]:
    """``texts`` in consecutive batches of at most ``max_chars`` characters (a longer text alone).

    An encoding holds some 80 bytes a token (ids, offsets, masks, token strings); one
    call over a whole document would hold them all at once, several times the
    document's JSON size. Batches of 256k characters still spread over the cores.
    """
    limit = _SLICE_CHARS if max_chars is None else max_chars
    part: list[str] = []
    size = 0
    for text in texts:
        if part and size + len(text) > limit:
            yield part
            part, size = [], 0
        part.append(text)
        size += len(text)
    if part:
        yield part


def _encode_error(name: str, texts: Sequence[str], exc: Exception) -> TokenizerError:
    r"""A clear error for text the Rust tokenizer refuses.

    Most often a lone surrogate (from a bad ``\ud800`` JSON escape), which is not valid
    Unicode text; or a text that is not a ``str``.
    """
    wrong = not_text_error(name, texts)
    if wrong is not None:
        return wrong
    for text in texts:
        for index, char in enumerate(text):
            if 0xD800 <= ord(char) <= 0xDFFF:
                return TokenizerError(
                    f"the tokenizer {name!r} cannot encode a lone surrogate (U+{ord(char):04X} at index {index} of "
                    f"{text[max(0, index - 20) : index + 20]!r}); it is not valid Unicode. Repair the text first, "
                    "e.g. text.encode('utf-8', 'replace').decode('utf-8')"
                )
    return TokenizerError(f"the tokenizer {name!r} failed: {exc}")


def _is_bert_punct(char: str) -> bool:
    """BERT's punctuation test: ASCII symbols and Unicode category P*; always its own pre-token.

    The Rust tokenizer's Unicode tables need not be Python's: a character counts only
    when both Python's database and Unicode 3.2's call it punctuation, so characters
    added or recategorised since (U+2E43, U+061D, ...) are measured, not assumed.
    """
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P") and unicodedata.ucd_3_2_0.category(char).startswith("P")


def _is_bert_space(char: str) -> bool:
    """Whether ``char`` is BERT's whitespace.

    Space, tab, newline, carriage return, Unicode Zs (not every ``isspace``), in both
    Python's Unicode database and Unicode 3.2's.
    """
    return char in " \t\n\r" or (unicodedata.category(char) == "Zs" and unicodedata.ucd_3_2_0.category(char) == "Zs")
