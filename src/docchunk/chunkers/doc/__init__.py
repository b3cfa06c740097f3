"""Document chunkers: DoclingDocument to docling-core ``DocChunk``s (hierarchical, hybrid)."""
