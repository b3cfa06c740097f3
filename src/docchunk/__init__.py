"""docchunk: chunk structured documents and text for retrieval, embedding and search.

Public names are loaded lazily (PEP 562), so ``import docchunk`` does not import
docling-core, tokenizers, tiktoken or any framework.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from docchunk.errors import (
    ConfigError,
    DocchunkError,
    DocumentError,
    MissingDependencyError,
    ModelLimitWarning,
    TokenizerError,
)

__version__ = "0.1.0"

_LAZY = {
    "get_tokenizer": "docchunk.tokenizers",
    "Tokenizer": "docchunk.tokenizers",
    "HierarchicalChunker": "docchunk.chunkers.doc.hierarchical",
    "HybridChunker": "docchunk.chunkers.doc.hybrid",
    "PageChunker": "docchunk.chunkers.doc.page",
    "LineBasedTokenChunker": "docchunk.chunkers.doc.line",
    "TreeChunkExpander": "docchunk.chunkers.doc.expand",
    "ExpandingChunker": "docchunk.chunkers.doc.expand",
    "PageChunkExpander": "docchunk.chunkers.doc.expand",
    "CodeChunkingStrategy": "docchunk.chunkers.doc.code",
    "CodeChunk": "docchunk.chunkers.doc.code",
    "CodeDocMeta": "docchunk.chunkers.doc.code",
    "DocChunk": "docchunk.serialization",
    "DocMeta": "docchunk.serialization",
    "contextualize": "docchunk.serialization",
    "load_document": "docchunk.loading",
    "Chunk": "docchunk.types",
    "WindowChunk": "docchunk.types",
    "RecursiveChunker": "docchunk.chunkers.text",
    "TokenChunker": "docchunk.chunkers.text",
    "SentenceChunker": "docchunk.chunkers.text",
    "WindowChunker": "docchunk.chunkers.text",
    "separators_for": "docchunk.chunkers.text",
    "SemanticChunker": "docchunk.chunkers.text",
    "SDPMChunker": "docchunk.chunkers.text",
    "OverlapRefinery": "docchunk.refineries",
    "RecursiveRules": "docchunk.refineries",
    "RecursiveLevel": "docchunk.refineries",
    "TableHeaderRefinery": "docchunk.refineries",
    "HeadingContextRefinery": "docchunk.refineries",
    "EmbeddingsRefinery": "docchunk.integrations.embedding_refinery",
}

__all__ = [
    "ConfigError",
    "DocchunkError",
    "DocumentError",
    "MissingDependencyError",
    "ModelLimitWarning",
    "TokenizerError",
    "__version__",
    *_LAZY,
]

if TYPE_CHECKING:  # pragma: no cover
    from docchunk.chunkers.doc.code import CodeChunk, CodeChunkingStrategy, CodeDocMeta
    from docchunk.chunkers.doc.expand import ExpandingChunker, PageChunkExpander, TreeChunkExpander
    from docchunk.chunkers.doc.hierarchical import HierarchicalChunker
    from docchunk.chunkers.doc.hybrid import HybridChunker
    from docchunk.chunkers.doc.line import LineBasedTokenChunker
    from docchunk.chunkers.doc.page import PageChunker
    from docchunk.chunkers.text import (
        RecursiveChunker,
        SDPMChunker,
        SemanticChunker,
        SentenceChunker,
        TokenChunker,
        WindowChunker,
        separators_for,
    )
    from docchunk.integrations.embedding_refinery import EmbeddingsRefinery
    from docchunk.loading import load_document
    from docchunk.refineries import (
        HeadingContextRefinery,
        OverlapRefinery,
        RecursiveLevel,
        RecursiveRules,
        TableHeaderRefinery,
    )
    from docchunk.serialization import contextualize
    from docchunk.serialization.chunk import DocChunk, DocMeta
    from docchunk.tokenizers import Tokenizer, get_tokenizer
    from docchunk.types import Chunk, WindowChunk


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'docchunk' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
