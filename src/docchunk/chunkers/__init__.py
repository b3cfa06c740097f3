"""Chunkers: text chunkers (``docchunk.chunkers.text``) and document chunkers (``docchunk.chunkers.doc``)."""
